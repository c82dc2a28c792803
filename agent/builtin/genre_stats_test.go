package builtin

import (
	"reflect"
	"testing"
)

// TestPlayerCard: a card's name, rating, position, club and stats as people write them
// for a game's ultimate team, a sport's trading card or an RPG character: "PAC 88" or
// "88 PAC", "Speed 7/10", "Strength: 9", the rating before or after its word or before
// the position ("87 RW"), a one-word name before the stats' colon; figures
// that are times, ranks or units are no stats, and a card without three stats is none.
func TestPlayerCard(t *testing.T) {
	type st = cardStat
	for _, c := range []struct {
		prompt string
		want   playerCard
	}{
		{`FIFA-style player card for Lena Okafor: 91 overall, ST, PAC 88, SHO 91, PAS 79, DRI 86, DEF 41, PHY 77, club Harbour City FC. A gold card that spins in, then a shimmer passes across it`,
			playerCard{Name: "Lena Okafor", Rating: "91", Position: "ST", Club: "Harbour City FC",
				Stats: []st{{"PAC", "88"}, {"SHO", "91"}, {"PAS", "79"}, {"DRI", "86"}, {"DEF", "41"}, {"PHY", "77"}}}},
		{`FUT card, silver: Marco Ruiz, OVR 78, CAM, 81 PAC 74 SHO 80 PAS 83 DRI, plays for Club Atlético Norte`,
			playerCard{Name: "Marco Ruiz", Rating: "78", Position: "CAM", Club: "Club Atlético Norte",
				Stats: []st{{"PAC", "81"}, {"SHO", "74"}, {"PAS", "80"}, {"DRI", "83"}}}},
		{`RPG character card for Elara, a level 12 mage: Strength 4, Intelligence 18, Agility: 11, Charisma 15/20, guild Silver Moon`,
			playerCard{Name: "Elara", Rating: "12", Position: "MAGE", Club: "Silver Moon",
				Stats: []st{{"Strength", "4"}, {"Intelligence", "18"}, {"Agility", "11"}, {"Charisma", "15"}}}},
		{`basketball trading card: "Jay Brooks", point guard, speed 9, shooting 8, defense 6 and passing 7, team Lakeside Comets, in purple`,
			playerCard{Name: "Jay Brooks", Position: "POINT GUARD", Club: "Lakeside Comets",
				Stats: []st{{"Speed", "9"}, {"Shooting", "8"}, {"Defense", "6"}, {"Passing", "7"}}}},
		{`Make a Pokémon-style trading card for my dog Biscuit: HP 60, Attack 45, Defense 30, Speed 80`,
			playerCard{Name: "Biscuit", Stats: []st{{"HP", "60"}, {"Attack", "45"}, {"Defense", "30"}, {"Speed", "80"}}}},
		{`Animated FIFA card of Bukayo Saka, 87 RW, pace 86, shooting 81, passing 80, dribbling 87, defending 58, physical 70`,
			playerCard{Name: "Bukayo Saka", Rating: "87", Position: "RW",
				Stats: []st{{"Pace", "86"}, {"Shooting", "81"}, {"Passing", "80"}, {"Dribbling", "87"}, {"Defending", "58"}, {"Physical", "70"}}}},
		{`A character sheet for my D&D rogue Vex: STR 10, DEX 18, CON 12, INT 14, WIS 11, CHA 16`,
			playerCard{Name: "Vex", Position: "ROGUE",
				Stats: []st{{"STR", "10"}, {"DEX", "18"}, {"CON", "12"}, {"INT", "14"}, {"WIS", "11"}, {"CHA", "16"}}}},
	} {
		var quotes []string
		if q := quoteRE.FindStringSubmatch(c.prompt); q != nil {
			quotes = []string{q[2]}
		}
		if g := detectGenre(c.prompt); g == nil || g.Name != "player card" {
			t.Errorf("%q chose %v, want the player card row", c.prompt, g)
		}
		if got := readPlayerCard(c.prompt, quotes); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q:\n got %+v\nwant %+v", c.prompt, got, c.want)
		}
	}
	for _, p := range []string{
		`a player card for Sam: runs 5 km in 20 minutes, 3rd in the league`,
		`trading card of a dragon breathing fire`,
	} {
		if s := cardStats(p); len(s) >= 3 {
			t.Errorf("%q: stats %v, want fewer than three", p, s)
		}
	}
}
