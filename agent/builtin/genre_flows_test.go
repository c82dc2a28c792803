package builtin

import (
	"reflect"
	"strings"
	"testing"
)

// TestFunnelStages: a funnel's stages in order with their figures, written as people
// write them: arrows, commas, figures before or after the name, in brackets or after a
// colon, "from A to B to C"; words around the list are no stage, and a prompt that
// lists no three stages has no funnel.
func TestFunnelStages(t *testing.T) {
	type st = funnelStage
	for _, c := range []struct {
		prompt string
		want   []st
	}{
		{`Funnel chart for our Q3 board deck, 16:9. Four layers stack in from the top, each one narrower than the last: Website visitors 48,000 → Free sign-ups 6,200 → Started trial 1,900 → Paying customers 540. The numbers count up as each layer lands, and the step-to-step conversion rates (13%, 31%, 28%) appear along the right side.`,
			[]st{{"Website visitors", "48000"}, {"Free sign-ups", "6200"}, {"Started trial", "1900"}, {"Paying customers", "540"}}},
		{`Marketing funnel: 12,000 visitors, 3,400 leads, 800 demos and 150 customers`,
			[]st{{"Visitors", "12000"}, {"Leads", "3400"}, {"Demos", "800"}, {"Customers", "150"}}},
		{`animate a conversion funnel with the stages Awareness, Interest, Desire, Action in teal`,
			[]st{{"Awareness", ""}, {"Interest", ""}, {"Desire", ""}, {"Action", ""}}},
		{`our hiring funnel - Applied (1200), Screened (300), Interviewed (60), Hired (8) - in navy`,
			[]st{{"Applied", "1200"}, {"Screened", "300"}, {"Interviewed", "60"}, {"Hired", "8"}}},
		{`sales pipeline funnel going from Leads 10k to Qualified 2.5k to Proposals 900 to Won 400`,
			[]st{{"Leads", "10k"}, {"Qualified", "2.5k"}, {"Proposals", "900"}, {"Won", "400"}}},
		{`Checkout funnel. Visitors: 48000; Add to cart: 9600; Checkout: 3100; Purchase: 2200. Brand colours navy and teal.`,
			[]st{{"Visitors", "48000"}, {"Add to cart", "9600"}, {"Checkout", "3100"}, {"Purchase", "2200"}}},
		{`A funnel cloud drops from the storm over the plains`, nil},
		{`pour the oil through a kitchen funnel into the bottle`, nil},
	} {
		if got := funnelStages(c.prompt); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q:\n got %q\nwant %q", c.prompt, got, c.want)
		}
	}
}

// TestStepRate: the share of a stage that reaches the next, whole above 10 %, to a
// tenth below; a figure like "2.5k" counts as 2,500.
func TestStepRate(t *testing.T) {
	for _, c := range []struct {
		from, to string
		want     string
	}{
		{"48000", "6200", "13%"}, {"6200", "1900", "31%"}, {"10k", "2.5k", "25%"}, {"12000", "90", "0.8%"}, {"100", "", ""},
	} {
		if got := stepRate(stageAmount(c.from), stageAmount(c.to)); got != c.want {
			t.Errorf("%s → %s: %q, want %q", c.from, c.to, got, c.want)
		}
	}
}

// TestMindMap: a mind map's topic and its branches with their sub-points, written as
// people write them: groups after the list ("Militarism: a, b / Alliances: c, d"),
// sub-points in brackets, groups alone split by semicolons, a list of branches only.
func TestMindMap(t *testing.T) {
	type br = mindBranch
	for _, c := range []struct {
		prompt   string
		texts    []string
		topic    string
		branches []br
	}{
		{`Revision mind map for GCSE history. "Causes of WW1" in a circle in the middle, then four branches draw out one at a time, each its own colour: Militarism, Alliances, Imperialism, Nationalism. Each branch then sprouts two smaller ones — Militarism: Naval arms race, Schlieffen Plan / Alliances: Triple Entente, Triple Alliance / Imperialism: Scramble for Africa, Moroccan Crises / Nationalism: Balkan tensions, Assassination of Franz Ferdinand.`,
			[]string{"Causes of WW1"}, "Causes of WW1", []br{
				{"Militarism", []string{"Naval arms race", "Schlieffen Plan"}}, {"Alliances", []string{"Triple Entente", "Triple Alliance"}},
				{"Imperialism", []string{"Scramble for Africa", "Moroccan Crises"}}, {"Nationalism", []string{"Balkan tensions", "Assassination of Franz Ferdinand"}}}},
		{`mind map of Causes of WW1: militarism, alliances (Triple Entente, Triple Alliance), imperialism and nationalism (Balkan tensions)`,
			nil, "Causes of WW1", []br{{"Militarism", nil}, {"Alliances", []string{"Triple Entente", "Triple Alliance"}}, {"Imperialism", nil}, {"Nationalism", []string{"Balkan tensions"}}}},
		{`spider diagram about healthy habits - sleep: 8 hours, no screens; food: more veg, water; exercise: walk, stretch`,
			nil, "healthy habits", []br{{"Sleep", []string{"8 hours", "No screens"}}, {"Food", []string{"More veg", "Water"}}, {"Exercise", []string{"Walk", "Stretch"}}}},
		{`A brainstorm map with Launch Plan in the centre and branches to Marketing, Product and Support`,
			nil, "Launch Plan", []br{{"Marketing", nil}, {"Product", nil}, {"Support", nil}}},
	} {
		topic, branches := mindMap(c.prompt, c.texts)
		if topic != c.topic || !reflect.DeepEqual(branches, c.branches) {
			t.Errorf("%q:\n got %q %q\nwant %q %q", c.prompt, topic, branches, c.topic, c.branches)
		}
	}
}

// TestStrata: a diagram's layers are read with their ranges and what is in them, in
// the order written, and stacked up from the ground or down from a surface by the
// prompt's words of height or depth.
func TestStrata(t *testing.T) {
	for _, c := range []struct {
		prompt string
		names  []string
		ranges []string
		up     bool
	}{
		{"Layers of the atmosphere from the ground up: Troposphere 0–12 km (clouds, a plane), Stratosphere 12–50 km (ozone layer), Mesosphere 50–80 km, Thermosphere 80–700 km, Exosphere 700 km+",
			[]string{"Troposphere", "Stratosphere", "Mesosphere", "Thermosphere", "Exosphere"}, []string{"0–12 km", "12–50 km", "50–80 km", "80–700 km", "700 km+"}, true},
		{"Ocean zones as you dive: Sunlight zone (0-200 m), Twilight zone (200-1,000 m), Midnight zone (1,000-4,000 m)",
			[]string{"Sunlight zone", "Twilight zone", "Midnight zone"}, []string{"0–200 m", "200–1,000 m", "1,000–4,000 m"}, false},
		{"Soil layers: Topsoil 0-25 cm (roots, worms), Subsoil 25-60 cm, Weathered rock 60-120 cm, Bedrock 120 cm+",
			[]string{"Topsoil", "Subsoil", "Weathered rock", "Bedrock"}, []string{"0–25 cm", "25–60 cm", "60–120 cm", "120 cm+"}, false},
	} {
		ls := strata(c.prompt)
		var names, ranges []string
		for _, l := range ls {
			names, ranges = append(names, l.Name), append(ranges, l.Range)
		}
		if strings.Join(names, "|") != strings.Join(c.names, "|") || strings.Join(ranges, "|") != strings.Join(c.ranges, "|") {
			t.Errorf("%q: layers %q %q, want %q %q", c.prompt, names, ranges, c.names, c.ranges)
		}
		if got := upward(strings.ToLower(c.prompt)); got != c.up {
			t.Errorf("%q: upward %v, want %v", c.prompt, got, c.up)
		}
	}
	if ls := strata("A 5 km run, then 10 km on the bike"); ls != nil {
		t.Errorf("two distances read as layers: %+v", ls)
	}
}
