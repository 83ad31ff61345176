package tools

import (
	"context"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/project/projecttest"
)

func runTool(t testing.TB, tl Tool, args map[string]any) (string, error) {
	t.Helper()
	return tl.InvokableRun(context.Background(), argsJSON(t, args))
}

func mustTool(t testing.TB, tl Tool, args map[string]any) string {
	t.Helper()
	out, err := runTool(t, tl, args)
	if err != nil {
		t.Fatalf("%s %v: %v", tl.Name(), args, err)
	}
	return out
}

// resultLines drops the bracketed notes at the end of a result.
func resultLines(out string) []string {
	var ls []string
	for _, l := range strings.Split(out, "\n") {
		if l == "" || strings.HasPrefix(l, "[") || strings.HasPrefix(l, "No matches") {
			continue
		}
		ls = append(ls, l)
	}
	return ls
}

// TestGrepAgreesWithRipgrep runs the same searches through grep and rg on
// the ignore fixture and wants the same files, counts and lines.
func TestGrepAgreesWithRipgrep(t *testing.T) {
	rg := projecttest.NeedTool(t, "rg")
	env := newTestEnv(t, nil)
	projecttest.WriteIgnoreFixture(t, env.Root, true)
	projecttest.WriteFiles(t, env.Root, map[string]string{
		"dash.txt":        "a -flag here\nno flag\n",
		"multi/a.go":      "type Config struct {\n\tName string\n\tTimeout int\n}\n",
		"multi/b.go":      "type Config struct {\n\tName string\n}\nvar Timeout = 1\n",
		"ctx/lines.txt":   "a\nb\nneedle 1\nc\nd\ne\nf\nneedle 2\nneedle 3\ng\n",
		"late-nul.txt":    "needle\n" + strings.Repeat("text\n", 100) + "\x00\n",
		"Case/UPPER.md":   "NEEDLE shouting\n",
		"sub/deep/x.py":   "needle = 1\n",
		"sub/deep/x.pyi":  "needle: int\n",
		"logs2/trace.log": "needle in an ignored log\n",
	})
	g := NewGrep(env)
	base := []string{"--hidden", "--no-ignore-global", "--no-ignore-parent", "--glob", "!.git", "--sort", "path", "--no-messages"}
	for _, tc := range []struct {
		name string
		args map[string]any
		rg   []string
	}{
		{"plain", map[string]any{"pattern": "needle"}, []string{"-l", "needle"}},
		{"ignore case", map[string]any{"pattern": "NEEDLE", "i": true}, []string{"-l", "-i", "NEEDLE"}},
		{"case sensitive", map[string]any{"pattern": "NEEDLE"}, []string{"-l", "NEEDLE"}},
		{"type go", map[string]any{"pattern": "needle", "type": "go"}, []string{"-l", "-t", "go", "needle"}},
		{"type md", map[string]any{"pattern": "needle", "type": "md", "i": true}, []string{"-l", "-i", "-t", "md", "needle"}},
		{"glob re-includes ignored files", map[string]any{"pattern": "needle", "glob": "*.log"}, []string{"-l", "-g", "*.log", "needle"}},
		{"negated glob", map[string]any{"pattern": "needle", "glob": "!*.txt"}, []string{"-l", "-g", "!*.txt", "needle"}},
		{"glob with a slash", map[string]any{"pattern": "needle", "glob": "sub/**/*.txt"}, []string{"-l", "-g", "sub/**/*.txt", "needle"}},
		{"subdirectory", map[string]any{"pattern": "needle", "path": "sub"}, []string{"-l", "needle", "sub"}},
		{"anchored", map[string]any{"pattern": "^needle"}, []string{"-l", "^needle"}},
		{"end of line before CR", map[string]any{"pattern": "(crlf|keep)$"}, []string{"-l", "(crlf|keep)$"}},
		{"leading dash", map[string]any{"pattern": "-flag"}, []string{"-l", "-e", "-flag"}},
		{"classes", map[string]any{"pattern": `needle\s+\w+`}, []string{"-l", `needle\s+\w+`}},
		{"binary skipped", map[string]any{"pattern": "binary"}, []string{"-l", "binary"}},
		{"multiline", map[string]any{"pattern": `struct \{[^}]*Timeout`, "multiline": true}, []string{"-l", "-U", "--multiline-dotall", `struct \{[^}]*Timeout`}},
		{"count", map[string]any{"pattern": "needle", "output_mode": "count"}, []string{"--count", "needle"}},
		{"content", map[string]any{"pattern": "needle [0-9]", "output_mode": "content"}, []string{"-n", "--no-heading", "needle [0-9]"}},
		{"content with context", map[string]any{"pattern": "needle [0-9]", "output_mode": "content", "C": 1}, []string{"-n", "--no-heading", "-C", "1", "needle [0-9]"}},
		{"content before and after", map[string]any{"pattern": "needle [0-9]", "output_mode": "content", "B": 2, "A": 0, "n": false}, []string{"--no-heading", "-N", "-B", "2", "needle [0-9]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(rg, append(base, tc.rg...)...)
			cmd.Dir = env.Root
			out, err := cmd.Output()
			if err != nil && len(out) > 0 {
				t.Fatalf("rg: %v", err)
			}
			want := projecttest.WithoutRipgrepQuirks(resultLines(string(out)))
			got := resultLines(mustTool(t, g, tc.args))
			got = projecttest.WithoutRipgrepQuirks(got)
			if !slices.Equal(got, want) {
				t.Errorf("grep and rg differ:\n--- grep\n%s\n--- rg\n%s\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), projecttest.DiffLists(got, want))
			}
			if len(want) == 0 && tc.name != "binary skipped" {
				t.Errorf("rg found nothing: the case tests nothing")
			}
		})
	}
}

func TestGrepResults(t *testing.T) {
	env := newTestEnv(t, map[string]string{
		"a.go":        "package a\n// TODO: one\nfunc A() {}\n",
		"b/b.go":      "package b\n// TODO: two\n// todo: three\n",
		"b/c.txt":     "TODO in text\n",
		"crlf.txt":    "x\r\nTODO crlf\r\n",
		"long.txt":    "TODO " + strings.Repeat("y", 1000) + "\n",
		"bin.dat":     "TODO\x00",
		"many.txt":    strings.Repeat("hit\n", 50),
		".gitignore":  "ignored.txt\n",
		"ignored.txt": "TODO ignored\n",
	})
	g := NewGrep(env)
	for _, tc := range []struct {
		name string
		args map[string]any
		want string
	}{
		{"files", map[string]any{"pattern": "TODO"}, "a.go\nb/b.go\nb/c.txt\ncrlf.txt\nlong.txt\n[5 files]"},
		{"files in a subdirectory", map[string]any{"pattern": "TODO", "path": "b"}, "b/b.go\nb/c.txt\n[2 files]"},
		{"one file", map[string]any{"pattern": "TODO", "path": "a.go", "output_mode": "content"}, "a.go:2:// TODO: one\n[1 matching line in 1 file]"},
		{"content", map[string]any{"pattern": "TODO: \\w+", "output_mode": "content"},
			"a.go:2:// TODO: one\nb/b.go:2:// TODO: two\n[2 matching lines in 2 files]"},
		{"case-insensitive", map[string]any{"pattern": "todo: t", "i": true, "output_mode": "content", "n": false},
			"b/b.go:// TODO: two\nb/b.go:// todo: three\n[2 matching lines in 1 file]"},
		{"context", map[string]any{"pattern": "two", "output_mode": "content", "-C": 1},
			"b/b.go-1-package b\nb/b.go:2:// TODO: two\nb/b.go-3-// todo: three\n[1 matching line in 1 file]"},
		{"crlf shown without CR", map[string]any{"pattern": "crlf", "output_mode": "content"}, "crlf.txt:2:TODO crlf\n[1 matching line in 1 file]"},
		{"long line cut", map[string]any{"pattern": "yyy", "output_mode": "content"},
			"long.txt:1:TODO " + strings.Repeat("y", 395) + " [… 605 more bytes]\n[1 matching line in 1 file]"},
		{"count", map[string]any{"pattern": "TODO|todo", "output_mode": "count", "path": "b"}, "b/b.go:2\nb/c.txt:1\n[3 matching lines in 2 files]"},
		{"head_limit on files", map[string]any{"pattern": "TODO", "head_limit": 2}, "a.go\nb/b.go\n[2 of 5 matching files shown; narrow path, glob or type, or set head_limit]"},
		{"head_limit on lines", map[string]any{"pattern": "hit", "output_mode": "content", "head_limit": 3},
			"many.txt:1:hit\nmany.txt:2:hit\nmany.txt:3:hit\n[50 matching lines in 1 file]\n[output stopped at 3 lines; narrow the search or set head_limit]"},
		{"type", map[string]any{"pattern": "TODO", "type": "go"}, "a.go\nb/b.go\n[2 files]"},
		{"glob", map[string]any{"pattern": "TODO", "glob": "*.txt"}, "b/c.txt\ncrlf.txt\nignored.txt\nlong.txt\n[4 files]"},
		{"no match", map[string]any{"pattern": "nothing here"}, `No matches for "nothing here" in the project.`},
		{"binary named", map[string]any{"pattern": "TODO", "path": "bin.dat"}, "bin.dat is a binary file; grep searches text files."},
		{"multiline", map[string]any{"pattern": "one\\nfunc", "multiline": true, "output_mode": "content"},
			"a.go:2:// TODO: one\na.go:3:func A() {}\n[2 matching lines in 1 file]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mustTool(t, g, tc.args); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}

	for _, tc := range []struct {
		args map[string]any
		err  string
	}{
		{map[string]any{}, "grep needs a pattern"},
		{map[string]any{"pattern": "a(b"}, `pattern "a(b" is not a valid RE2 regular expression: missing closing ): ` + "`a(b`"},
		{map[string]any{"pattern": "(?<=x)y"}, "RE2 has no lookaround or backreferences"},
		{map[string]any{"pattern": "x", "type": "cobol"}, `unknown type "cobol": use one of asm, bazel`},
		{map[string]any{"pattern": "x", "output_mode": "json"}, `unknown output_mode "json": use files_with_matches, content or count`},
		{map[string]any{"pattern": "x", "path": "../.."}, "is outside the project"},
		{map[string]any{"pattern": "x", "path": "nope"}, "nope does not exist"},
		{map[string]any{"pattern": "x", "glob": "[x"}, `glob "[x" is not a valid glob`},
		{map[string]any{"pattern": "x", "A": -2}, "context lines (A, B, C) cannot be negative"},
		{map[string]any{"pattern": "x", "head_limit": -1}, "head_limit cannot be negative"},
	} {
		if out, err := runTool(t, g, tc.args); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%v: got %q, %v; want error containing %q", tc.args, out, err, tc.err)
		}
	}

	act, err := g.Plan(context.Background(), `{"pattern": "TODO", "path": "b", "glob": "*.go"}`)
	if err != nil || act.Kind != KindRead || act.Summary != `Search "TODO" in b (*.go)` {
		t.Errorf("plan %+v %v", act, err)
	}
	if act, _ := g.Plan(context.Background(), `{"pattern": "TODO"}`); act.Summary != `Search "TODO"` {
		t.Errorf("plan summary %q", act.Summary)
	}
}

func TestGrepTimeLimitGivesPartialResults(t *testing.T) {
	env := newTestEnv(t, map[string]string{"a.txt": "x\n", "b/c.txt": "x\n"})
	g := NewGrep(env)
	g.timeLimit = time.Nanosecond
	out := mustTool(t, g, map[string]any{"pattern": "x"})
	if !strings.Contains(out, "[the search stopped after 1ns with ") || !strings.Contains(out, "results are partial; narrow path, glob or type]") {
		t.Errorf("no partial-result note:\n%s", out)
	}
}

func TestGrepSkipsLargeFiles(t *testing.T) {
	env := newTestEnv(t, map[string]string{"small.txt": "x\n", "big.txt": strings.Repeat("x\n", 600)})
	g := NewGrep(env)
	g.maxFileSize = 1024
	if got, want := mustTool(t, g, map[string]any{"pattern": "x"}), "small.txt\n[1 file]\n[1 file over 1.0 KB not searched; use bash (rg or grep) for those]"; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got, want := mustTool(t, g, map[string]any{"pattern": "x", "path": "big.txt"}), "big.txt is over 1.0 KB; grep searches files up to that size: use bash (rg or grep) for this one."; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestGrepCancelled(t *testing.T) {
	env := newTestEnv(t, map[string]string{"a.txt": "x\n"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewGrep(env).InvokableRun(ctx, `{"pattern": "x"}`); err == nil {
		t.Error("a cancelled search returned no error")
	}
}

func TestGrepManyFilesContentBounded(t *testing.T) {
	files := map[string]string{}
	for i := range 300 {
		files[strings.Repeat("d/", i%4)+"f"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+string(rune('a'+i/26))+".txt"] = strings.Repeat("match\n", 40)
	}
	env := newTestEnv(t, files)
	out := mustTool(t, NewGrep(env), map[string]any{"pattern": "match", "output_mode": "content"})
	lines := resultLines(out)
	if len(lines) != grepDefaultLines {
		t.Errorf("%d lines shown, want the default cap %d", len(lines), grepDefaultLines)
	}
	if !strings.Contains(out, "[12000 matching lines in 300 files]") || !strings.Contains(out, "[output stopped at 300 lines") {
		t.Errorf("notes missing: %s", out[len(out)-200:])
	}
	// The lines shown are the first ones in path order.
	files2 := mustTool(t, NewGrep(env), map[string]any{"pattern": "match", "head_limit": 8})
	firstFile := resultLines(files2)[0]
	if !strings.HasPrefix(lines[0], firstFile+":1:") {
		t.Errorf("content starts at %q, but the first file is %q", lines[0], firstFile)
	}
}
