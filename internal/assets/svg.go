package assets

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/kodahq/koda"
)

// SVG is sanitized by rewriting, not by filtering a copy of the input: the file is
// parsed with encoding/xml into a tree, every element and attribute is kept only when
// an allow-list below names it, and a new document is written from what is left.
// Nothing of the input's text is copied through unparsed, so markup the parser read
// one way cannot reach a browser that reads it another.
//
// bluemonday, the maintained Go sanitizer, was considered and not used: it parses
// with an HTML tokenizer, which lowercases names (SVG's viewBox, linearGradient,
// clipPath are case-sensitive), knows no XML namespaces (xlink:href) and has no
// SVG policy; its allow-lists would need the same table as here, on a parser that
// reads SVG differently from the browser that renders it.

const (
	svgNS   = "http://www.w3.org/2000/svg"
	xlinkNS = "http://www.w3.org/1999/xlink"
	xmlNS   = "http://www.w3.org/XML/1998/namespace"
)

// Bounds of an SVG's tree: deeper or larger files are refused, not trimmed.
const (
	svgMaxDepth    = 128
	svgMaxElements = 50000
)

// svgElements are the SVG elements kept: shapes, text, paint servers, clipping,
// masking and filters. Left out, with everything inside them: script, foreignObject
// (HTML inside SVG), animation (animate, set: they can rewrite href to javascript:),
// image (would fetch or embed files unchecked), a (links), iframe, and any element
// not named here, including other namespaces' (editor metadata).
var svgElements = set(
	"svg", "g", "defs", "symbol", "use", "title", "desc", "style",
	"path", "rect", "circle", "ellipse", "line", "polyline", "polygon",
	"text", "tspan", "textPath",
	"linearGradient", "radialGradient", "stop", "pattern",
	"clipPath", "mask", "marker",
	"filter", "feBlend", "feColorMatrix", "feComponentTransfer", "feComposite", "feDropShadow", "feFlood",
	"feFuncA", "feFuncB", "feFuncG", "feFuncR", "feGaussianBlur", "feMerge", "feMergeNode",
	"feMorphology", "feOffset", "feTile", "feTurbulence",
)

// svgAttributes are the attributes kept, on any kept element: geometry, presentation
// and paint. Left out: every event handler (on…), href except local references (see
// svgHrefElements), xml:base, and anything not named here.
var svgAttributes = set(
	"id", "class", "style", "version", "viewBox", "preserveAspectRatio", "width", "height",
	"x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "fx", "fy", "fr",
	"d", "points", "pathLength", "transform", "dx", "dy", "rotate", "textLength", "lengthAdjust",
	"fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-linecap", "stroke-linejoin",
	"stroke-miterlimit", "stroke-dasharray", "stroke-dashoffset", "stroke-opacity", "opacity",
	"clip-path", "clip-rule", "mask", "filter", "marker-start", "marker-mid", "marker-end",
	"color", "display", "visibility", "overflow", "paint-order", "vector-effect", "shape-rendering",
	"mix-blend-mode", "isolation", "color-interpolation", "color-interpolation-filters",
	"font-family", "font-size", "font-weight", "font-style", "font-variant", "font-stretch",
	"text-anchor", "dominant-baseline", "alignment-baseline", "baseline-shift", "letter-spacing",
	"word-spacing", "text-decoration", "writing-mode", "direction", "startOffset", "method", "spacing", "side",
	"offset", "stop-color", "stop-opacity", "gradientUnits", "gradientTransform", "spreadMethod",
	"patternUnits", "patternContentUnits", "patternTransform", "clipPathUnits", "maskUnits", "maskContentUnits",
	"markerWidth", "markerHeight", "markerUnits", "refX", "refY", "orient",
	"filterUnits", "primitiveUnits", "in", "in2", "result", "stdDeviation", "mode", "type", "values",
	"operator", "k1", "k2", "k3", "k4", "flood-color", "flood-opacity", "radius",
	"tableValues", "slope", "intercept", "amplitude", "exponent", "baseFrequency", "numOctaves", "seed", "stitchTiles",
)

// svgHrefElements may keep href (or xlink:href), and only as a reference to an
// element of the same document ("#id").
var svgHrefElements = set("use", "textPath", "linearGradient", "radialGradient", "pattern", "filter")

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// url() in an attribute or a style sheet may only name a fragment of this document;
// anything else would fetch (url(https://…), url(file:…)) or run (javascript:).
var (
	cssURL     = regexp.MustCompile(`(?i)url\s*\(\s*(['"]?)([^'")]*)`)
	localRef   = regexp.MustCompile(`^#[A-Za-z_][\w.:-]*$`)
	cssBanned  = regexp.MustCompile(`(?i)@import|expression\s*\(|javascript:|behavior\s*:|-moz-binding|\\`)
	numberHead = regexp.MustCompile(`^\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*(px)?\s*$`)
)

// safeValue reports whether an attribute value or style text only refers inside
// the document.
func safeValue(v string) bool {
	if cssBanned.MatchString(v) {
		return false
	}
	for _, m := range cssURL.FindAllStringSubmatch(v, -1) {
		if !localRef.MatchString(strings.TrimSpace(m[2])) {
			return false
		}
	}
	return true
}

type svgNode struct {
	name     string // local name, SVG namespace
	attrs    []svgAttr
	children []any // *svgNode or string (text)
}

type svgAttr struct{ name, value string } // name as written: "fill", "xlink:href", "xml:space"

// svgActive are elements that run, embed or fetch something. An SVG holding one is
// refused rather than rewritten without it: a logo whose script, embedded picture or
// animation silently vanished would not be the file its owner meant, and a file
// carrying them is more likely an attack than a logo.
var svgActive = set("script", "foreignObject", "iframe", "embed", "object", "image", "feImage",
	"animate", "animateMotion", "animateTransform", "animateColor", "set", "handler", "listener", "audio", "video")

const xhtmlNS = "http://www.w3.org/1999/xhtml"

// sanitizeSVG parses r and writes the sanitized document to out. It returns the
// picture's size from the root's viewBox (or width and height in pixels), 0 when
// it declares none, and what it dropped silently (editor metadata, unknown
// attributes), for the log. An SVG with active or external content (svgActive,
// event handlers, references outside the document, a style sheet that imports) is
// refused with ASSET_UNSAFE_CONTENT naming what was found.
func sanitizeSVG(r io.Reader, out io.Writer) (w, h int, removed []string, err error) {
	dec := xml.NewDecoder(r)
	dec.Strict = true
	// encoding/xml expands only the five predefined entities and never reads a DTD;
	// any other entity is an error in strict mode, so no billion laughs and no
	// external entity can get through. A DOCTYPE is refused below all the same.
	dec.CharsetReader = func(label string, in io.Reader) (io.Reader, error) {
		if l := strings.ToLower(label); l == "utf-8" || l == "us-ascii" {
			return in, nil
		}
		return nil, fmt.Errorf("encoding %q (only UTF-8 is accepted)", label)
	}
	var (
		root     *svgNode
		stack    []*svgNode
		skip     int // depth inside a dropped element
		elements int
		dropped  = map[string]bool{}
		unsafe   []string
		seen     = map[string]bool{}
	)
	note := func(what string) { dropped[what] = true }
	found := func(what string) {
		if !seen[what] && len(unsafe) < 8 {
			seen[what] = true
			unsafe = append(unsafe, what)
		}
	}
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return 0, 0, nil, malformed("the SVG is not well-formed XML: %v", err)
		}
		switch t := tok.(type) {
		case xml.Directive:
			return 0, 0, nil, koda.Errorf(koda.EUNPROCESSABLE, koda.CodeAssetUnsafe,
				"the SVG has a DOCTYPE or another <!…> declaration; entities and DTDs are not accepted: remove it")
		case xml.ProcInst:
			if t.Target != "xml" {
				found("<?" + t.Target + "?>") // xml-stylesheet loads CSS from elsewhere
			}
		case xml.Comment:
		case xml.StartElement:
			elements++
			if elements > svgMaxElements || len(stack)+skip >= svgMaxDepth {
				return 0, 0, nil, koda.Errorf(koda.EUNPROCESSABLE, koda.CodeAssetUnsafe,
					"the SVG has more than %d elements or is nested deeper than %d", svgMaxElements, svgMaxDepth)
			}
			if root != nil && len(stack) == 0 && skip == 0 {
				return 0, 0, nil, malformed("the SVG has more than one root element")
			}
			if root == nil && (t.Name.Space != svgNS || t.Name.Local != "svg") {
				return 0, 0, nil, malformed("the file is XML but its root is <%s>, not an <svg> element in the SVG namespace (xmlns=%q)", t.Name.Local, svgNS)
			}
			// Active content is looked for everywhere, inside dropped elements too.
			if (t.Name.Space == svgNS || t.Name.Space == xhtmlNS) && svgActive[t.Name.Local] || t.Name.Space == xhtmlNS {
				found("<" + t.Name.Local + ">")
			}
			for _, a := range t.Attr {
				if what := unsafeAttribute(a); what != "" {
					found(what)
				}
			}
			name := t.Name.Local
			if t.Name.Space == svgNS && name == "a" {
				name = "g" // a link without its link: what it holds stays drawn
			}
			if skip > 0 || t.Name.Space != svgNS || !svgElements[name] {
				if skip == 0 {
					note("<" + t.Name.Local + ">")
				}
				skip++
				continue
			}
			n := &svgNode{name: name}
			for _, a := range t.Attr {
				if kept, ok := svgAttribute(n.name, a); ok {
					n.attrs = append(n.attrs, kept)
				} else if a.Name.Space != "xmlns" && a.Name.Local != "xmlns" {
					note(a.Name.Local + "=")
				}
			}
			if root == nil {
				root = n
			} else {
				parent := stack[len(stack)-1]
				parent.children = append(parent.children, n)
			}
			stack = append(stack, n)
		case xml.EndElement:
			if skip > 0 {
				skip--
				continue
			}
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if n.name == "style" && !safeStyle(n) {
				found("<style> with @import or a url() outside the file")
			}
		case xml.CharData:
			if skip == 0 && len(stack) > 0 {
				n := stack[len(stack)-1]
				n.children = append(n.children, string(t))
			}
		}
	}
	if root == nil {
		return 0, 0, nil, malformed("the file has no <svg> element")
	}
	if len(unsafe) > 0 {
		return 0, 0, nil, koda.Errorf(koda.EUNPROCESSABLE, koda.CodeAssetUnsafe,
			"the SVG has content that runs, embeds or loads something: %s; an image asset must draw only: remove them and upload it again",
			strings.Join(unsafe, ", "))
	}
	if err := checkUseNesting(root); err != nil {
		return 0, 0, nil, err
	}
	w, h = svgSize(root)
	bw := &errWriter{w: out}
	bw.str(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	writeSVG(bw, root, true)
	if bw.err != nil {
		return 0, 0, nil, fmt.Errorf("write sanitized SVG: %w", bw.err)
	}
	for what := range dropped {
		removed = append(removed, what)
	}
	return w, h, removed, nil
}

// unsafeAttribute names an attribute that runs or fetches something, on any element:
// an event handler, a reference outside the document, a value with javascript: or an
// external url() in an attribute that would be kept. "" for any other.
func unsafeAttribute(a xml.Attr) string {
	quote := func(v string) string {
		if len(v) > 60 {
			v = v[:60] + "…"
		}
		return strconv.Quote(v)
	}
	name := a.Name.Local
	if a.Name.Space == xlinkNS {
		name = "xlink:" + name
	}
	switch {
	case a.Name.Space == "xmlns" || a.Name.Local == "xmlns" && a.Name.Space == "":
		return ""
	case strings.HasPrefix(strings.ToLower(a.Name.Local), "on") && (a.Name.Space == "" || a.Name.Space == svgNS || a.Name.Space == xhtmlNS):
		return a.Name.Local + "="
	case a.Name.Local == "href" && (a.Name.Space == "" || a.Name.Space == xlinkNS):
		if !localRef.MatchString(strings.TrimSpace(a.Value)) {
			return name + "=" + quote(a.Value)
		}
	case a.Name.Space == "" && svgAttributes[a.Name.Local] && !safeValue(a.Value):
		// Only attributes that would be kept: editors' own (sodipodi:docname with a
		// Windows path) are dropped whatever they hold.
		return name + "=" + quote(a.Value)
	}
	return ""
}

// svgAttribute keeps an allowed attribute, named as it will be written.
func svgAttribute(element string, a xml.Attr) (svgAttr, bool) {
	switch {
	case a.Name.Space == "" && a.Name.Local == "href", a.Name.Space == xlinkNS && a.Name.Local == "href":
		if svgHrefElements[element] && localRef.MatchString(strings.TrimSpace(a.Value)) {
			return svgAttr{"xlink:href", strings.TrimSpace(a.Value)}, true
		}
		return svgAttr{}, false
	case a.Name.Space == xmlNS && a.Name.Local == "space":
		if a.Value == "preserve" || a.Value == "default" {
			return svgAttr{"xml:space", a.Value}, true
		}
		return svgAttr{}, false
	case a.Name.Space != "":
		return svgAttr{}, false
	case !svgAttributes[a.Name.Local] || !safeValue(a.Value):
		return svgAttr{}, false
	}
	return svgAttr{a.Name.Local, a.Value}, true
}

// safeStyle: a <style> element's text may not import or point outside the document.
func safeStyle(n *svgNode) bool {
	for _, c := range n.children {
		if _, isText := c.(string); !isText {
			return false
		}
		if !safeValue(c.(string)) || strings.Contains(c.(string), "<") {
			return false
		}
	}
	return true
}

// checkUseNesting refuses <use> that points at an element containing another <use>:
// nested references multiply (ten uses of a group of ten uses of …), the SVG form of
// a billion laughs, which would hang the renderer rather than the parser.
func checkUseNesting(root *svgNode) error {
	ids := map[string]*svgNode{}
	var uses []*svgNode
	var walk func(n *svgNode)
	walk = func(n *svgNode) {
		for _, a := range n.attrs {
			if a.name == "id" {
				ids[a.value] = n
			}
		}
		if n.name == "use" {
			uses = append(uses, n)
		}
		for _, c := range n.children {
			if cn, ok := c.(*svgNode); ok {
				walk(cn)
			}
		}
	}
	walk(root)
	var hasUse func(n *svgNode) bool
	hasUse = func(n *svgNode) bool {
		for _, c := range n.children {
			if cn, ok := c.(*svgNode); ok && (cn.name == "use" || hasUse(cn)) {
				return true
			}
		}
		return false
	}
	for _, u := range uses {
		for _, a := range u.attrs {
			if a.name == "xlink:href" {
				if target := ids[strings.TrimPrefix(a.value, "#")]; target != nil && (target.name == "use" || hasUse(target)) {
					return koda.Errorf(koda.EUNPROCESSABLE, koda.CodeAssetUnsafe,
						"the SVG has a <use> of %s, which itself holds <use>; nested references are not accepted", a.value)
				}
			}
		}
	}
	return nil
}

// svgSize reads the root's viewBox, else its width and height when given in pixels.
func svgSize(root *svgNode) (int, int) {
	var vb, width, height string
	for _, a := range root.attrs {
		switch a.name {
		case "viewBox":
			vb = a.value
		case "width":
			width = a.value
		case "height":
			height = a.value
		}
	}
	px := func(s string) float64 {
		m := numberHead.FindStringSubmatch(s)
		if m == nil {
			return 0
		}
		f, _ := strconv.ParseFloat(m[1], 64)
		return f
	}
	if w, h := px(width), px(height); w > 0 && h > 0 {
		return clampInt(w), clampInt(h)
	}
	f := strings.FieldsFunc(vb, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' || r == '\n' || r == '\r' })
	if len(f) == 4 {
		w, _ := strconv.ParseFloat(f[2], 64)
		h, _ := strconv.ParseFloat(f[3], 64)
		if w > 0 && h > 0 {
			return clampInt(w), clampInt(h)
		}
	}
	return 0, 0
}

func clampInt(f float64) int {
	if f > math.MaxInt32 || math.IsNaN(f) {
		return math.MaxInt32
	}
	return int(math.Round(f))
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) str(s string) {
	if e.err == nil {
		_, e.err = io.WriteString(e.w, s)
	}
}

func writeSVG(w *errWriter, n *svgNode, root bool) {
	w.str("<" + n.name)
	if root {
		w.str(` xmlns="` + svgNS + `" xmlns:xlink="` + xlinkNS + `"`)
	}
	for _, a := range n.attrs {
		w.str(" " + a.name + `="` + escapeAttr(a.value) + `"`)
	}
	if len(n.children) == 0 {
		w.str("/>")
		return
	}
	w.str(">")
	for _, c := range n.children {
		switch c := c.(type) {
		case *svgNode:
			writeSVG(w, c, false)
		case string:
			var b bytes.Buffer
			_ = xml.EscapeText(&b, []byte(c))
			w.str(b.String())
		}
	}
	w.str("</" + n.name + ">")
}

func escapeAttr(s string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(s)) // escapes & < > " ' and control characters
	return b.String()
}
