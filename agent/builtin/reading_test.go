package builtin_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestAttribution: the one quoted is named after a dash with a capital, and a quoted
// attribution placed under the quote is part of the card, no finale.
func TestAttribution(t *testing.T) {
	d, _, _ := generateWithMessages(t, `instagram reel quote card - soft beige background, the quote "Start where you are. Use what you have." fades in word by word, then "- Arthur Ashe" underneath, 9:16`)
	var texts []string
	for _, e := range d.Elements {
		if e.Type == "text" {
			texts = append(texts, e.Text)
		}
	}
	for _, tx := range texts {
		if strings.Contains(tx, "beige") {
			t.Errorf("the card's look is shown as text: %q", texts)
		}
	}
	n := 0
	for _, tx := range texts {
		if strings.Contains(tx, "Arthur Ashe") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the attribution is shown %d times in %q, want once", n, texts)
	}
}

// TestSettingDrawn: a scene that names its place stands in it (a ground under the
// subjects, the sky of the hour), and a prompt that asks for its own background keeps it.
func TestSettingDrawn(t *testing.T) {
	d, _, _ := generateWithMessages(t, "a frog sits on a lily pad in a pond at night and catches a fly")
	var ground, moon bool
	for _, e := range d.Elements {
		ground = ground || e.ID == "setting-ground" && e.Variant == "ground" && e.Depth > 0 && e.Depth < 1
		moon = moon || e.ID == "setting-moon"
	}
	if !ground || !moon {
		t.Errorf("pond at night: ground %v, moon %v", ground, moon)
	}
	if d.Background.Colors[0] != "#0b1026" {
		t.Errorf("pond at night: sky %v, want the night's", d.Background.Colors)
	}
	d, _, _ = generateWithMessages(t, "a frog sits on a lily pad in a pond, on a plain pink background")
	for _, e := range d.Elements {
		if strings.HasPrefix(e.ID, "setting-") {
			t.Fatalf("a background asked for is replaced by the setting's %s", e.ID)
		}
	}
}

// TestCelebrationWaits: confetti tied to a moment ("on the winner") waits for the data
// to finish arriving; confetti tied to nothing falls from the start.
func TestCelebrationWaits(t *testing.T) {
	d, _, _ := generateWithMessages(t, "poll results: 'Pineapple on pizza?' YES 46% / NO 54%. bars race up, NO wins by a hair, little confetti on the winner")
	var confetti, done float64 = -1, 0
	for _, e := range d.Elements {
		if e.Variant == "confetti" {
			confetti = e.Start
		}
		if e.Type == "chart" {
			if kf := e.Tracks["progress"]; len(kf) > 0 {
				done = kf[len(kf)-1].T
			}
		}
	}
	if confetti < done || done == 0 {
		t.Errorf("confetti starts at %.2fs, the bars finish at %.2fs", confetti, done)
	}
	d, _, _ = generateWithMessages(t, "confetti falls over a birthday cake")
	for _, e := range d.Elements {
		if e.Variant == "confetti" && e.Start > 0 {
			t.Errorf("confetti tied to no moment starts at %.2fs", e.Start)
		}
	}
}

// TestNewsLowerThird: a breaking-news lower third sits low (the banner word over the
// headline's bar, the ticker along the bottom edge) with its live badge in the top right.
func TestNewsLowerThird(t *testing.T) {
	d, _, _ := generateWithMessages(t, `Breaking news lower third, 16:9. Red bar with "BREAKING NEWS", then a second line: "Storm Helga makes landfall near Bergen". Small live dot pulsing next to "LIVE 14:32" in the top right corner. Ticker crawling along the bottom edge.`)
	at := map[string][2]float64{}
	for _, e := range d.Elements {
		if e.Type == "text" {
			at[e.Text] = [2]float64{e.X, e.Y}
		}
	}
	banner, ok1 := at["BREAKING NEWS"]
	headline, ok2 := at["Storm Helga makes landfall near Bergen"]
	live, ok3 := at["LIVE 14:32"]
	if !ok1 || !ok2 || !ok3 {
		t.Fatalf("texts %v: want the banner word, the headline and the live badge, each once", at)
	}
	if !(banner[1] > 0 && headline[1] > banner[1]) {
		t.Errorf("banner at y %.2f, headline at y %.2f: want both in the lower third, the banner above", banner[1], headline[1])
	}
	if live[0] < 0.4 || live[1] > -0.5 {
		t.Errorf("live badge at %v, want the top right", live)
	}
	ticker := false
	for tx, p := range at {
		ticker = ticker || p[1] > headline[1] && strings.Contains(tx, "Storm Helga")
	}
	if !ticker {
		t.Errorf("no ticker below the headline in %v", at)
	}
}

// TestKPIChangeInBrackets: a tile's change told in brackets with more words after a
// comma keeps its tile whole, and a colour named there colours the change.
func TestKPIChangeInBrackets(t *testing.T) {
	d, _, _ := generateWithMessages(t, "KPI dashboard, four cards count up: Revenue $4.2M (+18%), Active users 128,400 (+9%), Churn 2.1% (-0.4 pts, shown in green because lower is better), NPS 62.")
	found := false
	for _, e := range d.Elements {
		if e.Type == "text" && e.Text == "-0.4 pts" {
			found = true
			var r, g, b int
			if _, err := fmt.Sscanf(e.Color, "#%02x%02x%02x", &r, &g, &b); err != nil || g < r+30 || g < b+30 {
				t.Errorf("the churn change is %s, want the green asked for (a falling figure is otherwise red)", e.Color)
			}
		}
		if e.Type == "text" && strings.Contains(e.Text, "shown in green") {
			t.Errorf("the prompt's explanation is shown: %q", e.Text)
		}
	}
	if !found {
		t.Error("no tile shows the churn's change '-0.4 pts'")
	}
}
