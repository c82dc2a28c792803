package builtin_test

import (
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kodahq/koda/agent/scene"
)

// motionsOf lists the motions of every element, "element:type".
func motionsOf(d *scene.Description) map[string][]*scene.Motion {
	out := map[string][]*scene.Motion{}
	for _, e := range d.Elements {
		for _, m := range e.Motions {
			out[m.Type] = append(out[m.Type], m)
		}
	}
	return out
}

func elementsOf(d *scene.Description, typ string) []*scene.Element {
	var out []*scene.Element
	for _, e := range d.Elements {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

// TestMotionVerbPrompts generates the prompts of issue 11 that name motion verbs and
// checks the scene plays the motion asked for, with its counts; it renders four frames
// of each and, with KODA_SHEET_DIR set, writes them as a contact sheet to look at.
func TestMotionVerbPrompts(t *testing.T) {
	cases := []struct {
		prompt string
		check  func(t *testing.T, d *scene.Description)
	}{
		{"A paper plane flies from left to right leaving a dotted trail", func(t *testing.T, d *scene.Description) {
			fl := motionsOf(d)[scene.MotionFly]
			if len(fl) != 1 || fl[0].Trail != "dotted" || fl[0].ToX <= fl[0].FromX {
				t.Fatalf("fly motions %+v, want one left-to-right flight with a dotted trail", fl)
			}
		}},
		{"A heart beats twice and then fills with pink", func(t *testing.T, d *scene.Description) {
			ms := motionsOf(d)
			pulse, fill := ms[scene.MotionPulse], ms[scene.MotionFill]
			var beats []*scene.Motion
			for _, p := range pulse {
				if p.Amp >= 0.15 {
					beats = append(beats, p)
				}
			}
			if len(beats) != 1 || beats[0].Count != 2 {
				t.Errorf("heartbeats %+v, want one pulse of two beats", beats)
			}
			if len(fill) != 1 || fill[0].Color != "#ec407a" || (len(beats) == 1 && fill[0].Start < beats[0].End) {
				t.Errorf("fill %+v, want pink after the beats", fill)
			}
		}},
		{"A square morphs into a circle and then into a triangle", func(t *testing.T, d *scene.Description) {
			ms := elementsOf(d, scene.TypeMorph)
			if len(ms) != 1 || strings.Join(ms[0].Shapes, ",") != "square,circle,triangle" {
				t.Fatalf("morph elements %+v, want one square→circle→triangle", ms)
			}
			if n := len(elementsOf(d, scene.TypeCircle)) + len(elementsOf(d, scene.TypeRect)) + len(elementsOf(d, scene.TypeTriangle)); n != 0 {
				t.Errorf("%d still shapes beside the morph", n)
			}
			if m := motionsOf(d)[scene.MotionMorph]; len(m) != 1 || m[0].Count != 2 {
				t.Errorf("morph motions %+v, want two changes", m)
			}
		}},
		{`Two speech bubbles pop in alternately saying "Hi!" and "Hello!"`, func(t *testing.T, d *scene.Description) {
			var said []string
			for _, e := range d.Elements {
				if e.Type == scene.TypeText {
					t.Errorf("the words are shown as a title %q, not in the bubbles", e.Text)
				}
				if e.Type == scene.TypeIcon && e.Variant == "chat" {
					said = append(said, e.Text)
					if len(e.Motions) == 0 {
						t.Errorf("bubble %q does not pop", e.Text)
					}
				}
			}
			if strings.Join(said, "|") != "Hi!|Hello!" {
				t.Errorf("bubbles say %q, want Hi! then Hello!", said)
			}
		}},
		{"A chat bubble shows three typing dots, then the message 'On my way!'", func(t *testing.T, d *scene.Description) {
			var dots, message *scene.Element
			for _, e := range d.Elements {
				switch {
				case e.Type == scene.TypeText:
					t.Errorf("the message is shown as a title %q, not in a bubble", e.Text)
				case e.Type == scene.TypeCircle:
					t.Errorf("a dot %s beside the bubble: the typing dots are the bubble's own", e.ID)
				case e.Type == scene.TypeIcon && e.Variant == "chat" && e.Text == "":
					dots = e
				case e.Type == scene.TypeIcon && e.Variant == "chat" && e.Text == "On my way!":
					message = e
				}
			}
			if dots == nil || message == nil {
				t.Fatalf("bubbles: typing %v, message %v; want a bubble of dots, then one saying the message", dots, message)
			}
			if message.Start < 1 || dots.End == 0 || dots.End > message.Start+0.5 {
				t.Errorf("typing bubble ends at %v, message starts at %v: want the dots first, then the message in their place", dots.End, message.Start)
			}
		}},
		{"a ball bounces three times and settles", func(t *testing.T, d *scene.Description) {
			b := motionsOf(d)[scene.MotionBounce]
			if len(b) != 1 || b[0].Count != 3 || b[0].Squash == 0 || b[0].End >= d.Duration-0.5 {
				t.Errorf("bounces %+v, want exactly one of three hops with squash, ending before the last half second", b)
			}
		}},
	}
	var sheet []image.Image
	for _, c := range cases {
		t.Run(strings.Fields(c.prompt)[1], func(t *testing.T) {
			_, sb, _ := generate(t, c.prompt, "", 0)
			d := readScene(t, sb)
			c.check(t, d)
			var times []float64
			for _, f := range []float64{0.12, 0.4, 0.65, 0.97} {
				times = append(times, d.Duration*f)
			}
			cap := render(t, browser(t), sb.Dir(), 480, 270, times...)
			for i, f := range cap.frames {
				if lumaStd(f) < 2 {
					t.Errorf("frame %d is blank", i)
				}
			}
			sheet = append(sheet, cap.frames...)
		})
	}
	if dir := os.Getenv("KODA_SHEET_DIR"); dir != "" && len(sheet) > 0 {
		writeSheet(t, filepath.Join(dir, "motion-verbs.png"), sheet, 4)
	}
}

func writeSheet(t *testing.T, path string, frames []image.Image, cols int) {
	t.Helper()
	w, h := frames[0].Bounds().Dx(), frames[0].Bounds().Dy()
	rows := (len(frames) + cols - 1) / cols
	out := image.NewRGBA(image.Rect(0, 0, cols*(w+4), rows*(h+4)))
	for i, f := range frames {
		x, y := (i%cols)*(w+4), (i/cols)*(h+4)
		draw.Draw(out, image.Rect(x, y, x+w, y+h), f, f.Bounds().Min, draw.Src)
	}
	fh, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	if err := png.Encode(fh, out); err != nil {
		t.Fatal(err)
	}
	t.Log(fmt.Sprintf("contact sheet: %s", path))
}

// TestMotionVerbsReachTheScene: each verb of a prompt ends up as its motion program on
// a drawn element; the frames go to a second contact sheet.
func TestMotionVerbsReachTheScene(t *testing.T) {
	var sheet []image.Image
	for _, c := range []struct{ prompt, motion string }{
		{"Two planets orbit around a yellow sun", scene.MotionOrbit},
		{"A red ball bobs on the water", scene.MotionBob},
		{"A price tag swings gently", scene.MotionSwing},
		{"Steam rises from a coffee cup", scene.MotionRise},
		{"The DVD logo bounces off the edges and changes colour", scene.MotionRicochet},
		{"Four tiles flip one by one", scene.MotionFlip},
		{"A star twinkles three times", scene.MotionTwinkle},
		{"A pen draws a heart", scene.MotionDraw},
		{"A red ball slams into view", scene.MotionSlam},
		{"A rocket flies across the screen in a wavy line", scene.MotionFly},
		{"Typewriter typing 'Hello, world'", scene.MotionType},
	} {
		t.Run(strings.Join(strings.Fields(c.prompt)[:3], "_"), func(t *testing.T) {
			_, sb, _ := generate(t, c.prompt, "", 0)
			d := readScene(t, sb)
			if len(motionsOf(d)[c.motion]) == 0 {
				t.Errorf("no %s motion in %v", c.motion, d.Types())
			}
			var times []float64
			for _, f := range []float64{0.15, 0.4, 0.65, 0.97} {
				times = append(times, d.Duration*f)
			}
			sheet = append(sheet, render(t, browser(t), sb.Dir(), 320, 180, times...).frames...)
		})
	}
	if dir := os.Getenv("KODA_SHEET_DIR"); dir != "" && len(sheet) > 0 {
		writeSheet(t, filepath.Join(dir, "motion-verbs-more.png"), sheet, 4)
	}
}

// TestWhoCirclesAndWhatRisesFrom: the subject named before the verb of circling is the
// one that circles ("a plane circles it"), and it does not spin; drawings that rise
// from another come out of it as an emitter; a speaker plays sound (not muted).
func TestWhoCirclesAndWhatRisesFrom(t *testing.T) {
	_, sb, _ := generate(t, "A globe spins slowly while a plane circles it", "", 0)
	d := readScene(t, sb)
	for _, e := range d.Elements {
		for _, m := range e.Motions {
			if e.Label == "globe" && m.Type == scene.MotionOrbit {
				t.Errorf("the globe orbits %q; the plane should circle the globe", m.Around)
			}
			if e.Label == "plane" && m.Type == scene.MotionSpin {
				t.Errorf("the plane spins while circling")
			}
			if e.Label == "plane" && m.Type == scene.MotionOrbit && m.Around != "globe-1" {
				t.Errorf("the plane circles %q, want the globe", m.Around)
			}
		}
	}
	if o := motionsOf(d)[scene.MotionOrbit]; len(o) != 1 {
		t.Errorf("%d orbits, want the plane's one", len(o))
	}
	_, sb, _ = generate(t, "Music notes rise from a speaker", "", 0)
	d = readScene(t, sb)
	var speaker *scene.Element
	for _, e := range d.Elements {
		if e.Label == "speaker" {
			speaker = e
		}
	}
	if speaker == nil || speaker.Asset != "fluent:speaker-high-volume" {
		t.Fatalf("speaker %+v, want the loud speaker drawing", speaker)
	}
	rises := 0
	for _, e := range d.Elements {
		for _, m := range e.Motions {
			if m.Type == scene.MotionRise && e.Label == "notes" {
				rises++
				if e.In != speaker.ID || e.Y >= speaker.Y {
					t.Errorf("notes at y %g in %q, want rising out of the top of the speaker (y %g)", e.Y, e.In, speaker.Y)
				}
			}
		}
	}
	if rises == 0 {
		t.Error("no notes rise from the speaker")
	}
}

// TestIntroAndOutroDoNotHoldStill: what a subject keeps doing (a flame's flicker) plays
// from its entrance to the end, a fill swells the shape, and the outro drifts enough to
// read as alive, so no intro or outro looks like a frozen frame.
func TestIntroAndOutroDoNotHoldStill(t *testing.T) {
	_, sb, _ := generate(t, "A flame flickers and grows bigger", "", 0)
	d := readScene(t, sb)
	tw := motionsOf(d)[scene.MotionTwinkle]
	if len(tw) != 1 || tw[0].Start > d.Scenes[0].End/2 {
		t.Errorf("flicker %+v, want one from the intro on (scenes %+v)", tw, d.Scenes)
	}
	_, sb, _ = generate(t, "A heart beats twice and then fills with pink", "", 0)
	d = readScene(t, sb)
	fill := motionsOf(d)[scene.MotionFill]
	if len(fill) != 1 {
		t.Fatalf("fills %+v, want one", fill)
	}
	var heart *scene.Element
	for _, e := range d.Elements {
		if len(e.Motions) > 0 && e.Type == scene.TypeHeart {
			heart = e
		}
	}
	if heart == nil {
		t.Fatal("no heart")
	}
	swell := false
	for _, k := range heart.Tracks["scale"] {
		if k.T > fill[0].Start && k.T <= fill[0].End+0.01 && k.V >= 1.1 {
			swell = true
		}
	}
	if !swell {
		t.Errorf("heart scale %+v does not swell while it fills %+v", heart.Tracks["scale"], fill[0])
	}
	_, sb, _ = generate(t, "A square morphs into a circle and then into a triangle", "", 0)
	d = readScene(t, sb)
	last := d.Scenes[len(d.Scenes)-1]
	moving := false
	for _, m := range motionsOf(d)[scene.MotionFloat] {
		if m.Start >= last.Start-0.01 && m.Amp >= 0.035 && m.Count >= 1 {
			moving = true
		}
	}
	if !moving {
		t.Errorf("the outro %+v has no drift that reads", last)
	}
	_, sb, _ = generate(t, "Rain falling from a grey cloud", "", 0)
	d = readScene(t, sb)
	for _, e := range d.Elements {
		if strings.Contains(e.ID, "cloud") && e.Y > -0.2 {
			t.Errorf("the cloud the rain falls from is at y %g, want at the top of the frame", e.Y)
		}
	}
}
