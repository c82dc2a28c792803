package store_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/kodatest"
	"github.com/kodahq/koda/internal/store"
	"github.com/kodahq/koda/migrations"

	_ "github.com/mattn/go-sqlite3" // registered by gorm's driver too; named for clarity
)

// backends are the databases every behaviour runs against. PostgreSQL runs when
// KODA_TEST_DATABASE_URL is set (CI sets it) and skips otherwise.
var backends = []struct {
	name string
	open func(testing.TB) *store.Store
}{
	{"sqlite", kodatest.MustOpenDB},
	{"postgres", kodatest.MustOpenPostgres},
}

var behaviours = []struct {
	name string
	fn   func(t *testing.T, s *store.Store)
}{
	{"ProjectRoundTrip", testProjectRoundTrip},
	{"RenderAndBatchRoundTrip", testRenderAndBatchRoundTrip},
	{"NotFoundAndConflict", testNotFoundAndConflict},
	{"InTxRollback", testInTxRollback},
	{"InTxSerializesTransitions", testInTxSerializesTransitions},
	{"ConcurrentAppendEvent", testConcurrentAppendEvent},
	{"ListEvents", testListEvents},
	{"CompleteBatchOnce", testCompleteBatchOnce},
	{"ListProjects", testListProjects},
	{"ListRenders", testListRenders},
	{"Idempotency", testIdempotency},
	{"DeliveriesAndAttempts", testDeliveriesAndAttempts},
	{"DeleteProjectCascades", testDeleteProjectCascades},
	{"QueuedMessages", testQueuedMessages},
	{"APIKeyCapAndPages", testAPIKeyCapAndPages},
	{"DeleteTenant", testDeleteTenant},
	{"TemplateVersions", testTemplateVersions},
	{"Assets", testAssets},
	{"AssetQuotaRace", testAssetQuotaRace},
	{"Brand", testBrand},
}

func TestStore(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			for _, bh := range behaviours {
				t.Run(bh.name, func(t *testing.T) {
					t.Parallel()
					bh.fn(t, b.open(t))
				})
			}
		})
	}
}

// ts returns a fixed UTC time at microsecond precision, what the store keeps.
func ts(sec int) time.Time {
	return time.Date(2026, 3, 1, 12, 0, sec, 123456000, time.UTC)
}

func ptr[T any](v T) *T { return &v }

func mustEqual(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		g, _ := json.MarshalIndent(got, "", " ")
		w, _ := json.MarshalIndent(want, "", " ")
		t.Fatalf("%s differs\n got: %s\nwant: %s\n(go values: %#v\n vs %#v)", what, g, w, got, want)
	}
}

func mustKind(t *testing.T, what string, err error, kind koda.Kind) {
	t.Helper()
	var kerr *koda.Error
	if !errors.As(err, &kerr) || kerr.Kind != kind {
		t.Fatalf("%s: got error %v, want a *koda.Error of kind %s", what, err, kind)
	}
}

func fullProject(tenant string) *koda.Project {
	return &koda.Project{
		ID:          koda.NewID(koda.PrefixProject),
		TenantID:    tenant,
		Prompt:      `A red ball bounces and "Hello" appears — ünïcode ✓`,
		Style:       koda.StyleCustom,
		StyleNote:   "like a 90s cartoon",
		DurationS:   7.5,
		AutoApprove: true,
		Presets: []koda.PresetSpec{
			{Name: "tiktok", Width: 1080, Height: 1920, FPS: 30, CRF: 18, Format: koda.FormatMP4, MaxDurationS: 180},
			{Name: "custom", Width: 640, Height: 480, FPS: 24, CRF: 23, Format: koda.FormatWebM},
		},
		CallbackURL: "https://example.com/hook",
		Metadata:    json.RawMessage(`{"customer":"acme","n":[1,2]}`),
		Assets: []koda.ProjectAsset{{ID: "ast_1", Role: koda.RoleLogo, Kind: koda.AssetImage, Format: "png",
			Key: "assets/t/abc.png", Name: "Logo ✓.png", Width: 64, Height: 32, File: "assets/logo.png", FromBrand: true}},
		Brand: &koda.Brand{Logo: "ast_1", Colors: koda.BrandColors{Primary: "#112233", Text: "#ffffff"},
			EndCard: "acme.example", UpdatedAt: ts(3)},
		Phase: koda.PhasePreview,
		Question: &koda.Question{
			ID:   "q1",
			Text: "Which style?",
			Options: []koda.QuestionOption{
				{ID: "playful", Label: "Playful", Description: "bouncy"},
				{ID: "other", Label: "Other", FreeText: true},
			},
			Answer: &koda.Answer{OptionID: "other", Text: "wobbly"},
		},
		Plan: &koda.Plan{
			Title: "Ball", Style: koda.StylePlayful, DurationS: 7.5, Revision: 2, Feedback: "slower",
			Scenes: []koda.Scene{{ID: "s1", Name: "Intro", StartS: 0, EndS: 2.5, Description: "ball enters",
				Entry: "slide", Hold: "bounce", Exit: "fade", Easing: "easeOutBack"}},
			Todos: []koda.Todo{{ID: "t1", Title: "scaffold", Status: koda.TodoDone}},
		},
		Execution: koda.Execution{
			Todos:    []koda.Todo{{ID: "t1", Title: "scaffold", Status: koda.TodoActive}},
			Thinking: "placing the ball",
			Files:    []koda.FileInfo{{Path: "index.html", SizeBytes: 2048}, {Path: "assets", IsDir: true}},
			Messages: []koda.Message{{Role: "user", Content: "make it red", At: ts(1)}},
		},
		Preview:  &koda.Output{RenderID: "rnd_1", VideoKey: "p/v.mp4", ThumbnailKey: "p/t.jpg"},
		Error:    &koda.Failure{Code: "RENDER_FAILED", Message: "chromium crashed", At: ts(2)},
		Feedback: []string{"bigger", "bluer"},
		Step:     4,
		Pending:  "preview",
	}
}

func testProjectRoundTrip(t *testing.T, s *store.Store) {
	ctx := t.Context()
	p := fullProject("t1")
	p.CreatedAt = time.Date(2026, 1, 2, 3, 4, 5, 987654321, time.FixedZone("CET", 3600))
	if err := s.CreateProject(ctx, p); err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2026, 1, 2, 2, 4, 5, 987654000, time.UTC); !p.CreatedAt.Equal(want) || p.CreatedAt.Location() != time.UTC {
		t.Fatalf("CreatedAt = %v, want %v in UTC at µs precision", p.CreatedAt, want)
	}
	got, err := s.GetProject(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "project after create", got, p)

	// Every field changes, optional ones become nil: all of it must stick.
	got.TenantID = "t2"
	got.Prompt = "a square"
	got.Style = koda.StyleSmooth
	got.StyleNote = ""
	got.DurationS = 3
	got.AutoApprove = false
	got.Presets = nil
	got.CallbackURL = ""
	got.Metadata = nil
	got.Phase = koda.PhaseComplete
	got.Question, got.Plan, got.Preview, got.Error = nil, nil, nil, nil
	got.Execution = koda.Execution{Files: []koda.FileInfo{}}
	got.Feedback = []string{}
	got.Step = 9
	got.Pending = ""
	before := got.UpdatedAt
	time.Sleep(2 * time.Millisecond)
	if err := s.UpdateProject(ctx, got); err != nil {
		t.Fatal(err)
	}
	if !got.UpdatedAt.After(before) {
		t.Fatalf("UpdatedAt %v not after %v", got.UpdatedAt, before)
	}
	again, err := s.GetProject(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "project after update", again, got)
	if !again.CreatedAt.Equal(p.CreatedAt) {
		t.Fatalf("UpdateProject changed CreatedAt: %v", again.CreatedAt)
	}

	// A minimal project gets an ID and times from the store.
	minimal := &koda.Project{Prompt: "x", Phase: koda.PhaseIdle}
	if err := s.CreateProject(ctx, minimal); err != nil {
		t.Fatal(err)
	}
	if minimal.ID == "" || minimal.CreatedAt.IsZero() || !minimal.UpdatedAt.Equal(minimal.CreatedAt) {
		t.Fatalf("minimal project not filled: %+v", minimal)
	}
	got, err = s.GetProject(ctx, minimal.ID)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "minimal project", got, minimal)
}

func testRenderAndBatchRoundTrip(t *testing.T, s *store.Store) {
	ctx := t.Context()
	p := fullProject("t1")
	if err := s.CreateProject(ctx, p); err != nil {
		t.Fatal(err)
	}
	b := &koda.Batch{TenantID: "t1", ProjectID: p.ID, RenderIDs: []string{"rnd_a", "rnd_b"}, CreatedAt: ts(3)}
	if err := s.CreateBatch(ctx, b); err != nil {
		t.Fatal(err)
	}
	r := &koda.Render{
		TenantID:  "t1",
		ProjectID: p.ID,
		BatchID:   b.ID,
		Kind:      koda.RenderFinal,
		Preset:    koda.PresetSpec{Name: "instagram_reels", Width: 1080, Height: 1920, FPS: 30, CRF: 18, Format: "mp4", MaxDurationS: 90},
		DurationS: 7.5,
		Status:    koda.RenderRunning,
		Progress:  koda.RenderProgress{Stage: koda.StageCapturing, Percent: 37.5, FramesDone: 84, FramesTotal: 225},
		VideoKey:  "projects/x/v.mp4",
		ThumbKey:  "projects/x/t.jpg",
		SizeBytes: 5 << 30, // over 32 bits
		Attempts:  2,
		Error:     &koda.Failure{Code: "TIMEOUT", Message: "slow", At: ts(4)},
		OutputOf:  "rnd_a",
		CaptureOf: "rnd_b",
		StartedAt: ptr(ts(5)),
	}
	if err := s.CreateRender(ctx, r); err != nil {
		t.Fatal(err)
	}
	if r.ID == "" || r.CreatedAt.IsZero() {
		t.Fatalf("render not filled: %+v", r)
	}
	got, err := s.GetRender(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "render after create", got, r)

	got.Status = koda.RenderSucceeded
	got.Progress = koda.RenderProgress{Stage: koda.StageDone, Percent: 100, FramesDone: 225, FramesTotal: 225}
	got.Error = nil
	got.FinishedAt = ptr(ts(6))
	got.StartedAt = nil
	got.Attempts = 3
	if err := s.UpdateRender(ctx, got); err != nil {
		t.Fatal(err)
	}
	again, err := s.GetRender(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "render after update", again, got)

	gotBatch, err := s.GetBatch(ctx, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "batch", gotBatch, b)
	if ok, err := s.CompleteBatch(ctx, b.ID, ts(7)); err != nil || !ok {
		t.Fatalf("CompleteBatch = %v, %v; want true", ok, err)
	}
	gotBatch, err = s.GetBatch(ctx, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	b.CompletedAt = ptr(ts(7))
	mustEqual(t, "completed batch", gotBatch, b)
}

func testNotFoundAndConflict(t *testing.T, s *store.Store) {
	ctx := t.Context()
	missing := "prj_missing"
	_, err := s.GetProject(ctx, missing)
	mustKind(t, "GetProject", err, koda.ENOTFOUND)
	if koda.ErrorCode(err) != koda.CodeNotFound {
		t.Fatalf("code %s, want %s", koda.ErrorCode(err), koda.CodeNotFound)
	}
	mustKind(t, "UpdateProject", s.UpdateProject(ctx, &koda.Project{ID: missing}), koda.ENOTFOUND)
	mustKind(t, "DeleteProject", s.DeleteProject(ctx, missing), koda.ENOTFOUND)
	_, err = s.GetRender(ctx, "rnd_missing")
	mustKind(t, "GetRender", err, koda.ENOTFOUND)
	mustKind(t, "UpdateRender", s.UpdateRender(ctx, &koda.Render{ID: "rnd_missing"}), koda.ENOTFOUND)
	mustKind(t, "CreateRender without project", s.CreateRender(ctx, &koda.Render{ProjectID: missing}), koda.ENOTFOUND)
	mustKind(t, "CreateBatch without project", s.CreateBatch(ctx, &koda.Batch{ProjectID: missing}), koda.ENOTFOUND)
	_, err = s.GetBatch(ctx, "bat_missing")
	mustKind(t, "GetBatch", err, koda.ENOTFOUND)
	_, err = s.CompleteBatch(ctx, "bat_missing", time.Now())
	mustKind(t, "CompleteBatch", err, koda.ENOTFOUND)
	_, err = s.AppendEvent(ctx, missing, koda.EventThinking, nil)
	mustKind(t, "AppendEvent without project", err, koda.ENOTFOUND)
	_, err = s.GetDelivery(ctx, "msg_missing")
	mustKind(t, "GetDelivery", err, koda.ENOTFOUND)
	mustKind(t, "UpdateDelivery", s.UpdateDelivery(ctx, &koda.WebhookDelivery{ID: "msg_missing"}), koda.ENOTFOUND)
	mustKind(t, "AddAttempt without delivery", s.AddAttempt(ctx, &koda.WebhookAttempt{DeliveryID: "msg_missing"}), koda.ENOTFOUND)
	_, err = s.GetIdempotency(ctx, "t1", "k")
	mustKind(t, "GetIdempotency", err, koda.ENOTFOUND)

	p := fullProject("t1")
	if err := s.CreateProject(ctx, p); err != nil {
		t.Fatal(err)
	}
	dup := fullProject("t1")
	dup.ID = p.ID
	mustKind(t, "CreateProject twice", s.CreateProject(ctx, dup), koda.ECONFLICT)
}

func testInTxRollback(t *testing.T, s *store.Store) {
	ctx := t.Context()
	p := fullProject("t1")
	if err := s.CreateProject(ctx, p); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	var created string
	err := s.InTx(ctx, func(tx koda.Store) error {
		q, err := tx.GetProject(ctx, p.ID)
		if err != nil {
			return err
		}
		q.Phase = koda.PhaseError
		if err := tx.UpdateProject(ctx, q); err != nil {
			return err
		}
		if _, err := tx.AppendEvent(ctx, p.ID, koda.EventStateChange, map[string]string{"phase": "error"}); err != nil {
			return err
		}
		np := &koda.Project{Prompt: "in tx", Phase: koda.PhaseIdle}
		if err := tx.CreateProject(ctx, np); err != nil {
			return err
		}
		created = np.ID
		return fmt.Errorf("transition: %w", boom)
	})
	if !errors.Is(err, boom) {
		t.Fatalf("InTx returned %v, want fn's error", err)
	}
	got, err := s.GetProject(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Phase != p.Phase {
		t.Fatalf("rolled-back update visible: phase %s", got.Phase)
	}
	if evs, err := s.ListEvents(ctx, p.ID, 0, 0); err != nil || len(evs) != 0 {
		t.Fatalf("rolled-back event visible: %v, %v", evs, err)
	}
	_, err = s.GetProject(ctx, created)
	mustKind(t, "project created in rolled-back tx", err, koda.ENOTFOUND)

	// The same work committed is visible, and the event numbering continues from it.
	err = s.InTx(ctx, func(tx koda.Store) error {
		_, err := tx.AppendEvent(ctx, p.ID, koda.EventStateChange, nil)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	evs, err := s.ListEvents(ctx, p.ID, 0, 0)
	if err != nil || len(evs) != 1 || evs[0].Seq != 1 || string(evs[0].Data) != "{}" {
		t.Fatalf("committed event: %+v, %v", evs, err)
	}
}

// testInTxSerializesTransitions runs read-modify-write transactions on one project
// from many goroutines; without the row lock (PostgreSQL) or the immediate write lock
// (SQLite) increments would be lost.
func testInTxSerializesTransitions(t *testing.T, s *store.Store) {
	ctx := t.Context()
	p := fullProject("t1")
	p.Step = 0
	if err := s.CreateProject(ctx, p); err != nil {
		t.Fatal(err)
	}
	const n = 20
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Go(func() {
			errs <- s.InTx(ctx, func(tx koda.Store) error {
				q, err := tx.GetProject(ctx, p.ID)
				if err != nil {
					return err
				}
				time.Sleep(time.Millisecond) // widen the window a lost update needs
				q.Step++
				if err := tx.UpdateProject(ctx, q); err != nil {
					return err
				}
				_, err = tx.AppendEvent(ctx, p.ID, koda.EventStateChange, map[string]int{"step": q.Step})
				return err
			})
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.GetProject(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Step != n {
		t.Fatalf("step = %d after %d serialized increments", got.Step, n)
	}
	// Each transaction's event carries the step it wrote, in order.
	evs, err := s.ListEvents(ctx, p.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, ev := range evs {
		if want := fmt.Sprintf(`{"step":%d}`, i+1); string(ev.Data) != want || ev.Seq != int64(i+1) {
			t.Fatalf("event %d = seq %d %s, want seq %d %s", i, ev.Seq, ev.Data, i+1, want)
		}
	}
}

func testConcurrentAppendEvent(t *testing.T, s *store.Store) {
	ctx := t.Context()
	p := fullProject("t1")
	if err := s.CreateProject(ctx, p); err != nil {
		t.Fatal(err)
	}
	other := fullProject("t1")
	if err := s.CreateProject(ctx, other); err != nil {
		t.Fatal(err)
	}
	const goroutines, each = 20, 5
	var wg sync.WaitGroup
	var mu sync.Mutex
	var seqs []int64
	errs := make(chan error, goroutines*each)
	for g := range goroutines {
		wg.Go(func() {
			for i := range each {
				var ev *koda.Event
				var err error
				if g%2 == 0 {
					ev, err = s.AppendEvent(ctx, p.ID, koda.EventRenderProgress, map[string]int{"g": g, "i": i})
				} else {
					// Half append inside a caller's transaction, as a transition does.
					err = s.InTx(ctx, func(tx koda.Store) error {
						var err error
						ev, err = tx.AppendEvent(ctx, p.ID, koda.EventRenderProgress, map[string]int{"g": g, "i": i})
						return err
					})
				}
				if err != nil {
					errs <- err
					return
				}
				mu.Lock()
				seqs = append(seqs, ev.Seq)
				mu.Unlock()
			}
		})
	}
	// Another project's numbering is independent.
	if ev, err := s.AppendEvent(ctx, other.ID, koda.EventThinking, map[string]string{"message": "hi"}); err != nil || ev.Seq != 1 {
		t.Fatalf("other project's first event: %+v, %v", ev, err)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	const total = goroutines * each
	sort.Slice(seqs, func(i, j int) bool { return seqs[i] < seqs[j] })
	for i, seq := range seqs {
		if seq != int64(i+1) {
			t.Fatalf("returned seqs are not 1..%d: %v", total, seqs)
		}
	}
	evs, err := s.ListEvents(ctx, p.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != total {
		t.Fatalf("stored %d events, want %d", len(evs), total)
	}
	seen := map[string]bool{}
	for i, ev := range evs {
		if ev.Seq != int64(i+1) {
			t.Fatalf("stored seq %d at position %d", ev.Seq, i)
		}
		if seen[string(ev.Data)] {
			t.Fatalf("event %s stored twice", ev.Data)
		}
		seen[string(ev.Data)] = true
	}
}

func testListEvents(t *testing.T, s *store.Store) {
	ctx := t.Context()
	p := fullProject("t1")
	if err := s.CreateProject(ctx, p); err != nil {
		t.Fatal(err)
	}
	first, err := s.AppendEvent(ctx, p.ID, koda.EventMessage, json.RawMessage(`{"role":"user","content":"hi"}`))
	if err != nil {
		t.Fatal(err)
	}
	for i := 2; i <= 10; i++ {
		if _, err := s.AppendEvent(ctx, p.ID, koda.EventTodoUpdate, map[string]any{"todo_id": fmt.Sprint(i), "status": "done"}); err != nil {
			t.Fatal(err)
		}
	}
	evs, err := s.ListEvents(ctx, p.ID, 0, 1)
	if err != nil || len(evs) != 1 {
		t.Fatalf("limit 1: %v, %v", evs, err)
	}
	mustEqual(t, "first event", evs[0], first)
	if first.CreatedAt.IsZero() || first.Type != koda.EventMessage {
		t.Fatalf("first event: %+v", first)
	}

	evs, err = s.ListEvents(ctx, p.ID, 4, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 3 || evs[0].Seq != 5 || evs[2].Seq != 7 || string(evs[0].Data) != `{"status":"done","todo_id":"5"}` {
		t.Fatalf("after 4 limit 3: %+v", evs)
	}
	if evs, err = s.ListEvents(ctx, p.ID, 8, 0); err != nil || len(evs) != 2 {
		t.Fatalf("after 8 without limit: %d events, %v", len(evs), err)
	}
	if evs, err = s.ListEvents(ctx, p.ID, 10, 100); err != nil || len(evs) != 0 {
		t.Fatalf("after the last: %d events, %v", len(evs), err)
	}
	if _, err := s.AppendEvent(ctx, p.ID, koda.EventError, json.RawMessage(`{not json`)); err == nil {
		t.Fatal("invalid raw JSON stored")
	}
}

func testCompleteBatchOnce(t *testing.T, s *store.Store) {
	ctx := t.Context()
	p := fullProject("t1")
	if err := s.CreateProject(ctx, p); err != nil {
		t.Fatal(err)
	}
	b := &koda.Batch{TenantID: "t1", ProjectID: p.ID, RenderIDs: []string{}}
	if err := s.CreateBatch(ctx, b); err != nil {
		t.Fatal(err)
	}
	const n = 20
	var wg sync.WaitGroup
	results := make(chan error, n)
	var mu sync.Mutex
	won := 0
	for i := range n {
		wg.Go(func() {
			ok, err := s.CompleteBatch(ctx, b.ID, ts(i))
			if ok {
				mu.Lock()
				won++
				mu.Unlock()
			}
			results <- err
		})
	}
	wg.Wait()
	close(results)
	for err := range results {
		if err != nil {
			t.Fatal(err)
		}
	}
	if won != 1 {
		t.Fatalf("%d calls reported completing the batch, want exactly 1", won)
	}
	got, err := s.GetBatch(ctx, b.ID)
	if err != nil || got.CompletedAt == nil {
		t.Fatalf("batch after completion: %+v, %v", got, err)
	}
	if ok, err := s.CompleteBatch(ctx, b.ID, time.Now()); ok || err != nil {
		t.Fatalf("CompleteBatch on a completed batch = %v, %v", ok, err)
	}
}

func testListProjects(t *testing.T, s *store.Store) {
	ctx := t.Context()
	var all []*koda.Project
	for i := range 7 {
		p := fullProject([]string{"a", "b"}[i%2])
		p.ID = "" // the store assigns time-ordered IDs
		p.Phase = []koda.Phase{koda.PhaseIdle, koda.PhasePlan, koda.PhaseComplete}[i%3]
		p.Pending = []string{"", "plan"}[i%2]
		if err := s.CreateProject(ctx, p); err != nil {
			t.Fatal(err)
		}
		all = append(all, p)
		time.Sleep(2 * time.Millisecond) // distinct millisecond, so IDs order like creation
	}
	// UpdateProject stamps now: touch the last three after a cut-off, so
	// UpdatedBefore(cut) selects the first four.
	cut := time.Now()
	time.Sleep(2 * time.Millisecond)
	for _, p := range all[4:] {
		if err := s.UpdateProject(ctx, p); err != nil {
			t.Fatal(err)
		}
	}

	ids := func(ps []*koda.Project) []string {
		out := []string{}
		for _, p := range ps {
			out = append(out, p.ID)
		}
		return out
	}
	list := func(f koda.ProjectFilter) []string {
		t.Helper()
		ps, err := s.ListProjects(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		return ids(ps)
	}
	pick := func(idx ...int) []string {
		out := []string{}
		for _, i := range idx {
			out = append(out, all[i].ID)
		}
		return out
	}
	mustEqual(t, "all", list(koda.ProjectFilter{}), pick(0, 1, 2, 3, 4, 5, 6))
	mustEqual(t, "tenant a", list(koda.ProjectFilter{TenantID: "a"}), pick(0, 2, 4, 6))
	mustEqual(t, "phase plan", list(koda.ProjectFilter{Phase: koda.PhasePlan}), pick(1, 4))
	mustEqual(t, "pending", list(koda.ProjectFilter{Pending: true}), pick(1, 3, 5))
	mustEqual(t, "updated before cut", list(koda.ProjectFilter{UpdatedBefore: cut}), pick(0, 1, 2, 3))
	mustEqual(t, "tenant b pending before cut", list(koda.ProjectFilter{TenantID: "b", Pending: true, UpdatedBefore: cut}), pick(1, 3))

	// Paging with the cursor visits every project once, in order.
	var paged []string
	cursor := ""
	for {
		page := list(koda.ProjectFilter{AfterID: cursor, Limit: 3})
		if len(page) == 0 {
			break
		}
		if len(page) > 3 {
			t.Fatalf("page of %d with limit 3", len(page))
		}
		paged = append(paged, page...)
		cursor = page[len(page)-1]
	}
	mustEqual(t, "paged", paged, pick(0, 1, 2, 3, 4, 5, 6))
	mustEqual(t, "tenant a after #2", list(koda.ProjectFilter{TenantID: "a", AfterID: all[2].ID, Limit: 1}), pick(4))
}

func testListRenders(t *testing.T, s *store.Store) {
	ctx := t.Context()
	p := fullProject("t1")
	q := fullProject("t1")
	for _, pr := range []*koda.Project{p, q} {
		if err := s.CreateProject(ctx, pr); err != nil {
			t.Fatal(err)
		}
	}
	statuses := []koda.RenderStatus{koda.RenderQueued, koda.RenderRunning, koda.RenderSucceeded, koda.RenderFailed}
	var rs []*koda.Render
	for i := range 6 {
		r := &koda.Render{
			TenantID: "t1", ProjectID: p.ID, Kind: koda.RenderFinal, Status: statuses[i%4],
			CreatedAt: ts(i), // also orders the IDs below
			ID:        fmt.Sprintf("rnd_%02d", i),
		}
		if i >= 3 {
			r.BatchID = "bat_x"
		}
		if i == 4 || i == 5 {
			r.OutputOf = "rnd_03"
		}
		if i == 1 || i == 2 {
			r.CaptureOf = "rnd_00"
		}
		if i == 5 {
			r.ProjectID = q.ID
		}
		if err := s.CreateRender(ctx, r); err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	list := func(f koda.RenderFilter) []string {
		t.Helper()
		got, err := s.ListRenders(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, r := range got {
			out = append(out, r.ID)
		}
		return out
	}
	mustEqual(t, "project p", list(koda.RenderFilter{ProjectID: p.ID}), []string{"rnd_00", "rnd_01", "rnd_02", "rnd_03", "rnd_04"})
	mustEqual(t, "batch", list(koda.RenderFilter{BatchID: "bat_x"}), []string{"rnd_03", "rnd_04", "rnd_05"})
	mustEqual(t, "unfinished", list(koda.RenderFilter{Statuses: []koda.RenderStatus{koda.RenderQueued, koda.RenderRunning}}),
		[]string{"rnd_00", "rnd_01", "rnd_04", "rnd_05"})
	mustEqual(t, "output of", list(koda.RenderFilter{OutputOf: "rnd_03"}), []string{"rnd_04", "rnd_05"})
	mustEqual(t, "capture of", list(koda.RenderFilter{CaptureOf: "rnd_00"}), []string{"rnd_01", "rnd_02"})
	mustEqual(t, "created before", list(koda.RenderFilter{CreatedBefore: ts(2)}), []string{"rnd_00", "rnd_01"})
	mustEqual(t, "limit", list(koda.RenderFilter{ProjectID: p.ID, Limit: 2}), []string{"rnd_00", "rnd_01"})
}

func testIdempotency(t *testing.T, s *store.Store) {
	ctx := t.Context()
	rec := &koda.IdempotencyRecord{
		TenantID: "t1", Key: "key-1", RequestHash: "sha256:abc", StatusCode: 201,
		Body: []byte(`{"id":"prj_1"}`), Location: "/v1/projects/prj_1", CreatedAt: ts(1),
	}
	if err := s.SaveIdempotency(ctx, rec); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetIdempotency(ctx, "t1", "key-1")
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "record", got, rec)

	// A second response for the key does not replace the first.
	second := *rec
	second.StatusCode, second.Body, second.RequestHash = 500, []byte(`{}`), "sha256:def"
	if err := s.SaveIdempotency(ctx, &second); err != nil {
		t.Fatal(err)
	}
	if got, err = s.GetIdempotency(ctx, "t1", "key-1"); err != nil || got.StatusCode != 201 || got.RequestHash != "sha256:abc" {
		t.Fatalf("after a second save: %+v, %v", got, err)
	}
	// Keys are per tenant.
	_, err = s.GetIdempotency(ctx, "t2", "key-1")
	mustKind(t, "other tenant's key", err, koda.ENOTFOUND)
	other := *rec
	other.TenantID, other.StatusCode = "t2", 202
	if err := s.SaveIdempotency(ctx, &other); err != nil {
		t.Fatal(err)
	}
	if got, err = s.GetIdempotency(ctx, "t2", "key-1"); err != nil || got.StatusCode != 202 {
		t.Fatalf("t2's record: %+v, %v", got, err)
	}
	bad := *rec
	bad.Key, bad.Body = "key-2", []byte{0xff, 0x00}
	if err := s.SaveIdempotency(ctx, &bad); err == nil {
		t.Fatal("non-UTF-8 body stored")
	}
}

func testDeliveriesAndAttempts(t *testing.T, s *store.Store) {
	ctx := t.Context()
	d := &koda.WebhookDelivery{
		TenantID: "t1", ProjectID: "prj_1", URL: "https://example.com/hook",
		EventType: koda.WebhookRenderCompleted, Payload: []byte(`{"type":"render.completed","data":{"id":"rnd_1"}}`),
		Status: koda.DeliveryPending, CreatedAt: ts(1),
	}
	if err := s.CreateDelivery(ctx, d); err != nil {
		t.Fatal(err)
	}
	if len(d.ID) < 4 || d.ID[:4] != koda.PrefixDelivery+"_" {
		t.Fatalf("delivery id %q", d.ID)
	}
	got, err := s.GetDelivery(ctx, d.ID)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "delivery", got, d)

	if err := s.AddAttempt(ctx, &koda.WebhookAttempt{DeliveryID: d.ID, Attempt: 1, StatusCode: 503, Error: "unavailable", DurationMS: 12, At: ts(2)}); err != nil {
		t.Fatal(err)
	}
	auto := &koda.WebhookAttempt{DeliveryID: d.ID, StatusCode: 0, Error: "connection refused", DurationMS: 3, At: ts(3)}
	if err := s.AddAttempt(ctx, auto); err != nil {
		t.Fatal(err)
	}
	if auto.Attempt != 2 {
		t.Fatalf("auto-numbered attempt = %d, want 2", auto.Attempt)
	}
	if err := s.AddAttempt(ctx, &koda.WebhookAttempt{DeliveryID: d.ID, Attempt: 3, StatusCode: 200, DurationMS: 40, At: ts(4)}); err != nil {
		t.Fatal(err)
	}
	mustKind(t, "attempt recorded twice", s.AddAttempt(ctx, &koda.WebhookAttempt{DeliveryID: d.ID, Attempt: 3}), koda.ECONFLICT)
	atts, err := s.ListAttempts(ctx, d.ID)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "attempts", atts, []*koda.WebhookAttempt{
		{DeliveryID: d.ID, Attempt: 1, StatusCode: 503, Error: "unavailable", DurationMS: 12, At: ts(2)},
		{DeliveryID: d.ID, Attempt: 2, StatusCode: 0, Error: "connection refused", DurationMS: 3, At: ts(3)},
		{DeliveryID: d.ID, Attempt: 3, StatusCode: 200, DurationMS: 40, At: ts(4)},
	})

	got.Status, got.Attempts, got.LastError, got.DeliveredAt = koda.DeliveryDelivered, 3, "", ptr(ts(4))
	if err := s.UpdateDelivery(ctx, got); err != nil {
		t.Fatal(err)
	}
	again, err := s.GetDelivery(ctx, d.ID)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "delivery after update", again, got)

	// Filters.
	more := []*koda.WebhookDelivery{
		{TenantID: "t1", ProjectID: "prj_2", URL: "https://e/x", EventType: koda.WebhookBatchCompleted, Payload: []byte(`{}`), Status: koda.DeliveryPending, CreatedAt: ts(5)},
		{TenantID: "t2", ProjectID: "prj_1", URL: "https://e/y", EventType: koda.WebhookPhaseChanged, Payload: []byte(`{}`), Status: koda.DeliveryFailed, CreatedAt: ts(6), LastError: "410 Gone"},
	}
	for _, m := range more {
		time.Sleep(2 * time.Millisecond)
		if err := s.CreateDelivery(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	list := func(f koda.DeliveryFilter) []string {
		t.Helper()
		ds, err := s.ListDeliveries(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, d := range ds {
			out = append(out, d.ID)
		}
		return out
	}
	mustEqual(t, "all deliveries", list(koda.DeliveryFilter{}), []string{d.ID, more[0].ID, more[1].ID})
	mustEqual(t, "tenant t1", list(koda.DeliveryFilter{TenantID: "t1"}), []string{d.ID, more[0].ID})
	mustEqual(t, "project prj_1", list(koda.DeliveryFilter{ProjectID: "prj_1"}), []string{d.ID, more[1].ID})
	mustEqual(t, "pending", list(koda.DeliveryFilter{Status: koda.DeliveryPending}), []string{more[0].ID})
	mustEqual(t, "created before", list(koda.DeliveryFilter{CreatedBefore: ts(6)}), []string{d.ID, more[0].ID})
	mustEqual(t, "limit", list(koda.DeliveryFilter{Limit: 1}), []string{d.ID})
}

func testDeleteProjectCascades(t *testing.T, s *store.Store) {
	ctx := t.Context()
	p := fullProject("t1")
	if err := s.CreateProject(ctx, p); err != nil {
		t.Fatal(err)
	}
	r := &koda.Render{ProjectID: p.ID, Kind: koda.RenderPreview, Status: koda.RenderQueued}
	b := &koda.Batch{ProjectID: p.ID}
	d := &koda.WebhookDelivery{ProjectID: p.ID, URL: "https://e", EventType: koda.WebhookPhaseChanged, Payload: []byte(`{}`), Status: koda.DeliveryPending}
	if err := s.CreateRender(ctx, r); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateBatch(ctx, b); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateDelivery(ctx, d); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppendEvent(ctx, p.ID, koda.EventThinking, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteProject(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	_, err := s.GetRender(ctx, r.ID)
	mustKind(t, "render of deleted project", err, koda.ENOTFOUND)
	_, err = s.GetBatch(ctx, b.ID)
	mustKind(t, "batch of deleted project", err, koda.ENOTFOUND)
	if evs, err := s.ListEvents(ctx, p.ID, 0, 0); err != nil || len(evs) != 0 {
		t.Fatalf("events of deleted project: %d, %v", len(evs), err)
	}
	if _, err := s.GetDelivery(ctx, d.ID); err != nil {
		t.Fatalf("delivery must outlive its project: %v", err)
	}
}

// TestMigrations opens each backend twice on one database: the first Open applies every
// migration, the second finds nothing to do, and goose's table records each version once.
func TestMigrations(t *testing.T) {
	urls := map[string]func(t *testing.T) string{
		"sqlite":   func(t *testing.T) string { return "sqlite://" + filepath.Join(t.TempDir(), "sub", "koda.db") },
		"postgres": func(t *testing.T) string { return kodatest.PostgresURL(t) },
	}
	want := migrationVersions(t)
	for _, name := range []string{"sqlite", "postgres"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			dsn := urls[name](t)
			var applied []string
			for i := range 2 {
				rec := &recordHandler{}
				s, err := store.Open(ctx, dsn, slogRecorder(rec))
				if err != nil {
					t.Fatalf("open #%d: %v", i+1, err)
				}
				applied = append(applied, fmt.Sprint(len(rec.messages("migration applied"))))
				versions := versionTable(t, name, dsn)
				mustEqual(t, "goose versions", versions, want)
				if err := s.Ping(ctx); err != nil {
					t.Fatal(err)
				}
				if err := s.Close(); err != nil {
					t.Fatal(err)
				}
			}
			mustEqual(t, "migrations applied per Open", applied, []string{fmt.Sprint(len(want)), "0"})
			if err := store.Migrate(ctx, dsn); err != nil {
				t.Fatalf("Migrate on a migrated database: %v", err)
			}
			if name == "sqlite" {
				// WAL mode leaves its log file beside the database.
				path := dsn[len("sqlite://"):]
				s, err := store.Open(ctx, dsn, nil)
				if err != nil {
					t.Fatal(err)
				}
				defer s.Close()
				if err := s.CreateProject(ctx, &koda.Project{Prompt: "x", Phase: koda.PhaseIdle}); err != nil {
					t.Fatal(err)
				}
				if _, err := os.Stat(path + "-wal"); err != nil {
					t.Fatalf("no write-ahead log beside %s: %v", path, err)
				}
			}
		})
	}
}

// migrationVersions lists the versions of the embedded migration files.
func migrationVersions(t *testing.T) []int64 {
	t.Helper()
	entries, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil || len(entries) == 0 {
		t.Fatalf("no migrations embedded: %v", err)
	}
	var out []int64
	for _, name := range entries {
		v, err := strconv.ParseInt(strings.SplitN(name, "_", 2)[0], 10, 64)
		if err != nil {
			t.Fatalf("migration %s: %v", name, err)
		}
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// versionTable reads goose's record of applied migrations over a connection of its own.
func versionTable(t *testing.T, backend, dsn string) []int64 {
	t.Helper()
	driver := "pgx"
	if backend == "sqlite" {
		driver, dsn = "sqlite3", strings.TrimPrefix(dsn, "sqlite://")
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.QueryContext(t.Context(),
		"SELECT version_id FROM "+store.VersionTable+" WHERE is_applied AND version_id > 0 ORDER BY id")
	if err != nil {
		t.Fatalf("read %s: %v", store.VersionTable, err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var v int64
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// recordHandler is a slog.Handler that keeps the messages logged through it.
type recordHandler struct {
	mu   sync.Mutex
	msgs []string
}

func slogRecorder(h *recordHandler) *slog.Logger { return slog.New(h) }

func (h *recordHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *recordHandler) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.msgs = append(h.msgs, r.Message)
	return nil
}
func (h *recordHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *recordHandler) WithGroup(string) slog.Handler      { return h }

func (h *recordHandler) messages(msg string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, m := range h.msgs {
		if m == msg {
			out = append(out, m)
		}
	}
	return out
}
