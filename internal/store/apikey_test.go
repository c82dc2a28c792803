package store_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/store"
)

// testAPIKeyCapAndPages: concurrent creations never pass a tenant's cap of active keys,
// a revoked key makes room, and pages of one tenant's keys hold nothing of another's.
func testAPIKeyCapAndPages(t *testing.T, s *store.Store) {
	ctx := context.Background()
	for _, id := range []string{"capped", "other"} {
		if err := s.CreateTenant(ctx, &koda.Tenant{ID: id, CreatedAt: ts(1)}); err != nil {
			t.Fatal(err)
		}
	}
	newKey := func(tenant string, i int) *koda.APIKey {
		return &koda.APIKey{TenantID: tenant, Name: fmt.Sprint(i), Prefix: "koda_x",
			Hash: fmt.Sprintf("%s-%d-%d", tenant, i, time.Now().UnixNano())}
	}
	const max = 3
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		created []string
		refused int
	)
	for i := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k := newKey("capped", i)
			err := s.CreateAPIKey(ctx, k, max)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				created = append(created, k.ID)
			case koda.ErrorCode(err) == koda.CodeLimitAPIKeys && koda.ErrorKind(err) == koda.ECONFLICT:
				refused++
			default:
				t.Errorf("create key %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	if len(created) != max || refused != 12-max {
		t.Fatalf("12 concurrent creations under a cap of %d: %d created, %d refused", max, len(created), refused)
	}
	// Another tenant's keys do not count against this one's cap, nor the reverse.
	for i := range 5 {
		if err := s.CreateAPIKey(ctx, newKey("other", i), 5); err != nil {
			t.Fatalf("other tenant's key %d: %v", i, err)
		}
	}
	if err := s.CreateAPIKey(ctx, newKey("capped", 99), max); koda.ErrorCode(err) != koda.CodeLimitAPIKeys {
		t.Fatalf("one more key at the cap: %v, want %s", err, koda.CodeLimitAPIKeys)
	}
	if err := s.RevokeAPIKey(ctx, created[0], ts(2)); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateAPIKey(ctx, newKey("capped", 100), max); err != nil {
		t.Fatalf("a key after revoking one: %v", err)
	}
	if err := s.CreateAPIKey(ctx, newKey("capped", 101), 0); err != nil {
		t.Fatalf("no cap: %v", err)
	}
	mustKind(t, "key of a missing tenant", s.CreateAPIKey(ctx, newKey("nobody", 1), max), koda.ENOTFOUND)

	// Pages of two walk all five of capped's keys (the revoked one included) in ID order.
	all, err := s.ListAPIKeys(ctx, koda.APIKeyFilter{TenantID: "capped"})
	if err != nil || len(all) != 5 {
		t.Fatalf("all keys of capped: %d %v", len(all), err)
	}
	var walked []string
	after := ""
	for range 10 {
		page, err := s.ListAPIKeys(ctx, koda.APIKeyFilter{TenantID: "capped", AfterID: after, Limit: 2})
		if err != nil {
			t.Fatal(err)
		}
		if len(page) > 2 {
			t.Fatalf("page of %d keys, limit 2", len(page))
		}
		if len(page) == 0 {
			break
		}
		for _, k := range page {
			if k.TenantID != "capped" {
				t.Fatalf("capped's page holds %s's key %s", k.TenantID, k.ID)
			}
			walked = append(walked, k.ID)
		}
		after = page[len(page)-1].ID
	}
	var want []string
	for _, k := range all {
		want = append(want, k.ID)
	}
	mustEqual(t, "keys walked in pages", walked, want)
	for i := 1; i < len(walked); i++ {
		if walked[i] <= walked[i-1] {
			t.Fatalf("keys out of ID order: %v", walked)
		}
	}
}

// testDeleteTenant: deleting a tenant marks it deleted (the first time kept), revokes
// every key of it and no other tenant's, and refuses new keys for it afterwards.
func testDeleteTenant(t *testing.T, s *store.Store) {
	ctx := context.Background()
	for _, id := range []string{"doomed", "bystander"} {
		if err := s.CreateTenant(ctx, &koda.Tenant{ID: id, CreatedAt: ts(1)}); err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			k := &koda.APIKey{TenantID: id, Name: fmt.Sprint(i), Prefix: "koda_x", Hash: fmt.Sprintf("del-%s-%d", id, i)}
			if err := s.CreateAPIKey(ctx, k, 0); err != nil {
				t.Fatal(err)
			}
		}
	}
	mustKind(t, "delete a missing tenant", s.DeleteTenant(ctx, "nobody", ts(2)), koda.ENOTFOUND)
	if err := s.DeleteTenant(ctx, "doomed", ts(2)); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteTenant(ctx, "doomed", ts(9)); err != nil {
		t.Fatalf("delete again: %v", err)
	}
	got, err := s.GetTenant(ctx, "doomed")
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "deleted_at (the first deletion's)", got.DeletedAt, ptr(ts(2)))
	if other, _ := s.GetTenant(ctx, "bystander"); other == nil || other.DeletedAt != nil {
		t.Fatalf("the other tenant: %+v", other)
	}
	for _, id := range []string{"doomed", "bystander"} {
		ks, err := s.ListAPIKeys(ctx, koda.APIKeyFilter{TenantID: id})
		if err != nil || len(ks) != 3 {
			t.Fatalf("keys of %s: %d %v", id, len(ks), err)
		}
		for _, k := range ks {
			if revoked := k.RevokedAt != nil; revoked != (id == "doomed") {
				t.Errorf("key %s of %s: revoked_at %v", k.Name, id, k.RevokedAt)
			}
		}
	}
	err = s.CreateAPIKey(ctx, &koda.APIKey{TenantID: "doomed", Name: "late", Prefix: "koda_x", Hash: "del-late"}, 0)
	if koda.ErrorKind(err) != koda.ECONFLICT || koda.ErrorCode(err) != koda.CodeTenantDeleted {
		t.Fatalf("a key for a deleted tenant: %v, want %s", err, koda.CodeTenantDeleted)
	}
	// Saving the tenant (new limits, a rotated secret) keeps it deleted.
	got.Name = "renamed"
	if err := s.UpdateTenant(ctx, got); err != nil {
		t.Fatal(err)
	}
	if again, _ := s.GetTenant(ctx, "doomed"); again == nil || again.DeletedAt == nil {
		t.Fatalf("after an update: %+v", again)
	}
}
