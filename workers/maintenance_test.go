package workers

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/kodatest"
	"github.com/kodahq/koda/internal/lifecycle"
	"github.com/kodahq/koda/internal/storage"
	"github.com/kodahq/koda/internal/storage/s3"
	"github.com/kodahq/koda/jobs"
)

// backends are the two storages the maintenance jobs must work on: the local folder
// and a real S3-compatible server process.
func backends(t *testing.T) map[string]func(t *testing.T) koda.Storage {
	return map[string]func(t *testing.T) koda.Storage{
		"local": func(t *testing.T) koda.Storage {
			return storage.NewLocal(t.TempDir(), "http://127.0.0.1:1", []byte("secret"))
		},
		"s3": func(t *testing.T) koda.Storage {
			srv := kodatest.MustS3(t)
			c, err := s3.ParseURL(srv.StorageURL("koda"))
			if err != nil {
				t.Fatal(err)
			}
			c.AccessKey, c.SecretKey = srv.AccessKey, srv.SecretKey
			st, err := s3.New(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			return st
		},
	}
}

func put(t *testing.T, st koda.Storage, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if _, err := st.Put(context.Background(), k, strings.NewReader(k)); err != nil {
			t.Fatal(err)
		}
	}
}

func present(t *testing.T, st koda.Storage, key string) bool {
	t.Helper()
	rc, err := st.Open(context.Background(), key)
	if err == nil {
		rc.Close()
		return true
	}
	if koda.ErrorKind(err) != koda.ENOTFOUND {
		t.Fatal(err)
	}
	return false
}

// TestDailyCleanupRemovesOrphans: the daily job deletes, on both backends, the files
// of a deleted project, of a deleted render, the chunks a finished render no longer
// needs and the sandbox checkpoints of a tenant that does not exist; the project's
// checkpoint, finished renders' videos and thumbnails, a running render's chunks, a
// live tenant's checkpoints and files too new to judge stay.
func TestDailyCleanupRemovesOrphans(t *testing.T) {
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			b := setup(t)
			st := open(t)
			b.h.Storage, b.h.Lifecycle.Storage = st, st
			p, rs := b.project(t, koda.DefaultTenant, 2)
			done, running := rs[0], rs[1]
			done.Status, done.VideoKey, done.ThumbKey = koda.RenderSucceeded,
				koda.RenderVideoKey(p.ID, done.ID, "mp4"), koda.RenderThumbKey(p.ID, done.ID)
			running.Status = koda.RenderRunning
			for _, r := range rs {
				if err := b.store.UpdateRender(ctx, r); err != nil {
					t.Fatal(err)
				}
			}
			keep := []string{
				koda.CheckpointKey(koda.ProjectFolder(p.ID)), koda.StateKey(koda.ProjectFolder(p.ID)),
				done.VideoKey, done.ThumbKey,
				koda.ChunkKey(p.ID, running.ID, 1, 0, "mp4"),
				koda.CheckpointKey(koda.TenantSandboxFolder(koda.DefaultTenant, "session")),
				"elsewhere/not-koda.txt",
			}
			orphans := []string{
				koda.CheckpointKey(koda.ProjectFolder("prj_deleted")),
				koda.RenderVideoKey("prj_deleted", "rnd_x", "mp4"),
				koda.RenderVideoKey(p.ID, "rnd_deleted", "mp4"),
				koda.ChunkKey(p.ID, done.ID, 1, 0, "mp4"),
				koda.CheckpointKey(koda.TenantSandboxFolder("t_gone", "session")),
			}
			put(t, st, append(keep, orphans...)...)

			// Files just written are too new to judge.
			if err := b.h.dailyCleanup(ctx, nil, jobs.DailyCleanupArgs{}); err != nil {
				t.Fatal(err)
			}
			for _, k := range orphans {
				if !present(t, st, k) {
					t.Fatalf("%s deleted within the grace period", k)
				}
			}
			b.h.Lifecycle.Now = func() time.Time { return time.Now().Add(lifecycle.OrphanGrace + time.Minute) }
			if err := b.h.dailyCleanup(ctx, nil, jobs.DailyCleanupArgs{}); err != nil {
				t.Fatal(err)
			}
			for _, k := range orphans {
				if present(t, st, k) {
					t.Errorf("orphan %s is still stored", k)
				}
			}
			for _, k := range keep {
				if !present(t, st, k) {
					t.Errorf("referenced %s was deleted", k)
				}
			}
		})
	}
}

// TestDailyCleanupRemovesDeletedTenantFiles (issue 26): every file of a deleted tenant
// (a project's checkpoint and render, a sandbox checkpoint, asset bytes) is deleted on
// the next run whatever its age, as a cancelled task may write one after
// DELETE /admin/tenants/{id} removed its folders; a live tenant's new files stay.
func TestDailyCleanupRemovesDeletedTenantFiles(t *testing.T) {
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			b := setup(t)
			st := open(t)
			b.h.Storage, b.h.Lifecycle.Storage = st, st
			for _, id := range []string{"t_del", "t_live"} {
				if err := b.store.CreateTenant(ctx, &koda.Tenant{ID: id}); err != nil {
					t.Fatal(err)
				}
			}
			gone, _ := b.project(t, "t_del", 1)
			live, _ := b.project(t, "t_live", 1)
			if err := b.store.DeleteTenant(ctx, "t_del", time.Now()); err != nil {
				t.Fatal(err)
			}
			sum := strings.Repeat("0", 64)
			orphans := []string{
				koda.CheckpointKey(koda.ProjectFolder(gone.ID)),
				koda.RenderVideoKey(gone.ID, "rnd_late", "mp4"),
				koda.CheckpointKey(koda.TenantSandboxFolder("t_del", "session")),
				koda.AssetKey("t_del", sum, "png"),
			}
			keep := []string{
				koda.CheckpointKey(koda.ProjectFolder(live.ID)),
				koda.CheckpointKey(koda.TenantSandboxFolder("t_live", "session")),
				koda.AssetKey("t_live", sum, "png"),
				koda.AssetKey(koda.DefaultTenant, sum, "png"), // a tenant without a row
			}
			put(t, st, append(keep, orphans...)...)
			if err := b.h.dailyCleanup(ctx, nil, jobs.DailyCleanupArgs{}); err != nil {
				t.Fatal(err)
			}
			for _, k := range orphans {
				if present(t, st, k) {
					t.Errorf("the deleted tenant's %s is still stored", k)
				}
			}
			for _, k := range keep {
				if !present(t, st, k) {
					t.Errorf("%s was deleted", k)
				}
			}
		})
	}
}

// TestCleanPreviewsExpiresOldPreviews: a preview video older than PreviewTTL is
// deleted and neither its render nor the project hands out its key any more; a newer
// preview, the thumbnail and a final render of the same age stay.
func TestCleanPreviewsExpiresOldPreviews(t *testing.T) {
	ctx := context.Background()
	b := setup(t)
	st := backends(t)["local"](t)
	b.h.Storage, b.h.Lifecycle.Storage = st, st
	b.h.Maintenance.PreviewTTL = time.Hour
	p, _ := b.project(t, koda.DefaultTenant, 0)
	now := time.Now().UTC()
	mk := func(kind koda.RenderKind, age time.Duration) *koda.Render {
		r := &koda.Render{ID: koda.NewID(koda.PrefixRender), TenantID: p.TenantID, ProjectID: p.ID, Kind: kind,
			Preset: koda.PresetSpec{Name: "tiny", Width: 64, Height: 36, FPS: 5, Format: "mp4"}, DurationS: 1,
			Status: koda.RenderSucceeded, CreatedAt: now.Add(-age)}
		r.VideoKey, r.ThumbKey = koda.RenderVideoKey(p.ID, r.ID, "mp4"), koda.RenderThumbKey(p.ID, r.ID)
		if err := b.store.CreateRender(ctx, r); err != nil {
			t.Fatal(err)
		}
		put(t, st, r.VideoKey, r.ThumbKey)
		return r
	}
	old, final, fresh := mk(koda.RenderPreview, 2*time.Hour), mk(koda.RenderFinal, 2*time.Hour), mk(koda.RenderPreview, time.Minute)
	p.Preview = &koda.Output{RenderID: old.ID, VideoKey: old.VideoKey, ThumbnailKey: old.ThumbKey}
	if err := b.store.UpdateProject(ctx, p); err != nil {
		t.Fatal(err)
	}

	if err := b.h.cleanPreviews(ctx, nil, jobs.CleanPreviewsArgs{}); err != nil {
		t.Fatal(err)
	}
	if present(t, st, old.VideoKey) || !present(t, st, old.ThumbKey) {
		t.Fatal("the old preview's video should be gone and its thumbnail kept")
	}
	if !present(t, st, final.VideoKey) || !present(t, st, fresh.VideoKey) {
		t.Fatal("a final video or a fresh preview was deleted")
	}
	r, err := b.store.GetRender(ctx, old.ID)
	if err != nil || r.VideoKey != "" || r.ThumbKey == "" {
		t.Fatalf("expired render: %+v %v", r, err)
	}
	if r, _ := b.store.GetRender(ctx, fresh.ID); r.VideoKey == "" {
		t.Fatal("the fresh preview lost its video")
	}
	got, err := b.store.GetProject(ctx, p.ID)
	if err != nil || got.Preview == nil || got.Preview.VideoKey != "" || got.Preview.ThumbnailKey == "" {
		t.Fatalf("project still names the deleted preview video: %+v %v", got.Preview, err)
	}
}

// TestUsageJobRollsUp: the maintenance:usage task rolls the usage records into hourly
// aggregates, late ones too, and counts nothing twice when it runs again.
func TestUsageJobRollsUp(t *testing.T) {
	ctx := context.Background()
	b := setup(t)
	hour := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	add := func(tenant string, at time.Time, secs float64) {
		t.Helper()
		if err := b.store.AddUsage(ctx, &koda.UsageRecord{TenantID: tenant, Kind: koda.RenderFinal, Frames: 10,
			RenderSeconds: secs, At: at}); err != nil {
			t.Fatal(err)
		}
	}
	seconds := func(tenant string) float64 {
		t.Helper()
		hs, err := b.store.UsageHours(ctx, tenant, hour, hour.Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		sum := 0.0
		for _, h := range hs {
			sum += h.RenderSeconds
		}
		return sum
	}
	add("acme", hour.Add(5*time.Minute), 2)
	add("acme", hour.Add(50*time.Minute), 3)
	add("globex", hour.Add(10*time.Minute), 7)
	for range 2 {
		if err := b.h.aggregateUsage(ctx, nil, jobs.UsageArgs{}); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := b.store.RollUpUsage(ctx); err != nil || n != 0 {
		t.Fatalf("the job left %d tenant-hours unrolled (%v)", n, err)
	}
	if got := seconds("acme"); got != 5 {
		t.Errorf("acme's hour after two runs: %v render-seconds, want 5", got)
	}
	add("acme", hour.Add(30*time.Minute), 10) // late, for the rolled hour
	if err := b.h.aggregateUsage(ctx, nil, jobs.UsageArgs{}); err != nil {
		t.Fatal(err)
	}
	if n, err := b.store.RollUpUsage(ctx); err != nil || n != 0 {
		t.Fatalf("the job left the late record unrolled: %d (%v)", n, err)
	}
	if got, other := seconds("acme"), seconds("globex"); got != 15 || other != 7 {
		t.Errorf("after the late record: acme %v, globex %v; want 15 and 7", got, other)
	}
	if _, ok := DefaultSchedule[jobs.KindUsage]; !ok {
		t.Error("maintenance:usage is not scheduled")
	}
}

// The hourly idempotency job forgets keys past koda.IdempotencyWindow, answered or
// still reserved, and keeps younger ones so retries within the window replay.
func TestIdempotencyJobPurgesOldKeys(t *testing.T) {
	ctx := context.Background()
	b := setup(t)
	now := time.Now().UTC()
	keep := func(key string, age time.Duration) {
		t.Helper()
		if ok, err := b.store.ReserveIdempotency(ctx, &koda.IdempotencyRecord{TenantID: "acme", Key: key,
			RequestHash: "h", CreatedAt: now.Add(-age)}); err != nil || !ok {
			t.Fatalf("reserve %s: %v %v", key, ok, err)
		}
	}
	keep("old-answered", koda.IdempotencyWindow+time.Hour)
	if err := b.store.CompleteIdempotency(ctx, &koda.IdempotencyRecord{TenantID: "acme", Key: "old-answered",
		StatusCode: 201, Body: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	keep("old-reserved", koda.IdempotencyWindow+time.Minute)
	keep("young", koda.IdempotencyWindow-time.Hour)
	if err := b.h.purgeIdempotency(ctx, nil, jobs.PurgeIdempotencyArgs{}); err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]bool{"old-answered": false, "old-reserved": false, "young": true} {
		_, err := b.store.GetIdempotency(ctx, "acme", key)
		if got := err == nil; got != want {
			t.Errorf("key %s kept=%v after the job, want %v (%v)", key, got, want, err)
		}
	}
	if _, ok := DefaultSchedule[jobs.KindIdempotency]; !ok {
		t.Error("maintenance:idempotency is not scheduled")
	}
}

// TestCleanupKeepsSharedRenderFiles: renders of the same output share the video and
// thumbnail stored under one render's key. With that render gone, the daily cleanup
// on both backends keeps the files while the others point at them, and deletes them
// once none does.
func TestCleanupKeepsSharedRenderFiles(t *testing.T) {
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			b := setup(t)
			st := open(t)
			b.h.Storage, b.h.Lifecycle.Storage = st, st
			p, rs := b.project(t, koda.DefaultTenant, 2)
			gone := koda.NewID(koda.PrefixRender) // the render that ran the job, deleted
			video, thumb := koda.RenderVideoKey(p.ID, gone, "mp4"), koda.RenderThumbKey(p.ID, gone)
			for _, r := range rs {
				r.Status, r.OutputOf, r.VideoKey, r.ThumbKey = koda.RenderSucceeded, gone, video, thumb
				if err := b.store.UpdateRender(ctx, r); err != nil {
					t.Fatal(err)
				}
			}
			put(t, st, video, thumb)
			b.h.Lifecycle.Now = func() time.Time { return time.Now().Add(lifecycle.OrphanGrace + time.Minute) }
			if err := b.h.dailyCleanup(ctx, nil, jobs.DailyCleanupArgs{}); err != nil {
				t.Fatal(err)
			}
			if !present(t, st, video) || !present(t, st, thumb) {
				t.Fatal("cleanup deleted the shared files two renders point at")
			}
			// One render lets go of the video: the other still points at it.
			rs[0].VideoKey = ""
			if err := b.store.UpdateRender(ctx, rs[0]); err != nil {
				t.Fatal(err)
			}
			if err := b.h.dailyCleanup(ctx, nil, jobs.DailyCleanupArgs{}); err != nil {
				t.Fatal(err)
			}
			if !present(t, st, video) {
				t.Fatal("cleanup deleted the shared video one render still points at")
			}
			rs[1].VideoKey = ""
			if err := b.store.UpdateRender(ctx, rs[1]); err != nil {
				t.Fatal(err)
			}
			if err := b.h.dailyCleanup(ctx, nil, jobs.DailyCleanupArgs{}); err != nil {
				t.Fatal(err)
			}
			if present(t, st, video) || !present(t, st, thumb) {
				t.Error("once no render points at the video it should go, and the thumbnail they name stay")
			}
		})
	}
}
