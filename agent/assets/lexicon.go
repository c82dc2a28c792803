package assets

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// The lexicon: every WordNet 3.0 noun lemma whose thing the library can draw though no
// drawing is named by it, with the drawing of its nearest relative (cmd/mklexicon
// derives it at build time, scripts/fetch-lexicon runs that; the licence is in
// LICENSES/wordnet.txt). A synonym of a drawing's name ("cell phone", "fire truck") is
// that drawing; a kind of a drawn thing ("spaniel", "dachshund") is drawn as that thing
// and said.

//go:embed lexicon.tsv.gz
var lexiconGz []byte

// Sense is what the lexicon knows of a lemma.
type Sense struct {
	ID    string // the drawing: "fluent:dog"
	Depth int    // 0: a synonym of the drawing's name; n: n steps up WordNet's hypernyms; -1: the drawing is of a kind of it
	Via   string // the WordNet lemma that names the drawing ("dog")
	// Rare marks a word used mostly as another part of speech ("remote", "lower"):
	// a noun only where the sentence makes it one (NounSense).
	Rare bool
}

var lexicon = sync.OnceValue(func() map[string]Sense {
	m, err := decodeLexicon(bytes.NewReader(lexiconGz))
	if err != nil {
		panic(fmt.Sprintf("assets: embedded lexicon: %v", err))
	}
	return m
})

// Lexicon returns the drawing the lexicon leads a lemma to ("spaniel", "fire truck"),
// lower case and singular as WordNet spells it.
func Lexicon(lemma string) (Sense, bool) {
	s, ok := lexicon()[lemma]
	return s, ok && s.ID != "-" && s.ID != notNoun
}

// NothingDrawn reports whether WordNet knows the phrase whole and it leads to no
// drawing: "water tank" (a cistern) is no army tank, though "tank" names one.
func NothingDrawn(phrase string) bool {
	for _, f := range forms(strings.Join(normalize(phrase), " ")) {
		if s, ok := lexicon()[f]; ok {
			return s.ID == "-"
		}
	}
	return false
}

// notNoun marks a lexicon line of a verb or adjective WordNet never uses as a noun.
const notNoun = "~"

// MostlyOther reports whether WordNet's tagged texts use the word mostly as a verb or
// an adjective ("stands", "closes", "sit"): after a noun it is that noun's verb, not a
// compound's head.
func MostlyOther(w string) bool {
	if NotNoun(w) {
		return true
	}
	for _, f := range forms(w) {
		if s, ok := lexicon()[f]; ok {
			return s.Rare
		}
	}
	return false
}

// NotNoun reports whether WordNet knows the word only as a verb or an adjective ("sit",
// "sits", "empty"): never the head of a noun phrase, whatever a drawing's keywords say.
func NotNoun(w string) bool {
	if KnownNoun(w) {
		return false
	}
	for _, f := range append(forms(w), strings.TrimSuffix(w, "s")) {
		if s, ok := lexicon()[f]; ok && s.ID == notNoun {
			return true
		}
	}
	return false
}

// NounSense is the lexicon's drawing for a word the sentence uses as a noun ("a
// remote" at the end of a clause), even one used mostly otherwise.
func NounSense(word string) (Match, bool) { return Default().lexiconMatch(word, true) }

// KnownNoun reports whether WordNet knows the word (or its singular) as a noun: a real
// word, not a misspelling of a drawing's name.
func KnownNoun(w string) bool {
	for _, f := range forms(w) {
		if s, ok := lexicon()[f]; ok && s.ID != notNoun {
			return true
		}
		if _, ok := Default().byName[f]; ok {
			return true
		}
	}
	return false
}

// EncodeLexicon writes the lexicon's text (lines "lemma\tid\tdepth\tvia", # comments)
// gzip'd, the form embedded in the binary.
func EncodeLexicon(w io.Writer, text string) error {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := io.WriteString(zw, text); err != nil {
		return fmt.Errorf("encode lexicon: %w", err)
	}
	return zw.Close()
}

func decodeLexicon(r io.Reader) (map[string]Sense, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, err
	}
	out := map[string]Sense{}
	sc := bufio.NewScanner(zr)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			return nil, fmt.Errorf("lexicon line %d: %d fields, want 4", n, len(f))
		}
		d, err := strconv.Atoi(f[2])
		if err != nil {
			return nil, fmt.Errorf("lexicon line %d: depth: %w", n, err)
		}
		id, rare := strings.CutPrefix(f[1], "?")
		out[f[0]] = Sense{ID: id, Depth: d, Via: f[3], Rare: rare}
	}
	return out, sc.Err()
}
