package sandbox

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// NodeTemplatePackage is the package.json of the node template: what a generated Vite +
// React + Theatre.js project may import without network. vite 7: vite 8 does not install
// with every npm these machines have.
const NodeTemplatePackage = `{
  "name": "koda-node-template",
  "private": true,
  "version": "1.0.0",
  "type": "module",
  "dependencies": {
    "vite": "^7.1.0",
    "react": "^19.1.0",
    "react-dom": "^19.1.0",
    "@theatre/core": "^0.7.2",
    "three": "^0.180.0",
    "@react-three/fiber": "^9.3.0"
  }
}
`

// NodeTemplateSandboxPath is where the template's node_modules appear in a sandbox.
// Node and Vite look for node_modules in every parent of /work, so a project resolves
// its imports there without a node_modules of its own.
const NodeTemplateSandboxPath = "/node_modules"

func templateVersion() string {
	sum := sha256.Sum256([]byte(NodeTemplatePackage))
	return hex.EncodeToString(sum[:8])
}

// NodeTemplateModules returns the node_modules folder of the prepared template under
// dir, or "" when it has not been prepared (for this template version).
func NodeTemplateModules(dir string) string {
	if dir == "" {
		return ""
	}
	final := filepath.Join(dir, templateVersion())
	if _, err := os.Stat(filepath.Join(final, ".ready")); err != nil {
		return ""
	}
	return filepath.Join(final, "node_modules")
}

// PrepareNodeTemplate installs the template once from the npm registry into dir (a
// folder per template version, so a changed template installs beside the old one) and
// returns its node_modules folder. Install scripts are not run: the packages only need
// their files, and the host should not run code from the registry. Safe to call
// concurrently from several processes: each installs into its own folder and the first
// rename wins.
func PrepareNodeTemplate(ctx context.Context, dir, npm string, log *slog.Logger) (string, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if m := NodeTemplateModules(dir); m != "" {
		return m, nil
	}
	if npm == "" {
		npm = "npm"
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("node template: %w", err)
	}
	tmp, err := os.MkdirTemp(dir, ".install-")
	if err != nil {
		return "", fmt.Errorf("node template: %w", err)
	}
	defer os.RemoveAll(tmp)
	if err := os.WriteFile(filepath.Join(tmp, "package.json"), []byte(NodeTemplatePackage), 0o644); err != nil {
		return "", fmt.Errorf("node template: %w", err)
	}
	began := time.Now()
	cmd := exec.CommandContext(ctx, npm, "install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error")
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(), "npm_config_cache="+filepath.Join(dir, ".npm-cache"), "npm_config_update_notifier=false")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("node template: npm install: %w: %s", err, tail(out, 2000))
	}
	if err := os.WriteFile(filepath.Join(tmp, ".ready"), []byte(time.Now().UTC().Format(time.RFC3339)), 0o644); err != nil {
		return "", err
	}
	final := filepath.Join(dir, templateVersion())
	if err := os.Rename(tmp, final); err != nil && !errors.Is(err, os.ErrExist) && NodeTemplateModules(dir) == "" {
		return "", fmt.Errorf("node template: %w", err)
	}
	log.Info("node template installed", "dir", final, "took", time.Since(began).Round(time.Millisecond))
	return filepath.Join(final, "node_modules"), nil
}

func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}
