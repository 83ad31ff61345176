package tools

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/project/projecttest"
)

// recorder collects what tools Emit.
type recorder struct {
	mu     sync.Mutex
	events []any
}

func (r *recorder) ctx() context.Context {
	return WithEmitter(context.Background(), func(ev any) {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.events = append(r.events, ev)
	})
}

func (r *recorder) take() []any {
	r.mu.Lock()
	defer r.mu.Unlock()
	ev := r.events
	r.events = nil
	return ev
}

// newTestEnv returns an Env on a fresh temp dir holding files.
func newTestEnv(t testing.TB, files map[string]string) *Env {
	t.Helper()
	env, err := NewEnv(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	projecttest.WriteFiles(t, env.Root, files)
	return env
}

func argsJSON(t testing.TB, args map[string]any) string {
	t.Helper()
	b, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// edRun runs text_editor and returns its result or error text.
func edRun(t testing.TB, ed *TextEditor, rec *recorder, args map[string]any) (string, error) {
	t.Helper()
	ctx := context.Background()
	if rec != nil {
		ctx = rec.ctx()
	}
	return ed.InvokableRun(ctx, argsJSON(t, args))
}

func mustRun(t testing.TB, ed *TextEditor, args map[string]any) string {
	t.Helper()
	out, err := edRun(t, ed, nil, args)
	if err != nil {
		t.Fatalf("%v: unexpected error: %v", args, err)
	}
	return out
}

func readFile(t testing.TB, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func view(path string) map[string]any { return map[string]any{"command": "view", "path": path} }

func TestTextEditorView(t *testing.T) {
	long := strings.Repeat("é", 1500) // 3000 bytes
	env := newTestEnv(t, map[string]string{
		"a.txt":           "one\ntwo\nthree\n",
		"nofinal":         "x\ny",
		"crlf.txt":        "\xef\xbb\xbfalpha\r\nbeta\r\n",
		"empty":           "",
		"long.txt":        "short\n" + long + "\n",
		"bin.png":         "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
		"dir/x.go":        "package x\n",
		"dir/sub/y":       "",
		"dir/.gitignore":  "ignored.txt\n",
		"dir/ignored.txt": "",
		"sim/config.yaml": "",
	})
	if err := os.Symlink("/etc", filepath.Join(env.Root, "etc-link")); err != nil {
		t.Fatal(err)
	}
	ed := NewTextEditor(env)
	rec := &recorder{}
	for _, tc := range []struct {
		name   string
		args   map[string]any
		want   string // exact result, or
		has    []string
		err    string
		viewed *FileViewed
	}{
		{name: "whole file", args: view("a.txt"), want: "     1\tone\n     2\ttwo\n     3\tthree\n",
			viewed: &FileViewed{Start: 1, End: -1}},
		{name: "range", args: map[string]any{"command": "view", "path": "a.txt", "view_range": []int{2, 2}},
			has: []string{"     2\ttwo\n", "[lines 2-2 of 3]"}, viewed: &FileViewed{Start: 2, End: 2}},
		{name: "range to end", args: map[string]any{"command": "view", "path": "a.txt", "view_range": []int{2, -1}},
			has: []string{"     2\ttwo\n     3\tthree\n"}, viewed: &FileViewed{Start: 2, End: -1}},
		{name: "range past the end is clipped", args: map[string]any{"command": "view", "path": "a.txt", "view_range": []int{3, 10}},
			has: []string{"     3\tthree\n", "[the file ends at line 3]"}},
		{name: "range as a string", args: map[string]any{"command": "view", "path": "a.txt", "view_range": "[1, 1]"},
			has: []string{"     1\tone\n"}},
		{name: "no final newline", args: view("nofinal"), want: "     1\tx\n     2\ty\n"},
		{name: "crlf and bom hidden", args: view("crlf.txt"), want: "     1\talpha\n     2\tbeta\n"},
		{name: "empty", args: view("empty"), want: "empty is empty."},
		{name: "long line cut", args: view("long.txt"), has: []string{"     1\tshort\n", "[… line cut: 1000 more bytes]", "lines longer than 2000 bytes are cut"}},
		{name: "directory", args: view("dir"), has: []string{"dir/ (2 levels deep", "dir/x.go\n", "dir/sub/\n", "dir/sub/y\n", "dir/.gitignore\n"}},
		{name: "absolute path", args: view(filepath.Join(env.Root, "a.txt")), has: []string{"     1\tone"}},

		{name: "start past the end", args: map[string]any{"command": "view", "path": "a.txt", "view_range": []int{9, 10}},
			err: "view_range starts at line 9, but a.txt has only 3 lines"},
		{name: "start zero", args: map[string]any{"command": "view", "path": "a.txt", "view_range": []int{0, 2}},
			err: "view_range start 0 is invalid: lines are numbered from 1"},
		{name: "end before start", args: map[string]any{"command": "view", "path": "a.txt", "view_range": []int{3, 2}},
			err: "view_range [3, 2] is invalid"},
		{name: "three numbers", args: map[string]any{"command": "view", "path": "a.txt", "view_range": []int{1, 2, 3}},
			err: "view_range takes two numbers"},
		{name: "binary", args: view("bin.png"), err: "bin.png is a binary file (16 B, image/png): text_editor works on text files only"},
		{name: "missing with suggestion", args: view("sim/config.yml"), err: "sim/config.yml does not exist; did you mean sim/config.yaml?"},
		{name: "missing dir", args: view("nope/x.go"), err: "nope/x.go does not exist (nor does its directory nope)"},
		{name: "outside", args: view("../../etc/passwd"), err: "../../etc/passwd is outside the project " + env.Root},
		{name: "symlink to /etc", args: view("etc-link/passwd"), err: "etc-link/passwd is outside the project " + env.Root},
		{name: "range on a directory", args: map[string]any{"command": "view", "path": "dir", "view_range": []int{1, 2}},
			err: "dir is a directory: view_range applies to files"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := edRun(t, ed, rec, tc.args)
			evs := rec.take()
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %q, %v; want error containing %q", out, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if tc.want != "" && out != tc.want {
				t.Errorf("got\n%q\nwant\n%q", out, tc.want)
			}
			for _, h := range tc.has {
				if !strings.Contains(out, h) {
					t.Errorf("result lacks %q:\n%s", h, out)
				}
			}
			if tc.viewed != nil {
				want := *tc.viewed
				want.Path = filepath.Join(env.Root, tc.args["path"].(string))
				if len(evs) != 1 || evs[0] != want {
					t.Errorf("events = %#v, want [%#v]", evs, want)
				}
			}
		})
	}
	if strings.Contains(mustRun(t, ed, view("dir")), "ignored.txt") {
		t.Error("the directory listing shows an ignored file")
	}
}

func TestTextEditorViewPaging(t *testing.T) {
	env := newTestEnv(t, map[string]string{"big.txt": numbered(2500)})
	ed := NewTextEditor(env)
	out := mustRun(t, ed, view("big.txt"))
	if !strings.HasPrefix(out, "     1\tline 1\n") || !strings.Contains(out, "  2000\tline 2000\n") || strings.Contains(out, "line 2001\n") {
		t.Errorf("first page is not lines 1-2000:\n%s", clip(out, 300))
	}
	if want := "[big.txt has 2500 lines; this shows lines 1-2000 (a view is at most 2000 lines or 256.0 KB). Continue with view_range [2001, 2500].]"; !strings.HasSuffix(out, want) {
		t.Errorf("paging note missing; got tail %q", out[len(out)-200:])
	}
	out = mustRun(t, ed, map[string]any{"command": "view", "path": "big.txt", "view_range": []int{2001, -1}})
	if !strings.HasPrefix(out, "  2001\tline 2001\n") || !strings.Contains(out, "  2500\tline 2500\n") {
		t.Errorf("second page wrong:\n%s", clip(out, 300))
	}

	// The byte budget cuts before the line budget on wide lines.
	wide := strings.Repeat(strings.Repeat("w", 999)+"\n", 600)
	projecttest.WriteFiles(t, env.Root, map[string]string{"wide.txt": wide})
	out = mustRun(t, ed, view("wide.txt"))
	if len(out) > maxViewBytes+1024 {
		t.Errorf("view of wide lines is %d bytes, over the %d budget", len(out), maxViewBytes)
	}
	if !strings.Contains(out, "wide.txt has 600 lines; this shows lines 1-") {
		t.Errorf("no paging note for the byte budget: %q", out[len(out)-200:])
	}
}

func TestTextEditorViewHugeFileBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 200 MB file")
	}
	env := newTestEnv(t, nil)
	p := filepath.Join(env.Root, "huge.log")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	line := strings.Repeat("0123456789", 9) + "\n" // 91 bytes
	const size = 200 << 20
	lines := 0
	for n := 0; n < size; n += len(line) {
		w.WriteString(line)
		lines++
	}
	// And one enormous line at the end, without a newline.
	w.WriteString(strings.Repeat("x", 8<<20))
	lines++
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()

	ed := NewTextEditor(env)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	out := mustRun(t, ed, map[string]any{"command": "view", "path": "huge.log", "view_range": []int{lines - 1, -1}})
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 32<<20 {
		t.Errorf("viewing a 208 MB file allocated %s; it should stream", humanSize(int64(alloc)))
	}
	if !strings.Contains(out, fmt.Sprintf("%6d\t%s", lines-1, strings.TrimSuffix(line, "\n"))) ||
		!strings.Contains(out, fmt.Sprintf("%6d\txxxx", lines)) || !strings.Contains(out, "line cut: 8386608 more bytes") {
		t.Errorf("unexpected view of the last lines:\n%s", clip(out, 500))
	}
	// The view recorded the whole file's hash, so an edit is allowed to
	// start; the size limit is what refuses it.
	_, err = edRun(t, ed, nil, map[string]any{"command": "insert", "path": "huge.log", "insert_line": 0, "new_str": "x"})
	if err == nil || !strings.Contains(err.Error(), "text_editor edits files up to 32.0 MB") {
		t.Errorf("editing the huge file: %v", err)
	}
}

func TestTextEditorCreate(t *testing.T) {
	env := newTestEnv(t, map[string]string{
		"old.txt":  "old\n",
		"crlf.txt": "\xef\xbb\xbfa\r\nb\r\n",
		"dir/x":    "",
	})
	ed := NewTextEditor(env)
	rec := &recorder{}

	text := numbered(40)
	args := map[string]any{"command": "create", "path": "docs/new/x.md", "file_text": text}
	act, err := ed.Plan(context.Background(), argsJSON(t, args))
	if err != nil {
		t.Fatal(err)
	}
	if act.Kind != KindEdit || act.Summary != "Create docs/new/x.md (40 lines)" || act.Path != filepath.Join(env.Root, "docs/new/x.md") ||
		!strings.Contains(act.Diff, "+++ b/docs/new/x.md") || !strings.Contains(act.Diff, "+line 40") {
		t.Errorf("plan = %+v", act)
	}
	if _, err := os.Stat(filepath.Join(env.Root, "docs")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("Plan created something")
	}
	out, err := edRun(t, ed, rec, args)
	if err != nil || out != "Created docs/new/x.md (40 lines)." {
		t.Fatalf("create: %q, %v", out, err)
	}
	if got := readFile(t, filepath.Join(env.Root, "docs/new/x.md")); got != text {
		t.Errorf("content = %q", got)
	}
	evs := rec.take()
	if len(evs) != 1 {
		t.Fatalf("events: %#v", evs)
	}
	if fc := evs[0].(FileChanged); fc.Before != nil || string(fc.After) != text || fc.Command != "create" || fc.Path != filepath.Join(env.Root, "docs/new/x.md") {
		t.Errorf("FileChanged = %+v", fc)
	}
	// A file the agent created can be edited right away.
	mustRun(t, ed, map[string]any{"command": "str_replace", "path": "docs/new/x.md", "old_str": "line 40\n", "new_str": "last\n"})

	// Overwriting needs a view first, then keeps the CRLF form and BOM.
	_, err = edRun(t, ed, nil, map[string]any{"command": "create", "path": "crlf.txt", "file_text": "x\ny\n"})
	if err == nil || !strings.Contains(err.Error(), "view crlf.txt first") {
		t.Fatalf("overwrite without view: %v", err)
	}
	mustRun(t, ed, view("crlf.txt"))
	act, err = ed.Plan(context.Background(), argsJSON(t, map[string]any{"command": "create", "path": "crlf.txt", "file_text": "x\ny\nz\n"}))
	if err != nil || act.Summary != "Overwrite crlf.txt +3 −2" {
		t.Errorf("overwrite plan = %+v, %v", act, err)
	}
	out = mustRun(t, ed, map[string]any{"command": "create", "path": "crlf.txt", "file_text": "x\ny\nz\n"})
	if out != "Overwrote crlf.txt (3 lines, was 2)." {
		t.Errorf("overwrite result %q", out)
	}
	if got := readFile(t, filepath.Join(env.Root, "crlf.txt")); got != "\xef\xbb\xbfx\r\ny\r\nz\r\n" {
		t.Errorf("overwrite lost the file's form: %q", got)
	}

	// A stale view refuses.
	mustRun(t, ed, view("old.txt"))
	projecttest.WriteFiles(t, env.Root, map[string]string{"old.txt": "changed by someone\n"})
	_, err = edRun(t, ed, nil, map[string]any{"command": "create", "path": "old.txt", "file_text": "mine\n"})
	if err == nil || !strings.Contains(err.Error(), "old.txt changed on disk since you last viewed it") {
		t.Errorf("stale overwrite: %v", err)
	}
	if got := readFile(t, filepath.Join(env.Root, "old.txt")); got != "changed by someone\n" {
		t.Errorf("stale overwrite wrote: %q", got)
	}

	for _, tc := range []struct {
		args map[string]any
		err  string
	}{
		{map[string]any{"command": "create", "path": "dir", "file_text": "x"}, "dir is a directory"},
		{map[string]any{"command": "create", "path": "y.txt"}, "create needs file_text"},
		{map[string]any{"command": "create", "path": "../y.txt", "file_text": "x"}, "is outside the project"},
		{map[string]any{"command": "create", "path": "dir/x/under-a-file", "file_text": "x"}, "not a directory"},
	} {
		if _, err := edRun(t, ed, nil, tc.args); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%v: got %v, want %q", tc.args, err, tc.err)
		}
	}
	// "content" is accepted for file_text.
	mustRun(t, ed, map[string]any{"command": "create", "path": "c.txt", "content": "via content\n"})
	if got := readFile(t, filepath.Join(env.Root, "c.txt")); got != "via content\n" {
		t.Errorf("content alias: %q", got)
	}
}

func TestTextEditorStrReplace(t *testing.T) {
	files := map[string]string{
		"go.go":    "package x\n\nfunc a() {\n\treturn 1\n}\n\nfunc b() {\n\treturn 1\n}\n",
		"crlf.txt": "one\r\ntwo\r\nthree\r\n",
		"nofinal":  "alpha\nbeta",
		"bom.txt":  "\xef\xbb\xbfhello\nworld\n",
		"mixed":    "lf line\ncrlf a\r\ncrlf b\r\n",
		"rep.txt":  "x\n" + strings.Repeat("dup\nfiller\n", 3),
	}
	for _, tc := range []struct {
		name, path, old, new string
		all                  bool
		want                 string // new content, byte-exact
		result               []string
		err                  string
	}{
		{name: "unique", path: "go.go", old: "func a() {\n\treturn 1", new: "func a() {\n\treturn 2",
			want:   "package x\n\nfunc a() {\n\treturn 2\n}\n\nfunc b() {\n\treturn 1\n}\n",
			result: []string{"Edited go.go: replaced 1 occurrence at line 3.", "     3\tfunc a() {\n     4\t\treturn 2\n"}},
		{name: "crlf round trip", path: "crlf.txt", old: "two\n", new: "TWO\n2b\n", want: "one\r\nTWO\r\n2b\r\nthree\r\n"},
		{name: "crlf old_str with CR", path: "crlf.txt", old: "two\r\nthree", new: "3", want: "one\r\n3\r\n"},
		{name: "no final newline kept", path: "nofinal", old: "beta", new: "gamma", want: "alpha\ngamma"},
		{name: "no final newline, edit first line", path: "nofinal", old: "alpha\n", new: "", want: "beta"},
		{name: "bom kept", path: "bom.txt", old: "world", new: "there", want: "\xef\xbb\xbfhello\nthere\n"},
		{name: "mixed line endings", path: "mixed", old: "crlf a\ncrlf b", new: "x\ny", want: "lf line\nx\r\ny\r\n"},
		{name: "replace all", path: "rep.txt", old: "dup", new: "one", all: true, want: "x\n" + strings.Repeat("one\nfiller\n", 3),
			result: []string{"replaced 3 occurrences (first at line 2)"}},
		{name: "delete", path: "go.go", old: "\nfunc b() {\n\treturn 1\n}\n", new: "", want: "package x\n\nfunc a() {\n\treturn 1\n}\n"},

		{name: "not unique", path: "rep.txt", old: "dup", new: "one",
			err: "old_str matches 3 times in rep.txt, at lines 2, 4, 6: include more surrounding lines to make it unique, or set replace_all to replace every one"},
		{name: "not unique, overlapping", path: "go.go", old: "\treturn 1\n}\n", new: "",
			err: "old_str matches 2 times in go.go, at lines 4, 8"},
		{name: "whitespace differs", path: "go.go", old: "func a() {\n    return 1\n}", new: "x",
			err: "old_str was not found in go.go exactly, but it matches lines 3-5 when whitespace is ignored"},
		{name: "closest lines", path: "go.go", old: "func a() {\n\treturn 1\n}\nfunc c() {", new: "x",
			err: "old_str was not found in go.go; the closest text is at lines 3-6 (3 of 4 lines match)"},
		{name: "closest single line", path: "go.go", old: "func aa() {", new: "x",
			err: "old_str was not found in go.go; the line most like its first line is line 3:\n     3\tfunc a() {"},
		{name: "nothing close", path: "go.go", old: "zzzzzz qqqq", new: "x",
			err: "old_str was not found in go.go: view the file and copy the exact text to replace"},
		{name: "same", path: "go.go", old: "package x", new: "package x", err: "old_str and new_str are the same"},
		{name: "empty old", path: "go.go", old: "", new: "x", err: "old_str is empty"},
		{name: "missing file", path: "nope.go", old: "a", new: "b", err: "nope.go does not exist: use create to make a new file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := newTestEnv(t, files)
			ed := NewTextEditor(env)
			p := filepath.Join(env.Root, tc.path)
			if _, err := os.Stat(p); err == nil {
				mustRun(t, ed, view(tc.path))
			}
			before, _ := os.ReadFile(p)
			rec := &recorder{}
			args := map[string]any{"command": "str_replace", "path": tc.path, "old_str": tc.old, "new_str": tc.new}
			if tc.all {
				args["replace_all"] = true
			}
			out, err := edRun(t, ed, rec, args)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %q, %v; want error containing %q", out, err, tc.err)
				}
				if after, _ := os.ReadFile(p); string(after) != string(before) {
					t.Errorf("a refused edit changed the file")
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if got := readFile(t, p); got != tc.want {
				t.Errorf("content\n%q\nwant\n%q", got, tc.want)
			}
			for _, r := range tc.result {
				if !strings.Contains(out, r) {
					t.Errorf("result lacks %q:\n%s", r, out)
				}
			}
			evs := rec.take()
			if len(evs) != 1 {
				t.Fatalf("events %#v", evs)
			}
			fc := evs[0].(FileChanged)
			if string(fc.Before) != string(before) || string(fc.After) != tc.want || fc.Command != "str_replace" || fc.Path != p {
				t.Errorf("FileChanged = %+v", fc)
			}
			// undo_edit restores the file byte-exact.
			mustRun(t, ed, map[string]any{"command": "undo_edit", "path": tc.path})
			if got := readFile(t, p); got != string(before) {
				t.Errorf("undo: %q, want %q", got, before)
			}
		})
	}
}

func TestTextEditorInsert(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		line       int
		ins, want  string
		err        string
	}{
		{name: "top", file: "a\nb\n", line: 0, ins: "x", want: "x\na\nb\n"},
		{name: "middle", file: "a\nb\n", line: 1, ins: "x\ny\n", want: "a\nx\ny\nb\n"},
		{name: "end", file: "a\nb\n", line: 2, ins: "x", want: "a\nb\nx\n"},
		{name: "end without final newline", file: "a\nb", line: 2, ins: "x", want: "a\nb\nx"},
		{name: "end without final newline, block ends in newline", file: "a\nb", line: 2, ins: "x\ny\n", want: "a\nb\nx\ny"},
		{name: "middle without final newline", file: "a\nb", line: 1, ins: "x", want: "a\nx\nb"},
		{name: "crlf", file: "a\r\nb\r\n", line: 1, ins: "x\ny", want: "a\r\nx\r\ny\r\nb\r\n"},
		{name: "crlf without final newline", file: "a\r\nb", line: 2, ins: "x", want: "a\r\nb\r\nx"},
		{name: "bom", file: "\xef\xbb\xbfa\n", line: 0, ins: "x", want: "\xef\xbb\xbfx\na\n"},
		{name: "empty file", file: "", line: 0, ins: "x\n", want: "x\n"},
		{name: "past the end", file: "a\nb\n", line: 3, ins: "x", err: "insert_line 3 is out of range: the file has 2 lines, so use 0 (top) to 2 (end)"},
		{name: "negative", file: "a\n", line: -1, ins: "x", err: "insert_line -1 is out of range"},
		{name: "empty new_str", file: "a\n", line: 0, ins: "", err: "new_str is empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := newTestEnv(t, map[string]string{"f": tc.file})
			ed := NewTextEditor(env)
			mustRun(t, ed, view("f"))
			out, err := edRun(t, ed, nil, map[string]any{"command": "insert", "path": "f", "insert_line": tc.line, "new_str": tc.ins})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %q, %v; want error %q", out, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := readFile(t, filepath.Join(env.Root, "f")); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if !strings.HasPrefix(out, "Inserted ") {
				t.Errorf("result %q", out)
			}
			mustRun(t, ed, map[string]any{"command": "undo_edit", "path": "f"})
			if got := readFile(t, filepath.Join(env.Root, "f")); got != tc.file {
				t.Errorf("undo: %q, want %q", got, tc.file)
			}
		})
	}
	env := newTestEnv(t, map[string]string{"f": "a\n"})
	ed := NewTextEditor(env)
	mustRun(t, ed, view("f"))
	for _, tc := range []struct {
		args map[string]any
		err  string
	}{
		{map[string]any{"command": "insert", "path": "f", "new_str": "x"}, "insert needs insert_line"},
		{map[string]any{"command": "insert", "path": "f", "insert_line": 0}, "insert needs new_str"},
		{map[string]any{"command": "insert", "path": "f", "insert_line": "one", "new_str": "x"}, "insert_line must be a number, not a JSON string \"one\""},
	} {
		if _, err := edRun(t, ed, nil, tc.args); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%v: %v, want %q", tc.args, err, tc.err)
		}
	}
	// Numbers as strings are fine.
	mustRun(t, ed, map[string]any{"command": "insert", "path": "f", "insert_line": "1", "new_str": "b"})
	if got := readFile(t, filepath.Join(env.Root, "f")); got != "a\nb\n" {
		t.Errorf("got %q", got)
	}
}

func TestTextEditorFreshness(t *testing.T) {
	env := newTestEnv(t, map[string]string{"f.go": "a\nb\n"})
	ed := NewTextEditor(env)
	edit := map[string]any{"command": "str_replace", "path": "f.go", "old_str": "a", "new_str": "A"}
	if _, err := edRun(t, ed, nil, edit); err == nil || !strings.Contains(err.Error(), "view f.go first") {
		t.Fatalf("edit before view: %v", err)
	}
	if _, err := ed.Plan(context.Background(), argsJSON(t, edit)); err == nil || !strings.Contains(err.Error(), "view f.go first") {
		t.Fatalf("plan before view: %v", err)
	}
	mustRun(t, ed, view("f.go"))
	// Someone changes the file between the view and the edit.
	projecttest.WriteFiles(t, env.Root, map[string]string{"f.go": "a\nb\nc\n"})
	if _, err := edRun(t, ed, nil, edit); err == nil || !strings.Contains(err.Error(), "f.go changed on disk since you last viewed it: view it again") {
		t.Fatalf("stale edit: %v", err)
	}
	if got := readFile(t, filepath.Join(env.Root, "f.go")); got != "a\nb\nc\n" {
		t.Fatalf("stale edit wrote %q", got)
	}
	mustRun(t, ed, view("f.go"))
	mustRun(t, ed, edit)
	// The agent's own edit keeps the view fresh.
	mustRun(t, ed, map[string]any{"command": "str_replace", "path": "f.go", "old_str": "b", "new_str": "B"})
	if got := readFile(t, filepath.Join(env.Root, "f.go")); got != "A\nB\nc\n" {
		t.Errorf("got %q", got)
	}
	// Touching a file without changing it is not a change.
	touched := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(env.Root, "f.go"), touched, touched); err != nil {
		t.Fatal(err)
	}
	mustRun(t, ed, map[string]any{"command": "str_replace", "path": "f.go", "old_str": "c", "new_str": "C"})
}

func TestTextEditorKeepsMode(t *testing.T) {
	env := newTestEnv(t, map[string]string{"run.sh": "#!/bin/sh\necho hi\n"})
	p := filepath.Join(env.Root, "run.sh")
	if err := os.Chmod(p, 0o751); err != nil {
		t.Fatal(err)
	}
	ed := NewTextEditor(env)
	mustRun(t, ed, view("run.sh"))
	mustRun(t, ed, map[string]any{"command": "str_replace", "path": "run.sh", "old_str": "hi", "new_str": "ho"})
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o751 {
		t.Errorf("mode %v, want 0751", fi.Mode().Perm())
	}
	// No temporary file is left behind.
	entries, _ := os.ReadDir(env.Root)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries after the edit", len(entries))
	}
	// Editing through a symlink edits the target and keeps the link.
	if err := os.Symlink("run.sh", filepath.Join(env.Root, "link.sh")); err != nil {
		t.Fatal(err)
	}
	mustRun(t, ed, map[string]any{"command": "str_replace", "path": "link.sh", "old_str": "ho\n", "new_str": "hu\n"})
	if fi, err := os.Lstat(filepath.Join(env.Root, "link.sh")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symlink was replaced: %v %v", fi, err)
	}
	if got := readFile(t, p); got != "#!/bin/sh\necho hu\n" {
		t.Errorf("target: %q", got)
	}
}

func TestTextEditorUndo(t *testing.T) {
	env := newTestEnv(t, map[string]string{"f": "1\n"})
	ed := NewTextEditor(env)
	p := filepath.Join(env.Root, "f")
	if _, err := edRun(t, ed, nil, map[string]any{"command": "undo_edit", "path": "f"}); err == nil || !strings.Contains(err.Error(), "there is no edit of f to undo") {
		t.Errorf("undo with no history: %v", err)
	}
	mustRun(t, ed, view("f"))
	mustRun(t, ed, map[string]any{"command": "insert", "path": "f", "insert_line": 1, "new_str": "2"})
	mustRun(t, ed, map[string]any{"command": "insert", "path": "f", "insert_line": 2, "new_str": "3"})
	act, err := ed.Plan(context.Background(), argsJSON(t, map[string]any{"command": "undo_edit", "path": "f"}))
	if err != nil || act.Kind != KindEdit || act.Summary != "Undo edit of f +0 −1" {
		t.Errorf("undo plan %+v %v", act, err)
	}
	rec := &recorder{}
	out, err := edRun(t, ed, rec, map[string]any{"command": "undo_edit", "path": "f"})
	if err != nil || !strings.Contains(out, "1 earlier edit of this file can still be undone") {
		t.Errorf("undo: %q %v", out, err)
	}
	if evs := rec.take(); len(evs) != 1 || evs[0].(FileChanged).Command != "undo_edit" || string(evs[0].(FileChanged).After) != "1\n2\n" {
		t.Errorf("undo events %#v", evs)
	}
	mustRun(t, ed, map[string]any{"command": "undo_edit", "path": "f"})
	if got := readFile(t, p); got != "1\n" {
		t.Errorf("after two undos: %q", got)
	}
	// After an undo the file can be edited again without a new view.
	mustRun(t, ed, map[string]any{"command": "insert", "path": "f", "insert_line": 0, "new_str": "0"})
	// A change by someone else blocks the undo.
	projecttest.WriteFiles(t, env.Root, map[string]string{"f": "theirs\n"})
	if _, err := edRun(t, ed, nil, map[string]any{"command": "undo_edit", "path": "f"}); err == nil || !strings.Contains(err.Error(), "f changed since the agent's last edit (insert)") {
		t.Errorf("undo over a foreign change: %v", err)
	}
	if got := readFile(t, p); got != "theirs\n" {
		t.Errorf("refused undo wrote %q", got)
	}

	// Undoing a create removes the file.
	mustRun(t, ed, map[string]any{"command": "create", "path": "new/n.txt", "file_text": "n\n"})
	out = mustRun(t, ed, map[string]any{"command": "undo_edit", "path": "new/n.txt"})
	if _, err := os.Stat(filepath.Join(env.Root, "new/n.txt")); !errors.Is(err, os.ErrNotExist) || !strings.Contains(out, "the file is removed") {
		t.Errorf("undo of create: %q, stat %v", out, err)
	}
}

type denyGuard struct{ path string }

func (g denyGuard) CheckEdit(path string) error {
	if path == g.path {
		return fmt.Errorf("%s has unsaved changes in the editor: ask the user to save or discard them", filepath.Base(path))
	}
	return nil
}

func TestTextEditorGuard(t *testing.T) {
	env := newTestEnv(t, map[string]string{"f": "a\n"})
	env.Guard = denyGuard{filepath.Join(env.Root, "f")}
	ed := NewTextEditor(env)
	mustRun(t, ed, view("f"))
	rec := &recorder{}
	_, err := edRun(t, ed, rec, map[string]any{"command": "str_replace", "path": "f", "old_str": "a", "new_str": "b"})
	if err == nil || err.Error() != "f has unsaved changes in the editor: ask the user to save or discard them" {
		t.Errorf("guard: %v", err)
	}
	if got := readFile(t, filepath.Join(env.Root, "f")); got != "a\n" || len(rec.take()) != 0 {
		t.Errorf("a guarded edit wrote %q", got)
	}
}

func TestTextEditorPlan(t *testing.T) {
	env := newTestEnv(t, map[string]string{"ui/chat.go": numbered(20)})
	ed := NewTextEditor(env)
	ctx := context.Background()
	act, err := ed.Plan(ctx, argsJSON(t, map[string]any{"command": "view", "path": "ui/chat.go", "view_range": []int{3, 9}}))
	if err != nil || act.Kind != KindRead || act.Summary != "View ui/chat.go (lines 3 to 9)" {
		t.Errorf("view plan %+v %v", act, err)
	}
	mustRun(t, ed, view("ui/chat.go"))
	p := filepath.Join(env.Root, "ui/chat.go")
	st0, _ := os.Stat(p)
	act, err = ed.Plan(ctx, argsJSON(t, map[string]any{"command": "str_replace", "path": "ui/chat.go",
		"old_str": "line 2\nline 3\nline 4\n", "new_str": "two\n"}))
	if err != nil {
		t.Fatal(err)
	}
	if act.Kind != KindEdit || act.Summary != "Edit ui/chat.go +1 −3" || act.Path != p {
		t.Errorf("edit plan %+v", act)
	}
	wantDiff := "--- a/ui/chat.go\n+++ b/ui/chat.go\n@@ -1,7 +1,5 @@\n line 1\n-line 2\n-line 3\n-line 4\n+two\n line 5\n line 6\n line 7\n"
	if act.Diff != wantDiff {
		t.Errorf("diff\n%s\nwant\n%s", act.Diff, wantDiff)
	}
	act, err = ed.Plan(ctx, argsJSON(t, map[string]any{"command": "insert", "path": "ui/chat.go", "insert_line": 20, "new_str": "a\nb\n"}))
	if err != nil || act.Summary != "Edit ui/chat.go +2 −0" {
		t.Errorf("insert plan %+v %v", act, err)
	}
	if st1, _ := os.Stat(p); st1.ModTime() != st0.ModTime() || readFile(t, p) != numbered(20) {
		t.Error("Plan changed the file")
	}
	// Plan reports the errors Run would.
	if _, err := ed.Plan(ctx, argsJSON(t, map[string]any{"command": "str_replace", "path": "ui/chat.go", "old_str": "line 1", "new_str": "x"})); err == nil ||
		!strings.Contains(err.Error(), "old_str matches 11 times") {
		t.Errorf("plan of an ambiguous edit: %v", err)
	}
}

func TestTextEditorOddArguments(t *testing.T) {
	env := newTestEnv(t, map[string]string{"f": "a\n"})
	ed := NewTextEditor(env)
	for _, tc := range []struct{ args, err string }{
		{``, "command is missing"},
		{`{}`, "command is missing"},
		{`[1,2]`, "text_editor arguments must be a JSON object"},
		{`{"command":`, "text_editor arguments are not valid: "},
		{`{"command": 7}`, "command must be a string"},
		{`{"command": "delete", "path": "f"}`, `unknown command "delete": use view, create, str_replace, insert or undo_edit`},
		{`{"command": "view"}`, "view needs a path"},
		{`{"command": "view", "path": "f", "view_range": "abc"}`, "view_range must be an array, not a JSON string \"abc\""},
		{`{"command": "str_replace", "path": "f", "old_str": "a", "new_str": "b", "replace_all": "maybe"}`, "replace_all must be true or false, not a JSON string \"maybe\""},
		{`{"command": "VIEW", "path": "f", "view_range": [1.0, 1]}`, ""},
	} {
		out, err := ed.InvokableRun(context.Background(), tc.args)
		if tc.err == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.args, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: got %q, %v; want error containing %q", tc.args, out, err, tc.err)
		}
	}
}

// Finding 10: create with a path that ends in "/" makes no file named like
// a directory; it says why, and nothing is created.
func TestTextEditorCreateDirectoryPath(t *testing.T) {
	env := newTestEnv(t, map[string]string{"a.txt": "a\n"})
	ed := NewTextEditor(env)
	for _, p := range []string{"docs/", "newdir/", "./"} {
		args := map[string]any{"command": "create", "path": p, "file_text": "x\n"}
		if _, err := ed.Plan(context.Background(), argsJSON(t, args)); err == nil || !strings.Contains(err.Error(), "ends in /") {
			t.Errorf("%s: plan error %v", p, err)
		}
		if _, err := edRun(t, ed, nil, args); err == nil || !strings.Contains(err.Error(), "ends in /") {
			t.Errorf("%s: run error %v", p, err)
		}
	}
	for _, p := range []string{"docs", "newdir"} {
		if _, err := os.Stat(filepath.Join(env.Root, p)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s was created: %v", p, err)
		}
	}
}
