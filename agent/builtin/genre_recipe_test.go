package builtin

import (
	"reflect"
	"testing"
)

// TestRecipe: a recipe's title, ingredients with their quantities, steps and chips as
// people write them: "ingredients …" or "you'll need …", quantities with or without a
// unit ("200 g", "2", "a pinch of" kept whole), steps numbered, in sentences, after
// "then" or a run of commands, or the sentences after the list when no word names the
// method; the title after "recipe for", "recipe video for", "recipe card," or
// "how to make", or before "recipe"; times and servings become chips, a baking time stays in
// its step. A recipe for success lists no ingredients.
func TestRecipe(t *testing.T) {
	type in = ingredient
	for _, c := range []struct {
		prompt string
		texts  []string
		want   recipe
	}{
		{`Recipe card for "Lemon Pancakes": ingredients 200 g flour, 2 eggs, 300 ml milk, 1 tbsp sugar and a pinch of salt. Method: 1. Whisk the eggs and milk 2. Fold in the flour and sugar 3. Fry a ladle at a time until golden. Prep 10 min, cook 15 min, serves 4`,
			[]string{"Lemon Pancakes"},
			recipe{Title: "Lemon Pancakes",
				Ingredients: []in{{"200 g", "Flour"}, {"2", "Eggs"}, {"300 ml", "Milk"}, {"1 tbsp", "Sugar"}, {"", "A pinch of salt"}},
				Steps:       []string{"Whisk the eggs and milk", "Fold in the flour and sugar", "Fry a ladle at a time until golden"},
				Chips:       []string{"Prep 10 min", "Cook 15 min", "Serves 4"}}},
		{`How to make guacamole — you'll need 2 avocados, 1 lime, half a red onion, a handful of coriander, salt. Steps: mash the avocados, then stir in the lime juice and onion, then season to taste. Ready in 10 minutes, serves 2`,
			nil,
			recipe{Title: "Guacamole",
				Ingredients: []in{{"2", "Avocados"}, {"1", "Lime"}, {"", "Half a red onion"}, {"", "A handful of coriander"}, {"", "Salt"}},
				Steps:       []string{"Mash the avocados", "Stir in the lime juice and onion", "Season to taste"},
				Chips:       []string{"Total 10 minutes", "Serves 2"}}},
		{`Banana bread recipe: ingredients: 3 ripe bananas; 75 g melted butter; 150 g sugar; 1 egg; 190 g flour. Method - mash, mix, bake 60 minutes at 180°C. Makes 1 loaf`,
			nil,
			recipe{Title: "Banana bread",
				Ingredients: []in{{"3", "Ripe bananas"}, {"75 g", "Melted butter"}, {"150 g", "Sugar"}, {"1", "Egg"}, {"190 g", "Flour"}},
				Steps:       []string{"Mash", "Mix", "Bake 60 minutes at 180°C"},
				Chips:       []string{"Makes 1 loaf"}}},
		{`Quick recipe video for overnight oats: you need 50 g oats, 150 ml milk, 1 tbsp chia seeds, berries. Mix everything in a jar, then chill overnight, then top with berries. Serves 1`,
			nil,
			recipe{Title: "Overnight oats",
				Ingredients: []in{{"50 g", "Oats"}, {"150 ml", "Milk"}, {"1 tbsp", "Chia seeds"}, {"", "Berries"}},
				Steps:       []string{"Mix everything in a jar", "Chill overnight", "Top with berries"},
				Chips:       []string{"Serves 1"}}},
		{`Vertical recipe card, Spaghetti Carbonara: Ingredients - 200g spaghetti, 2 eggs, 50g pecorino, 100g guanciale, black pepper. Steps: 1) boil pasta 2) fry guanciale 3) mix eggs and cheese 4) toss together`,
			nil,
			recipe{Title: "Spaghetti Carbonara",
				Ingredients: []in{{"200g", "Spaghetti"}, {"2", "Eggs"}, {"50g", "Pecorino"}, {"100g", "Guanciale"}, {"", "Black pepper"}},
				Steps:       []string{"Boil pasta", "Fry guanciale", "Mix eggs and cheese", "Toss together"}}},
	} {
		if g := detectGenre(c.prompt); g == nil || g.Name != "recipe card" {
			t.Errorf("%q chose %v, want the recipe card row", c.prompt, g)
		}
		if got := readRecipe(c.prompt, c.texts); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q:\n got %+v\nwant %+v", c.prompt, got, c.want)
		}
	}
	for _, p := range []string{`A recipe for success: hard work and luck`, `A chef tosses the ingredients in a pan`} {
		if r := readRecipe(p, nil); len(r.Ingredients) >= 2 {
			t.Errorf("%q: ingredients %v, want fewer than two", p, r.Ingredients)
		}
	}
}
