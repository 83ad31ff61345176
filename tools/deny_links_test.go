package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadDenyHidesLinksToDeniedFiles: a symlink to a denied file or
// directory is left out of every listing and search (a listing would show
// "k.txt -> ../secrets/key.pem"), and a path that does not exist is never
// answered with a denied file's name as a suggestion.
func TestReadDenyHidesLinksToDeniedFiles(t *testing.T) {
	env := denyEnv(t)
	for link, target := range map[string]string{
		"innocent.txt":      ".env",
		"docs/linkdir":      "../secrets",
		"docs/linkfile.txt": "../secrets/key.pem",
	} {
		if err := os.Symlink(target, filepath.Join(env.Root, link)); err != nil {
			t.Fatal(err)
		}
	}
	grep, glob, ls, tree, ed := NewGrep(env), NewGlob(env), NewLs(env), NewTree(env), NewTextEditor(env)
	for _, c := range []struct {
		name string
		tool Tool
		args map[string]any
	}{
		{"tree", tree, map[string]any{"path": ".", "max_depth": 5}},
		{"ls root", ls, map[string]any{"path": ".", "all": true}},
		{"ls docs", ls, map[string]any{"path": "docs", "all": true}},
		{"glob", glob, map[string]any{"pattern": "**/*"}},
		{"view root", ed, map[string]any{"command": "view", "path": "."}},
		{"grep files", grep, map[string]any{"pattern": "needle|TOKEN"}},
	} {
		out, err := runTool(t, c.tool, c.args)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if s := secretIn(out); s != "" {
			t.Errorf("%s shows %q:\n%s", c.name, s, out)
		}
		for _, link := range []string{"innocent.txt", "linkdir", "linkfile"} {
			if strings.Contains(out, link) {
				t.Errorf("%s lists the link %s to a denied file:\n%s", c.name, link, out)
			}
		}
	}
	for _, missing := range []string{".ENV", "secrets/key.pen", "innocent.tx", "docs/linkfile.tx"} {
		_, err := runTool(t, ed, map[string]any{"command": "view", "path": missing})
		if err == nil {
			t.Errorf("view %s: no error", missing)
			continue
		}
		if s := secretIn(err.Error()); s != "" || strings.Contains(err.Error(), "innocent.txt") || strings.Contains(err.Error(), "linkfile.txt") {
			t.Errorf("view %s suggests a denied file: %v", missing, err)
		}
	}
}
