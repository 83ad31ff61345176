// Package projecttest holds what the tests of project and of the walking
// tools share: a tree full of ignore-rule cases that walks, grep and glob are
// checked against git and ripgrep on, small helpers to write files, and
// the count of a process's inotify instances (one watcher per root).
//
// Only tests import it.
package projecttest

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// IgnoreFixture is a tree full of ignore-rule cases: nested .gitignore files
// with negations, anchoring, directory-only rules, ** in every position,
// escapes, character classes, .ignore overriding .gitignore, and
// .git/info/exclude. Each file's content names itself and holds "needle" so
// grep has something to find everywhere.
var IgnoreFixture = map[string]string{
	".gitignore": strings.Join([]string{
		"# a comment, then a blank line",
		"",
		"*.log",
		"!important.log",
		"/build",
		"node_modules/",
		"docs/**/*.tmp",
		"temp?",
		"*.py[cod]",
		"/anchored.txt",
		"foo/**",
		"!foo/keep.txt",
		`\#hash.txt`,
		`\!bang.txt`,
		"trailing-space.txt   ",
		"deep/a/b/",
		"**/gen/*.go",
		"logs/",
		"!logs/keep.txt",
		"secret*",
		"!secret-public.md",
		"from-gitignore.txt",
		"[!x]y.txt",
		"a/**/z.txt",
		"{brace}.txt",
		"onlydir/",
		"",
	}, "\n"),
	".ignore": "ignored-by-dotignore/\n!from-gitignore.txt\n",

	"main.go":                "package main // needle\n",
	"README.md":              "needle in the readme\n",
	"app.log":                "needle log\n",
	"important.log":          "needle important\n",
	"build/out.txt":          "needle build\n",
	"a/build/out.txt":        "needle nested build is not anchored\n",
	"node_modules/x/y.js":    "needle\n",
	"src/node_modules":       "needle: a file named like an ignored directory\n",
	"docs/guide.md":          "needle guide\n",
	"docs/x/y/draft.tmp":     "needle tmp\n",
	"docs/draft.tmp":         "needle tmp at docs level (** matches zero dirs)\n",
	"temp1":                  "needle temp1\n",
	"temp12":                 "needle temp12\n",
	"mod.pyc":                "needle pyc\n",
	"mod.py":                 "needle py\n",
	"anchored.txt":           "needle anchored\n",
	"sub/anchored.txt":       "needle anchored elsewhere\n",
	"foo/a.txt":              "needle foo\n",
	"foo/keep.txt":           "needle foo keep\n",
	"#hash.txt":              "needle hash\n",
	"!bang.txt":              "needle bang\n",
	"trailing-space.txt":     "needle trailing space\n",
	"deep/a/b/c.txt":         "needle deep\n",
	"deep/a/c.txt":           "needle deep a\n",
	"x/gen/code.go":          "needle gen\n",
	"x/gen/code.txt":         "needle gen txt\n",
	"gen/top.go":             "needle gen at top\n",
	"logs/keep.txt":          "needle logs keep (cannot be re-included)\n",
	"secret.env":             "needle secret\n",
	"secret-public.md":       "needle secret public\n",
	"from-gitignore.txt":     "needle re-included by .ignore\n",
	"ay.txt":                 "needle ay\n",
	"xy.txt":                 "needle xy\n",
	"a/z.txt":                "needle a z\n",
	"a/q/r/z.txt":            "needle a q r z\n",
	"{brace}.txt":            "needle brace\n",
	"b.txt":                  "needle b\n",
	"onlydir":                "needle: a file, and the rule is for directories\n",
	"bin/tool.sh":            "needle bin is not ignored here\n",
	"packages/p/index.ts":    "needle packages are not ignored here\n",
	".github/workflows/ci":   "needle hidden directories are searched\n",
	".hidden":                "needle hidden file\n",
	"excluded-by-info.txt":   "needle info exclude\n",
	"ignored-by-dotignore/":  "",
	"ignored-by-dotignore/f": "needle dotignore\n",
	"sub/.gitignore":         "!*.log\nlocal.txt\n/only-here.txt\n",
	"sub/re.log":             "needle re-included log\n",
	"sub/local.txt":          "needle local\n",
	"sub/only-here.txt":      "needle only here\n",
	"sub/x/only-here.txt":    "needle only here, deeper\n",
	"sub/inner/.gitignore":   "*.txt\n!keep.txt\n",
	"sub/inner/drop.txt":     "needle drop\n",
	"sub/inner/keep.txt":     "needle keep\n",
	"sub/inner/code.go":      "needle code\n",
	"space name.txt":         "needle space\n",
	"ünïcode.txt":            "needle unicode\n",
	"bin.dat":                "needle\x00binary\n",
	"crlf.txt":               "first\r\nneedle crlf\r\n",
}

// WriteIgnoreFixture writes IgnoreFixture into dir, with .git/info/exclude
// (creating .git by hand is enough for ripgrep to see a repository) and two
// symlinks, which walks report but never follow.
func WriteIgnoreFixture(t testing.TB, dir string, withDotIgnore bool) {
	t.Helper()
	for rel, content := range IgnoreFixture {
		if rel == ".ignore" && !withDotIgnore {
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if strings.HasSuffix(rel, "/") {
			MustMkdir(t, p)
			continue
		}
		MustMkdir(t, filepath.Dir(p))
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	MustMkdir(t, filepath.Join(dir, ".git", "info"))
	if err := os.WriteFile(filepath.Join(dir, ".git", "info", "exclude"), []byte("excluded-by-info.txt\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("main.go", filepath.Join(dir, "link-to-main.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("..", filepath.Join(dir, "sub", "loop")); err != nil {
		t.Fatal(err)
	}
}

func MustMkdir(t testing.TB, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

// WriteFiles writes path → content into dir.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		MustMkdir(t, filepath.Dir(p))
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// NeedTool skips the test when an external program is missing, saying so.
func NeedTool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		pkg := name
		if name == "rg" {
			pkg = "ripgrep"
		}
		t.Skipf("%s is not installed (apt-get install -y %s); this comparison needs it", name, pkg)
	}
	return p
}

// SortedLines splits command output into sorted, slash-separated lines.
func SortedLines(out string) []string {
	var ls []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l != "" {
			ls = append(ls, filepath.ToSlash(strings.TrimPrefix(l, "./")))
		}
	}
	sort.Strings(ls)
	return ls
}

// DiffLists describes how two sorted lists differ.
func DiffLists(got, want []string) string {
	g := map[string]bool{}
	for _, s := range got {
		g[s] = true
	}
	w := map[string]bool{}
	for _, s := range want {
		w[s] = true
	}
	var b strings.Builder
	for _, s := range want {
		if !g[s] {
			b.WriteString("  missing: " + s + "\n")
		}
	}
	for _, s := range got {
		if !w[s] {
			b.WriteString("  extra:   " + s + "\n")
		}
	}
	return b.String()
}

// ripgrepQuirks are the fixture's files on which ripgrep departs from git,
// and fawn follows git: ripgrep expands {a,b} in ignore files, git reads the
// braces literally, so "{brace}.txt" is ignored by git and fawn but listed by
// ripgrep.
var ripgrepQuirks = []string{"{brace}.txt"}

// WithoutRipgrepQuirks drops the files of ripgrepQuirks from a list of
// paths or of grep result lines.
func WithoutRipgrepQuirks(list []string) []string {
	return slices.DeleteFunc(slices.Clone(list), func(s string) bool {
		for _, q := range ripgrepQuirks {
			if s == q || strings.HasPrefix(s, q+":") || strings.HasPrefix(s, q+"-") {
				return true
			}
		}
		return false
	})
}
