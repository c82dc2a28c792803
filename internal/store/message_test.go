package store_test

import (
	"testing"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/store"
)

func testQueuedMessages(t *testing.T, s *store.Store) {
	ctx := t.Context()
	p := fullProject("t1")
	if err := s.CreateProject(ctx, p); err != nil {
		t.Fatal(err)
	}
	var ids []string
	// Within one millisecond: the IDs alone would sort them either way.
	for i, text := range []string{"first", "second ✓"} {
		m := &koda.QueuedMessage{ID: koda.NewID(koda.PrefixQueuedMessage), TenantID: "t1", ProjectID: p.ID,
			Text: text, Status: koda.MessageQueued, CreatedAt: ts(1).Add(time.Duration(i) * time.Microsecond)}
		if err := s.CreateMessage(ctx, m); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, m.ID)
	}
	err := s.CreateMessage(ctx, &koda.QueuedMessage{ID: koda.NewID(koda.PrefixQueuedMessage), ProjectID: "prj_missing",
		Text: "x", Status: koda.MessageQueued})
	mustKind(t, "message of a missing project", err, koda.ENOTFOUND)
	if err := s.MarkMessagesApplied(ctx, ids[:1], ts(5)); err != nil {
		t.Fatal(err)
	}
	queued, err := s.ListMessages(ctx, p.ID, koda.MessageQueued, 0)
	if err != nil || len(queued) != 1 || queued[0].ID != ids[1] || queued[0].Text != "second ✓" {
		t.Fatalf("queued: %+v %v", queued, err)
	}
	all, err := s.ListMessages(ctx, p.ID, "", 0)
	if err != nil || len(all) != 2 || all[0].ID != ids[0] {
		t.Fatalf("all: %+v %v", all, err)
	}
	mustEqual(t, "applied message", *all[0], koda.QueuedMessage{ID: ids[0], TenantID: "t1", ProjectID: p.ID,
		Text: "first", Status: koda.MessageApplied, CreatedAt: ts(1), AppliedAt: ptr(ts(5))})
	// Marking again keeps the first time.
	if err := s.MarkMessagesApplied(ctx, ids, ts(9)); err != nil {
		t.Fatal(err)
	}
	all, _ = s.ListMessages(ctx, p.ID, "", 1)
	if len(all) != 1 || !all[0].AppliedAt.Equal(ts(5)) {
		t.Fatalf("re-marked: %+v", all)
	}
	if err := s.DeleteProject(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	if all, err := s.ListMessages(ctx, p.ID, "", 0); err != nil || len(all) != 0 {
		t.Fatalf("messages of a deleted project: %d %v", len(all), err)
	}
}
