package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/schollz/progressbar/v3"
)

// meterEvery and meterStep pace a meter's lines when nobody watches a terminal: a log
// or a pipe gets a line when progress crosses a tenth, or every few seconds while it
// moves, never the bar's carriage-return redraws.
const (
	meterEvery = 5 * time.Second
	meterStep  = 10
)

// meter shows one task's progress to a person: a bar on a terminal, elsewhere a line
// with the stage, frames and rate.
type meter struct {
	w     io.Writer
	name  string
	bar   *progressbar.ProgressBar
	start time.Time
	now   func() time.Time

	lastAt   time.Time
	lastPct  int
	lastDone int
	done     bool
}

// newMeter makes a meter for name on w; tty says whether w is a terminal (see
// isTerminal), which decides between the bar and lines.
func newMeter(w io.Writer, name string, tty bool) *meter {
	m := &meter{w: w, name: name, start: time.Now(), now: time.Now, lastPct: -1}
	if tty {
		m.bar = progressbar.NewOptions(100, progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription(name), progressbar.OptionSetWidth(30),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }))
	}
	return m
}

// isTerminal reports whether w is a terminal a bar can redraw on.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())) && os.Getenv("TERM") != "dumb"
}

// Set records progress: percent of the whole, and the stage and frames when known.
func (m *meter) Set(percent float64, stage string, framesDone, framesTotal int) {
	if m.done {
		return
	}
	pct := int(percent)
	if m.bar != nil {
		if framesTotal > 0 {
			m.bar.Describe(fmt.Sprintf("%s %s %d/%d frames", m.name, stage, framesDone, framesTotal))
		} else if stage != "" {
			m.bar.Describe(m.name + " " + stage)
		}
		_ = m.bar.Set(pct)
		return
	}
	now := m.now()
	crossed := pct/meterStep > m.lastPct/meterStep
	if !crossed && (now.Sub(m.lastAt) < meterEvery || framesDone == m.lastDone) {
		return
	}
	m.lastAt, m.lastPct, m.lastDone = now, pct, framesDone
	fmt.Fprintln(m.w, m.line(pct, stage, framesDone, framesTotal, now))
}

func (m *meter) line(pct int, stage string, framesDone, framesTotal int, now time.Time) string {
	s := fmt.Sprintf("%s: %3d%%", m.name, pct)
	if stage != "" {
		s += " " + stage
	}
	if framesTotal > 0 {
		s += fmt.Sprintf(" %d/%d frames", framesDone, framesTotal)
		if el := now.Sub(m.start).Seconds(); el > 0 && framesDone > 0 {
			s += fmt.Sprintf(" (%.1f frames/s)", float64(framesDone)/el)
		}
	}
	return s
}

// Finish ends the meter at 100 %.
func (m *meter) Finish() {
	if m.done {
		return
	}
	if m.bar != nil {
		_ = m.bar.Finish()
	} else if m.lastPct < 100 {
		fmt.Fprintf(m.w, "%s: 100%% done in %.1fs\n", m.name, m.now().Sub(m.start).Seconds())
	}
	m.done = true
}

// Exit ends the meter where it is (a failure), leaving the cursor on a fresh line.
func (m *meter) Exit() {
	if m.done {
		return
	}
	if m.bar != nil {
		_ = m.bar.Exit()
		fmt.Fprintln(m.w)
	}
	m.done = true
}
