// Command mkassets builds the embedded asset index (agent/assets/library.json.gz) from
// the unpacked npm packages scripts/fetch-assets downloads. Run it through that script.
//
// Choice of sets: Fluent Emoji Flat is the illustrated set (flat, colourful, one style,
// about 1,600 subjects once skin-tone variants are dropped); Noto fills only the emoji
// Fluent lacks (lighthouse, orca, treasure chest…: about 90), so one style dominates and
// the file stays small; Tabler's outline icons (about 5,000, with tags) cover UI words
// (settings, wifi, battery) and subjects no emoji has (zeppelin, paper plane). CLDR
// labels, keywords and groups come from emojibase-data.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/kodahq/koda/agent/assets"
)

func main() {
	lock := flag.String("lock", "agent/assets/sources.lock", "pinned package versions")
	fluent := flag.String("fluent", "", "unpacked @iconify-json/fluent-emoji-flat")
	noto := flag.String("noto", "", "unpacked @iconify-json/noto")
	tabler := flag.String("tabler", "", "unpacked @tabler/icons")
	emojibase := flag.String("emojibase", "", "unpacked emojibase-data")
	out := flag.String("out", "agent/assets/library.json.gz", "index to write")
	flag.Parse()
	if err := run(*lock, *fluent, *noto, *tabler, *emojibase, *out); err != nil {
		slog.Error("mkassets", "err", err)
		os.Exit(1)
	}
}

type iconifySet struct {
	Prefix string                 `json:"prefix"`
	Icons  map[string]iconifyIcon `json:"icons"`
	// Aliases point at another icon, possibly mirrored.
	Aliases map[string]struct {
		Parent string `json:"parent"`
		HFlip  bool   `json:"hFlip"`
	} `json:"aliases"`
	Width  int `json:"width"`
	Height int `json:"height"`
}

type iconifyIcon struct {
	Body   string `json:"body"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	Hidden bool   `json:"hidden"`
}

type iconifyInfo struct {
	Name   string `json:"name"`
	Author struct {
		Name string `json:"name"`
	} `json:"author"`
	License struct {
		SPDX string `json:"spdx"`
	} `json:"license"`
}

type emoji struct {
	Label    string   `json:"label"`
	Hexcode  string   `json:"hexcode"`
	Tags     []string `json:"tags"`
	Group    *int     `json:"group"`
	Subgroup *int     `json:"subgroup"`
	Order    int      `json:"order"`
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

func versions(lock string) (map[string]string, error) {
	f, err := os.Open(lock)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	v := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) >= 2 && !strings.HasPrefix(fs[0], "#") {
			v[fs[0]] = fs[1]
		}
	}
	return v, sc.Err()
}

// normHex makes iconify's chars keys and emojibase's hexcodes comparable: lower case,
// without the emoji presentation selector.
func normHex(h string) string {
	var parts []string
	for _, p := range strings.Split(strings.ToLower(h), "-") {
		if p != "fe0f" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, "-")
}

var skinToneRE = regexp.MustCompile(`1f3f[b-f]`)

// words turns "price-tag" or "Hot Beverage" into "price tag" / "hot beverage".
func words(s string) string {
	s = strings.ToLower(s)
	s = strings.NewReplacer("-", " ", "_", " ", "’", "", "'", "", ":", "", ",", "", "“", "", "”", "", ".", "").Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

func dedupe(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func run(lock, fluentDir, notoDir, tablerDir, emojiDir, out string) error {
	for flagName, d := range map[string]string{"fluent": fluentDir, "noto": notoDir, "tabler": tablerDir, "emojibase": emojiDir} {
		if d == "" {
			return fmt.Errorf("-%s is required", flagName)
		}
	}
	ver, err := versions(lock)
	if err != nil {
		return fmt.Errorf("read %s: %w", lock, err)
	}

	// CLDR data by normalised code point sequence.
	var emojis []emoji
	if err := readJSON(filepath.Join(emojiDir, "en", "data.json"), &emojis); err != nil {
		return err
	}
	var groups struct {
		Groups    map[string]string `json:"groups"`
		Subgroups map[string]string `json:"subgroups"`
	}
	if err := readJSON(filepath.Join(emojiDir, "meta", "groups.json"), &groups); err != nil {
		return err
	}
	cldr := map[string]emoji{}
	for _, e := range emojis {
		cldr[normHex(e.Hexcode)] = e
	}
	category := func(e emoji) string {
		if e.Group == nil {
			return ""
		}
		c := groups.Groups[strconv.Itoa(*e.Group)]
		if e.Subgroup != nil {
			c += "/" + groups.Subgroups[strconv.Itoa(*e.Subgroup)]
		}
		return c
	}

	idx := &assets.Index{}
	emojiRecords := func(dir, prefix string, keep func(hex string) bool) (map[string]bool, error) {
		var set iconifySet
		if err := readJSON(filepath.Join(dir, "icons.json"), &set); err != nil {
			return nil, err
		}
		var chars map[string]string
		if err := readJSON(filepath.Join(dir, "chars.json"), &chars); err != nil {
			return nil, err
		}
		var info iconifyInfo
		if err := readJSON(filepath.Join(dir, "info.json"), &info); err != nil {
			return nil, err
		}
		pkg := "@iconify-json/" + set.Prefix
		idx.Sets = append(idx.Sets, assets.Set{Prefix: prefix, Name: info.Name, Package: pkg, Version: ver[pkg],
			License: info.License.SPDX, Author: info.Author.Name, Width: set.Width, Height: set.Height})
		have := map[string]bool{}
		hexes := make([]string, 0, len(chars))
		for h := range chars {
			hexes = append(hexes, h)
		}
		sort.Strings(hexes)
		seen := map[string]bool{}
		for _, h := range hexes {
			name := chars[h]
			n := normHex(h)
			have[n] = true
			// Skin-tone variants add nothing to a search: the default (yellow) one stays.
			if skinToneRE.MatchString(n) || seen[name] || (keep != nil && !keep(n)) {
				continue
			}
			icon, ok := set.Icons[name]
			flip := false
			if !ok {
				a, isAlias := set.Aliases[name]
				if !isAlias {
					continue
				}
				icon, ok = set.Icons[a.Parent]
				if !ok {
					continue
				}
				flip = a.HFlip
			}
			seen[name] = true
			r := assets.Record{ID: prefix + ":" + name, Body: icon.Body}
			w, hgt := icon.Width, icon.Height
			if w == 0 {
				w = set.Width
			}
			if hgt == 0 {
				hgt = set.Height
			}
			if w != set.Width || hgt != set.Height {
				r.W, r.H = w, hgt
			}
			if flip {
				r.Body = fmt.Sprintf(`<g transform="translate(%d 0) scale(-1 1)">%s</g>`, w, icon.Body)
			}
			if e, ok := cldr[n]; ok {
				if l := words(e.Label); l != words(name) {
					r.Label = l
				}
				for _, t := range e.Tags {
					r.Keywords = append(r.Keywords, words(t))
				}
				r.Category = category(e)
				r.Order = e.Order
			}
			r.Keywords = dedupe(r.Keywords)
			idx.Assets = append(idx.Assets, r)
		}
		return have, nil
	}
	fluentHas, err := emojiRecords(fluentDir, "fluent", nil)
	if err != nil {
		return err
	}
	// Noto only where Fluent has no drawing of the same emoji.
	if _, err := emojiRecords(notoDir, "noto", func(hex string) bool { return !fluentHas[hex] }); err != nil {
		return err
	}

	// Tabler outline icons: icons.json has the names, categories and tags; the SVG files
	// the markup. The transparent 24×24 hit box every file starts with is dropped.
	var tabler map[string]struct {
		Name     string `json:"name"`
		Category string `json:"category"`
		Tags     []any  `json:"tags"`
	}
	if err := readJSON(filepath.Join(tablerDir, "icons.json"), &tabler); err != nil {
		return err
	}
	idx.Sets = append(idx.Sets, assets.Set{Prefix: "tabler", Name: "Tabler Icons", Package: "@tabler/icons",
		Version: ver["@tabler/icons"], License: "MIT", Author: "Paweł Kuna", Width: 24, Height: 24, Stroke: true})
	names := make([]string, 0, len(tabler))
	for n := range tabler {
		names = append(names, n)
	}
	sort.Strings(names)
	innerRE := regexp.MustCompile(`(?s)<svg[^>]*>(.*)</svg>`)
	hitBoxRE := regexp.MustCompile(`<path stroke="none" d="M0 0h24v24H0z" fill="none"\s*/>`)
	spaceRE := regexp.MustCompile(`\s+`)
	for _, n := range names {
		t := tabler[n]
		b, err := os.ReadFile(filepath.Join(tablerDir, "icons", "outline", n+".svg"))
		if os.IsNotExist(err) {
			continue // a filled-only icon
		} else if err != nil {
			return err
		}
		m := innerRE.FindSubmatch(b)
		if m == nil {
			return fmt.Errorf("tabler %s: no <svg> element", n)
		}
		body := strings.TrimSpace(spaceRE.ReplaceAllString(hitBoxRE.ReplaceAllString(string(m[1]), ""), " "))
		body = strings.ReplaceAll(body, " />", "/>")
		r := assets.Record{ID: "tabler:" + n, Body: body, Category: "tabler/" + words(t.Category)}
		for _, tag := range t.Tags {
			if s, ok := tag.(string); ok { // a few tags are numbers
				r.Keywords = append(r.Keywords, words(s))
			} else {
				r.Keywords = append(r.Keywords, words(fmt.Sprint(tag)))
			}
		}
		r.Keywords = dedupe(r.Keywords)
		idx.Assets = append(idx.Assets, r)
	}

	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := idx.Encode(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	st, _ := os.Stat(out)
	slog.Info("mkassets: wrote index", "path", out, "assets", len(idx.Assets), "bytes", st.Size())
	return nil
}
