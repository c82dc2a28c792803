package critic

import (
	"slices"
	"strings"
	"testing"

	"github.com/kodahq/koda/agent/scene"
)

// base is a valid 6 s, three-scene description on a dark background.
func base(els ...*scene.Element) *scene.Description {
	return &scene.Description{Version: 1, Duration: 6, FPS: 30,
		Background: scene.Background{Colors: []string{"#0f172a", "#1e293b"}, Angle: 90},
		Scenes:     []scene.Mark{{ID: "s1", Name: "in", Start: 0, End: 2}, {ID: "s2", Name: "hold", Start: 2, End: 4}, {ID: "s3", Name: "out", Start: 4, End: 6}},
		Elements:   els}
}

func checks(ps []Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Check+":"+p.Element+"@"+p.Frame)
	}
	return out
}

func has(ps []Problem, check, id string) bool {
	return slices.ContainsFunc(ps, func(p Problem) bool { return p.Check == check && p.Element == id })
}

// repairClean runs Repair and wants no problem left, the scene still valid, and a fix
// of the given check recorded in words.
func repairClean(t *testing.T, d *scene.Description, check string, frames ...Frame) []Fix {
	t.Helper()
	fixes, left := Repair(d, frames...)
	if len(left) != 0 {
		t.Errorf("problems left after repair: %v", left)
	}
	if err := d.Validate(); err != nil {
		t.Errorf("repaired scene invalid: %v", err)
	}
	if !slices.ContainsFunc(fixes, func(f Fix) bool { return f.Check == check && f.What != "" }) {
		t.Errorf("no %s fix recorded: %v", check, fixes)
	}
	if len(Check(d, frames...)) != 0 {
		t.Errorf("Check still finds %v", checks(Check(d, frames...)))
	}
	return fixes
}

func TestGoodSceneHasNoProblems(t *testing.T) {
	d := base(
		&scene.Element{ID: "ball", Type: scene.TypeCircle, Size: 0.12, Y: -0.2, Color: "#e53935",
			Motions: []*scene.Motion{{Type: scene.MotionBounce, Start: 0, End: 6, Amp: 0.3, Count: 3, FromX: -0.5, ToX: 0.5}}},
		&scene.Element{ID: "title", Type: scene.TypeText, Text: "Hello", Size: 0.08, Y: 0.55, Color: "#ffffff"})
	for _, f := range []Frame{Landscape, Portrait, Square} {
		if ps := Check(d, f); len(ps) != 0 {
			t.Errorf("%s: %v", f.Name, ps)
		}
	}
}

func TestSubjectOutsideFrameIsMovedIn(t *testing.T) {
	d := base(&scene.Element{ID: "plane", Type: scene.TypeRect, Size: 0.15, X: 1.05, Color: "#1e88e5"})
	ps := Check(d, Landscape)
	if !has(ps, "frame", "plane") {
		t.Fatalf("a subject half off the right edge: %v", checks(ps))
	}
	fixes := repairClean(t, d, "frame")
	if d.Elements[0].X >= 1 || !strings.Contains(fixes[0].What, "moved the rect inside the landscape safe area") {
		t.Errorf("x %g, fix %q", d.Elements[0].X, fixes[0].What)
	}
}

// A cinematic push-in zooms the camera: a title near the bottom that fits the still
// frame is pushed out of it (a "Fresh Farm" cut in half at the bottom edge).
func TestCameraZoomIsSeen(t *testing.T) {
	d := base(&scene.Element{ID: "name", Type: scene.TypeText, Text: "Fresh Farm", Size: 0.1, Y: 0.62, Color: "#ffffff"})
	if ps := Check(d, Square); len(ps) != 0 {
		t.Fatalf("without the camera: %v", ps)
	}
	d.Camera.Tracks = map[string][]scene.Keyframe{"zoom": {{T: 0, V: 1}, {T: 6, V: 1.3}}}
	if !has(Check(d, Square), "frame", "name") && !has(Check(d, Square), "safe", "name") {
		t.Fatalf("zoomed 1.2-1.3×: %v", checks(Check(d, Square)))
	}
	fixes, left := Repair(d, Square)
	if len(left) != 0 || len(fixes) == 0 || d.Elements[0].Y >= 0.62 {
		t.Errorf("fixes %v, left %v, y %g", fixes, left, d.Elements[0].Y)
	}
}

// A subject low in the frame is fine in landscape but sits under a vertical app's
// caption area; the critic checks every frame shape the project renders in.
func TestVerticalSafeArea(t *testing.T) {
	d := base(&scene.Element{ID: "bag", Type: scene.TypeCircle, Size: 0.1, Y: 0.62, Color: "#ffc107",
		Tracks: map[string][]scene.Keyframe{"y": {{T: 0, V: 1.2}, {T: 1, V: 0.62}}}})
	if ps := Check(d, Landscape); len(ps) != 0 {
		t.Fatalf("landscape: %v", checks(ps))
	}
	ps := Check(d, Landscape, Portrait)
	if !has(ps, "safe", "bag") || ps[0].Frame != "portrait" {
		t.Fatalf("portrait safe area: %v", checks(ps))
	}
	repairClean(t, d, "safe", Landscape, Portrait)
	// The whole y track moved: the entry still starts below and ends higher.
	y := d.Elements[0].Tracks["y"]
	if y[1].V >= 0.62 || y[0].V-y[1].V < 0.57 {
		t.Errorf("y track %v", y)
	}
}

func TestTooLargeIsShrunk(t *testing.T) {
	d := base(&scene.Element{ID: "sun", Type: scene.TypeCircle, Label: "sun", Size: 0.6, Color: "#fdd835"})
	if !has(Check(d, Portrait), "frame", "sun") {
		t.Fatalf("a sun wider than a vertical frame: %v", checks(Check(d, Portrait)))
	}
	fixes := repairClean(t, d, "frame", Portrait)
	if d.Elements[0].Size >= 0.6 || !strings.Contains(fixes[0].What, "shrank the sun") {
		t.Errorf("size %g, fixes %v", d.Elements[0].Size, fixes)
	}
}

func TestTooHighBounceIsLowered(t *testing.T) {
	d := base(&scene.Element{ID: "ball", Type: scene.TypeCircle, Size: 0.1, Y: 0.5,
		Motions: []*scene.Motion{{Type: scene.MotionBounce, Start: 0, End: 6, Amp: 1.6, Count: 3}}})
	if !has(Check(d, Landscape), "frame", "ball") {
		t.Fatalf("a bounce above the frame: %v", checks(Check(d, Landscape)))
	}
	repairClean(t, d, "frame", Landscape)
	if a := d.Elements[0].Motions[0].Amp; a >= 1.6 {
		t.Errorf("bounce amp %g", a)
	}
}

func TestTextSqueezedAtTheEdgeIsCentred(t *testing.T) {
	d := base(&scene.Element{ID: "quote", Type: scene.TypeText, Text: "Simplicity is the ultimate sophistication",
		Size: 0.1, X: 0.8, Color: "#ffffff"})
	if !has(Check(d, Landscape), "clip", "quote") {
		t.Fatalf("long text near the right edge: %v", checks(Check(d, Landscape)))
	}
	repairClean(t, d, "clip", Landscape)
	if x := d.Elements[0].X; x > 0.05 {
		t.Errorf("x %g", x)
	}
}

func TestTextOverlappingASubjectIsMoved(t *testing.T) {
	d := base(
		&scene.Element{ID: "heart", Type: scene.TypeHeart, Size: 0.2, Color: "#ec407a"},
		&scene.Element{ID: "love", Type: scene.TypeText, Text: "Love you", Size: 0.09, Y: 0.05, Color: "#ffffff"})
	if !has(Check(d, Landscape), "overlap", "love") {
		t.Fatalf("text on the heart: %v", checks(Check(d, Landscape)))
	}
	fixes := repairClean(t, d, "overlap", Landscape, Portrait)
	if !slices.ContainsFunc(fixes, func(f Fix) bool {
		return strings.Contains(f.What, `moved the text "Love you" below the heart`) || strings.Contains(f.What, `moved the text "Love you" above the heart`)
	}) {
		t.Errorf("fixes %v", fixes)
	}
	// Two texts on top of each other are pulled apart too.
	d = base(&scene.Element{ID: "a", Type: scene.TypeText, Text: "Jazz Night", Size: 0.1, Color: "#ffc107"},
		&scene.Element{ID: "b", Type: scene.TypeText, Text: "Friday 8 PM", Size: 0.06, Y: 0.05, Color: "#ffffff"})
	repairClean(t, d, "overlap", Landscape)
}

// Two illustrations on the same spot: the one on top hides the other (a penguin behind
// its ice cube); it is moved beside it.
func TestSubjectHidingAnotherIsMoved(t *testing.T) {
	d := base(&scene.Element{ID: "penguin", Type: scene.TypeAsset, Asset: "fluent:penguin", Label: "penguin", Size: 0.17, X: -0.62},
		&scene.Element{ID: "ice", Type: scene.TypeAsset, Asset: "fluent:ice", Label: "ice", Size: 0.17, X: -0.62})
	if !has(Check(d, Landscape), "covered", "ice") {
		t.Fatalf("ice on the penguin: %v", checks(Check(d, Landscape)))
	}
	fixes := repairClean(t, d, "covered", Landscape)
	if d.Elements[1].X <= -0.5 || !strings.Contains(fixes[0].What, "moved the ice beside the penguin, which it hid") {
		t.Errorf("ice at x %g, fixes %v", d.Elements[1].X, fixes)
	}
}

// A subject in another (Element.In: a key in its lock, a fish in its bowl) overlaps it
// on purpose and stays; a third one dropped on the pair is still moved off.
func TestSubjectInAnotherStaysInIt(t *testing.T) {
	lock := &scene.Element{ID: "lock", Type: scene.TypeAsset, Asset: "fluent:locked", Label: "lock", Size: 0.2}
	key := &scene.Element{ID: "key", Type: scene.TypeAsset, Asset: "fluent:key", Label: "key", Size: 0.14, In: "lock"}
	d := base(lock, key)
	if ps := Check(d, Landscape); len(ps) > 0 {
		t.Fatalf("a key in its lock: %v", checks(ps))
	}
	if fixes, _ := Repair(d, Landscape); len(fixes) > 0 || key.X != 0 || key.Y != 0 {
		t.Errorf("the key was moved out of its lock: %v (at %g,%g)", fixes, key.X, key.Y)
	}
	d.Elements = append(d.Elements, &scene.Element{ID: "ice", Type: scene.TypeAsset, Asset: "fluent:ice", Label: "ice", Size: 0.14})
	if !has(Check(d, Landscape), "covered", "ice") {
		t.Fatalf("ice on the key and lock: %v", checks(Check(d, Landscape)))
	}
	repairClean(t, d, "covered", Landscape)
	if key.X != 0 || key.Y != 0 || lock.X != 0 || lock.Y != 0 {
		t.Errorf("the pair moved apart: key %g,%g lock %g,%g", key.X, key.Y, lock.X, lock.Y)
	}
}

// A shape drawn as part of the place a subject is in (the glass of a fish's bowl) is one
// picture with the subject; two things in one place (notes rising from one speaker)
// are still parted when one hides the other.
func TestPartsOfOnePlace(t *testing.T) {
	speaker := &scene.Element{ID: "speaker", Type: scene.TypeAsset, Asset: "fluent:speaker-high-volume", Label: "speaker", Size: 0.2}
	fish := &scene.Element{ID: "fish", Type: scene.TypeAsset, Asset: "fluent:fish", Label: "fish", Size: 0.12, In: "speaker"}
	glass := &scene.Element{ID: "glass", Type: scene.TypePath, Label: "glass", Size: 0.2, In: "speaker", Color: "#5f9fc4",
		Path: "M -1 0 A 1 1 0 0 0 1 0"}
	if ps := Check(base(speaker, fish, glass), Landscape); has(ps, "covered", "fish") || has(ps, "covered", "glass") {
		t.Errorf("a fish under the glass of its bowl: %v", checks(ps))
	}
	n1 := &scene.Element{ID: "n1", Type: scene.TypeAsset, Asset: "fluent:musical-notes", Label: "notes", Size: 0.12, In: "speaker"}
	n2 := &scene.Element{ID: "n2", Type: scene.TypeAsset, Asset: "fluent:musical-notes", Label: "notes", Size: 0.12, In: "speaker"}
	if ps := Check(base(speaker, n1, n2), Landscape); !has(ps, "covered", "n1") && !has(ps, "covered", "n2") {
		t.Errorf("two notes on one spot in one speaker: %v", checks(ps))
	}
}

// Rings around one centre (ripples) are hollow and hide nothing; two discs on one
// spot still do.
func TestConcentricRingsStay(t *testing.T) {
	d := base(&scene.Element{ID: "r1", Type: scene.TypeRing, Size: 0.08, Color: "#00897b"},
		&scene.Element{ID: "r2", Type: scene.TypeRing, Size: 0.16, Color: "#00897b"},
		&scene.Element{ID: "r3", Type: scene.TypeRing, Size: 0.24, Color: "#00897b"})
	if ps := Check(d, Landscape); len(ps) > 0 {
		t.Fatalf("concentric rings: %v", checks(ps))
	}
	d = base(&scene.Element{ID: "c1", Type: scene.TypeCircle, Size: 0.08, Color: "#00897b"},
		&scene.Element{ID: "c2", Type: scene.TypeCircle, Size: 0.16, Color: "#00897b"})
	if !has(Check(d, Landscape), "covered", "c2") {
		t.Errorf("a disc over a disc: %v", checks(Check(d, Landscape)))
	}
}

func TestLowContrastTextIsRecoloured(t *testing.T) {
	d := base(&scene.Element{ID: "t", Type: scene.TypeText, Text: "Clean and simple", Size: 0.08, Color: "#f5f5f5"})
	d.Background = scene.Background{Colors: []string{"#ffffff", "#eef2f7"}}
	ps := Check(d, Landscape)
	if !has(ps, "contrast", "t") || !strings.Contains(ps[0].Msg, "below 3.0:1") {
		t.Fatalf("near-white on white: %v", ps)
	}
	fixes := repairClean(t, d, "contrast", Landscape)
	if d.Elements[0].Color != "#111111" || !strings.Contains(fixes[0].What, "near-black") {
		t.Errorf("colour %s, fixes %v", d.Elements[0].Color, fixes)
	}
	// A counter's caption is its own colour.
	d = base(&scene.Element{ID: "n", Type: scene.TypeCounter, To: 87, Suffix: "%", Size: 0.15, Color: "#1e88e5", Sub: "satisfaction", Color2: "#0f172a"})
	if !has(Check(d, Landscape), "contrast", "n") {
		t.Fatalf("dark caption on dark: %v", checks(Check(d, Landscape)))
	}
	repairClean(t, d, "contrast", Landscape)
	if d.Elements[0].TextColor != "#ffffff" {
		t.Errorf("caption colour %q", d.Elements[0].TextColor)
	}
}

// Coloured words keep their hue: "gold text on black" over a grey backdrop becomes a
// lighter or darker gold that reads, not white.
func TestLowContrastColouredTextKeepsItsHue(t *testing.T) {
	d := base(&scene.Element{ID: "t", Type: scene.TypeText, Text: "Jazz Night", Size: 0.08, Color: "#e8a33d"})
	d.Background = scene.Background{Colors: []string{"#f4f1ea", "#f4f1ea"}}
	if !has(Check(d, Landscape), "contrast", "t") {
		t.Fatalf("gold on cream: %v", checks(Check(d, Landscape)))
	}
	fixes := repairClean(t, d, "contrast", Landscape)
	c := d.Elements[0].Color
	if c == "#111111" || c == "#ffffff" || saturation(c) < 0.25 || !strings.Contains(fixes[0].What, "a shade of #e8a33d") {
		t.Fatalf("colour %s, fixes %v", c, fixes)
	}
	r, g, b := parse(c)
	if !(r > g && g > b) {
		t.Errorf("%s is no longer a gold (r > g > b)", c)
	}
	if Contrast(c, "#f4f1ea") < MinContrastLarge {
		t.Errorf("%s still reads at %.1f:1", c, Contrast(c, "#f4f1ea"))
	}
}

// Words inside a shape are judged against the shape: white on lavender is too faint.
func TestLowContrastLabelIsRecoloured(t *testing.T) {
	d := base(&scene.Element{ID: "hello", Type: scene.TypeIcon, Variant: "chat", Label: "speech bubble", Text: "Hello!",
		Size: 0.2, Color: "#b388ff", TextColor: "#ffffff"})
	if !has(Check(d, Landscape), "contrast", "hello") {
		t.Fatalf("white on lavender: %v", checks(Check(d, Landscape)))
	}
	fixes := repairClean(t, d, "contrast", Landscape)
	if d.Elements[0].TextColor != "#1f2937" || !strings.Contains(fixes[0].What, `made the words "Hello!" on the speech bubble dark`) {
		t.Errorf("text colour %s, fixes %v", d.Elements[0].TextColor, fixes)
	}
}

func TestNothingVisibleAtAHoldIsKeptShown(t *testing.T) {
	d := base(&scene.Element{ID: "star", Type: scene.TypeStar, Size: 0.15, End: 2.5, Color: "#ffc107"},
		&scene.Element{ID: "ship", Type: scene.TypeText, Text: "Ship", Size: 0.1, Start: 4.5, Color: "#ffffff"})
	ps := Check(d, Landscape)
	if !slices.ContainsFunc(ps, func(p Problem) bool { return p.Check == "hidden" && p.T > 2 && p.T < 4 }) {
		t.Fatalf("an empty second scene: %v", ps)
	}
	repairClean(t, d, "hidden", Landscape)
	if d.Elements[0].End != 4 {
		t.Errorf("star ends at %g, want 4 (its scene's end)", d.Elements[0].End)
	}
}

func TestContrastRatio(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want float64
	}{{"#ffffff", "#000000", 21}, {"#777777", "#ffffff", 4.48}, {"#ffffff", "#ffffff", 1}} {
		if got := Contrast(c.a, c.b); got < c.want-0.01 || got > c.want+0.01 {
			t.Errorf("Contrast(%s, %s) = %.2f, want %.2f", c.a, c.b, got, c.want)
		}
	}
}

// A faint full-colour illustration keeps its colour (the drawing ignores Color, and a
// golden key must stay golden in the description) and stands out by shadow and glow.
func TestFaintIllustrationKeepsItsColour(t *testing.T) {
	key := &scene.Element{ID: "key", Type: scene.TypeAsset, Asset: "fluent:key", Size: 0.12, Color: "#ffc107"}
	d := base(key)
	d.Background = scene.Background{Colors: []string{"#ebf0f6", "#dde6f1"}}
	fx, ok := standOut(d, key, Landscape, 3)
	if !ok || key.Color != "#ffc107" || !key.Shadow || key.Glow < 0.4 {
		t.Errorf("fix %v %v: colour %s shadow %v glow %g", fx, ok, key.Color, key.Shadow, key.Glow)
	}
	icon := &scene.Element{ID: "gear", Type: scene.TypeAsset, Asset: "tabler:settings", Size: 0.12, Color: "#ffc107"}
	d = base(icon)
	d.Background = scene.Background{Colors: []string{"#ebf0f6", "#dde6f1"}}
	if _, ok := standOut(d, icon, Landscape, 3); !ok || icon.Color == "#ffc107" {
		t.Errorf("a faint line icon keeps its colour %s", icon.Color)
	}
}

// Words with a wrap width sit in their shape: beside it they no longer reach it; and
// words in a filled path are read on the path's colour, not on the background.
func TestWrappedTextStaysInItsShape(t *testing.T) {
	disc := &scene.Element{ID: "set", Type: scene.TypePath, Path: "M-1,0 A1,1 0 1,0 1,0 A1,1 0 1,0 -1,0 Z", Size: 0.12, X: 0.4, Color: "#1a237e"}
	long := func(wrap float64) *scene.Element {
		return &scene.Element{ID: "name", Type: scene.TypeText, Text: "What our customers really want", Size: 0.045, X: -0.1, Color: "#ffffff", Wrap: wrap}
	}
	if !has(Check(base(disc, long(0)), Landscape), "overlap", "name") {
		t.Fatalf("one long line reaches the disc: %v", checks(Check(base(disc, long(0)), Landscape)))
	}
	if ps := Check(base(disc, long(0.3)), Landscape); has(ps, "overlap", "name") {
		t.Errorf("wrapped to 0.3 of the frame's height, the words still reach the disc: %v", checks(ps))
	}
	light := *disc
	light.Color = "#fde68a"
	in := long(0.2)
	in.X, in.In, in.Color = 0.4, "set", "#111827"
	if ps := Check(base(&light, in), Landscape); has(ps, "contrast", "name") {
		t.Errorf("dark words on a pale yellow path read as on the dark background: %v", checks(ps))
	}
}

// MaxTextLen is the longest text the critic does not find clipped: at the limit the
// check is quiet, a few words past it the text reads as shrunk; a smaller size, or a
// narrow portrait frame, takes fewer characters.
func TestMaxTextLen(t *testing.T) {
	title := &scene.Element{ID: "title", Type: scene.TypeText, Text: "Hello", Size: 0.12, Y: -0.3}
	d := base(title)
	n := MaxTextLen(d, title, Landscape)
	if n < 10 || n >= 500 {
		t.Fatalf("limit %d of a headline at 0.12 is not a plausible length", n)
	}
	title.Text = sampleText(n)
	if ps := Check(d, Landscape); has(ps, "clip", "title") {
		t.Errorf("text at the limit (%d) reported clipped: %v", n, checks(ps))
	}
	title.Text = sampleText(n + 12)
	if ps := Check(d, Landscape); !has(ps, "clip", "title") {
		t.Errorf("text 12 past the limit (%d) not reported clipped: %v", n, checks(ps))
	}
	title.Text = "Hello"
	if p := MaxTextLen(d, title, Landscape, Portrait); p >= n {
		t.Errorf("limit in landscape and portrait %d, want below landscape's %d", p, n)
	}
	small := &scene.Element{ID: "small", Type: scene.TypeText, Text: "Hi", Size: 0.05, Y: 0.3}
	if s := MaxTextLen(base(small), small, Landscape); s <= n {
		t.Errorf("limit at size 0.05 %d, want above %d at 0.12", s, n)
	}
	if got := MaxTextLen(d, &scene.Element{ID: "c", Type: scene.TypeCircle, Size: 0.1}); got != 0 {
		t.Errorf("a circle holds %d characters, want 0", got)
	}
}

// Words fading in with the card they are on read on the card, not on what is behind
// both: white words on a dark card over a white page are not made near-black.
func TestTextFadingInWithItsCardReadsOnIt(t *testing.T) {
	fade := func() map[string][]scene.Keyframe {
		return map[string][]scene.Keyframe{"opacity": {{T: 0, V: 0}, {T: 0.3, V: 0}, {T: 2.5, V: 1}}}
	}
	card := &scene.Element{ID: "card", Type: scene.TypeRect, Size: 0.12, Aspect: 4, Color: "#111827", Tracks: fade()}
	words := &scene.Element{ID: "t", Type: scene.TypeText, Text: "Achievement unlocked", Size: 0.04, Color: "#ffffff", In: "card", Tracks: fade()}
	d := base(card, words)
	d.Background = scene.Background{Colors: []string{"#ffffff", "#eef2f7"}}
	if ps := Check(d, Landscape); has(ps, "contrast", "t") {
		t.Errorf("white words on their dark card, fading in together: %v", checks(ps))
	}
}
