package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/kodahq/koda/agent/assets"
)

// senseFinder tells which WordNet sense a drawing shows (a simplified Lesk: the sense
// whose gloss and neighbours' names share most words with the drawing's keywords) and
// which words point to a word's other senses.
type senseFinder struct {
	syn   map[int]*synset
	index map[string][]int
	// nouns reports whether a word is mostly a noun: only nouns cue a sense ("small"
	// or "used" are in half the glosses).
	nouns func(string) bool
	// adjectives WordNet knows: "first" or "old" in a name ("first base", "old bag")
	// says how, not which.
	adjectives map[string]bool
	memo       map[string]int
}

// depicted is the synset the drawing shows when named by lemma, or -1. WordNet's first
// sense (the word's usual meaning) is the default, if a drawing of the category can
// show it. Another sense takes its place only when the drawing's words say nothing of
// the first and at least two of them speak of the other (the tank drawn is the army's:
// "military", "army", "armored", "vehicle"); a kind of the sense that a keyword of the
// drawing names, when one of them does (the slot machine drawn is the gambling one).
// The lemma's own words count for no sense: every sense has them.
func (f *senseFinder) depicted(a *assets.Asset, lemma string) int {
	key := a.ID + "\x00" + lemma
	if off, ok := f.memo[key]; ok {
		return off
	}
	words := assetWords(a)
	for _, w := range strings.Fields(lemma) {
		delete(words, assets.Stem(w))
	}
	keywords := map[string]bool{}
	for _, k := range a.Keywords {
		keywords[k] = true
	}
	senses := f.index[lemma]
	best, bestScore := -1, 0
	if len(senses) > 0 && compatible(a.Category, f.syn[senses[0]].lexfile) {
		best, bestScore = senses[0], overlap(words, f.cues(senses[0]))
	}
	if bestScore == 0 {
		for i, off := range senses {
			s := f.syn[off]
			if !compatible(a.Category, s.lexfile) {
				continue
			}
			if n := overlap(words, f.cues(off)); i > 0 && n >= 2 && n > bestScore {
				best, bestScore = off, n
			}
		}
	}
	for _, off := range senses {
		if off != best && best >= 0 {
			continue
		}
		for _, h := range f.syn[off].hypo {
			if !slices.ContainsFunc(f.syn[h].lemmas, func(l string) bool { return keywords[l] && l != lemma }) ||
				!compatible(a.Category, f.syn[h].lexfile) {
				continue
			}
			// A kind must say clearly more: "ale" among a beer mug's words does not
			// make it a drawing of ale rather than of beer.
			if n := overlap(words, f.cues(h)); n >= bestScore+2 {
				best, bestScore = h, n
			}
		}
	}
	if f.memo == nil {
		f.memo = map[string]int{}
	}
	f.memo[key] = best
	return best
}

// cues are the words that speak of a sense: its gloss, its names, and the names of its
// parents and kinds ("fish tank" under the storage tank, "military vehicle" over the
// army's), as stems.
func (f *senseFinder) cues(off int) map[string]bool {
	s := f.syn[off]
	out := map[string]bool{}
	add := func(text string) {
		for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return r < 'a' || r > 'z' }) {
			if len(w) >= 3 && !glossStop[w] {
				out[assets.Stem(w)] = true
			}
		}
	}
	add(definition(s.gloss))
	for _, l := range s.lemmas {
		add(l)
	}
	for _, rel := range [][]int{s.hyper, s.hypo} {
		for _, h := range rel {
			if hs, ok := f.syn[h]; ok {
				for _, l := range hs.lemmas {
					add(l)
				}
			}
		}
	}
	return out
}

// otherCues are the words that point from the sense a drawing shows to the word's other
// senses: the words of their names and their kinds' names ("sheep" of the sheep pen,
// "sealing wax" a seal), and the nouns of their glosses ("canal", of the lock that
// raises boats). A phrase whose modifier is one of either is not drawn by the word's
// drawing. (Words further from it are too loose a cue: a gloss's "man" or "key", a
// lion beside a cat, "tail" in "cat's tail" would take the drawing from "a cat wags
// its tail".)
func (f *senseFinder) otherCues(lemma string, shown int, own map[string]bool) (names, gloss []string) {
	self := map[string]bool{}
	for _, w := range strings.Fields(lemma) {
		self[assets.Stem(w)] = true
	}
	seen := map[string]bool{}
	keep := func(w string) (string, bool) {
		st := assets.Stem(w)
		if len(w) < 3 || glossStop[w] || own[st] || self[st] || seen[st] {
			return "", false
		}
		seen[st] = true
		return st, true
	}
	for _, off := range f.index[lemma] {
		if off == shown || slices.Contains(f.syn[shown].hyper, off) || slices.Contains(f.syn[off].hypo, shown) {
			continue
		}
		s := f.syn[off]
		if !concrete[s.lexfile] || s.instance {
			continue // a firm or a household is no drawing to confuse ("family house"), nor a person's name
		}
		for _, rel := range [][]int{{off}, s.hypo} {
			for _, h := range rel {
				for _, l := range f.syn[h].lemmas {
					for _, w := range strings.FieldsFunc(l, func(r rune) bool { return r < 'a' || r > 'z' }) {
						// "first" or "old" in a name ("first base", "old bag") says how, not which.
						if st, ok := keep(w); ok && !f.adjectives[w] {
							names = append(names, st)
						}
					}
				}
			}
		}
		for _, w := range strings.FieldsFunc(strings.ToLower(definition(s.gloss)), func(r rune) bool { return r < 'a' || r > 'z' }) {
			if st, ok := keep(w); ok && f.nouns(w) {
				gloss = append(gloss, st)
			}
		}
	}
	slices.Sort(names)
	slices.Sort(gloss)
	return names, gloss
}

// assetWords counts the drawing's words by stem: "gamble" and "gambling" are two
// words of the slot machine's speaking of gambling.
func assetWords(a *assets.Asset) map[string]int {
	out := map[string]int{}
	// Not the category: "food" or "person" is in the gloss of every sense of a word
	// that is food or a person.
	text := strings.Join(append([]string{a.Name, a.Label}, a.Keywords...), " ")
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return r < 'a' || r > 'z' }) {
		if len(w) >= 3 && !glossStop[w] {
			out[assets.Stem(w)]++
		}
	}
	return out
}

func overlap(a map[string]int, b map[string]bool) int {
	n := 0
	for w, k := range a {
		if b[w] {
			n += k
		}
	}
	return n
}

// glossStop are the words of WordNet's glosses that say nothing of a thing.
var glossStop = map[string]bool{
	"the": true, "and": true, "for": true, "with": true, "that": true, "which": true, "from": true, "into": true,
	"its": true, "are": true, "has": true, "have": true, "been": true, "used": true, "usually": true, "one": true,
	"any": true, "other": true, "such": true, "can": true, "may": true, "something": true, "someone": true,
	"thing": true, "kind": true, "type": true, "form": true, "part": true, "often": true, "especially": true,
	"e.g": true, "etc": true, "not": true, "but": true, "this": true, "they": true, "their": true, "when": true,
	"where": true, "who": true, "made": true, "make": true, "using": true, "use": true, "very": true, "more": true,
	"most": true, "some": true, "there": true, "was": true, "were": true, "being": true, "also": true,
}

// writeSenses writes, for each word a drawing is named by, the nouns that point to the
// word's other senses (lines "word\tcue cue …").
func writeSenses(path string, index map[string][]int, lib *assets.Library, f *senseFinder) error {
	var lemmas []string
	for l := range index {
		lemmas = append(lemmas, l)
	}
	slices.Sort(lemmas)
	var b strings.Builder
	b.WriteString("# Derived from WordNet 3.0 (Princeton University; licence in LICENSES/wordnet.txt) and the asset library by agent/assets/cmd/mklexicon.\n")
	b.WriteString("# word a drawing is named by\twords of the names of its other senses\tnouns of their glosses (stems): a phrase \"<cue> <word>\" is not drawn by the word's drawing\n")
	n := 0
	for _, l := range lemmas {
		m, ok := lib.NamedOnly(l)
		if !ok {
			continue
		}
		shown := f.depicted(m.Asset, l)
		if shown < 0 {
			// No sense the lexicon may climb to, but the drawing shows one of those its
			// category can: the first of them (the seal drawn is the animal, so a wax
			// seal is not it).
			shown = f.firstCompatible(m.Asset, l)
		}
		if shown < 0 {
			continue
		}
		// What speaks of the sense drawn: WordNet's words for it and the drawing's own
		// keywords ("space" for the rocket, though WordNet puts the space rocket
		// under the rocket engine).
		ownSet := f.cues(shown)
		for w := range assetWords(m.Asset) {
			ownSet[w] = true
		}
		if names, gloss := f.otherCues(l, shown, ownSet); len(names)+len(gloss) > 0 {
			fmt.Fprintf(&b, "%s\t%s\t%s\n", l, strings.Join(names, " "), strings.Join(gloss, " "))
			n++
		}
	}
	if err := writeGz(path, b.String()); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "mklexicon: %d drawn words have other senses; wrote %s\n", n, path)
	return nil
}

// definition is a gloss without its quoted examples ("he ate a bag of popcorn").
func definition(gloss string) string {
	d, _, _ := strings.Cut(gloss, "; \"")
	d, _, _ = strings.Cut(d, "\"")
	return d
}

// reportChanged lists, for review, the drawn words whose drawing shows another sense
// than WordNet's first.
func reportChanged(index map[string][]int, lib *assets.Library, f *senseFinder) {
	for l, senses := range index {
		m, ok := lib.NamedOnly(l)
		if !ok || len(senses) == 0 {
			continue
		}
		if d := f.depicted(m.Asset, l); d != senses[0] {
			g := "(none)"
			if d >= 0 {
				g = definition(f.syn[d].gloss)
			}
			fmt.Fprintf(os.Stderr, "SENSE %s [%s]: %.80s\n", l, m.ID, g)
		}
	}
}

// firstCompatible is the most frequent sense of lemma a drawing of the asset's category
// can show, or -1.
func (f *senseFinder) firstCompatible(a *assets.Asset, lemma string) int {
	for _, off := range f.index[lemma] {
		if compatible(a.Category, f.syn[off].lexfile) {
			return off
		}
	}
	return -1
}
