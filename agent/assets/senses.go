package assets

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strings"
	"sync"

	_ "embed"
)

// The other senses of drawn words: for each word a drawing is named by, the nouns that
// speak of the word's senses the drawing does not show (derived from WordNet 3.0 by
// cmd/mklexicon, beside the lexicon). "A canal lock" is no padlock and "a gun lock" no
// lock at all, though "lock" names the padlock.

//go:embed senses.tsv.gz
var sensesGz []byte

// senseCues are the words that speak of the senses of a drawn word its drawing does not
// show: words of their names, nouns of their glosses.
type senseCues struct{ names, gloss map[string]bool }

var otherSenses = sync.OnceValue(func() map[string]senseCues {
	m, err := decodeSenses(sensesGz)
	if err != nil {
		panic(fmt.Sprintf("assets: embedded senses: %v", err))
	}
	return m
})

func decodeSenses(gz []byte) (map[string]senseCues, error) {
	text, err := gunzipText(gz)
	if err != nil {
		return nil, err
	}
	out := map[string]senseCues{}
	for n, line := range strings.Split(text, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			return nil, fmt.Errorf("senses line %d: %d fields, want 3", n+1, len(f))
		}
		out[f[0]] = senseCues{names: wordSet(f[1]), gloss: wordSet(f[2])}
	}
	return out, nil
}

func wordSet(s string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(s) {
		set[w] = true
	}
	return set
}

// The loose keywords: for each drawing, its keywords that name nothing it depicts ("dam"
// of the beaver, "table" of the ping-pong paddle, "spiral" of the face with spiral
// eyes), derived from WordNet 3.0 by cmd/mklexicon. A word only such a keyword leads to
// is no request for the drawing.

//go:embed loose.tsv.gz
var looseGz []byte

var looseKeywords = sync.OnceValue(func() map[string]map[string]bool {
	text, err := gunzipText(looseGz)
	if err != nil {
		panic(fmt.Sprintf("assets: embedded loose keywords: %v", err))
	}
	out := map[string]map[string]bool{}
	for _, line := range strings.Split(text, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		set := map[string]bool{}
		for _, k := range f[1:] {
			set[k] = true
		}
		out[f[0]] = set
	}
	return out
})

// looseKeyword reports whether a keyword of the drawing names nothing it depicts.
func looseKeyword(id, keyword string) bool { return looseKeywords()[id][keyword] }

func gunzipText(gz []byte) (string, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return "", err
	}
	text, err := io.ReadAll(zr)
	return string(text), err
}

// OtherSense reports whether a word before a drawn head noun points to a sense of the
// head its drawing does not show ("canal" before "lock", "gun" before "lock"), and so
// the phrase is not drawn by the head's drawing.
func OtherSense(modifier, head string) bool {
	cues, ok := otherSenses()[head]
	if !ok {
		return false
	}
	for _, w := range strings.Fields(modifier) {
		if st := Stem(w); cues.names[st] || cues.gloss[st] {
			return true
		}
	}
	return false
}

// Stem folds the endings that keep two forms of a word apart in WordNet's glosses and
// the library's keywords ("gambling" and "gamble", "tanks" and "tank"): crude, but the
// same on both sides of a comparison.
func Stem(w string) string {
	for _, suf := range []string{"ing", "ed", "es", "s", "e"} {
		if len(w)-len(suf) >= 3 && strings.HasSuffix(w, suf) && !strings.HasSuffix(w, "ss") {
			return strings.TrimSuffix(w, suf)
		}
	}
	return w
}

// The verbs of going: each written form of a verb whose common sense is a way of
// travelling ("scampers", "tumbles", "clambered"), with the composer's action for its
// manner (slide, bounce, fly, fall, rise, roll, float), derived from WordNet 3.0 by
// cmd/mklexicon. A form that names a drawing ("boats") is left to the drawing.

//go:embed verbs.tsv.gz
var verbsGz []byte

// GoingVerbs maps each form of a verb of going to its manner's action.
var GoingVerbs = sync.OnceValue(func() map[string]string {
	text, err := gunzipText(verbsGz)
	if err != nil {
		panic(fmt.Sprintf("assets: embedded verbs of going: %v", err))
	}
	out := map[string]string{}
	for _, line := range strings.Split(text, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if f := strings.Split(line, "\t"); len(f) == 3 {
			out[f[0]] = f[2]
		}
	}
	return out
})

// The parts of living things: each noun whose common sense is a part of an animal, a
// person or a plant ("tail", "beak", "hand"), with the classes it is a part of,
// derived from WordNet 3.0 by cmd/mklexicon.

//go:embed parts.tsv.gz
var partsGz []byte

var partsOf = sync.OnceValue(func() map[string][]string {
	text, err := gunzipText(partsGz)
	if err != nil {
		panic(fmt.Sprintf("assets: embedded parts: %v", err))
	}
	out := map[string][]string{}
	for _, line := range strings.Split(text, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if f := strings.Split(line, "\t"); len(f) == 2 {
			out[f[0]] = strings.Fields(f[1])
		}
	}
	return out
})

// PartOf lists the living things ("animal", "person", "plant") noun's common sense is
// a part of: "tail" is an animal's. A plural is looked up by its singular.
func PartOf(noun string) []string {
	if cs, ok := partsOf()[noun]; ok {
		return cs
	}
	for _, suf := range []string{"es", "s"} {
		if cs, ok := partsOf()[strings.TrimSuffix(noun, suf)]; ok && strings.HasSuffix(noun, suf) {
			return cs
		}
	}
	return nil
}

// Clothing reports whether the drawing is of something worn (a vest, a coat, a hat).
func (a *Asset) Clothing() bool { return a.Category == "objects/clothing" }

// Living is the kind of living thing the drawing shows, by its category: "animal",
// "person", "plant", or "" for anything else.
func (a *Asset) Living() string {
	switch {
	case strings.HasPrefix(a.Category, "animals-nature/animal-"), a.Category == "tabler/animals":
		return "animal"
	case strings.HasPrefix(a.Category, "animals-nature/plant-"):
		return "plant"
	case strings.HasPrefix(a.Category, "people-body/person"), a.Category == "people-body/family":
		return "person"
	}
	return ""
}
