package store_test

import (
	"encoding/json"
	"testing"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/store"
)

// A template keeps every version: the current one is read with the template, older
// ones stay as they were; an edit against a version that moved on is a conflict; rows
// of a batch come back by number with their values and errors.
func testTemplateVersions(t *testing.T, s *store.Store) {
	ctx := t.Context()
	f := func(name, value string) koda.TemplateField {
		return koda.TemplateField{Name: name, Type: koda.FieldText, Value: json.RawMessage(value), Target: "text:title", Limit: koda.FieldLimit{MaxLength: 30}}
	}
	tp := &koda.Template{ID: koda.NewID(koda.PrefixTemplate), TenantID: "t1", ProjectID: "prj_x", Name: "promo", Version: 1,
		DurationS: 5, CreatedAt: ts(1), UpdatedAt: ts(1)}
	v1 := &koda.TemplateVersion{TemplateID: tp.ID, Version: 1, Name: "promo", Fields: []koda.TemplateField{f("headline", `"Hi"`)}, Scene: []byte(`{"v":1}`), CreatedAt: ts(1)}
	if err := s.CreateTemplate(ctx, tp, v1); err != nil {
		t.Fatal(err)
	}
	v2 := &koda.TemplateVersion{TemplateID: tp.ID, Version: 2, Name: "promo 2", Fields: []koda.TemplateField{f("title", `"Hello"`)}, Scene: []byte(`{"v":2}`), CreatedAt: ts(2)}
	if err := s.AddTemplateVersion(ctx, v2); err != nil {
		t.Fatal(err)
	}
	stale := &koda.TemplateVersion{TemplateID: tp.ID, Version: 2, Name: "x", Fields: nil, Scene: []byte(`{}`)}
	if err := s.AddTemplateVersion(ctx, stale); koda.ErrorKind(err) != koda.ECONFLICT {
		t.Errorf("edit of version 1 after version 2: %v, want ECONFLICT", err)
	}
	got, err := s.GetTemplate(ctx, tp.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != 2 || got.Name != "promo 2" || len(got.Fields) != 1 || got.Fields[0].Name != "title" || got.TenantID != "t1" {
		t.Errorf("current template %+v", got)
	}
	old, err := s.GetTemplateVersion(ctx, tp.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	if old.Fields[0].Name != "headline" || string(old.Fields[0].Value) != `"Hi"` || string(old.Scene) != `{"v":1}` {
		t.Errorf("version 1 changed: %+v", old)
	}
	if _, err := s.GetTemplate(ctx, "tpl_missing"); koda.ErrorKind(err) != koda.ENOTFOUND {
		t.Errorf("missing template: %v", err)
	}
	other := &koda.Template{ID: koda.NewID(koda.PrefixTemplate), TenantID: "t2", Name: "b", Version: 1, CreatedAt: ts(3), UpdatedAt: ts(3)}
	if err := s.CreateTemplate(ctx, other, &koda.TemplateVersion{TemplateID: other.ID, Version: 1, Name: "b", Scene: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	list, err := s.ListTemplates(ctx, koda.TemplateFilter{TenantID: "t1"})
	if err != nil || len(list) != 1 || list[0].ID != tp.ID {
		t.Errorf("t1's templates %v, %v", list, err)
	}
	rows := []*koda.BatchRow{
		{BatchID: "bat_1", Row: 2, TemplateID: tp.ID, TemplateVersion: 2, Errors: []koda.FieldError{{Field: "title", Code: koda.CodeTextTooLong, Message: "long"}},
			Values: map[string]json.RawMessage{"title": json.RawMessage(`"a very long title"`)}},
		{BatchID: "bat_1", Row: 1, TemplateID: tp.ID, TemplateVersion: 2, ProjectID: "prj_row1", Values: map[string]json.RawMessage{"title": json.RawMessage(`"ok"`)}},
	}
	if err := s.CreateBatchRows(ctx, rows); err != nil {
		t.Fatal(err)
	}
	back, err := s.GetBatchRows(ctx, "bat_1")
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != 2 || back[0].Row != 1 || back[0].ProjectID != "prj_row1" || len(back[0].Errors) != 0 ||
		back[1].Row != 2 || back[1].Errors[0].Code != koda.CodeTextTooLong || string(back[1].Values["title"]) != `"a very long title"` {
		t.Errorf("rows back %+v %+v", back[0], back[1])
	}

	// A deleted template takes its versions with it (the cascade, on either backend)
	// and leaves its batches' rows, which its renders' manifests still read.
	if err := s.DeleteTemplate(ctx, tp.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetTemplate(ctx, tp.ID); koda.ErrorKind(err) != koda.ENOTFOUND {
		t.Errorf("deleted template: %v", err)
	}
	for _, v := range []int{1, 2} {
		if _, err := s.GetTemplateVersion(ctx, tp.ID, v); koda.ErrorKind(err) != koda.ENOTFOUND {
			t.Errorf("version %d of a deleted template: %v", v, err)
		}
	}
	if err := s.DeleteTemplate(ctx, tp.ID); koda.ErrorKind(err) != koda.ENOTFOUND {
		t.Errorf("deleting twice: %v", err)
	}
	if list, err := s.ListTemplates(ctx, koda.TemplateFilter{}); err != nil || len(list) != 1 || list[0].ID != other.ID {
		t.Errorf("templates after the delete %v, %v", list, err)
	}
	if back, err := s.GetBatchRows(ctx, "bat_1"); err != nil || len(back) != 2 {
		t.Errorf("rows after the delete %v, %v", back, err)
	}
}
