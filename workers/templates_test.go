package workers

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/scene"
	"github.com/kodahq/koda/agent/templates"
	"github.com/kodahq/koda/internal/storage"
	"github.com/kodahq/koda/jobs"
	"github.com/kodahq/koda/sandbox"
)

// The rows of a template batch are renders like any other: when Redis loses every task
// (flushed after a crash), the reconciler enqueues each row's render again, and no row
// is left behind.
func TestTemplateRowsSurviveLostTasks(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	st := storage.NewLocal(filepath.Join(t.TempDir(), "storage"), "http://files.test", []byte("signing"))
	b.h.Storage, b.h.Lifecycle.Storage = st, st
	b.h.Lifecycle.Templates = &templates.Engine{Storage: st, WorkDir: t.TempDir()}

	now := time.Now().UTC()
	p := &koda.Project{ID: koda.NewID(koda.PrefixProject), TenantID: "acme", Prompt: "a title", Phase: koda.PhaseComplete,
		DurationS: 1, CreatedAt: now, UpdatedAt: now}
	if err := b.store.CreateProject(ctx, p); err != nil {
		t.Fatal(err)
	}
	d := &scene.Description{Version: 1, Duration: 1, FPS: 30, Background: scene.Background{Colors: []string{"#101820"}},
		Elements: []*scene.Element{{ID: "title", Type: scene.TypeText, Text: "Hello", Size: 0.1}}}
	src := t.TempDir()
	js, _ := d.JSON()
	script, _ := d.Script()
	for name, data := range map[string][]byte{scene.FileIndex: scene.IndexHTML(), scene.FileRuntime: scene.RuntimeJS(), scene.FileJSON: js, scene.FileScene: script} {
		if err := os.WriteFile(filepath.Join(src, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var cp bytes.Buffer
	if err := sandbox.Checkpoint(ctx, src, &cp); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Put(ctx, koda.CheckpointKey(koda.ProjectFolder(p.ID)), &cp); err != nil {
		t.Fatal(err)
	}
	tctx := koda.NewContextWithTenant(ctx, "acme")
	tpl, err := b.h.Lifecycle.CreateTemplate(tctx, p.ID, "hello")
	if err != nil {
		t.Fatal(err)
	}
	preview, _ := koda.LookupPreset("preview")
	rows := []map[string]json.RawMessage{{"headline": json.RawMessage(`"One"`)}, {"headline": json.RawMessage(`"Two"`)}, {"headline": json.RawMessage(`"Three"`)}}
	batch, err := b.h.Lifecycle.CreateTemplateBatch(tctx, koda.TemplateBatchRequest{TemplateID: tpl.ID, Rows: rows, Presets: []koda.PresetSpec{preview}})
	if err != nil {
		t.Fatal(err)
	}
	if len(batch.RenderIDs) != 3 {
		t.Fatalf("renders %v, want one per row", batch.RenderIDs)
	}
	if err := b.rdb.FlushDB(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	// The worker that comes back is a new process: its asynq client has not yet
	// published the render queue to the flushed Redis (the old one remembers it had).
	b.h.Queue = jobs.NewClient(asynq.NewClientFromRedisClient(b.rdb))
	if err := b.h.Inspector.PauseQueue(jobs.QueueRender); err != nil {
		t.Fatal(err)
	}
	b.h.ReconcileGrace = time.Millisecond
	time.Sleep(5 * time.Millisecond)
	if err := b.h.reconcile(ctx, nil, jobs.ReconcileArgs{}); err != nil {
		t.Fatal(err)
	}
	for _, id := range batch.RenderIDs {
		info, err := b.h.Inspector.GetTaskInfo(jobs.QueueRender, jobs.RenderArgs{RenderID: id}.TaskID())
		if err != nil || info.State != asynq.TaskStatePending {
			t.Errorf("render %s of a row: task %v, %v; want pending again", id, info, err)
		}
	}
}
