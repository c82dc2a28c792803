package workers

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/kodahq/koda"
)

// assetChunk is how much of an asset is held in memory while it is copied into a
// sandbox: a soundtrack may be 100 MB.
const assetChunk = 1 << 20

// copyProjectAssets puts the tenant's files the project uses into its folder (DESIGN
// §3.10) before the agent writes any code: assets/logo.png, assets/font.woff2, the
// pictures and the soundtrack, where the agent finds them and the renderer muxes the
// sound. A file already there (restored from a checkpoint) is left alone, so the
// project keeps its own copy: once checkpointed, deleting the asset changes nothing.
func (h *Handlers) copyProjectAssets(ctx context.Context, p *koda.Project, sb koda.Sandbox) error {
	for _, a := range p.Assets {
		if m, err := sb.Glob(ctx, a.File); err == nil && len(m) > 0 {
			continue
		}
		if err := h.copyAsset(ctx, a, sb); err != nil {
			return fmt.Errorf("copy asset %s (%s) into project %s: %w", a.ID, a.Role, p.ID, err)
		}
		h.log().InfoContext(ctx, "copied asset into project", "project", p.ID, "asset", a.ID, "role", a.Role, "file", a.File)
	}
	return nil
}

func (h *Handlers) copyAsset(ctx context.Context, a koda.ProjectAsset, sb koda.Sandbox) error {
	rc, err := h.Storage.Open(ctx, a.Key)
	if koda.ErrorKind(err) == koda.ENOTFOUND {
		// Deleted between the request and the copy, with no other asset holding its
		// bytes: the project cannot be made as asked, and a retry would not help.
		return koda.Errorf(koda.EUNPROCESSABLE, koda.CodeProjectAssetNotFound,
			"the %s asset %s was deleted before the project could copy it", a.Role, a.ID)
	}
	if err != nil {
		return err
	}
	defer rc.Close()
	buf := make([]byte, assetChunk)
	for first := true; ; first = false {
		n, rerr := io.ReadFull(rc, buf)
		if n > 0 || first {
			if _, err := sb.WriteFile(ctx, a.File, buf[:n], !first); err != nil {
				return err
			}
		}
		if errors.Is(rerr, io.EOF) || errors.Is(rerr, io.ErrUnexpectedEOF) {
			return nil
		}
		if rerr != nil {
			return fmt.Errorf("read %s: %w", a.Key, rerr)
		}
	}
}
