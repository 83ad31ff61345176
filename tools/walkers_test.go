package tools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/project/projecttest"
)

func TestGlob(t *testing.T) {
	env := newTestEnv(t, map[string]string{
		"main.go":           "",
		"cmd/fawn/main.go":  "",
		"cmd/x/main.go":     "",
		"ui/chat.go":        "",
		"ui/chat_test.go":   "",
		"ui/theme/theme.go": "",
		"docs/a.md":         "",
		"vendor/v.go":       "",
		".gitignore":        "vendor/\n*.gen.go\n",
		"ui/z.gen.go":       "",
		".github/ci.yml":    "",
		"config.json":       "",
		"config.yaml":       "",
	})
	// Distinct modification times: newest first is the order to check.
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, p := range []string{"main.go", "cmd/fawn/main.go", "cmd/x/main.go", "ui/chat.go", "ui/chat_test.go", "ui/theme/theme.go"} {
		ts := base.Add(time.Duration(i) * time.Hour)
		if err := os.Chtimes(filepath.Join(env.Root, p), ts, ts); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"config.json", "config.yaml"} {
		if err := os.Chtimes(filepath.Join(env.Root, p), base, base); err != nil {
			t.Fatal(err)
		}
	}
	g := NewGlob(env)
	for _, tc := range []struct {
		name string
		args map[string]any
		want string
	}{
		{"every go file, newest first", map[string]any{"pattern": "**/*.go"},
			"ui/theme/theme.go\nui/chat_test.go\nui/chat.go\ncmd/x/main.go\ncmd/fawn/main.go\nmain.go\n[6 files, newest first]"},
		{"top level only", map[string]any{"pattern": "*.go"}, "main.go\n[1 file, newest first]"},
		{"fixed prefix", map[string]any{"pattern": "cmd/*/main.go"}, "cmd/x/main.go\ncmd/fawn/main.go\n[2 files, newest first]"},
		{"in a path", map[string]any{"pattern": "*.go", "path": "ui"}, "ui/chat_test.go\nui/chat.go\n[2 files, newest first]"},
		{"braces", map[string]any{"pattern": "config.{json,yaml}"}, "config.json\nconfig.yaml\n[2 files, newest first]"},
		{"hidden files", map[string]any{"pattern": "**/*.yml"}, ".github/ci.yml\n[1 file, newest first]"},
		{"absolute pattern", map[string]any{"pattern": filepath.Join(env.Root, "ui", "*_test.go")}, "ui/chat_test.go\n[1 file, newest first]"},
		{"limit", map[string]any{"pattern": "**/*.go", "limit": 2}, "ui/theme/theme.go\nui/chat_test.go\n[2 of 6 files shown, newest first; narrow the pattern or set limit]"},
		{"no match hint", map[string]any{"pattern": "*.md"},
			"No files match *.md in .. A pattern without / matches only directly inside the directory: use **/*.md to search every level."},
		{"missing directory", map[string]any{"pattern": "*.go", "path": "nope"}, "No files match *.go: nope does not exist."},
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
		{map[string]any{}, "glob needs a pattern"},
		{map[string]any{"pattern": "../*"}, "is outside the project"},
		{map[string]any{"pattern": "/etc/*"}, "/etc is outside the project"},
		{map[string]any{"pattern": "[a"}, `pattern "[a" is not a valid glob`},
		{map[string]any{"pattern": "*", "path": "main.go"}, "main.go is a file: glob searches a directory"},
	} {
		if out, err := runTool(t, g, tc.args); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%v: got %q, %v; want error containing %q", tc.args, out, err, tc.err)
		}
	}
	if act, err := g.Plan(context.Background(), `{"pattern": "**/*.go", "path": "ui"}`); err != nil || act.Kind != KindRead || act.Summary != "Find ui/**/*.go" {
		t.Errorf("plan %+v %v", act, err)
	}
}

func TestLs(t *testing.T) {
	env := newTestEnv(t, map[string]string{
		"b.go":          "12345",
		"a.go":          "",
		"a_test.go":     "",
		"zdir/x":        "",
		"adir/y":        "",
		"build/out":     "",
		".gitignore":    "build/\n*.log\n",
		"debug.log":     "",
		".env":          "",
		".git/HEAD":     "",
		"sub/inner.txt": "",
	})
	if err := os.Symlink("adir", filepath.Join(env.Root, "link")); err != nil {
		t.Fatal(err)
	}
	l := NewLs(env)
	for _, tc := range []struct {
		name string
		args map[string]any
		want string
	}{
		{"root", map[string]any{},
			"./ — 3 directories, 6 files\nadir/\nsub/\nzdir/\n.env  0 B\n.gitignore  13 B\na.go  0 B\na_test.go  0 B\nb.go  5 B\nlink -> adir/\n[2 entries hidden by ignore rules; all: true shows them]"},
		{"all", map[string]any{"all": true},
			"./ — 5 directories, 7 files\n.git/  (ignored)\nadir/\nbuild/  (ignored)\nsub/\nzdir/\n.env  0 B\n.gitignore  13 B\na.go  0 B\na_test.go  0 B\nb.go  5 B\ndebug.log  0 B  (ignored)\nlink -> adir/"},
		{"match and ignore", map[string]any{"match": []string{"*.go"}, "ignore": "*_test.go"}, "./ — 0 directories, 2 files\na.go  0 B\nb.go  5 B"},
		{"subdirectory", map[string]any{"path": "sub"}, "sub/ — 0 directories, 1 file\ninner.txt  0 B"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mustTool(t, l, tc.args); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
	for _, tc := range []struct {
		args map[string]any
		err  string
	}{
		{map[string]any{"path": "b.go"}, "b.go is a file (5 B), not a directory: use text_editor view to read it"},
		{map[string]any{"path": "nope"}, "nope does not exist"},
		{map[string]any{"path": "/"}, "/ is outside the project"},
		{map[string]any{"match": []string{"[x"}}, `"[x" is not a valid glob`},
	} {
		if out, err := runTool(t, l, tc.args); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%v: got %q, %v; want error containing %q", tc.args, out, err, tc.err)
		}
	}
	if act, err := l.Plan(context.Background(), `{"path": "sub"}`); err != nil || act.Kind != KindRead || act.Summary != "List sub" {
		t.Errorf("plan %+v %v", act, err)
	}
}

func TestTree(t *testing.T) {
	env := newTestEnv(t, map[string]string{
		"go.mod":              "",
		"cmd/fawn/main.go":    "",
		"bin/tool":            "",
		"packages/p/index.ts": "",
		"a/b/c/d/deep.txt":    "",
		".gitignore":          "node_modules/\n",
		"node_modules/x/y.js": "",
		".github/ci.yml":      "",
	})
	if err := os.Symlink("..", filepath.Join(env.Root, "cmd", "up")); err != nil {
		t.Fatal(err)
	}
	tr := NewTree(env)
	want := `./
├── .github/
│   └── ci.yml
├── .gitignore
├── a/
│   └── b/
│       └── c/
├── bin/
│   └── tool
├── cmd/
│   ├── fawn/
│   │   └── main.go
│   └── up -> ..
├── go.mod
└── packages/
    └── p/
        └── index.ts

9 directories, 7 files within depth 3`
	if got := mustTool(t, tr, map[string]any{}); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	want = `a/
└── b/

1 directory, 0 files within depth 1`
	if got := mustTool(t, tr, map[string]any{"path": "a", "max_depth": 1}); got != want {
		t.Errorf("depth 1: got\n%s\nwant\n%s", got, want)
	}

	// Caps: at most 100 entries per directory, and a line budget overall.
	many := map[string]string{}
	for i := range 150 {
		many[filepath.Join("wide", fmt.Sprintf("f%03d", i))] = ""
	}
	projecttest.WriteFiles(t, env.Root, many)
	out := mustTool(t, tr, map[string]any{"path": "wide"})
	if !strings.Contains(out, "├── f099\n└── … 50 more\n") || !strings.HasSuffix(out, "0 directories, 150 files within depth 3") {
		t.Errorf("per-directory cap:\n%s", out[len(out)-200:])
	}
	tr.maxLines = 10
	out = mustTool(t, tr, map[string]any{})
	if lines := strings.Count(out, "\n"); lines > 16 || !strings.Contains(out, "… ") {
		t.Errorf("line budget not kept (%d lines):\n%s", lines, out)
	}
	for _, tc := range []struct {
		args map[string]any
		err  string
	}{
		{map[string]any{"max_depth": 0}, "max_depth 0 is invalid"},
		{map[string]any{"path": "go.mod"}, "go.mod is a file (0 B), not a directory"},
		{map[string]any{"path": "../x"}, "is outside the project"},
	} {
		if out, err := runTool(t, tr, tc.args); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%v: got %q, %v; want error containing %q", tc.args, out, err, tc.err)
		}
	}
	if act, err := tr.Plan(context.Background(), `{"max_depth": "2"}`); err != nil || act.Kind != KindRead || act.Summary != "Tree . (depth 2)" {
		t.Errorf("plan %+v %v", act, err)
	}
}

func TestTodoWrite(t *testing.T) {
	env := newTestEnv(t, nil)
	tw := NewTodoWrite(env)
	rec := &recorder{}
	args := `{"todos": [
		{"id": "1", "title": "Read the code", "status": "completed"},
		{"id": "2", "content": "Write the parser", "status": "in_progress", "priority": "high"},
		{"id": 3, "title": "Test it", "status": "pending"},
		{"title": "Document it", "status": "todo"},
		{"id": "5", "title": "Old idea", "status": "canceled"}
	]}`
	act, err := tw.Plan(context.Background(), args)
	if err != nil || act.Kind != KindRead || act.Summary != "Update the to-do list (5 items)" {
		t.Errorf("plan %+v %v", act, err)
	}
	out, err := tw.InvokableRun(rec.ctx(), args)
	if err != nil {
		t.Fatal(err)
	}
	if want := "5 items: 1 completed, 1 in progress, 2 pending, 1 cancelled."; out != want {
		t.Errorf("got %q, want %q", out, want)
	}
	want := []Todo{
		{ID: "1", Title: "Read the code", Status: "completed"},
		{ID: "2", Title: "Write the parser", Status: "in_progress", Priority: "high"},
		{ID: "3", Title: "Test it", Status: "pending"},
		{ID: "4", Title: "Document it", Status: "pending"},
		{ID: "5", Title: "Old idea", Status: "cancelled"},
	}
	if got := env.Todos.Items(); !equalTodos(got, want) {
		t.Errorf("store %+v", got)
	}
	evs := rec.take()
	if len(evs) != 1 || !equalTodos(evs[0].(TodosChanged).Items, want) {
		t.Errorf("events %+v", evs)
	}

	out, err = tw.InvokableRun(context.Background(), `{"todos": [{"id": "a", "title": "x", "status": "in_progress"}, {"id": "b", "title": "y", "status": "in-progress"}]}`)
	if err != nil || !strings.Contains(out, `Warning: 2 items are in progress ("x", "y"); keep one in progress at a time`) {
		t.Errorf("two in progress: %q %v", out, err)
	}
	out, err = tw.InvokableRun(context.Background(), `{"todos": [{"id": "a", "title": "x", "status": "done"}]}`)
	if err != nil || out != "1 item: 1 completed.\nEverything is done." {
		t.Errorf("all done: %q %v", out, err)
	}
	out, err = tw.InvokableRun(context.Background(), `{"todos": []}`)
	if err != nil || out != "The to-do list is now empty." || len(env.Todos.Items()) != 0 {
		t.Errorf("clear: %q %v", out, err)
	}

	env.Todos.Replace(want)
	for _, tc := range []struct{ args, err string }{
		{`{}`, "todo_write needs todos"},
		{`{"todos": "x"}`, "todos must be an array"},
		{`{"todos": [{"id": "1", "title": "a"}, {"id": "1", "title": "b"}]}`, `the to-do list was not changed: items 1 and 2 have the same id "1"`},
		{`{"todos": [{"id": "1", "title": "a", "status": "blocked"}]}`, `item 1 (id "1") has unknown status "blocked": use pending, in_progress, completed or cancelled`},
		{`{"todos": [{"id": "1", "title": "  "}]}`, `item 1 (id "1") has an empty title`},
		{`{"todos": [{"id": "1", "title": "a", "priority": "urgent"}]}`, `unknown priority "urgent"`},
	} {
		if _, err := tw.InvokableRun(context.Background(), tc.args); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: %v, want %q", tc.args, err, tc.err)
		}
	}
	if got := env.Todos.Items(); !equalTodos(got, want) {
		t.Errorf("a refused list changed the store: %+v", got)
	}
}

func equalTodos(a, b []Todo) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestBuiltin(t *testing.T) {
	env := &Env{Root: t.TempDir()}
	tools := Builtin(env)
	var names []string
	for _, tl := range tools {
		names = append(names, tl.Name())
		info, err := tl.Info(context.Background())
		if err != nil || info.Name != tl.Name() || len(info.Desc) < 100 || info.ParamsOneOf == nil {
			t.Errorf("%s: info %+v %v", tl.Name(), info, err)
		}
		if _, err := info.ParamsOneOf.ToJSONSchema(); err != nil {
			t.Errorf("%s: schema: %v", tl.Name(), err)
		}
	}
	if got := strings.Join(names, " "); got != "text_editor grep glob ls tree todo_write web_fetch web_search" {
		t.Errorf("tools: %s", got)
	}
	if env.Files == nil || env.Todos == nil || env.Edits == nil {
		t.Error("Builtin left session state nil")
	}
	// Each constructor alone accepts an Env with only a root, too.
	bare := &Env{Root: env.Root}
	projecttest.WriteFiles(t, bare.Root, map[string]string{"f": "a\n"})
	ed := NewTextEditor(bare)
	mustRun(t, ed, view("f"))
	mustRun(t, ed, map[string]any{"command": "insert", "path": "f", "insert_line": 1, "new_str": "b"})
	mustRun(t, ed, map[string]any{"command": "undo_edit", "path": "f"})
	mustTool(t, NewTodoWrite(&Env{Root: env.Root}), map[string]any{"todos": []any{}})
}
