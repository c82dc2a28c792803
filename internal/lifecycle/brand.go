package lifecycle

import (
	"context"
	"fmt"

	"github.com/kodahq/koda"
)

// resolveAssets turns a request's asset references, and unless noBrand the tenant's
// brand kit, into the project's assets and its copy of the kit. An asset of another
// tenant reads as missing. A kit's asset deleted since the kit was saved is left out
// (the kit outlives its files); a request's is refused.
func (s *Service) resolveAssets(ctx context.Context, tenant string, refs []koda.AssetRef, noBrand bool) ([]koda.ProjectAsset, *koda.Brand, error) {
	var brand *koda.Brand
	if !noBrand && s.Brands != nil {
		b, err := s.Brands.GetBrand(ctx, tenant)
		switch {
		case err == nil:
			brand = b
		case koda.ErrorKind(err) != koda.ENOTFOUND:
			return nil, nil, fmt.Errorf("brand of tenant %s: %w", tenant, err)
		}
	}
	if len(refs) == 0 && brand == nil {
		return nil, nil, nil
	}
	if s.Assets == nil {
		if len(refs) > 0 {
			return nil, nil, koda.Errorf(koda.EUNAVAILABLE, koda.CodeUnavailable, "this server keeps no asset library")
		}
		return nil, brand, nil
	}
	taken := map[string]bool{}
	var out []koda.ProjectAsset
	has := map[koda.AssetRole]bool{}
	for i, ref := range refs {
		a, err := s.tenantAsset(ctx, tenant, ref.ID)
		if err != nil {
			return nil, nil, fmt.Errorf("assets[%d]: %w", i, err)
		}
		pa, err := koda.ProjectAssetFor(ref, a, taken)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, pa)
		has[ref.Role] = true
	}
	if brand != nil {
		// The request's own logo, font or soundtrack wins over the kit's.
		for _, ref := range brand.Refs() {
			if has[ref.Role] {
				continue
			}
			a, err := s.tenantAsset(ctx, tenant, ref.ID)
			if koda.ErrorCode(err) == koda.CodeProjectAssetNotFound {
				s.log().WarnContext(ctx, "brand kit names a missing asset; left out", "tenant", tenant, "asset", ref.ID, "role", ref.Role)
				continue
			}
			if err != nil {
				return nil, nil, err
			}
			pa, err := koda.ProjectAssetFor(ref, a, taken)
			if err != nil {
				s.log().WarnContext(ctx, "brand kit asset no longer fits its role; left out", "tenant", tenant, "asset", ref.ID, "err", err)
				continue
			}
			pa.FromBrand = true
			out = append(out, pa)
		}
	}
	return out, brand, nil
}

// tenantAsset returns the tenant's asset id; another tenant's reads as missing. A
// missing asset is EUNPROCESSABLE, not ENOTFOUND: the request's resource (a project,
// the kit) exists, what it names does not.
func (s *Service) tenantAsset(ctx context.Context, tenant, id string) (*koda.Asset, error) {
	a, err := s.Assets.GetAsset(ctx, id)
	if koda.ErrorKind(err) == koda.ENOTFOUND || err == nil && a.TenantID != tenant {
		return nil, koda.Errorf(koda.EUNPROCESSABLE, koda.CodeProjectAssetNotFound, "asset %s not found", id)
	}
	if err != nil {
		return nil, fmt.Errorf("asset %s: %w", id, err)
	}
	return a, nil
}

// GetBrand returns the caller's brand kit, or ENOTFOUND when it has none.
func (s *Service) GetBrand(ctx context.Context) (*koda.Brand, error) {
	if s.Brands == nil {
		return nil, koda.Errorf(koda.EUNAVAILABLE, koda.CodeUnavailable, "this server keeps no brand kits")
	}
	return s.Brands.GetBrand(ctx, tenantOf(ctx))
}

// PutBrand checks and saves the caller's brand kit: colours are hex, and the logo,
// font and soundtrack are the caller's own assets of the kind their role takes.
func (s *Service) PutBrand(ctx context.Context, b *koda.Brand) (*koda.Brand, error) {
	if s.Brands == nil {
		return nil, koda.Errorf(koda.EUNAVAILABLE, koda.CodeUnavailable, "this server keeps no brand kits")
	}
	b.TenantID = tenantOf(ctx)
	if err := b.Validate(); err != nil {
		return nil, err
	}
	refs := b.Refs()
	if len(refs) > 0 && s.Assets == nil {
		return nil, koda.Errorf(koda.EUNAVAILABLE, koda.CodeUnavailable, "this server keeps no asset library")
	}
	for _, ref := range refs {
		a, err := s.tenantAsset(ctx, b.TenantID, ref.ID)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ref.Role, err)
		}
		if _, err := koda.ProjectAssetFor(ref, a, map[string]bool{}); err != nil {
			return nil, err
		}
	}
	if err := s.Brands.PutBrand(ctx, b); err != nil {
		return nil, fmt.Errorf("save brand of tenant %s: %w", b.TenantID, err)
	}
	return b, nil
}
