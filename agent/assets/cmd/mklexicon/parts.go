package main

import (
	"fmt"
	"os"
	"sort"
	"strings"
)

// The parts of living things: each noun whose common sense is a part of an animal, a
// person or a plant (a tail, a beak, a hand, a trunk), by WordNet's part holonyms, two
// steps up the chain of wholes (a paw is part of a foreleg, part of a quadruped) and
// each whole's kinds (a vertebrate is an animal). "Its back legs" in a prompt about a
// fox are the fox's, not a drawing of legs beside it.

// livingWholes: the first sense of a lemma, and the class of the living things it and
// its kinds are. The body (the structure of an organism) is an animal's and a person's.
var livingWholes = []struct {
	lemma   string
	classes []string
}{
	{"animal", []string{"animal"}},
	{"person", []string{"person"}},
	{"flora", []string{"plant"}},
	{"body", []string{"animal", "person"}},
}

func writeParts(path string, index map[string][]int, syn map[int]*synset) error {
	class := map[int][]string{}
	for _, w := range livingWholes {
		senses := index[w.lemma]
		if len(senses) == 0 {
			return fmt.Errorf("parts: no noun %q in WordNet", w.lemma)
		}
		class[senses[0]] = w.classes
	}
	// classesOf: the living classes a whole is, itself or by its hypernyms.
	classesOf := func(off int) []string {
		var out []string
		for a := range ancestors(off, syn, 20) {
			out = append(out, class[a]...)
		}
		return out
	}
	var b strings.Builder
	b.WriteString("# Derived from WordNet 3.0 (Princeton University; licence in LICENSES/wordnet.txt) by agent/assets/cmd/mklexicon.\n")
	b.WriteString("# lemma\tthe living things its first sense is a part of: animal, person, plant\n")
	lemmas := make([]string, 0, len(index))
	for l := range index {
		lemmas = append(lemmas, l)
	}
	sort.Strings(lemmas)
	n := 0
	for _, lemma := range lemmas {
		s := syn[index[lemma][0]]
		if s == nil || s.instance {
			continue
		}
		set := map[string]bool{}
		level := s.wholes
		for step := 0; step < 2 && len(level) > 0; step++ {
			var next []int
			for _, w := range level {
				for _, c := range classesOf(w) {
					set[c] = true
				}
				if ws := syn[w]; ws != nil {
					next = append(next, ws.wholes...)
				}
			}
			level = next
		}
		if len(set) == 0 {
			continue
		}
		cs := make([]string, 0, len(set))
		for c := range set {
			cs = append(cs, c)
		}
		sort.Strings(cs)
		fmt.Fprintf(&b, "%s\t%s\n", lemma, strings.Join(cs, " "))
		n++
	}
	fmt.Fprintf(os.Stderr, "mklexicon: %d parts of living things; wrote %s\n", n, path)
	return writeGz(path, b.String())
}
