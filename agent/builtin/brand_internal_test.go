package builtin

import "testing"

// TestBrand: the name a video is for, written without quotes: a wordmark in capitals,
// else a proper name after "for" that is no platform, day or holiday.
func TestBrand(t *testing.T) {
	for prompt, want := range map[string]string{
		"Logo reveal for Northwind Bakery: a wheat icon spins in":              "Northwind Bakery",
		"A badge spins, then the wordmark ACME GLOBAL slides out to its right": "ACME GLOBAL",
		"Logo animation for Instagram with a spinning badge":                   "",
		"A card for Sunday's market":                                           "",
	} {
		if got := analyze(prompt).Brand; got != want {
			t.Errorf("%q: brand %q, want %q", prompt, got, want)
		}
	}
}

// TestBrandWordsAreNoSubjects: the words of the name are masked whole, never inside
// another word ("Ann" leaves "an announcement banner" alone).
func TestBrandWordsAreNoSubjects(t *testing.T) {
	b := analyze("A logo reveal for Ann, then an anchor sinks")
	if b.Brand != "Ann" {
		t.Fatalf("brand %q, want Ann", b.Brand)
	}
	if len(b.Subjects) == 0 || b.Subjects[len(b.Subjects)-1].Asset != "fluent:anchor" {
		t.Errorf("subjects %+v, want the anchor", b.Subjects)
	}
}
