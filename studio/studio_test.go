package studio_test

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"github.com/kodahq/koda/studio"
)

// TestSelfContained checks the Studio loads nothing from another origin (it works
// offline) and has no inline script or style its policy would block.
func TestSelfContained(t *testing.T) {
	external := regexp.MustCompile(`(?i)(src|href)\s*=\s*["']?(https?:)?//|url\(\s*["']?(https?:)?//|@import|from\s+["'](https?:)?//|import\(\s*["'](https?:)?//`)
	inline := regexp.MustCompile(`(?i)<script(?:\s[^>]*)?>[^<]|<style|\sstyle\s*=|\son[a-z]+\s*=|javascript:`)
	var n int
	err := fs.WalkDir(studio.FS(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		b, err := fs.ReadFile(studio.FS(), path)
		if err != nil {
			return err
		}
		if m := external.FindString(string(b)); m != "" {
			t.Errorf("%s loads from another origin: %q", path, m)
		}
		if strings.HasSuffix(path, ".html") {
			if m := inline.FindString(string(b)); m != "" {
				t.Errorf("%s has inline code the CSP blocks: %q", path, m)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 5 {
		t.Errorf("only %d files embedded", n)
	}
	if !strings.Contains(studio.ContentSecurityPolicy, "script-src 'self'") || strings.Contains(studio.ContentSecurityPolicy, "unsafe") {
		t.Errorf("policy %q", studio.ContentSecurityPolicy)
	}
}
