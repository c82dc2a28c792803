// Package studio is Koda Studio: the web page where a person writes a prompt, answers
// the question, approves the plan, watches the animation being built and downloads the
// finals. It is plain HTML, CSS and JavaScript modules, embedded in the binary so it
// works offline and needs no Node toolchain; every action goes through the public API
// with the key the person signs in with.
package studio

import (
	"embed"
	"io/fs"
)

//go:embed index.html *.css *.js
var files embed.FS

// FS returns the Studio's files: index.html at the root, assets beside it.
func FS() fs.FS { return files }

// ContentSecurityPolicy is the policy the Studio is served with. Scripts and styles
// come only from the Studio's own files (no inline code, no eval), so text a tenant or
// an agent wrote can never run as script here; frames are limited to the Studio's
// origin, where live previews are served in sandboxed iframes with an opaque origin.
// Videos, thumbnails and a tenant's own images, sounds and fonts (shown on the asset
// and brand kit pages, the fonts through FontFace) may come from object storage on
// another origin.
const ContentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; " +
	"img-src 'self' data: blob: https: http:; media-src 'self' blob: https: http:; font-src 'self' https: http:; frame-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
