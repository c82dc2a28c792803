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
