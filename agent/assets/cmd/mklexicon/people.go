package main

import (
	"path/filepath"
	"regexp"
	"strings"

	"github.com/kodahq/koda/agent/assets"
)

// People: a person noun no drawing is named by is drawn as a person — doing what the
// word's verb says, when the library draws a person doing it (a runner is the person
// running, a swimmer the person swimming), else as a man or a woman when the word or
// what it is a kind of says so (a dad is a father, "a male parent"). A person the
// words give no look to (a user, a visitor) has no figure: nothing stands for them.

const personLexfile = 18 // noun.person

// maleRE and femaleRE: the words of a gloss that say a person's sex.
var (
	maleRE   = regexp.MustCompile(`\b(?:male|man|men|boy|father|son|husband|brother|king|gentleman)\b`)
	femaleRE = regexp.MustCompile(`\b(?:female|woman|women|girl|mother|daughter|wife|sister|queen|lady)\b`)
)

type peopleFinder struct {
	syn   map[int]*synset
	verbs map[int]*verbSynset
	exc   map[string][]string
	lib   *assets.Library
}

func newPeople(dir string, syn map[int]*synset, lib *assets.Library) (*peopleFinder, error) {
	verbs, err := readVerbData(filepath.Join(dir, "data.verb"))
	if err != nil {
		return nil, err
	}
	exc, err := readExceptions(filepath.Join(dir, "verb.exc"))
	if err != nil {
		return nil, err
	}
	return &peopleFinder{syn: syn, verbs: verbs, exc: exc, lib: lib}, nil
}

// figure is the drawing of a person noun (its first senses, the common ones), and the
// words that name it.
func (p *peopleFinder) figure(lemma string, senses []int) (*assets.Asset, string, bool) {
	for _, off := range senses[:min(2, len(senses))] {
		if a, via, ok := p.doing(lemma, off); ok {
			return a, via, true
		}
	}
	off := senses[0]
	if s := p.syn[off]; s == nil || s.lexfile != personLexfile || s.instance {
		return nil, "", false
	}
	return p.sex(off)
}

// doing: a person sense drawn doing what the word's verb says ("person running").
func (p *peopleFinder) doing(lemma string, off int) (*assets.Asset, string, bool) {
	s := p.syn[off]
	if s == nil || s.lexfile != personLexfile || s.instance {
		return nil, "", false
	}
	for k, l := range s.lemmas {
		if l != lemma {
			continue
		}
		for _, v := range s.verbs[k] {
			vs := p.verbs[v[0]]
			if vs == nil || v[1] >= len(vs.lemmas) {
				continue
			}
			verb := vs.lemmas[v[1]]
			for _, f := range verbForms(verb, p.exc[verb]) {
				if !strings.HasSuffix(f, "ing") {
					continue
				}
				if m, ok := p.lib.NamedOnly("person " + f); ok {
					return m.Asset, "person " + f, true
				}
			}
		}
	}
	return nil, "", false
}

// sex: a man or a woman, by the gloss of the sense or of what it is a kind of (two
// steps up: a dad is a father, a male parent).
func (p *peopleFinder) sex(off int) (*assets.Asset, string, bool) {
	level := []int{off}
	for depth := 0; depth < 3 && len(level) > 0; depth++ {
		var next []int
		for _, o := range level {
			os := p.syn[o]
			if os == nil {
				continue
			}
			text := strings.ToLower(strings.Join(os.lemmas, " ") + " " + definition(os.gloss))
			male, female := maleRE.MatchString(text), femaleRE.MatchString(text)
			if male != female {
				name := "man"
				if female {
					name = "woman"
				}
				if m, ok := p.lib.NamedOnly(name); ok {
					return m.Asset, name, true
				}
			}
			next = append(next, os.hyper...)
		}
		level = next
	}
	return nil, "", false
}
