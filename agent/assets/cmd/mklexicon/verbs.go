package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// The verbs of going: every verb whose most common sense is a way of travelling (a
// descendant of WordNet's travel.v.01 "change location; move, travel, or proceed"),
// in each of its written forms, with the manner it goes in: the nearest of the anchors
// below its hypernyms reach. "Leaps" goes like "jump", "soars" like "fly", "clambers"
// like "climb", "scampers" like "travel". The composer plays a way past a thing ("over
// a fence") in that manner.

// mannerAnchors: a verb lemma's first sense, and the composer's action for it and
// everything below it.
var mannerAnchors = []struct{ lemma, action string }{
	{"travel", "slide"}, {"walk", "slide"}, {"swim", "slide"}, {"crawl", "slide"}, {"slide", "slide"},
	{"jump", "bounce"},
	{"fly", "fly"},
	{"fall", "fall"}, {"descend", "fall"}, {"sink", "fall"}, {"dive", "fall"},
	{"rise", "rise"}, {"ascend", "rise"}, {"climb", "rise"},
	{"roll", "roll"},
	{"float", "float"},
}

// verbSynset is one verb sense: its lexicographer file and hypernyms.
type verbSynset struct {
	lexfile int
	hyper   []int
	lemmas  []string
}

// writeVerbs writes the verbs-of-going table: form, lemma and action per line. A form
// that is more often a noun ("steps", "bikes") is left out: as a word of a prompt it
// names a thing.
func writeVerbs(dir, path string, nounTagged map[string]int, drawn func(word string) bool) error {
	syn, err := readVerbData(filepath.Join(dir, "data.verb"))
	if err != nil {
		return err
	}
	index, tagged, err := readIndex(filepath.Join(dir, "index.verb"))
	if err != nil {
		return err
	}
	anchor := map[int]string{}
	for _, a := range mannerAnchors {
		senses := index[a.lemma]
		if len(senses) == 0 {
			return fmt.Errorf("verbs: no verb %q in WordNet", a.lemma)
		}
		anchor[senses[0]] = a.action
	}
	travel := index["travel"][0]
	// manner climbs the hypernyms breadth first to the nearest anchor; only a verb
	// below travel.v.01 is one of going.
	manner := func(off int) (string, bool) {
		level, seen := []int{off}, map[int]bool{off: true}
		found := ""
		for depth := 0; depth < 8 && len(level) > 0; depth++ {
			var next []int
			for _, o := range level {
				if a, ok := anchor[o]; ok && found == "" {
					found = a
				}
				if o == travel {
					return found, found != ""
				}
				if s := syn[o]; s != nil {
					for _, h := range s.hyper {
						if !seen[h] {
							seen[h] = true
							next = append(next, h)
						}
					}
				}
			}
			sort.Ints(next)
			level = next
		}
		return "", false
	}
	exc, err := readExceptions(filepath.Join(dir, "verb.exc"))
	if err != nil {
		return err
	}
	type row struct{ form, lemma, action string }
	var rows []row
	for lemma, senses := range index {
		if strings.Contains(lemma, " ") || strings.Contains(lemma, "-") {
			continue
		}
		s := syn[senses[0]]
		if s == nil || s.lexfile != 38 { // verb.motion
			continue
		}
		act, ok := manner(senses[0])
		if !ok {
			continue
		}
		for _, f := range verbForms(lemma, exc[lemma]) {
			// A form at least as often a noun ("steps", "leaps", and "snowboard",
			// which SemCor never tags either way) is read as one; "climbs" and "dives"
			// are verbs more often. A form that names a drawing or is a word of its
			// name ("boats", "thumbs") is the drawing's.
			if n, noun := nounTagged[nounBase(f)]; noun && n >= tagged[lemma] || drawn(f) || drawn(nounBase(f)) {
				continue
			}
			rows = append(rows, row{f, lemma, act})
		}
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].form != rows[j].form {
			return rows[i].form < rows[j].form
		}
		return rows[i].lemma < rows[j].lemma
	})
	var b strings.Builder
	b.WriteString("# Derived from WordNet 3.0 (Princeton University; licence in LICENSES/wordnet.txt) by agent/assets/cmd/mklexicon.\n")
	b.WriteString("# form\tlemma\taction: the verbs of going (below travel.v.01) and the manner each goes in\n")
	seen := map[string]bool{}
	for _, r := range rows {
		if seen[r.form] {
			continue // one action per form: the first lemma in order
		}
		seen[r.form] = true
		fmt.Fprintf(&b, "%s\t%s\t%s\n", r.form, r.lemma, r.action)
	}
	fmt.Fprintf(os.Stderr, "mklexicon: %d forms of verbs of going; wrote %s\n", len(seen), path)
	return writeGz(path, b.String())
}

// nounBase is the singular a plural form would have ("leaps" → "leap").
func nounBase(form string) string {
	switch {
	case strings.HasSuffix(form, "ies"):
		return strings.TrimSuffix(form, "ies") + "y"
	case strings.HasSuffix(form, "ches"), strings.HasSuffix(form, "shes"), strings.HasSuffix(form, "xes"), strings.HasSuffix(form, "sses"):
		return strings.TrimSuffix(form, "es")
	case strings.HasSuffix(form, "s") && !strings.HasSuffix(form, "ss"):
		return strings.TrimSuffix(form, "s")
	}
	return form
}

// verbForms are a verb's written forms: the lemma, its third person, -ing and past,
// WordNet's irregular ones (verb.exc: "flew", "hopping") standing for the regular
// guesses of the same ending.
func verbForms(lemma string, irregular []string) []string {
	forms := []string{lemma}
	has := func(suffix string) bool {
		for _, f := range irregular {
			if strings.HasSuffix(f, suffix) {
				return true
			}
		}
		return false
	}
	switch {
	case strings.HasSuffix(lemma, "s"), strings.HasSuffix(lemma, "x"), strings.HasSuffix(lemma, "z"),
		strings.HasSuffix(lemma, "ch"), strings.HasSuffix(lemma, "sh"), strings.HasSuffix(lemma, "o"):
		forms = append(forms, lemma+"es")
	case len(lemma) > 1 && strings.HasSuffix(lemma, "y") && !strings.ContainsRune("aeiou", rune(lemma[len(lemma)-2])):
		forms = append(forms, lemma[:len(lemma)-1]+"ies")
	default:
		forms = append(forms, lemma+"s")
	}
	if !has("ing") {
		stem := lemma
		if strings.HasSuffix(lemma, "e") && !strings.HasSuffix(lemma, "ee") && len(lemma) > 2 {
			stem = lemma[:len(lemma)-1]
		}
		forms = append(forms, stem+"ing")
	}
	if !has("ed") && len(irregular) == 0 {
		switch {
		case strings.HasSuffix(lemma, "e"):
			forms = append(forms, lemma+"d")
		case len(lemma) > 1 && strings.HasSuffix(lemma, "y") && !strings.ContainsRune("aeiou", rune(lemma[len(lemma)-2])):
			forms = append(forms, lemma[:len(lemma)-1]+"ied")
		default:
			forms = append(forms, lemma+"ed")
		}
	}
	return append(forms, irregular...)
}

// readExceptions reads verb.exc: "inflected lemma…", by lemma.
func readExceptions(path string) (map[string][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open WordNet exceptions: %w", err)
	}
	defer f.Close()
	out := map[string][]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		for _, l := range fs[1:] {
			out[l] = append(out[l], fs[0])
		}
	}
	return out, sc.Err()
}

// readVerbData reads data.verb's lexicographer files, lemmas and verb hypernyms.
func readVerbData(path string) (map[int]*verbSynset, error) {
	out := map[int]*verbSynset{}
	err := eachSynset(path, func(l synsetLine) {
		s := &verbSynset{lexfile: l.lex, lemmas: l.lemmas}
		for _, p := range l.ptrs {
			if p.sym == "@" && p.pos == "v" {
				s.hyper = append(s.hyper, p.target)
			}
		}
		out[l.off] = s
	})
	return out, err
}
