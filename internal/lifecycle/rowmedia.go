package lifecycle

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/kodahq/koda"
)

// urlFetches bounds the URLs of one batch fetched at once.
const urlFetches = 4

// rowMedia is what a batch's image and soundtrack values name, looked up once for the
// whole batch: the tenant's assets by id (those given by id, and those a URL was
// fetched into), and why each id or URL that failed cannot be used.
type rowMedia struct {
	assets map[string]*koda.Asset
	byURL  map[string]string // URL → the asset fetched from it
	failed map[string]error  // asset id or URL → why not
}

// resolveRowMedia looks up, before any row is filled, every asset id the rows' media
// fields name (the tenant's own only: another's reads as missing) and fetches every
// URL they give, once per batch however many rows give it, into the tenant's asset
// library through AssetFetch: checked as an upload is, stored content-addressed and
// counted in the tenant's asset bytes. A value that cannot be used becomes its rows'
// error; only a failure of Koda itself (the database, storage) fails the request.
func (s *Service) resolveRowMedia(ctx context.Context, tenant string, fields []koda.TemplateField, rows []map[string]json.RawMessage) (*rowMedia, error) {
	m := &rowMedia{assets: map[string]*koda.Asset{}, byURL: map[string]string{}, failed: map[string]error{}}
	ids, urls := map[string]bool{}, map[string]bool{}
	for _, f := range fields {
		if !f.Type.Media() {
			continue
		}
		for _, r := range rows {
			if raw, ok := r[f.Name]; ok && !sameValue(raw, f.Value) {
				id, u := koda.MediaValue(raw)
				if id != "" {
					ids[id] = true
				}
				if u != "" {
					urls[u] = true
				}
			}
		}
	}
	if len(ids) == 0 && len(urls) == 0 {
		return m, nil
	}
	if s.Assets == nil || (len(urls) > 0 && s.AssetFetch == nil) {
		return nil, koda.Errorf(koda.EUNAVAILABLE, koda.CodeUnavailable, "this server keeps no asset library: image and soundtrack values cannot be used")
	}
	for _, id := range slices.Sorted(maps.Keys(ids)) {
		a, err := s.tenantAsset(ctx, tenant, id)
		switch {
		case err == nil:
			m.assets[id] = a
		case koda.ErrorKind(err) == koda.EUNPROCESSABLE:
			m.failed[id] = err
		default:
			return nil, err
		}
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	slots := make(chan struct{}, urlFetches)
	var internal error
	for u := range urls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			a, err := s.AssetFetch.CreateFromURL(ctx, u, "")
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil && a.TenantID != tenant:
				internal = fmt.Errorf("fetched %s into tenant %s's library, not %s's", u, a.TenantID, tenant)
			case err == nil:
				m.assets[a.ID] = a
				m.byURL[u] = a.ID
			case koda.ErrorKind(err) == koda.EINTERNAL || koda.ErrorKind(err) == koda.EUNAVAILABLE:
				internal = fmt.Errorf("fetch %s: %w", u, err)
			default:
				m.failed[u] = err
			}
		}()
	}
	wg.Wait()
	if internal != nil {
		return nil, internal
	}
	s.log().InfoContext(ctx, "batch row media resolved", "tenant", tenant, "ids", len(ids), "urls", len(urls), "failed", len(m.failed))
	return m, nil
}

// row returns a row's values as Fill takes them (a URL replaced by the id of the asset
// fetched from it, a value that failed left out) and the errors of those that failed,
// naming the field.
func (m *rowMedia) row(fields []koda.TemplateField, values map[string]json.RawMessage) (map[string]json.RawMessage, []koda.FieldError) {
	var out map[string]json.RawMessage
	var bad []koda.FieldError
	for _, f := range fields {
		raw, ok := values[f.Name]
		if !f.Type.Media() || !ok || sameValue(raw, f.Value) {
			continue
		}
		id, u := koda.MediaValue(raw)
		key := id + u
		if key == "" {
			continue // Fill says what it takes
		}
		if out == nil {
			out = maps.Clone(values)
		}
		if err, failed := m.failed[key]; failed {
			bad = append(bad, koda.FieldError{Field: f.Name, Code: koda.ErrorCode(err), Message: f.Name + ": " + koda.ErrorMessage(err)})
			delete(out, f.Name)
			continue
		}
		if u != "" {
			b, _ := json.Marshal(m.byURL[u])
			out[f.Name] = b
		}
	}
	if out == nil {
		return values, nil
	}
	return out, bad
}

// sameValue: a row's value is the field's current one (the template's own file).
func sameValue(raw, cur json.RawMessage) bool {
	var a, b string
	return json.Unmarshal(raw, &a) == nil && json.Unmarshal(cur, &b) == nil && strings.TrimSpace(a) == b
}
