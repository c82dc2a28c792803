// Command mklexicon derives the agent's lexicon (agent/assets/lexicon.tsv.gz) from
// WordNet 3.0 (Debian's wordnet-base, the documented WNDB files) and the embedded
// asset library: for every noun lemma, the nearest drawing of the thing it means, by
// synonym (the lemma's own synset names a drawing: "cell phone" is the mobile phone)
// and then by hypernym ("spaniel" is a kind of dog). Only what the library cannot
// already find by the lemma's own name is written. A drawing stands for the sense of
// its name that its keywords speak of (senses.go), so a kind of another sense does not
// reach it; the words of those other senses go to agent/assets/senses.tsv.gz.
// scripts/fetch-lexicon runs it.
//
//	go run ./agent/assets/cmd/mklexicon -wordnet /usr/share/wordnet -out agent/assets/lexicon.tsv.gz -senses agent/assets/senses.tsv.gz -loose agent/assets/loose.tsv.gz
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/kodahq/koda/agent/assets"
)

func main() {
	dir := flag.String("wordnet", "/usr/share/wordnet", "folder of the WordNet 3.0 database files (data.noun, index.noun)")
	out := flag.String("out", "agent/assets/lexicon.tsv.gz", "lexicon to write")
	senses := flag.String("senses", "agent/assets/senses.tsv.gz", "other senses of drawn words to write")
	loose := flag.String("loose", "agent/assets/loose.tsv.gz", "drawings' keywords that name no kind, part or relative of the drawn thing, to write")
	verbs := flag.String("verbs", "agent/assets/verbs.tsv.gz", "verbs of going and their manners, to write")
	parts := flag.String("parts", "agent/assets/parts.tsv.gz", "parts of living things (a tail, a beak, a trunk), to write")
	report := flag.Bool("report", false, "list, for review, the drawings that show another sense than WordNet's first")
	flag.Parse()
	if err := run(*dir, *out, *senses, *loose, *verbs, *parts, *report); err != nil {
		fmt.Fprintln(os.Stderr, "mklexicon:", err)
		os.Exit(1)
	}
}

// synset is one noun sense of WordNet.
type synset struct {
	lexfile int
	lemmas  []string // spaces for underscores, lower case, in WordNet's order
	hyper   []int    // hypernym and instance-hypernym offsets
	hypo    []int
	gloss   string
	parts   []int // meronyms and holonyms: a sail of a sailing vessel, a wheel of a car
	wholes  []int // part holonyms: what it is a part of (a tail of a vertebrate)
	// verbs are the verbs each lemma is derived from or gives ("runner" from "run"):
	// by lemma index, the verb synset and the verb's lemma index there.
	verbs map[int][][2]int
	// instance marks a named one (a person, a place): Alexander Graham Bell is no
	// sense of "bell" a drawing could be mistaken for.
	instance bool
}

// maxDepth is how many hypernym steps a lemma may climb to a drawing: a spaniel is a
// dog in one, a violin a bowed stringed instrument, a stringed instrument, a musical
// instrument in three.
const maxDepth = 4

// maxBreadth bounds how general a hypernym may be (its count of descendant synsets):
// "bird" (about 1,300) still names what a robin looks like; "artifact" or "organism"
// (tens of thousands) name nothing a person would draw.
const maxBreadth = 3000

func run(dir, out, sensesOut, looseOut, verbsOut, partsOut string, report bool) error {
	syn, err := readData(filepath.Join(dir, "data.noun"))
	if err != nil {
		return err
	}
	index, tagged, err := readIndex(filepath.Join(dir, "index.noun"))
	if err != nil {
		return err
	}
	// How often each word is used otherwise (SemCor's tagged senses as an adjective,
	// verb or adverb): "lower" is an adjective far more than a berth.
	other := map[string]int{}
	onlyOther := map[string]bool{} // words WordNet knows, but never as a noun: "sit", "empty"
	adjectives := map[string]bool{}
	for _, pos := range []string{"adj", "verb", "adv"} {
		idx, t, err := readIndex(filepath.Join(dir, "index."+pos))
		if err != nil {
			return err
		}
		for w, n := range t {
			other[w] += n
		}
		if pos == "adj" {
			for w := range idx {
				adjectives[w] = true
			}
		}
		for w := range idx {
			if _, noun := index[w]; !noun && pos != "adv" && !strings.Contains(w, " ") {
				onlyOther[w] = true
			}
		}
	}
	for off, s := range syn {
		for _, h := range s.hyper {
			if hs, ok := syn[h]; ok {
				hs.hypo = append(hs.hypo, off)
			}
		}
	}
	// In file order, so that a lemma reaching two drawings takes the same one on
	// every run (the map above is walked in random order).
	for _, s := range syn {
		sort.Ints(s.hypo)
	}
	breadth := map[int]int{}
	var count func(int) int
	count = func(off int) int {
		if n, ok := breadth[off]; ok {
			return n
		}
		breadth[off] = 0 // a cycle, should WordNet have one, counts once
		n := 0
		for _, h := range syn[off].hypo {
			n += 1 + count(h)
		}
		breadth[off] = n
		return n
	}

	lib := assets.Default()
	headDrawn := func(lemma string) bool {
		ws := strings.Fields(lemma)
		_, ok := lib.NamedOnly(ws[len(ws)-1])
		return ok
	}
	sensesOf := &senseFinder{syn: syn, index: index, adjectives: adjectives, nouns: func(w string) bool {
		_, noun := index[w]
		return noun && other[w] <= tagged[w]
	}}
	drawn := map[int]*assets.Asset{}
	drawnBy := map[int]string{}
	drawable := func(off int) (*assets.Asset, string) {
		if a, ok := drawn[off]; ok {
			return a, drawnBy[off]
		}
		s := syn[off]
		var best *assets.Asset
		via := ""
		for _, l := range s.lemmas {
			// The drawing must show this sense of its name: "bag" names the shopping
			// bags, but a suitcase (another sense of "bag") is no shopping bag, and the
			// tank drawn is the army's, no storage tank.
			m, ok := lib.NamedOnly(l)
			if ok && compatible(m.Category, s.lexfile) && sensesOf.depicted(m.Asset, l) == off {
				best, via = m.Asset, l
				break
			}
		}
		drawn[off], drawnBy[off] = best, via
		return best, via
	}

	// kindOfHead is the sense of a compound that is a kind of the sense its last
	// word's drawing depicts, if one is.
	kindOfHead := func(lemma string, senses []int) (int, bool) {
		ws := strings.Fields(lemma)
		if len(ws) < 2 {
			return 0, false
		}
		head := ws[len(ws)-1]
		m, ok := lib.NamedOnly(head)
		if !ok {
			return 0, false
		}
		shown := sensesOf.depicted(m.Asset, head)
		if shown < 0 {
			return 0, false
		}
		for _, off := range senses {
			if ancestors(off, syn, maxDepth)[shown] {
				return off, true
			}
		}
		return 0, false
	}
	people, err := newPeople(dir, syn, lib)
	if err != nil {
		return err
	}
	type entry struct {
		lemma, id, via string
		depth          int
	}
	var entries []entry
	for lemma, senses := range index {
		if _, own := lib.NamedOnly(lemma); own {
			continue // the library names it itself
		}
		found := false
		// A word used mostly as another part of speech ("lower", "remote") leads to its
		// drawing only where the sentence makes it a noun: marked "?".
		rare := other[lemma] > tagged[lemma]
		// The first senses are the common ones (WordNet orders them by frequency);
		// past the second a reader rarely means it. But a compound that is a kind of
		// what its last word's drawing shows means that kind, whatever the order of
		// its senses ("red fox" is a plant first, in a list no text ever tagged).
		if off, ok := kindOfHead(lemma, senses); ok {
			senses = []int{off}
		}
		for _, off := range senses[:min(2, len(senses))] {
			if !concrete[syn[off].lexfile] {
				continue
			}
			a, via, depth := climb(off, syn, drawable, count)
			if a != nil {
				id := a.ID
				if rare {
					id = "?" + id
				}
				entries = append(entries, entry{lemma, id, via, depth})
				found = true
			}
			break
		}
		if !found {
			if a, via, ok := people.figure(lemma, senses); ok {
				entries = append(entries, entry{lemma, a.ID, via, 1})
				found = true
			}
		}
		if !found && (!strings.Contains(lemma, " ") || headDrawn(lemma)) {
			// A real word with nothing to draw: no misspelling of a drawn one ("role"
			// is not a "hole"); a compound that is no kind of what its last word's
			// drawing shows is not drawn by it (a water tank is no army tank).
			id := "-"
			if rare {
				id = "?-" // "stand", "close": a noun, but mostly a verb
			}
			entries = append(entries, entry{lemma: lemma, id: id})
		}
	}
	// A two-word lemma written closed ("waterhole" for WordNet's "water hole",
	// "firetruck") is the same word, not a misspelling of another ("waterpolo").
	closed := map[string]bool{}
	for _, e := range entries {
		ws := strings.Fields(e.lemma)
		if len(ws) != 2 || strings.ContainsAny(e.lemma, "-'.") {
			continue
		}
		c := ws[0] + ws[1]
		if _, lemma := index[c]; lemma || onlyOther[c] || closed[c] {
			continue
		}
		if _, own := lib.NamedOnly(c); own {
			continue
		}
		closed[c] = true
		entries = append(entries, entry{c, e.id, e.via, e.depth})
	}
	for w := range onlyOther {
		if _, own := lib.NamedOnly(w); !own {
			entries = append(entries, entry{lemma: w, id: "~"})
		}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].lemma < entries[j].lemma })
	var b strings.Builder
	b.WriteString("# Derived from WordNet 3.0 (Princeton University; licence in LICENSES/wordnet.txt) and the asset library by agent/assets/cmd/mklexicon.\n")
	b.WriteString("# asset \"-\": a noun WordNet knows that leads to no drawing; \"?id\": a word used mostly as another part of speech; \"~\": a verb or adjective WordNet never uses as a noun\n")
	b.WriteString("# lemma\tasset\tdepth (0: a synonym of the drawing's name, n: n hypernym steps, -1: the drawing is of a kind of it)\tthe WordNet lemma that names the drawing\n")
	for _, e := range entries {
		fmt.Fprintf(&b, "%s\t%s\t%d\t%s\n", e.lemma, e.id, e.depth, e.via)
	}
	if err := writeGz(out, b.String()); err != nil {
		return err
	}
	if report {
		reportChanged(index, lib, sensesOf)
	}
	if err := writeSenses(sensesOut, index, lib, sensesOf); err != nil {
		return err
	}
	if err := writeLoose(looseOut, index, syn, lib); err != nil {
		return err
	}
	// A word of a drawing's name ("thumbs" of "thumbs up") is the drawing's too.
	nameWords := map[string]bool{}
	for _, a := range lib.All() {
		for _, n := range []string{a.Name, a.Label} {
			for _, w := range strings.Fields(strings.ReplaceAll(n, "-", " ")) {
				nameWords[strings.ToLower(w)] = true
			}
		}
	}
	drawnWord := func(w string) bool {
		_, ok := lib.NamedOnly(w)
		return ok || nameWords[w]
	}
	if err := writeVerbs(dir, verbsOut, tagged, drawnWord); err != nil {
		return err
	}
	if err := writeParts(partsOut, index, syn); err != nil {
		return err
	}
	leads := 0
	for _, e := range entries {
		if e.id != "-" && e.id != "~" && !strings.HasPrefix(e.id, "?") {
			leads++
		}
	}
	fmt.Fprintf(os.Stderr, "mklexicon: %d lemmas of %d lead to a drawing; wrote %s\n", leads, len(index), out)
	return nil
}

// climb walks up from a synset, breadth first, to the nearest synset that names a
// drawing, within maxDepth steps and below maxBreadth.
func climb(start int, syn map[int]*synset, drawable func(int) (*assets.Asset, string), breadth func(int) int) (*assets.Asset, string, int) {
	level := []int{start}
	seen := map[int]bool{start: true}
	for depth := 0; depth <= maxDepth && len(level) > 0; depth++ {
		for _, off := range level {
			if depth > 0 && breadth(off) > maxBreadth {
				continue
			}
			if a, via := drawable(off); a != nil {
				return a, via, depth
			}
		}
		if depth == 0 {
			// A kind of it, drawn, depicts it: a fridge is a refrigerator, a tangerine
			// an orange. Only one step down, and only from the lemma's own sense.
			for _, h := range syn[start].hypo {
				if a, via := drawable(h); a != nil {
					return a, via, -1
				}
			}
		}
		level = step(syn, level, seen, hypers)
	}
	return nil, "", 0
}

// concrete are the WordNet lexicographer files of things one can draw (lexnames(5WN)).
var concrete = map[int]bool{
	5:  true, // noun.animal
	6:  true, // noun.artifact
	8:  true, // noun.body
	13: true, // noun.food
	17: true, // noun.object
	18: true, // noun.person
	19: true, // noun.phenomenon
	20: true, // noun.plant
	27: true, // noun.substance
}

// categories are the library categories (by prefix) that can depict each
// lexicographer file: an animal sense is drawn by an animal, never by the club that
// shares its name ("bat").
var categories = map[int][]string{
	5:  {"animals-nature/animal", "tabler/animals", "smileys-emotion/cat-face", "smileys-emotion/monkey-face"},
	6:  {"objects/", "travel-places/", "activities/", "food-drink/dishware", "food-drink/drink", "symbols/transport-sign", "flags/", "tabler/"},
	8:  {"people-body/", "smileys-emotion/heart"},
	13: {"food-drink/", "tabler/food", "animals-nature/plant"},
	17: {"travel-places/sky-weather", "travel-places/place-geographic", "animals-nature/", "tabler/nature", "tabler/weather"},
	18: {"people-body/"},
	19: {"travel-places/sky-weather", "tabler/weather", "tabler/nature", "activities/event"},
	20: {"animals-nature/plant", "food-drink/food-fruit", "food-drink/food-vegetable", "tabler/nature"},
	27: {"food-drink/", "objects/", "travel-places/sky-weather", "tabler/"},
}

func compatible(category string, lexfile int) bool {
	if category == "" {
		return true
	}
	for _, p := range categories[lexfile] {
		if strings.HasPrefix(category, p) {
			return true
		}
	}
	return false
}

// readData reads data.noun's synsets (wndb(5WN)).
func readData(path string) (map[int]*synset, error) {
	out := map[int]*synset{}
	err := eachSynset(path, func(l synsetLine) {
		s := &synset{lexfile: l.lex, gloss: l.gloss, lemmas: l.lemmas}
		for _, p := range l.ptrs {
			// Instance hypernyms are left out: a person's or a place's name is no
			// thing to draw ("Aaron Copland" is no artist on screen).
			if p.sym == "@" && p.pos == "n" {
				s.hyper = append(s.hyper, p.target)
			}
			s.instance = s.instance || p.sym == "@i"
			if p.sym == "+" && p.pos == "v" && p.src > 0 && p.dst > 0 {
				if s.verbs == nil {
					s.verbs = map[int][][2]int{}
				}
				s.verbs[p.src-1] = append(s.verbs[p.src-1], [2]int{p.target, p.dst - 1})
			}
			if p.pos == "n" && len(p.sym) == 2 && (p.sym[0] == '%' || p.sym[0] == '#') && strings.ContainsRune("mps", rune(p.sym[1])) {
				s.parts = append(s.parts, p.target) // a part, member or stuff of it, or what it is one of
				if p.sym == "#p" {
					s.wholes = append(s.wholes, p.target)
				}
			}
		}
		out[l.off] = s
	})
	return out, err
}

// synsetLine is one line of a WordNet data file: "offset lex_filenum ss_type w_cnt word
// lex_id … p_cnt [ptr_symbol offset pos source/target]… | gloss" (wndb(5WN)).
type synsetLine struct {
	off, lex int
	lemmas   []string // spaces for underscores, lower case, no adjective markers
	ptrs     []pointer
	gloss    string
}

// pointer is one pointer of a synset: src and dst are the lemma numbers it links (from
// 1), 0 for the whole synset.
type pointer struct {
	sym, pos string
	target   int
	src, dst int
}

// eachSynset calls fn with every synset line of a WordNet data file.
func eachSynset(path string, fn func(synsetLine)) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("open WordNet data (install Debian's wordnet-base): %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "  ") {
			continue // the licence header
		}
		data, gloss, _ := strings.Cut(line, " | ")
		fs := strings.Fields(data)
		if len(fs) < 4 {
			continue
		}
		off, err1 := strconv.Atoi(fs[0])
		lex, err2 := strconv.Atoi(fs[1])
		wc, err3 := strconv.ParseInt(fs[3], 16, 32)
		if err1 != nil || err2 != nil || err3 != nil {
			return fmt.Errorf("%s: bad synset line %.40q", path, line)
		}
		l := synsetLine{off: off, lex: lex, gloss: gloss}
		i := 4
		for k := 0; k < int(wc) && i+1 < len(fs); k++ {
			w := strings.ToLower(strings.ReplaceAll(fs[i], "_", " "))
			if p := strings.IndexByte(w, '('); p > 0 { // adjective markers: "(a)"
				w = w[:p]
			}
			l.lemmas = append(l.lemmas, w)
			i += 2
		}
		if i >= len(fs) {
			return fmt.Errorf("%s: short synset line at %d", path, off)
		}
		pc, err := strconv.Atoi(fs[i])
		if err != nil {
			return fmt.Errorf("%s: pointer count at %d: %w", path, off, err)
		}
		i++
		for k := 0; k < pc && i+3 < len(fs); k++ {
			t, err := strconv.Atoi(fs[i+1])
			if err == nil {
				p := pointer{sym: fs[i], target: t, pos: fs[i+2]}
				if sd := fs[i+3]; len(sd) == 4 {
					src, _ := strconv.ParseInt(sd[:2], 16, 32)
					dst, _ := strconv.ParseInt(sd[2:], 16, 32)
					p.src, p.dst = int(src), int(dst)
				}
				l.ptrs = append(l.ptrs, p)
			}
			i += 4
		}
		fn(l)
	}
	return sc.Err()
}

// readIndex reads an index file: "lemma pos synset_cnt p_cnt [ptr_symbol…] sense_cnt
// tagsense_cnt synset_offset…", senses in order of frequency; with each lemma's count
// of senses tagged in SemCor (how common it is in that part of speech).
func readIndex(path string) (map[string][]int, map[string]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("open WordNet index: %w", err)
	}
	defer f.Close()
	out := map[string][]int{}
	tagged := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "  ") {
			continue
		}
		fs := strings.Fields(line)
		if len(fs) < 6 {
			continue
		}
		n, err1 := strconv.Atoi(fs[2])
		p, err2 := strconv.Atoi(fs[3])
		if err1 != nil || err2 != nil || len(fs) < 6+p+n {
			return nil, nil, fmt.Errorf("%s: bad index line %.40q", path, line)
		}
		tc, err := strconv.Atoi(fs[5+p])
		if err != nil {
			return nil, nil, fmt.Errorf("%s: tagged count of %q: %w", path, fs[0], err)
		}
		var offs []int
		for _, o := range fs[6+p : 6+p+n] {
			v, err := strconv.Atoi(o)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: offset %q: %w", path, o, err)
			}
			offs = append(offs, v)
		}
		w := strings.ReplaceAll(fs[0], "_", " ")
		out[w] = offs
		tagged[w] += tc
	}
	return out, tagged, sc.Err()
}

// writeGz writes a derived table gzip'd, the form the binary embeds.
func writeGz(path, text string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := assets.EncodeLexicon(f, text); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
