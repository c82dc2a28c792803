package koda

import "context"

type tenantKey struct{}

// DefaultTenant owns everything on a single-user deployment.
const DefaultTenant = "default"

// NewContextWithTenant returns ctx carrying the caller's tenant.
func NewContextWithTenant(ctx context.Context, tenantID string) context.Context {
	return context.WithValue(ctx, tenantKey{}, tenantID)
}

// TenantFromContext returns the caller's tenant, or "" for internal callers (workers)
// that may see every tenant's resources.
func TenantFromContext(ctx context.Context) string {
	t, _ := ctx.Value(tenantKey{}).(string)
	return t
}
