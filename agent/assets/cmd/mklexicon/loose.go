package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/kodahq/koda/agent/assets"
)

// writeLoose writes, for each drawing, its keywords that name nothing it depicts (lines
// "id\tkeyword\tkeyword…"): CLDR and icon keywords are associations as often as names
// ("dam" of the beaver, "table" of the ping-pong paddle, "service" of the service dog),
// and a word that only such a keyword leads to is no request for the drawing.
//
// A keyword is loose when WordNet knows it as a noun and no sense of it is near a sense
// of the drawing's name (or, for a name WordNet does not know, of its head: "spiral" of
// the face with spiral eyes, "service" of the service dog): the same
// thing, a kind of it, what it is a kind of, a sibling, or a part or whole of it or of
// what it is a kind of ("sail" of the sailboat).
func writeLoose(path string, index map[string][]int, syn map[int]*synset, lib *assets.Library) error {
	var b strings.Builder
	b.WriteString("# Derived from WordNet 3.0 (Princeton University; licence in LICENSES/wordnet.txt) and the asset library by agent/assets/cmd/mklexicon.\n")
	b.WriteString("# drawing\tits keywords that name no kind, part or relative of what it depicts\n")
	n := 0
	for _, a := range lib.All() {
		head, name := nameHead(a.Name)
		senses := index[name]
		if len(senses) == 0 && a.Label != "" {
			senses = index[a.Label]
		}
		if len(senses) == 0 {
			senses = index[head]
		}
		near := neighbourhood(senses, syn)
		cousins := map[int]bool{}
		for _, off := range senses {
			for a := range ancestors(off, syn, 2) {
				cousins[a] = true
			}
		}
		var loose []string
		for _, k := range a.Keywords {
			if k == a.Name || k == a.Label || k == head || k == name {
				continue
			}
			ks := index[k]
			if slices.Contains(strings.Fields(a.Name), k) && len(ks) > 0 && !slices.ContainsFunc(ks, func(off int) bool { return near[off] }) {
				loose = append(loose, k) // a modifier of the name, no name of it: "spiral" eyes
				continue
			}
			if len(ks) == 0 || len(near) == 0 || slices.ContainsFunc(ks, func(off int) bool { return near[off] }) {
				continue
			}
			// Cousins (a boat and a sailboat are both vessels), a keyword whose gloss
			// says it is the thing ("kitten: young domestic cat"), and one the drawn
			// thing's gloss speaks of ("snowboarder: someone who rides a snowboard").
			if slices.ContainsFunc(ks, func(off int) bool {
				return overlapsAny(ancestors(off, syn, 2), cousins) || strings.Contains(" "+definition(syn[off].gloss)+" ", " "+head+" ")
			}) || slices.ContainsFunc(senses, func(off int) bool {
				return strings.Contains(" "+definition(syn[off].gloss)+" ", " "+k+" ")
			}) {
				continue
			}
			loose = append(loose, k)
		}
		if len(loose) > 0 {
			fmt.Fprintf(&b, "%s\t%s\n", a.ID, strings.Join(loose, "\t"))
			n++
		}
	}
	if err := writeGz(path, b.String()); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "mklexicon: %d drawings have loose keywords; wrote %s\n", n, path)
	return nil
}

// nameHead is the head noun of a drawing's name and the name as WordNet would spell a
// compound: "face with spiral eyes" is a face, "person in suit levitating" a person,
// "map of japan" a map, "spade suit" a suit.
func nameHead(name string) (head, name2 string) {
	ws := strings.Fields(name)
	for i, w := range ws {
		if i > 0 && (w == "with" || w == "of" || w == "in" || w == "on" || w == "and") {
			ws = ws[:i]
			break
		}
	}
	return ws[len(ws)-1], strings.Join(ws, " ")
}

// neighbourhood is every synset near the given ones: themselves, what they are kinds of
// (any number of steps up: a cat is an animal eight steps up), their kinds (three
// down), their siblings, and the parts and wholes of them and of what they are kinds of
// (two up).
func neighbourhood(senses []int, syn map[int]*synset) map[int]bool {
	near := map[int]bool{}
	for _, off := range senses {
		near[off] = true
		up := []int{off}
		for depth := 1; depth <= 20 && len(up) > 0; depth++ {
			for _, u := range up {
				s := syn[u]
				if s == nil {
					continue
				}
				if depth <= 3 {
					for _, p := range s.parts {
						near[p] = true
					}
				}
				if depth == 1 {
					for _, h := range s.hyper {
						for _, sib := range syn[h].hypo {
							near[sib] = true
						}
					}
				}
			}
			up = step(syn, up, near, hypers)
		}
		down := []int{off}
		for depth := 1; depth <= 3; depth++ {
			down = step(syn, down, near, hypos)
		}
	}
	return near
}

// ancestors are a synset and what it is a kind of, up to n steps.
func ancestors(off int, syn map[int]*synset, n int) map[int]bool {
	out := map[int]bool{off: true}
	level := []int{off}
	for depth := 0; depth < n; depth++ {
		level = step(syn, level, out, hypers)
	}
	return out
}

// step is the synsets one link of rel away from level that seen has not had yet,
// marked seen: one level of a walk up or down WordNet.
func step(syn map[int]*synset, level []int, seen map[int]bool, rel func(*synset) []int) []int {
	var next []int
	for _, o := range level {
		s := syn[o]
		if s == nil {
			continue
		}
		for _, h := range rel(s) {
			if !seen[h] {
				seen[h] = true
				next = append(next, h)
			}
		}
	}
	return next
}

func hypers(s *synset) []int { return s.hyper }
func hypos(s *synset) []int  { return s.hypo }

func overlapsAny(a, b map[int]bool) bool {
	for k := range a {
		if b[k] {
			return true
		}
	}
	return false
}
