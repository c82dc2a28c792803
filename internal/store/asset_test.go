package store_test

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/store"
)

func newAsset(tenant, sha string, size int64) *koda.Asset {
	return &koda.Asset{ID: koda.NewID(koda.PrefixAsset), TenantID: tenant, Kind: koda.AssetImage, Format: "png",
		SourceFormat: "webp", MediaType: "image/png", Size: size, SHA256: sha, Key: koda.AssetKey(tenant, sha, "png"),
		Width: 3, Height: 4, Name: "ünï.png", CreatedAt: ts(1)}
}

// Assets round-trip; content shared by two assets is counted and kept once; the
// quota refuses only new content; deleting the last holder of content releases it.
func testAssets(t *testing.T, s *store.Store) {
	ctx := t.Context()
	ensured := 0
	ensure := func() error { ensured++; return nil }
	a := newAsset("t1", "aaa", 100)
	if err := s.CreateAsset(ctx, a, 0, ensure); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetAsset(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "asset", got, a)
	b := newAsset("t1", "aaa", 100) // the same content again
	if err := s.CreateAsset(ctx, b, 150, ensure); err != nil {
		t.Fatalf("content already held must pass the quota: %v", err)
	}
	if ensured != 1 {
		t.Errorf("ensure called %d times, want once (for new content only)", ensured)
	}
	if n, err := s.AssetBytes(ctx, "t1"); err != nil || n != 100 {
		t.Errorf("asset bytes %d, %v; want 100 (shared content counted once)", n, err)
	}
	err = s.CreateAsset(ctx, newAsset("t1", "bbb", 60), 150, ensure)
	mustKind(t, "new content over the quota", err, koda.ELIMIT)
	if koda.ErrorCode(err) != koda.CodeLimitAssetBytes {
		t.Errorf("code %s", koda.ErrorCode(err))
	}
	if err := s.CreateAsset(ctx, newAsset("t2", "bbb", 60), 150, ensure); err != nil {
		t.Errorf("another tenant: %v", err)
	}
	// ensure's error rolls the row back.
	c := newAsset("t1", "ccc", 1)
	if err := s.CreateAsset(ctx, c, 0, func() error { return errors.New("storage down") }); err == nil {
		t.Fatal("ensure's error was ignored")
	}
	_, err = s.GetAsset(ctx, c.ID)
	mustKind(t, "asset whose content could not be stored", err, koda.ENOTFOUND)

	fonts, err := s.ListAssets(ctx, koda.AssetFilter{TenantID: "t1", Kind: koda.AssetFont})
	if err != nil || len(fonts) != 0 {
		t.Errorf("fonts %v, %v", fonts, err)
	}
	page, err := s.ListAssets(ctx, koda.AssetFilter{TenantID: "t1", Limit: 1})
	if err != nil || len(page) != 1 || page[0].ID != a.ID {
		t.Fatalf("first page %v, %v", page, err)
	}
	page, err = s.ListAssets(ctx, koda.AssetFilter{TenantID: "t1", AfterID: a.ID})
	if err != nil || len(page) != 1 || page[0].ID != b.ID {
		t.Fatalf("after %s: %v, %v", a.ID, page, err)
	}

	var released []string
	release := func(key string) error { released = append(released, key); return nil }
	if err := s.DeleteAsset(ctx, a.ID, release); err != nil {
		t.Fatal(err)
	}
	if len(released) != 0 {
		t.Errorf("released %v while another asset holds the content", released)
	}
	if err := s.DeleteAsset(ctx, b.ID, func(string) error { return errors.New("storage down") }); err == nil {
		t.Fatal("release's error was ignored")
	}
	if _, err := s.GetAsset(ctx, b.ID); err != nil {
		t.Fatalf("a deletion whose release failed must keep the row: %v", err)
	}
	if err := s.DeleteAsset(ctx, b.ID, release); err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "released", released, []string{koda.AssetKey("t1", "aaa", "png")})
	mustKind(t, "delete twice", s.DeleteAsset(ctx, b.ID, release), koda.ENOTFOUND)
	called := false
	if err := s.ReleaseAssetContent(ctx, "t2", "bbb", func() error { called = true; return nil }); err != nil || called {
		t.Errorf("content t2 holds released: %v %v", called, err)
	}
	if err := s.ReleaseAssetContent(ctx, "t1", "bbb", func() error { called = true; return nil }); err != nil || !called {
		t.Errorf("content t1 does not hold kept: %v %v", called, err)
	}
}

// Uploads of different content racing for the last bytes of a quota: exactly as
// many pass as fit.
func testAssetQuotaRace(t *testing.T, s *store.Store) {
	ctx := t.Context()
	var ok, limited atomic.Int32
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := s.CreateAsset(ctx, newAsset("race", fmt.Sprintf("sha%d", i), 100), 300, nil)
			switch {
			case err == nil:
				ok.Add(1)
			case koda.ErrorKind(err) == koda.ELIMIT:
				limited.Add(1)
			default:
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if ok.Load() != 3 || limited.Load() != 5 {
		t.Errorf("%d uploads passed and %d were limited; want 3 and 5", ok.Load(), limited.Load())
	}
}
