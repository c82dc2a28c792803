package renderer

import (
	"sync"
	"time"

	"github.com/kodahq/koda"
)

// progressInterval keeps callbacks to about ten a second; stage changes always report.
const progressInterval = 100 * time.Millisecond

// progress reports a render's stage and frames with a percent that never decreases.
// Capturing spans 5–95 %: frames are piped to the encoder as they arrive, so what is
// left after the last frame is only the encoder's flush.
type progress struct {
	mu      sync.Mutex
	fn      func(koda.RenderProgress)
	total   int
	cur     koda.RenderProgress
	lastOut time.Time
}

func newProgress(fn func(koda.RenderProgress), total int) *progress {
	return &progress{fn: fn, total: total, cur: koda.RenderProgress{FramesTotal: total}}
}

func (p *progress) stage(stage string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cur.Stage = stage
	switch stage {
	case koda.StagePreparing:
		p.raise(0)
	case koda.StageCapturing:
		p.raise(5)
	case koda.StageEncoding:
		p.cur.FramesDone = p.total
		p.raise(95)
	case koda.StageDone:
		p.cur.FramesDone = p.total
		p.raise(100)
	}
	p.emit()
}

func (p *progress) frames(done int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cur.Stage != koda.StageCapturing {
		p.cur.Stage = koda.StageCapturing
		p.raise(5)
		p.lastOut = time.Time{}
	}
	if done > p.cur.FramesDone {
		p.cur.FramesDone = done
	}
	p.raise(5 + 90*float64(p.cur.FramesDone)/float64(max(p.total, 1)))
	if time.Since(p.lastOut) >= progressInterval || done == p.total {
		p.emit()
	}
}

func (p *progress) raise(pct float64) {
	if pct > p.cur.Percent {
		p.cur.Percent = float64(int(pct*10)) / 10
	}
}

func (p *progress) emit() {
	p.lastOut = time.Now()
	if p.fn != nil {
		p.fn(p.cur)
	}
}
