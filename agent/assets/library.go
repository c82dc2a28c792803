package assets

import (
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
)

//go:embed library.json.gz
var libraryGz []byte

// Asset is one drawing of the library.
type Asset struct {
	ID       string   // "fluent:airplane"
	Set      string   // "fluent"
	Name     string   // "airplane": the id's words
	Label    string   // CLDR label when it differs from the name ("automobile")
	Keywords []string // lower case
	Category string   // "travel-places/transport-air", "tabler/vehicles"
	// Stroke assets are single-colour line icons the runtime tints with the element's
	// colour; the others are illustrations that keep their colours.
	Stroke bool

	order  int
	body   string
	w, h   int
	nameWs []string
}

// Library is a loaded index. It is immutable once loaded and safe for concurrent use.
type Library struct {
	sets   map[string]Set
	assets []*Asset
	byID   map[string]*Asset
	// Lookup tables from normalised phrases and words to assets.
	byName    map[string][]*Asset // full name or CLDR label
	byKeyword map[string][]*Asset // full keyword phrase
	byWord    map[string][]*Asset // a word of the name, label or a keyword
	nameWords map[string][]*Asset // a word of the name or label
}

// Default returns the library embedded in the binary, decoded on first use.
var Default = sync.OnceValue(func() *Library {
	l, err := Load(bytes.NewReader(libraryGz))
	if err != nil {
		// The embedded index is part of the build; a broken one is a build bug.
		panic(fmt.Sprintf("assets: embedded library: %v", err))
	}
	return l
})

// Load reads an index written by Index.Encode.
func Load(r io.Reader) (*Library, error) {
	x, err := decodeIndex(r)
	if err != nil {
		return nil, err
	}
	l := &Library{sets: map[string]Set{}, byID: map[string]*Asset{}, byName: map[string][]*Asset{},
		byKeyword: map[string][]*Asset{}, byWord: map[string][]*Asset{}, nameWords: map[string][]*Asset{}}
	for _, s := range x.Sets {
		l.sets[s.Prefix] = s
	}
	for _, rec := range x.Assets {
		set, name, ok := strings.Cut(rec.ID, ":")
		s, known := l.sets[set]
		if !ok || !known {
			return nil, fmt.Errorf("asset %q: unknown set", rec.ID)
		}
		a := &Asset{ID: rec.ID, Set: set, Name: strings.ReplaceAll(name, "-", " "), Label: rec.Label,
			Keywords: rec.Keywords, Category: rec.Category, Stroke: s.Stroke, order: rec.Order, body: rec.Body,
			w: rec.W, h: rec.H}
		if a.w == 0 {
			a.w, a.h = s.Width, s.Height
		}
		a.nameWs = strings.Fields(a.Name)
		l.assets = append(l.assets, a)
		l.byID[a.ID] = a
		l.byName[a.Name] = append(l.byName[a.Name], a)
		if a.Label != "" {
			l.byName[a.Label] = append(l.byName[a.Label], a)
		}
		for _, w := range strings.Fields(a.Name + " " + a.Label) {
			if ws := l.nameWords[w]; len(ws) == 0 || ws[len(ws)-1] != a {
				l.nameWords[w] = append(ws, a)
			}
		}
		words := map[string]bool{}
		for _, p := range append([]string{a.Name, a.Label}, a.Keywords...) {
			for _, w := range strings.Fields(p) {
				words[w] = true
			}
		}
		for _, k := range a.Keywords {
			l.byKeyword[k] = append(l.byKeyword[k], a)
		}
		for w := range words {
			l.byWord[w] = append(l.byWord[w], a)
		}
	}
	return l, nil
}

// Len is the number of assets.
func (l *Library) Len() int { return len(l.assets) }

// All returns every asset, in index order (a copy of the list).
func (l *Library) All() []*Asset { return append([]*Asset(nil), l.assets...) }

// Get returns the asset with the given id ("fluent:airplane").
func (l *Library) Get(id string) (*Asset, bool) {
	a, ok := l.byID[id]
	return a, ok
}

// Sets lists the source collections, by prefix.
func (l *Library) Sets() []Set {
	out := make([]Set, 0, len(l.sets))
	for _, s := range l.sets {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Prefix < out[j].Prefix })
	return out
}

// SVG returns a standalone SVG document of the asset, sized by its view box. Stroke
// icons draw in black (currentColor has nothing to inherit in an image), which the
// runtime recolours.
func (a *Asset) SVG() []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d"`, a.w*8, a.h*8, a.w, a.h)
	if a.Stroke {
		b.WriteString(` fill="none" stroke="#000" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" color="#000"`)
	}
	b.WriteString(">")
	b.WriteString(a.body)
	b.WriteString("</svg>\n")
	return []byte(b.String())
}

// File is where a scene's asset is written in a project: assets/lib/<set>/<name>.svg
// (no colon, which a relative URL would read as a scheme).
func File(id string) string {
	set, name, _ := strings.Cut(id, ":")
	return "assets/lib/" + set + "/" + name + ".svg"
}
