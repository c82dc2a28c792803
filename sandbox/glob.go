package sandbox

import (
	"path"
	"strings"
)

// matchGlob reports whether the slash path name matches pattern, where each segment is a
// path.Match pattern and a "**" segment matches zero or more whole segments.
// The pattern must already be valid (see validGlob).
func matchGlob(pattern, name string) bool {
	return matchSegments(strings.Split(pattern, "/"), strings.Split(name, "/"))
}

func matchSegments(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			// Collapse runs of ** and try every split point.
			for len(pat) > 0 && pat[0] == "**" {
				pat = pat[1:]
			}
			if len(pat) == 0 {
				return true
			}
			for i := 0; i <= len(name); i++ {
				if matchSegments(pat, name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

// validGlob reports whether every segment of pattern is a well-formed path.Match pattern.
func validGlob(pattern string) bool {
	for _, seg := range strings.Split(pattern, "/") {
		if _, err := path.Match(seg, ""); err != nil {
			return false
		}
	}
	return true
}

// matchInclude applies a search include filter: a pattern without a slash ("*.js")
// matches the base name anywhere in the tree, one with a slash matches the whole path.
func matchInclude(include, name string) bool {
	if include == "" {
		return true
	}
	if !strings.Contains(include, "/") {
		ok, _ := path.Match(include, path.Base(name))
		return ok
	}
	return matchGlob(include, name)
}
