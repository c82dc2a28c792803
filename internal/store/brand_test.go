package store_test

import (
	"testing"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/store"
)

// A tenant's brand kit is missing until put, round-trips, is replaced whole by a second
// put, and is the tenant's own.
func testBrand(t *testing.T, s *store.Store) {
	ctx := t.Context()
	_, err := s.GetBrand(ctx, "t1")
	mustKind(t, "brand never put", err, koda.ENOTFOUND)
	b := &koda.Brand{TenantID: "t1", Logo: "ast_logo", Font: "ast_font", Soundtrack: "ast_song",
		Colors:  koda.BrandColors{Primary: "#ff5500", Secondary: "#112233", Background: "#000000", Text: "#ffffff"},
		EndCard: "Acme — ünïcode ✓"}
	if err := s.PutBrand(ctx, b); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetBrand(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	b.UpdatedAt = got.UpdatedAt
	mustEqual(t, "brand", got, b)
	b2 := &koda.Brand{TenantID: "t1", Colors: koda.BrandColors{Primary: "#00ff00"}}
	if err := s.PutBrand(ctx, b2); err != nil {
		t.Fatal(err)
	}
	got, err = s.GetBrand(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	if got.Logo != "" || got.EndCard != "" || got.Colors.Primary != "#00ff00" || got.Colors.Text != "" {
		t.Errorf("second put did not replace the kit: %+v", got)
	}
	_, err = s.GetBrand(ctx, "t2")
	mustKind(t, "another tenant's brand", err, koda.ENOTFOUND)
}
