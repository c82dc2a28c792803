package renderer

import (
	"context"

	"github.com/chromedp/cdproto/cdp"
)

// WithoutBeginFrame makes r's browsers look like a Chromium build that dropped
// HeadlessExperimental: the begin-frame probe calls a method this browser does not have,
// and fails the way HeadlessExperimental.beginFrame fails on such a build.
func WithoutBeginFrame(r *Renderer) {
	r.probeBeginFrame = func(ctx context.Context) error {
		return cdp.Execute(ctx, "HeadlessExperimental.kodaNoSuchMethod", nil, nil)
	}
}
