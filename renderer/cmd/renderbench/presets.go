package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/renderer"
)

// platformPresets is every named platform preset: the eleven of a batch "to every
// platform" (all but the preview), and the nine of them below 4K.
var platformPresets = map[string][]string{
	"all":     {"final", "1080p", "1080p30", "720p", "720p60", "4k", "4k60", "youtube", "instagram_reels", "tiktok", "twitter"},
	"below4k": {"final", "1080p", "1080p30", "720p", "720p60", "youtube", "instagram_reels", "tiktok", "twitter"},
}

// presetRows renders one 5 s canvas project to every preset of the set three ways, in
// this order, each measured whole:
//   - one by one: each preset its own render, as every batch did before identical
//     outputs were shared (the row the others are compared with);
//   - same output once: each distinct output (koda.PresetSpec.SameOutput) its own render;
//   - grouped: one capture per koda.CaptureGroups group, every output encoded from it,
//     as the render pool does now.
func presetRows(ctx context.Context, r *renderer.Renderer, pages, dir, set string, add func(row)) error {
	names, ok := platformPresets[set]
	if !ok {
		return fmt.Errorf("-presets %q: want all or below4k", set)
	}
	const secs = 5.0
	cas := fmt.Sprintf("presets %s (%d)", set, len(names))
	var specs []koda.PresetSpec
	for _, n := range names {
		p, err := koda.LookupPreset(n)
		if err != nil {
			return err
		}
		specs = append(specs, p)
	}
	var distinct []koda.PresetSpec
	for _, p := range specs {
		if !sameOutputIn(distinct, p) {
			distinct = append(distinct, p)
		}
	}
	frames := func(ps []koda.PresetSpec) int {
		n := 0
		for _, p := range ps {
			n += p.Frames(secs)
		}
		return n
	}
	out := filepath.Join(dir, "presets")
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	defer os.RemoveAll(out)

	oneByOne := func(who, settings string, ps []koda.PresetSpec) {
		m := startMeter()
		var size int64
		var err error
		for k, p := range ps {
			var res *koda.RenderResult
			res, err = r.Render(ctx, koda.RenderRequest{Dir: pages, Entry: "canvas.html", Preset: p, DurationS: secs,
				VideoPath: filepath.Join(out, fmt.Sprintf("%s-%d.mp4", strings.ReplaceAll(who, " ", "-"), k))}, nil)
			if err != nil {
				err = fmt.Errorf("%s: %w", p.Name, err)
				break
			}
			size += res.SizeBytes
		}
		add(row{cas: cas, who: who, settings: settings, frames: frames(specs), u: m.stop(), size: size, err: err})
	}
	oneByOne("koda", fmt.Sprintf("one by one: %d renders", len(specs)), specs)
	oneByOne("koda same output once", fmt.Sprintf("%d renders, one per distinct output", len(distinct)), distinct)

	groups := koda.CaptureGroups(distinct)
	var shapes []string
	m := startMeter()
	var size int64
	var err error
	for g, idx := range groups {
		var members []koda.PresetSpec
		var outputs []koda.VideoOutput
		for _, i := range idx {
			p := distinct[i]
			members = append(members, p)
			outputs = append(outputs, koda.VideoOutput{Preset: p, VideoPath: filepath.Join(out, fmt.Sprintf("grouped-%d-%s.mp4", g, p.Name)),
				ThumbnailPath: filepath.Join(out, fmt.Sprintf("grouped-%d-%s.jpg", g, p.Name))})
		}
		c := koda.CaptureSpec(members)
		shapes = append(shapes, fmt.Sprintf("%dx%d@%d→%d", c.Width, c.Height, c.FPS, len(members)))
		var res *koda.RenderResult
		res, err = r.Render(ctx, koda.RenderRequest{Dir: pages, Entry: "canvas.html", Preset: c, DurationS: secs, Outputs: outputs}, nil)
		if err != nil {
			err = fmt.Errorf("capture %dx%d@%d: %w", c.Width, c.Height, c.FPS, err)
			break
		}
		size += res.SizeBytes
	}
	add(row{cas: cas, who: "koda grouped", settings: fmt.Sprintf("%d captures (%s)", len(groups), strings.Join(shapes, ", ")),
		frames: frames(specs), u: m.stop(), size: size, err: err})
	return nil
}

// sameOutputIn reports whether one of ps makes the same video as p.
func sameOutputIn(ps []koda.PresetSpec, p koda.PresetSpec) bool {
	for _, o := range ps {
		if o.SameOutput(p) {
			return true
		}
	}
	return false
}
