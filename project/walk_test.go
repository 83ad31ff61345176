package project

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/fawn-ide/fawn/project/projecttest"
)

// walkList returns the slash paths WalkFiles reports below dir, with a
// trailing "/" on directories.
func walkList(t *testing.T, root, dir string) []string {
	t.Helper()
	var got []string
	err := WalkFiles(context.Background(), root, dir, func(rel string, d fs.DirEntry) error {
		s := filepath.ToSlash(rel)
		if d.IsDir() {
			s += "/"
		}
		got = append(got, s)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// nonDirs keeps the entries that are not directories, sorted.
func nonDirs(all []string) []string {
	var out []string
	for _, s := range all {
		if !strings.HasSuffix(s, "/") {
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

func TestWalkFilesAgreesWithGit(t *testing.T) {
	git := projecttest.NeedTool(t, "git")
	root := t.TempDir()
	cmd := exec.Command(git, "init", "-q", root)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	projecttest.WriteIgnoreFixture(t, root, false)
	cmd = exec.Command(git, "-c", "core.excludesFile=/dev/null", "-c", "core.quotePath=false", "ls-files", "--others", "--exclude-standard")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	want := projecttest.SortedLines(string(out))
	got := nonDirs(walkList(t, root, ""))
	if !slices.Equal(got, want) {
		t.Errorf("WalkFiles and git ls-files --others --exclude-standard differ:\n%s", projecttest.DiffLists(got, want))
	}
}

func TestWalkFilesAgreesWithRipgrep(t *testing.T) {
	rg := projecttest.NeedTool(t, "rg")
	root := t.TempDir()
	projecttest.WriteIgnoreFixture(t, root, true)
	cmd := exec.Command(rg, "--files", "--hidden", "--no-ignore-global", "--no-ignore-parent", "--glob", "!.git")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("rg --files: %v", err)
	}
	want := projecttest.SortedLines(string(out))
	var got []string
	err = WalkFiles(context.Background(), root, "", func(rel string, d fs.DirEntry) error {
		if d.Type().IsRegular() {
			got = append(got, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(got)
	got, want = projecttest.WithoutRipgrepQuirks(got), projecttest.WithoutRipgrepQuirks(want)
	if !slices.Equal(got, want) {
		t.Errorf("WalkFiles and rg --files differ:\n%s", projecttest.DiffLists(got, want))
	}
}

func TestWalkFilesFixtureCases(t *testing.T) {
	root := t.TempDir()
	projecttest.WriteIgnoreFixture(t, root, true)
	got := walkList(t, root, "")
	has := map[string]bool{}
	for _, s := range got {
		has[s] = true
	}
	for _, tc := range []struct {
		path string
		want bool
		why  string
	}{
		{"main.go", true, "plain file"},
		{"app.log", false, "*.log"},
		{"important.log", true, "!important.log re-includes"},
		{"build/", false, "/build is anchored at the root"},
		{"a/build/out.txt", true, "/build does not match a nested build"},
		{"node_modules/", false, "node_modules/ matches the directory"},
		{"src/node_modules", true, "node_modules/ does not match a file"},
		{"docs/draft.tmp", false, "docs/**/*.tmp: ** matches zero directories"},
		{"docs/x/y/draft.tmp", false, "docs/**/*.tmp"},
		{"temp1", false, "temp?"},
		{"temp12", true, "temp? is one character"},
		{"mod.pyc", false, "*.py[cod]"},
		{"mod.py", true, "*.py[cod] needs the class"},
		{"anchored.txt", false, "/anchored.txt"},
		{"sub/anchored.txt", true, "/anchored.txt only at the root"},
		{"foo/", true, "foo/** leaves foo itself"},
		{"foo/a.txt", false, "foo/**"},
		{"foo/keep.txt", true, "!foo/keep.txt re-includes inside foo/**"},
		{"#hash.txt", false, `\# escapes the comment sign`},
		{"!bang.txt", false, `\! escapes the negation sign`},
		{"trailing-space.txt", false, "trailing spaces are dropped"},
		{"deep/a/b/", false, "deep/a/b/"},
		{"deep/a/c.txt", true, "deep/a/b/ only"},
		{"x/gen/code.go", false, "**/gen/*.go"},
		{"gen/top.go", false, "**/gen/*.go at the top"},
		{"x/gen/code.txt", true, "**/gen/*.go only .go"},
		{"logs/", false, "logs/"},
		{"logs/keep.txt", false, "a file inside an excluded directory cannot be re-included"},
		{"secret.env", false, "secret*"},
		{"secret-public.md", true, "!secret-public.md"},
		{"from-gitignore.txt", true, ".ignore's negation beats .gitignore"},
		{"ay.txt", false, "[!x]y.txt"},
		{"xy.txt", true, "[!x]y.txt excludes x"},
		{"a/z.txt", false, "a/**/z.txt with zero directories"},
		{"a/q/r/z.txt", false, "a/**/z.txt"},
		{"{brace}.txt", false, "braces are literal in gitignore"},
		{"b.txt", true, "braces do not expand"},
		{"onlydir", true, "onlydir/ does not match a file"},
		{"bin/tool.sh", true, "bin is not special"},
		{"packages/p/index.ts", true, "packages is not special"},
		{".github/workflows/ci", true, "hidden directories are walked"},
		{".hidden", true, "hidden files are walked"},
		{"excluded-by-info.txt", false, ".git/info/exclude"},
		{"ignored-by-dotignore/", false, ".ignore"},
		{"sub/re.log", true, "sub/.gitignore !*.log overrides the root's *.log"},
		{"sub/local.txt", false, "sub/.gitignore local.txt"},
		{"sub/only-here.txt", false, "sub/.gitignore /only-here.txt"},
		{"sub/x/only-here.txt", true, "/only-here.txt is anchored to sub/"},
		{"sub/inner/drop.txt", false, "sub/inner/.gitignore *.txt"},
		{"sub/inner/keep.txt", true, "sub/inner/.gitignore !keep.txt"},
		{"sub/loop", true, "a symlink is reported"},
		{"link-to-main.go", true, "a symlink is reported"},
		{".git/", false, ".git is never walked"},
	} {
		if has[tc.path] != tc.want {
			t.Errorf("%s: reported=%v, want %v (%s)", tc.path, has[tc.path], tc.want, tc.why)
		}
	}
	for _, s := range got {
		if strings.HasPrefix(s, "sub/loop/") {
			t.Fatalf("walked through the symlink loop: %s", s)
		}
	}
}

func TestWalkFilesOrderAndSkips(t *testing.T) {
	root := t.TempDir()
	projecttest.WriteFiles(t, root, map[string]string{
		"b/2.txt": "", "b/1.txt": "", "a.txt": "", "c/x/y.txt": "", "c/z.txt": "",
	})
	got := walkList(t, root, "")
	want := []string{"a.txt", "b/", "b/1.txt", "b/2.txt", "c/", "c/x/", "c/x/y.txt", "c/z.txt"}
	if !slices.Equal(got, want) {
		t.Errorf("order: got %v, want %v", got, want)
	}

	var seen []string
	err := WalkFiles(context.Background(), root, "", func(rel string, d fs.DirEntry) error {
		seen = append(seen, filepath.ToSlash(rel))
		switch filepath.ToSlash(rel) {
		case "b":
			return fs.SkipDir
		case "c/x/y.txt":
			return fs.SkipDir // skips the rest of c/x
		case "c/z.txt":
			return fs.SkipAll
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a.txt", "b", "c", "c/x", "c/x/y.txt", "c/z.txt"}; !slices.Equal(seen, want) {
		t.Errorf("skips: got %v, want %v", seen, want)
	}

	stop := errors.New("stop")
	err = WalkFiles(context.Background(), root, "", func(string, fs.DirEntry) error { return stop })
	if !errors.Is(err, stop) {
		t.Errorf("an error from fn should end the walk and be returned, got %v", err)
	}
}

func TestWalkFilesSubdirUsesParentRules(t *testing.T) {
	root := t.TempDir()
	projecttest.WriteFiles(t, root, map[string]string{
		".gitignore":          "*.gen.go\n/sub/drop/\n",
		"sub/a.go":            "",
		"sub/a.gen.go":        "",
		"sub/drop/x.go":       "",
		"sub/deeper/b.go":     "",
		"sub/deeper/b.gen.go": "",
	})
	got := walkList(t, root, "sub")
	want := []string{"sub/a.go", "sub/deeper/", "sub/deeper/b.go"}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	// Absolute dirs work the same.
	if got := walkList(t, root, filepath.Join(root, "sub")); !slices.Equal(got, want) {
		t.Errorf("absolute dir: got %v, want %v", got, want)
	}
}

func TestWalkFilesRootInsideRepository(t *testing.T) {
	top := t.TempDir()
	projecttest.WriteFiles(t, top, map[string]string{
		".gitignore":        "*.tmp\n/proj/skip/\n",
		".git/info/exclude": "private.txt\n",
		"proj/keep.go":      "",
		"proj/x.tmp":        "",
		"proj/skip/y.go":    "",
		"proj/private.txt":  "",
	})
	root := filepath.Join(top, "proj")
	got := walkList(t, root, "")
	if want := []string{"keep.go"}; !slices.Equal(got, want) {
		t.Errorf("rules of the enclosing repository should apply: got %v, want %v", got, want)
	}
}

func TestWalkFilesErrors(t *testing.T) {
	root := t.TempDir()
	projecttest.WriteFiles(t, root, map[string]string{"f.txt": "x"})
	noop := func(string, fs.DirEntry) error { return nil }
	for _, tc := range []struct {
		dir, want string
	}{
		{"f.txt", "is not a directory"},
		{"missing", "no such file or directory"},
		{"..", "is outside the project"},
		{"/", "is outside the project"},
	} {
		err := WalkFiles(context.Background(), root, tc.dir, noop)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("WalkFiles(%q) = %v, want an error containing %q", tc.dir, err, tc.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := WalkFiles(ctx, root, "", noop); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled walk: got %v, want context.Canceled", err)
	}
}

func TestWalkFilesUnreadableSubdir(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: permissions do not stop reading a directory")
	}
	root := t.TempDir()
	projecttest.WriteFiles(t, root, map[string]string{"locked/x.txt": "", "open/y.txt": ""})
	if err := os.Chmod(filepath.Join(root, "locked"), 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(root, "locked"), 0o755) })
	got := walkList(t, root, "")
	if want := []string{"locked/", "open/", "open/y.txt"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestParseIgnoreLine(t *testing.T) {
	for _, tc := range []struct {
		line string
		ok   bool
		rule ignoreRule
	}{
		{"", false, ignoreRule{}},
		{"# comment", false, ignoreRule{}},
		{"   ", false, ignoreRule{}},
		{"!", false, ignoreRule{}},
		{"/", false, ignoreRule{}},
		{"[abc", false, ignoreRule{}},
		{"*.log", true, ignoreRule{glob: "*.log", suffix: ".log"}},
		{"!keep", true, ignoreRule{glob: "keep", negate: true, literal: "keep"}},
		{"dir/", true, ignoreRule{glob: "dir", dirOnly: true, literal: "dir"}},
		{"/top", true, ignoreRule{glob: "top", anchored: true, literal: "top"}},
		{"a/b", true, ignoreRule{glob: "a/b", anchored: true, literal: "a/b"}},
		{"a/**", true, ignoreRule{glob: "a/**", anchored: true, insideOnly: "a"}},
		{`x\ `, true, ignoreRule{glob: `x\ `}},
		{"x  ", true, ignoreRule{glob: "x", literal: "x"}},
		{`\#x`, true, ignoreRule{glob: `\#x`}},
		{"{a,b}", true, ignoreRule{glob: `\{a,b\}`}},
	} {
		r, ok := parseIgnoreLine(tc.line)
		if ok != tc.ok || (ok && r != tc.rule) {
			t.Errorf("parseIgnoreLine(%q) = %+v, %v; want %+v, %v", tc.line, r, ok, tc.rule, tc.ok)
		}
	}
}

func TestWalkParallelReportsWhatWalkFilesDoes(t *testing.T) {
	root := t.TempDir()
	projecttest.WriteIgnoreFixture(t, root, true)
	want := walkList(t, root, "")
	sort.Strings(want)
	for _, workers := range []int{1, 3, 8} {
		var mu sync.Mutex
		var got []string
		err := WalkParallel(context.Background(), root, "", WalkOptions{}, workers, func(e Entry) error {
			s := filepath.ToSlash(e.Rel)
			if e.D.IsDir() {
				s += "/"
			}
			mu.Lock()
			got = append(got, s)
			mu.Unlock()
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		sort.Strings(got)
		if !slices.Equal(got, want) {
			t.Errorf("%d workers:\n%s", workers, projecttest.DiffLists(got, want))
		}
	}

	// SkipDir leaves a directory out; another error ends the walk.
	var mu sync.Mutex
	var got []string
	err := WalkParallel(context.Background(), root, "", WalkOptions{}, 4, func(e Entry) error {
		if e.D.IsDir() && e.D.Name() == "sub" {
			return fs.SkipDir
		}
		mu.Lock()
		got = append(got, filepath.ToSlash(e.Rel))
		mu.Unlock()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range got {
		if strings.HasPrefix(s, "sub/") {
			t.Errorf("entered a skipped directory: %s", s)
		}
	}
	stop := errors.New("stop")
	if err := WalkParallel(context.Background(), root, "", WalkOptions{}, 4, func(Entry) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("got %v, want the callback's error", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := WalkParallel(ctx, root, "", WalkOptions{}, 4, func(Entry) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: got %v", err)
	}
	for _, dir := range []string{"main.go", "missing", ".."} {
		if err := WalkParallel(context.Background(), root, dir, WalkOptions{}, 2, func(Entry) error { return nil }); err == nil {
			t.Errorf("WalkParallel(%q) gave no error", dir)
		}
	}
}
