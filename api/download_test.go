package api_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strconv"
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

func s3Store(t *testing.T, srv kodatest.S3, access, secret string) *s3.Store {
	t.Helper()
	c, err := s3.ParseURL(srv.StorageURL("api"))
	if err != nil {
		t.Fatal(err)
	}
	c.AccessKey, c.SecretKey = access, secret
	st, err := s3.New(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// finalRender completes a project and stores its final video, returning the render ID.
func finalRender(t *testing.T, b *bundle) string {
	t.Helper()
	ctx := context.Background()
	p := b.create("acme", nil)
	b.complete("acme", p.ID)
	rs, err := b.store.ListRenders(ctx, koda.RenderFilter{ProjectID: p.ID})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if r.Kind == koda.RenderFinal && r.Status == koda.RenderSucceeded {
			if _, err := b.storage.Put(ctx, r.VideoKey, strings.NewReader("the video")); err != nil {
				t.Fatal(err)
			}
			return r.ID
		}
	}
	t.Fatal("no succeeded final render")
	return ""
}

// TestDownloadRedirectsToSignedLinks: GET /v1/renders/{id}/video answers 307 to a link
// signed now for KODA_FILE_URL_TTL: presigned on a real S3 server process, the signed
// /files/ route on the local folder; each serves the video.
func TestDownloadRedirectsToSignedLinks(t *testing.T) {
	t.Run("S3", func(t *testing.T) {
		srv := kodatest.MustS3(t)
		b := setupWith(t, s3Store(t, srv, srv.AccessKey, srv.SecretKey))
		b.server.FileURLTTL = 2 * time.Hour
		id := finalRender(t, b)
		loc := redirect(t, b, id)
		if !strings.HasPrefix(loc, srv.Endpoint+"/") {
			t.Fatalf("redirect to %s, not to the bucket at %s", loc, srv.Endpoint)
		}
		u, _ := url.Parse(loc)
		if got := u.Query().Get("X-Amz-Expires"); got != "7200" {
			t.Errorf("presigned for %s s, want 7200 (KODA_FILE_URL_TTL)", got)
		}
		resp, err := http.Get(loc)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || string(body) != "the video" {
			t.Fatalf("GET presigned link: %d %q", resp.StatusCode, body)
		}
		denied(t, b, id)
	})
	t.Run("Local", func(t *testing.T) {
		local := storage.NewLocal(filepath.Join(t.TempDir(), "storage"), "http://files.test", []byte("signing"))
		b := setupWith(t, local)
		b.server.Files = local
		b.server.FileURLTTL = 2 * time.Hour
		id := finalRender(t, b)
		loc := redirect(t, b, id)
		u, err := url.Parse(loc)
		if err != nil || u.Host != "files.test" || !strings.HasPrefix(u.Path, "/files/") {
			t.Fatalf("redirect to %s, not to the signed /files/ route", loc)
		}
		exp, _ := strconv.ParseInt(u.Query().Get("exp"), 10, 64)
		if d := time.Until(time.Unix(exp, 0)); d < 119*time.Minute || d > 2*time.Hour {
			t.Errorf("link lives %s, want 2h (KODA_FILE_URL_TTL)", d)
		}
		// /files/ is outside the OpenAPI document (a link, not an API), so no b.do.
		resp, err := b.server.App().Test(httptest.NewRequest(http.MethodGet, u.RequestURI(), nil), -1)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || string(body) != "the video" {
			t.Fatalf("GET %s: %d %q", u.RequestURI(), resp.StatusCode, body)
		}
		denied(t, b, id)
	})
}

func redirect(t *testing.T, b *bundle, id string) string {
	t.Helper()
	r := b.do("acme", http.MethodGet, "/v1/renders/"+id+"/video", nil)
	if r.Status != http.StatusTemporaryRedirect || r.Header.Get("Location") == "" {
		t.Fatalf("download: %d %s %v", r.Status, r.Body, r.Header)
	}
	if cc := r.Header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control %q: a redirect to an expiring link must not be cached", cc)
	}
	return r.Header.Get("Location")
}

// denied: another tenant, a missing render and a file the render lacks answer 404.
func denied(t *testing.T, b *bundle, id string) {
	t.Helper()
	for _, tc := range []struct{ who, path string }{
		{"globex", "/v1/renders/" + id + "/video"},
		{"acme", "/v1/renders/" + koda.NewID(koda.PrefixRender) + "/video"},
		{"acme", "/v1/renders/" + id + "/thumbnail"}, // the test render has no thumbnail
	} {
		if r := b.do(tc.who, http.MethodGet, tc.path, nil); r.Status != http.StatusNotFound || r.code() != koda.CodeNotFound {
			t.Errorf("%s %s: %d %s, want 404 NOT_FOUND", tc.who, tc.path, r.Status, r.Body)
		}
	}
}

// TestUnsignableLinkIs503: S3 storage without credentials cannot presign; the API
// answers 503 with a JSON error instead of a render with empty links.
func TestUnsignableLinkIs503(t *testing.T) {
	srv := kodatest.MustS3(t)
	b := setupWith(t, s3Store(t, srv, srv.AccessKey, srv.SecretKey))
	id := finalRender(t, b)
	for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE",
		"AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_WEB_IDENTITY_TOKEN_FILE"} {
		t.Setenv(k, "")
	}
	none := filepath.Join(t.TempDir(), "none")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", none)
	t.Setenv("AWS_CONFIG_FILE", none)
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	b.server.Storage = s3Store(t, srv, "", "")
	for _, path := range []string{"/v1/renders/" + id, "/v1/renders/" + id + "/video"} {
		r := b.do("acme", http.MethodGet, path, nil)
		if r.Status != http.StatusServiceUnavailable || r.code() != s3.CodeURLUnsigned {
			t.Errorf("GET %s: %d %s, want 503 %s", path, r.Status, r.Body, s3.CodeURLUnsigned)
		}
	}
}

// TestSameSpecRendersDownloadOneFile: POST /v1/projects/{id}/renders for youtube,
// final, 1080p and tiktok queues two render tasks (tiktok is another frame shape, so
// no capture serves it and the 1080p60 renders together). Once the 1080p60 job stored its
// video, youtube, final and 1080p each answer with their own ID and preset, the same
// size, and a download link (presigned on a real S3 server process, signed /files/ on
// the local folder) to that one stored file; the batch counts all three done.
func TestSameSpecRendersDownloadOneFile(t *testing.T) {
	for name, open := range map[string]func(t *testing.T) *bundle{
		"S3": func(t *testing.T) *bundle {
			srv := kodatest.MustS3(t)
			return setupWith(t, s3Store(t, srv, srv.AccessKey, srv.SecretKey))
		},
		"Local": func(t *testing.T) *bundle {
			local := storage.NewLocal(filepath.Join(t.TempDir(), "storage"), "http://files.test", []byte("signing"))
			b := setupWith(t, local)
			b.server.Files = local
			return b
		},
	} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			b := open(t)
			p := b.create("acme", nil)
			b.complete("acme", p.ID)
			type batchJSON struct {
				ID                     string
				Total, Queued, Running int
				Succeeded, Failed      int
				Renders                []koda.RenderView
			}
			var bt batchJSON
			r := b.do("acme", http.MethodPost, "/v1/projects/"+p.ID+"/renders",
				map[string]any{"presets": []string{"youtube", "final", "1080p", "tiktok"}})
			r.decode(t, &bt)
			if r.Status != http.StatusAccepted || bt.Total != 4 || bt.Queued != 4 {
				t.Fatalf("request renders: %d %s", r.Status, r.Body)
			}
			byName := map[string]string{}
			tasks := 0
			for _, rv := range bt.Renders {
				byName[rv.Preset.Name] = rv.ID
				if _, err := b.insp.GetTaskInfo(jobs.QueueRender, jobs.RenderArgs{RenderID: rv.ID}.TaskID()); err == nil {
					tasks++
				}
			}
			if tasks != 2 {
				t.Fatalf("%d render tasks queued for the batch, want 2", tasks)
			}
			job := byName["youtube"]
			if _, err := b.insp.GetTaskInfo(jobs.QueueRender, jobs.RenderArgs{RenderID: job}.TaskID()); err != nil {
				t.Fatalf("youtube, the first of the 1080p60 renders, has no task: %v", err)
			}

			// The 1080p60 job as the render worker runs it.
			if _, run, err := b.life.StartRender(ctx, job); err != nil || !run {
				t.Fatal(run, err)
			}
			b.do("acme", http.MethodGet, "/v1/batches/"+bt.ID, nil).decode(t, &bt)
			if bt.Running != 3 || bt.Queued != 1 {
				t.Errorf("batch while the shared job runs: %d running, %d queued; want 3 and 1", bt.Running, bt.Queued)
			}
			out := lifecycle.RenderOutput{VideoKey: koda.RenderVideoKey(p.ID, job, "mp4"), ThumbKey: koda.RenderThumbKey(p.ID, job), Frames: 60}
			n, err := b.storage.Put(ctx, out.VideoKey, strings.NewReader("the shared video"))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := b.storage.Put(ctx, out.ThumbKey, strings.NewReader("the thumbnail")); err != nil {
				t.Fatal(err)
			}
			out.SizeBytes = n
			if _, err := b.life.FinishRender(ctx, job, out, nil); err != nil {
				t.Fatal(err)
			}

			for _, preset := range []string{"youtube", "final", "1080p"} {
				var rv koda.RenderView
				b.do("acme", http.MethodGet, "/v1/renders/"+byName[preset], nil).decode(t, &rv)
				if rv.ID != byName[preset] || rv.Preset.Name != preset || rv.Status != koda.RenderSucceeded || rv.SizeBytes != n {
					t.Errorf("%s: %s %s %q %d bytes", preset, rv.ID, rv.Status, rv.Preset.Name, rv.SizeBytes)
				}
				if got := fetch(t, b, redirect(t, b, byName[preset])); got != "the shared video" {
					t.Errorf("%s downloads %q", preset, got)
				}
				r := b.do("acme", http.MethodGet, "/v1/renders/"+byName[preset]+"/thumbnail", nil)
				if r.Status != http.StatusTemporaryRedirect || fetch(t, b, r.Header.Get("Location")) != "the thumbnail" {
					t.Errorf("%s thumbnail: %d", preset, r.Status)
				}
			}
			b.do("acme", http.MethodGet, "/v1/batches/"+bt.ID, nil).decode(t, &bt)
			if bt.Succeeded != 3 || bt.Queued != 1 {
				t.Errorf("batch after the shared job: %d succeeded, %d queued; want 3 and 1", bt.Succeeded, bt.Queued)
			}
		})
	}
}

// fetch GETs a download link: the bucket's, or the /files/ route of the app.
func fetch(t *testing.T, b *bundle, link string) string {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	var resp *http.Response
	if u.Host == "files.test" {
		resp, err = b.server.App().Test(httptest.NewRequest(http.MethodGet, u.RequestURI(), nil), -1)
	} else {
		resp, err = http.Get(link)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", link, resp.StatusCode, body)
	}
	return string(body)
}
