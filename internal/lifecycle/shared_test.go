package lifecycle_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/kodatest"
	"github.com/kodahq/koda/internal/lifecycle"
	"github.com/kodahq/koda/internal/storage"
	"github.com/kodahq/koda/internal/store"
	"github.com/kodahq/koda/jobs"
)

// recordedQueue keeps what the lifecycle enqueues.
type recordedQueue struct {
	mu   sync.Mutex
	args []koda.JobArgs
}

func (q *recordedQueue) Enqueue(_ context.Context, a koda.JobArgs) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.args = append(q.args, a)
	return nil
}

// renderTasks returns the render tasks enqueued since the last call.
func (q *recordedQueue) renderTasks() []jobs.RenderArgs {
	q.mu.Lock()
	defer q.mu.Unlock()
	var out []jobs.RenderArgs
	for _, a := range q.args {
		if ra, ok := a.(jobs.RenderArgs); ok {
			out = append(out, ra)
		}
	}
	q.args = nil
	return out
}

// sharedBatch is a complete project with a callback and a batch for youtube, final,
// 1080p and tiktok requested through the lifecycle, on a real SQLite store. Tiktok is
// upright, so no capture serves it with the others (TestCaptureGroupShares has one).
type sharedBatch struct {
	st      *store.Store
	s       *lifecycle.Service
	q       *recordedQueue
	p       *koda.Project
	batch   *koda.Batch
	byName  map[string]*koda.Render // preset name → render as created
	firstRT []jobs.RenderArgs       // render tasks the request enqueued
}

func newSharedBatch(t *testing.T) *sharedBatch {
	t.Helper()
	return newSharedBatchOn(t, kodatest.MustOpenDB(t))
}

func newSharedBatchOn(t *testing.T, st *store.Store) *sharedBatch {
	t.Helper()
	return newBatchOf(t, st, "youtube", "final", "1080p", "tiktok")
}

// newBatchOf is a complete project with a callback and a batch for the named presets.
func newBatchOf(t *testing.T, st *store.Store, names ...string) *sharedBatch {
	t.Helper()
	ctx := context.Background()
	q := &recordedQueue{}
	s := &lifecycle.Service{Store: st, Queue: q, Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
		Storage: storage.NewLocal(filepath.Join(t.TempDir(), "storage"), "http://files.test", []byte("signing"))}
	now := time.Now().UTC()
	p := &koda.Project{ID: koda.NewID(koda.PrefixProject), TenantID: "acme", Prompt: "a ball", Phase: koda.PhaseComplete,
		DurationS: 2, CallbackURL: "http://93.184.216.34/hooks", CreatedAt: now, UpdatedAt: now}
	if err := st.CreateProject(ctx, p); err != nil {
		t.Fatal(err)
	}
	var presets []koda.PresetSpec
	for _, n := range names {
		ps, err := koda.LookupPreset(n)
		if err != nil {
			t.Fatal(err)
		}
		presets = append(presets, ps)
	}
	b, err := s.RequestRenders(ctx, p.ID, presets)
	if err != nil {
		t.Fatal(err)
	}
	sb := &sharedBatch{st: st, s: s, q: q, p: p, batch: b, byName: map[string]*koda.Render{}, firstRT: q.renderTasks()}
	rs, err := st.ListRenders(ctx, koda.RenderFilter{BatchID: b.ID})
	if err != nil || len(rs) != len(names) {
		t.Fatalf("batch renders: %d, %v", len(rs), err)
	}
	for _, r := range rs {
		sb.byName[r.Preset.Name] = r
	}
	return sb
}

func (sb *sharedBatch) get(t *testing.T, name string) *koda.Render {
	t.Helper()
	r, err := sb.st.GetRender(context.Background(), sb.byName[name].ID)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// webhooks returns the render webhooks of type typ by render ID.
func (sb *sharedBatch) webhooks(t *testing.T, typ string) map[string]koda.RenderView {
	t.Helper()
	ds, err := sb.st.ListDeliveries(context.Background(), koda.DeliveryFilter{ProjectID: sb.p.ID})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]koda.RenderView{}
	for _, d := range ds {
		if d.EventType != typ {
			continue
		}
		var body struct{ Data koda.RenderView }
		if err := json.Unmarshal(d.Payload, &body); err != nil {
			t.Fatal(err)
		}
		if _, dup := out[body.Data.ID]; dup {
			t.Errorf("two %s webhooks for render %s", typ, body.Data.ID)
		}
		out[body.Data.ID] = body.Data
	}
	return out
}

var sameSpec = []string{"youtube", "final", "1080p"}

// TestSameSpecRendersShareOneJob: a batch for youtube, final, 1080p and tiktok enqueues
// two render tasks. The three same-spec renders start, progress and finish with the
// one job: the same file, size and thumbnail, each with its own ID, preset name,
// progress events and render.completed webhook; the job's frames and time are charged
// once, and the batch completes once all four are done.
func TestSameSpecRendersShareOneJob(t *testing.T) {
	ctx := context.Background()
	sb := newSharedBatch(t)
	s := sb.s
	job := sb.byName["youtube"]
	if len(sb.firstRT) != 2 {
		t.Fatalf("the batch enqueued %d render tasks %v, want 2 (1080p60 once, tiktok once)", len(sb.firstRT), sb.firstRT)
	}
	if got := map[string]bool{sb.firstRT[0].RenderID: true, sb.firstRT[1].RenderID: true}; !got[job.ID] || !got[sb.byName["tiktok"].ID] {
		t.Fatalf("render tasks %v, want youtube's %s and tiktok's %s", sb.firstRT, job.ID, sb.byName["tiktok"].ID)
	}
	for _, n := range []string{"final", "1080p"} {
		if r := sb.byName[n]; r.OutputOf != job.ID || r.Status != koda.RenderQueued {
			t.Errorf("%s: output of %q, %s; want youtube's %s, queued", n, r.OutputOf, r.Status, job.ID)
		}
	}
	if r := sb.byName["tiktok"]; r.OutputOf != "" {
		t.Errorf("tiktok takes the output of %s", r.OutputOf)
	}

	// A stray task of a render that shares a job renders nothing.
	if _, run, err := s.StartRender(ctx, sb.byName["final"].ID); err != nil || run {
		t.Fatalf("StartRender(final) = run %v, %v; want nothing to run: youtube's job makes it", run, err)
	}
	if _, run, err := s.StartRender(ctx, job.ID); err != nil || !run {
		t.Fatalf("StartRender(youtube) = %v, %v", run, err)
	}
	for _, n := range sameSpec {
		if r := sb.get(t, n); r.Status != koda.RenderRunning || r.StartedAt == nil {
			t.Errorf("%s after the job started: %s", n, r.Status)
		}
	}
	pr := koda.RenderProgress{Stage: koda.StageCapturing, Percent: 40, FramesDone: 48, FramesTotal: 120}
	if err := s.RenderProgress(ctx, job.ID, pr); err != nil {
		t.Fatal(err)
	}
	evs, err := sb.st.ListEvents(ctx, sb.p.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	progressed := map[string]bool{}
	for _, e := range evs {
		var d koda.RenderProgressData
		if e.Type == koda.EventRenderProgress && json.Unmarshal(e.Data, &d) == nil && d.Percent == 40 {
			progressed[d.RenderID] = true
		}
	}
	for _, n := range sameSpec {
		if r := sb.get(t, n); r.Progress != pr || !progressed[r.ID] {
			t.Errorf("%s progress %+v (event %v), want %+v", n, r.Progress, progressed[r.ID], pr)
		}
	}

	out := lifecycle.RenderOutput{VideoKey: koda.RenderVideoKey(sb.p.ID, job.ID, "mp4"),
		ThumbKey: koda.RenderThumbKey(sb.p.ID, job.ID), SizeBytes: 12345, Frames: 120}
	if _, err := s.FinishRender(ctx, job.ID, out, nil); err != nil {
		t.Fatal(err)
	}
	hooks := sb.webhooks(t, koda.WebhookRenderCompleted)
	for _, n := range sameSpec {
		r := sb.get(t, n)
		if r.Status != koda.RenderSucceeded || r.VideoKey != out.VideoKey || r.ThumbKey != out.ThumbKey || r.SizeBytes != out.SizeBytes {
			t.Errorf("%s: %s %q %q %d; want succeeded with youtube's file %q", n, r.Status, r.VideoKey, r.ThumbKey, r.SizeBytes, out.VideoKey)
		}
		if r.Preset.Name != n || r.Progress.FramesDone != 120 {
			t.Errorf("%s: preset %q, frames %d", n, r.Preset.Name, r.Progress.FramesDone)
		}
		h, ok := hooks[r.ID]
		if !ok || h.Preset.Name != n || h.Status != koda.RenderSucceeded || h.VideoURL == "" || h.SizeBytes != out.SizeBytes {
			t.Errorf("%s: render.completed %+v (sent %v)", n, h, ok)
		}
	}
	if len(hooks) != 3 {
		t.Errorf("%d render.completed webhooks, want one per same-spec render", len(hooks))
	}
	if b, _ := sb.st.GetBatch(ctx, sb.batch.ID); b.CompletedAt != nil {
		t.Fatal("the batch completed while tiktok is queued")
	}
	if _, _, err := s.StartRender(ctx, sb.byName["tiktok"].ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.FinishRender(ctx, sb.byName["tiktok"].ID, lifecycle.RenderOutput{
		VideoKey: "projects/x/720.mp4", ThumbKey: "projects/x/720.jpg", SizeBytes: 99, Frames: 60}, nil); err != nil {
		t.Fatal(err)
	}
	if b, _ := sb.st.GetBatch(ctx, sb.batch.ID); b.CompletedAt == nil {
		t.Error("the batch did not complete with all four renders done")
	}

	// The tenant used four renders of 2 s, but the 1080p60 frames were made once.
	var renders, frames int
	hour := time.Now().UTC().Truncate(time.Hour)
	hours, err := sb.st.UsageHours(ctx, "acme", hour.Add(-time.Hour), hour.Add(2*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hours {
		renders += h.Renders
		frames += h.Frames
	}
	if renders != 4 || frames != 180 {
		t.Errorf("usage: %d renders, %d frames; want 4 renders and 180 frames (120 once, 60)", renders, frames)
	}
	if due, err := s.DueWork(ctx, time.Now().Add(time.Minute)); err != nil || len(due.Renders) != 0 {
		t.Errorf("due renders after the batch: %v, %v", due, err)
	}
}

// TestSharedJobFailureFailsAll: when the one job of youtube, final and 1080p fails,
// all three fail with its error and each sends render.failed. Retrying one re-renders
// it on its own; retrying another while that one's job is queued again joins it
// instead of rendering the same video a third time.
func TestSharedJobFailureFailsAll(t *testing.T) {
	ctx := context.Background()
	sb := newSharedBatch(t)
	s := sb.s
	job := sb.byName["youtube"]
	if _, _, err := s.StartRender(ctx, job.ID); err != nil {
		t.Fatal(err)
	}
	// While the job runs, the reconciler looks after its task alone.
	due, err := s.DueWork(ctx, time.Now().Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	dueIDs := map[string]bool{}
	for _, r := range due.Renders {
		dueIDs[r.ID] = true
	}
	if len(dueIDs) != 2 || !dueIDs[job.ID] || !dueIDs[sb.byName["tiktok"].ID] {
		t.Errorf("due renders %v, want youtube's job %s and tiktok's %s", dueIDs, job.ID, sb.byName["tiktok"].ID)
	}
	cause := koda.Errorf(koda.EUNPROCESSABLE, koda.CodeRenderFailed, "the page never set __exportReady")
	if _, err := s.FinishRender(ctx, job.ID, lifecycle.RenderOutput{Frames: 30}, cause); err != nil {
		t.Fatal(err)
	}
	hooks := sb.webhooks(t, koda.WebhookRenderFailed)
	for _, n := range sameSpec {
		r := sb.get(t, n)
		if r.Status != koda.RenderFailed || r.Error == nil || r.Error.Code != koda.CodeRenderFailed || r.Error.Message != "the page never set __exportReady" {
			t.Errorf("%s after the shared job failed: %s %+v", n, r.Status, r.Error)
		}
		if h, ok := hooks[r.ID]; !ok || h.Preset.Name != n || h.Error == nil || h.Error.Message != r.Error.Message {
			t.Errorf("%s: render.failed %+v (sent %v)", n, h, ok)
		}
	}

	// Retrying final renders it on its own: its own task and, later, its own file.
	r, err := s.RetryRender(ctx, sb.byName["final"].ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := sb.q.renderTasks(); len(got) != 1 || got[0].RenderID != r.ID || r.OutputOf != "" || r.Status != koda.RenderQueued {
		t.Errorf("retried final: tasks %v, output of %q, %s; want its own task", got, r.OutputOf, r.Status)
	}
	// Retrying youtube queues its job again; 1080p, retried next, joins it.
	if _, err := s.RetryRender(ctx, job.ID); err != nil {
		t.Fatal(err)
	}
	if got := sb.q.renderTasks(); len(got) != 1 || got[0].RenderID != job.ID {
		t.Errorf("retried youtube: tasks %v", got)
	}
	hd, err := s.RetryRender(ctx, sb.byName["1080p"].ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := sb.q.renderTasks(); len(got) != 0 || hd.OutputOf != job.ID || hd.Status != koda.RenderQueued {
		t.Errorf("retried 1080p: tasks %v, output of %q, %s; want it to join youtube's queued job", got, hd.OutputOf, hd.Status)
	}
	if _, run, err := s.StartRender(ctx, job.ID); err != nil || !run {
		t.Fatal(run, err)
	}
	out := lifecycle.RenderOutput{VideoKey: "projects/x/y.mp4", ThumbKey: "projects/x/y.jpg", SizeBytes: 7, Frames: 120}
	if _, err := s.FinishRender(ctx, job.ID, out, nil); err != nil {
		t.Fatal(err)
	}
	if r := sb.get(t, "1080p"); r.Status != koda.RenderSucceeded || r.VideoKey != out.VideoKey {
		t.Errorf("1080p after the retried job: %s %q", r.Status, r.VideoKey)
	}
	if r := sb.get(t, "final"); r.Status != koda.RenderQueued {
		t.Errorf("final, retried on its own, is %s before its own job ran", r.Status)
	}
}

// TestCancelledBatchCancelsSharedRenders: cancelling the batch fails the job and the
// renders waiting for it alike, and no render of theirs is left due.
func TestCancelledBatchCancelsSharedRenders(t *testing.T) {
	ctx := context.Background()
	sb := newSharedBatch(t)
	if _, _, err := sb.s.StartRender(ctx, sb.byName["youtube"].ID); err != nil {
		t.Fatal(err)
	}
	if err := sb.s.CancelBatch(ctx, sb.batch.ID); err != nil {
		t.Fatal(err)
	}
	for _, n := range append(sameSpec, "tiktok") {
		if r := sb.get(t, n); r.Status != koda.RenderFailed || r.Error == nil || r.Error.Code != koda.CodeCancelled {
			t.Errorf("%s after cancel: %s %+v", n, r.Status, r.Error)
		}
	}
	if due, err := sb.s.DueWork(ctx, time.Now().Add(time.Minute)); err != nil || len(due.Renders) != 0 {
		t.Errorf("due renders after cancel: %v, %v", due, err)
	}
}

// TestApprovalSharesSameSpecFinals: the final renders started by approving a preview
// for youtube and final are one job too.
func TestApprovalSharesSameSpecFinals(t *testing.T) {
	ctx := context.Background()
	st := kodatest.MustOpenDB(t)
	q := &recordedQueue{}
	s := &lifecycle.Service{Store: st, Queue: q}
	now := time.Now().UTC()
	p := &koda.Project{ID: koda.NewID(koda.PrefixProject), TenantID: "acme", Prompt: "a ball", Phase: koda.PhasePreview,
		DurationS: 2, CreatedAt: now, UpdatedAt: now}
	for _, n := range []string{"youtube", "final"} {
		ps, err := koda.LookupPreset(n)
		if err != nil {
			t.Fatal(err)
		}
		p.Presets = append(p.Presets, ps)
	}
	if err := st.CreateProject(ctx, p); err != nil {
		t.Fatal(err)
	}
	_, b, err := s.ApprovePreview(ctx, p.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tasks := q.renderTasks(); len(b.RenderIDs) != 2 || len(tasks) != 1 || tasks[0].RenderID != b.RenderIDs[0] {
		t.Fatalf("approval: renders %v, tasks %v; want two renders and one task, the first's", b.RenderIDs, tasks)
	}
	r, err := st.GetRender(ctx, b.RenderIDs[1])
	if err != nil || r.Preset.Name != "final" || r.OutputOf != b.RenderIDs[0] {
		t.Fatalf("final: %+v, %v; want it to take youtube's output", r, err)
	}
}

// TestSharedRendersRaceOnPostgres: on PostgreSQL, where transactions run side by side
// and lock rows, the shared job finishing races a cancel of its batch, and a retried
// job finishing races the retry of a render that shared it. No transaction fails
// (a deadlock would), youtube, final and 1080p always end alike after the first race,
// and after the second the retried render either took the job's file or runs on its
// own: never left waiting for a job that is over.
func TestSharedRendersRaceOnPostgres(t *testing.T) {
	ctx := context.Background()
	st := kodatest.MustOpenPostgres(t)
	for round := range 8 {
		sb := newSharedBatchOn(t, st)
		s, job := sb.s, sb.byName["youtube"].ID
		if _, _, err := s.StartRender(ctx, job); err != nil {
			t.Fatal(err)
		}
		out := lifecycle.RenderOutput{VideoKey: "projects/x/v.mp4", ThumbKey: "projects/x/v.jpg", SizeBytes: 5, Frames: 120}
		var wg sync.WaitGroup
		errs := make(chan error, 3)
		wg.Add(2)
		go func() {
			defer wg.Done()
			for pct := range 4 {
				if err := s.RenderProgress(ctx, job, koda.RenderProgress{Stage: koda.StageCapturing, Percent: float64(pct * 20)}); err != nil {
					errs <- err
				}
			}
			_, err := s.FinishRender(ctx, job, out, nil)
			errs <- err
		}()
		go func() {
			defer wg.Done()
			errs <- s.CancelBatch(ctx, sb.batch.ID)
		}()
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatalf("round %d: finish against cancel: %v", round, err)
			}
		}
		first := sb.get(t, "youtube")
		for _, n := range sameSpec {
			r := sb.get(t, n)
			if !r.Status.Done() || r.Status != first.Status || r.VideoKey != first.VideoKey {
				t.Fatalf("round %d: %s is %s %q, youtube %s %q; want them alike", round, n, r.Status, r.VideoKey, first.Status, first.VideoKey)
			}
		}
	}

	for round := range 8 {
		sb := newSharedBatchOn(t, st)
		s, job, other := sb.s, sb.byName["youtube"].ID, sb.byName["final"].ID
		if _, err := s.FinishRender(ctx, job, lifecycle.RenderOutput{}, koda.Errorf(koda.EUNPROCESSABLE, koda.CodeRenderFailed, "boom")); err != nil {
			t.Fatal(err)
		}
		if _, err := s.RetryRender(ctx, job); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.StartRender(ctx, job); err != nil {
			t.Fatal(err)
		}
		sb.q.renderTasks()
		var wg sync.WaitGroup
		errs := make(chan error, 2)
		wg.Add(2)
		go func() {
			defer wg.Done()
			_, err := s.FinishRender(ctx, job, lifecycle.RenderOutput{VideoKey: "projects/x/v.mp4", Frames: 120}, nil)
			errs <- err
		}()
		go func() {
			defer wg.Done()
			_, err := s.RetryRender(ctx, other)
			errs <- err
		}()
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatalf("round %d: finish against retry: %v", round, err)
			}
		}
		r := sb.get(t, "final")
		tasks := sb.q.renderTasks()
		joined := r.OutputOf == job && r.Status == koda.RenderSucceeded && r.VideoKey == "projects/x/v.mp4" && len(tasks) == 0
		alone := r.OutputOf == "" && r.Status == koda.RenderQueued && len(tasks) == 1 && tasks[0].RenderID == other
		if !joined && !alone {
			t.Fatalf("round %d: retried final is %s, output of %q, tasks %v; want it joined and done, or queued on its own", round, r.Status, r.OutputOf, tasks)
		}
	}
}

// TestBatchOverProjectsSharesWithinEachProject: a batch of two projects for youtube
// and final runs one job per project; a render never takes another project's video.
func TestBatchOverProjectsSharesWithinEachProject(t *testing.T) {
	ctx := context.Background()
	st := kodatest.MustOpenDB(t)
	q := &recordedQueue{}
	s := &lifecycle.Service{Store: st, Queue: q}
	now := time.Now().UTC()
	var ids []string
	for range 2 {
		p := &koda.Project{ID: koda.NewID(koda.PrefixProject), TenantID: koda.DefaultTenant, Prompt: "a ball",
			Phase: koda.PhaseComplete, DurationS: 2, CreatedAt: now, UpdatedAt: now}
		if err := st.CreateProject(ctx, p); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID)
	}
	var presets []koda.PresetSpec
	for _, n := range []string{"youtube", "final"} {
		ps, err := koda.LookupPreset(n)
		if err != nil {
			t.Fatal(err)
		}
		presets = append(presets, ps)
	}
	b, err := s.CreateBatch(ctx, koda.BatchRequest{ProjectIDs: ids, Presets: presets})
	if err != nil {
		t.Fatal(err)
	}
	if tasks := q.renderTasks(); len(tasks) != 2 {
		t.Fatalf("%d render tasks for two projects × one output, want 2", len(tasks))
	}
	rs, err := st.ListRenders(ctx, koda.RenderFilter{BatchID: b.ID})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*koda.Render{}
	for _, r := range rs {
		byID[r.ID] = r
	}
	sharing := 0
	for _, r := range rs {
		if r.OutputOf == "" {
			continue
		}
		sharing++
		if src := byID[r.OutputOf]; src == nil || src.ProjectID != r.ProjectID || r.Preset.Name != "final" {
			t.Errorf("%s of %s takes the output of %+v", r.Preset.Name, r.ProjectID, src)
		}
	}
	if sharing != 2 {
		t.Errorf("%d renders take another's output, want each project's final", sharing)
	}
}
