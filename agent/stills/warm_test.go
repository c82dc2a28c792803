package stills_test

import (
	"context"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kodahq/koda/agent/critic"
	"github.com/kodahq/koda/agent/scene"
	"github.com/kodahq/koda/agent/stills"
	"github.com/kodahq/koda/renderer"
)

// gone reports whether no process pid runs any more (a zombie counts as gone: it
// draws nothing).
func gone(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	// The state follows the parenthesised command name.
	for i := len(b) - 1; i > 0; i-- {
		if b[i] == ')' && i+2 < len(b) {
			return b[i+2] == 'Z' || b[i+2] == 'X'
		}
	}
	return false
}

// TestWarmBrowserIsSharedAndReplaced: critic checks through a Camera with a Warm
// browser all run in one Chromium process; a killed one is replaced at the next look,
// and Close ends it.
func TestWarmBrowserIsSharedAndReplaced(t *testing.T) {
	w := &stills.Warm{Chromium: renderer.FindChromium()}
	t.Cleanup(w.Close)
	cam := &stills.Camera{Warm: w}
	ctx := context.Background()
	d := base(&scene.Element{ID: "ball", Type: scene.TypeCircle, Size: 0.12, Y: -0.2, Color: "#e53935"})
	pid := func() int {
		t.Helper()
		br, err := w.Browser(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return br.PID()
	}
	check := func(what string) {
		t.Helper()
		if _, _, err := critic.RepairStills(ctx, cam, d, critic.Landscape); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		st, err := cam.Look(ctx, d, critic.Portrait, []float64{3})
		if err != nil || len(st) != 1 || len(st[0].Elements) != 1 || st[0].Elements[0].Box == nil {
			t.Fatalf("%s: stills %+v, %v", what, st, err)
		}
	}

	check("first check")
	first := pid()
	if first == 0 {
		t.Fatal("the shared browser has no process ID")
	}
	check("second check")
	if p := pid(); p != first {
		t.Fatalf("the second check ran in browser %d, the first in %d", p, first)
	}

	// A killed browser is replaced by the next look, which succeeds.
	if err := syscall.Kill(first, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !gone(first) {
		if time.Now().After(deadline) {
			t.Fatalf("browser %d still runs after SIGKILL", first)
		}
		time.Sleep(20 * time.Millisecond)
	}
	check("a check after the browser was killed")
	second := pid()
	if second == first || gone(second) {
		t.Fatalf("after the kill: browser %d (gone %v), killed %d", second, gone(second), first)
	}
	check("another check")
	if p := pid(); p != second {
		t.Fatalf("the replacement was not kept: %d, then %d", second, p)
	}

	// Close ends the browser and refuses later looks.
	w.Close()
	deadline = time.Now().Add(10 * time.Second)
	for !gone(second) {
		if time.Now().After(deadline) {
			t.Fatalf("browser %d still runs after Close", second)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := cam.Look(ctx, d, critic.Landscape, []float64{3}); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Fatalf("a look after Close: %v, want a refusal naming the closed browser", err)
	}
}
