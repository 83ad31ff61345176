package agent

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/tools"
)

// demoTools are the tools the demo tour calls: the real text_editor, the
// test bash, and small stand-ins for tree, grep and todo_write.
func demoTools(env *tools.Env) []tools.Tool {
	root := env.Root
	read := func(m map[string]any) (tools.Action, error) { return tools.Action{Kind: tools.KindRead}, nil }
	tree := &testTool{name: "tree", params: map[string]*schema.ParameterInfo{"path": {Type: schema.String}, "max_depth": {Type: schema.Integer}}, plan: read,
		run: func(ctx context.Context, m map[string]any) (string, error) {
			var b strings.Builder
			err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				if rel, _ := filepath.Rel(root, p); rel != "." {
					b.WriteString(rel + "\n")
				}
				return err
			})
			return b.String(), err
		}}
	grep := &testTool{name: "grep", params: map[string]*schema.ParameterInfo{"pattern": {Type: schema.String, Required: true}, "output_mode": {Type: schema.String}}, plan: read,
		run: func(ctx context.Context, m map[string]any) (string, error) {
			var hits []string
			err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(str(m, "pattern"))) {
						rel, _ := filepath.Rel(root, p)
						hits = append(hits, rel)
					}
				}
				return err
			})
			return strings.Join(hits, "\n"), err
		}}
	todo := &testTool{name: "todo_write", params: map[string]*schema.ParameterInfo{"todos": {Type: schema.Array, Required: true}}, plan: read,
		run: func(ctx context.Context, m map[string]any) (string, error) {
			b, _ := json.Marshal(m["todos"])
			var items []tools.Todo
			if err := json.Unmarshal(b, &items); err != nil {
				return "", err
			}
			env.Todos.Replace(items)
			tools.Emit(ctx, tools.TodosChanged{Items: items})
			return fmt.Sprintf("%d to-dos", len(items)), nil
		}}
	return []tools.Tool{tree, tools.NewTextEditor(env), grep, bashTool(root), todo}
}

func demoSession(t *testing.T, root string, interactive bool, pick func([]tools.Tool) []tools.Tool) (*Session, *tools.Env, string) {
	t.Helper()
	env, err := tools.NewEnv(root)
	if err != nil {
		t.Fatal(err)
	}
	cfgDir := t.TempDir()
	cfg := &config.Config{
		Models:      config.Models{Chat: config.Model{Type: "demo", Demo: true, DemoReason: "no api_key and no base_url configured for the openai model"}},
		Permissions: config.Permissions{Mode: "ask"},
		ConfigDir:   cfgDir,
	}
	ts := demoTools(env)
	if pick != nil {
		ts = pick(ts)
	}
	s, err := NewSession(context.Background(), Options{Config: cfg, Env: env, Tools: ts, Interactive: interactive, DemoChunkDelay: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s, env, cfgDir
}

// snapshot hashes every file under root, to prove the demo changed nothing.
func snapshot(t *testing.T, root string) string {
	var lines []string
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			lines = append(lines, fmt.Sprintf("%s %x", p, sha256.Sum256(b)))
		}
		return nil
	})
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func demoProject(t *testing.T, readme bool) string {
	root := t.TempDir()
	files := map[string]string{
		"main.go":     "package main\n\n// TODO: say more\nfunc main() {}\n",
		"lib/util.go": "package lib\n\n" + strings.Repeat("// filler line\n", 50),
	}
	if readme {
		files["README.md"] = "# Demo project\n\nIt does things.\n"
	}
	for name, body := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// Headless there is no screen to say it, so the first turn starts with the notice.
func TestDemoNoticeHeadless(t *testing.T) {
	root := demoProject(t, true)
	s, _, _ := demoSession(t, root, false, nil)
	evs := collect(t, s.Run(context.Background(), "hello"), nil)
	if evs[1].Type != EventInfo || !strings.Contains(evs[1].Text, "offline demo model") {
		t.Errorf("no notice of the demo model first: %+v", evs[1])
	}
}

func TestDemoTour(t *testing.T) {
	root := demoProject(t, true)
	before := snapshot(t, root)
	s, env, cfgDir := demoSession(t, root, true, nil)
	if s.ModelName() != "demo/fawn-demo" {
		t.Errorf("ModelName %q", s.ModelName())
	}
	evs := collect(t, s.Run(context.Background(), "hello"), func(ev Event) {
		if ev.Type == EventPermissionAsked {
			s.Approve(ev.ID, Answer{Decision: AllowOnce})
		}
	})
	checkInvariants(t, evs)
	checkHistory(t, s)
	// The IDE shows the demo notice as it opens; the session does not repeat it.
	if len(ofType(evs, EventInfo)) != 0 {
		t.Errorf("an interactive session repeated the demo notice: %+v", ofType(evs, EventInfo))
	}
	var names []string
	for _, e := range ofType(evs, EventToolRunStarted) {
		names = append(names, e.Name)
	}
	if strings.Join(names, " ") != "tree text_editor grep bash todo_write" {
		t.Errorf("tour ran %v:\n%s", names, render(evs))
	}
	for _, e := range ofType(evs, EventToolRunEnded) {
		if e.IsError {
			t.Errorf("%s failed: %s", e.Name, e.Result)
		}
	}
	ready := ofType(evs, EventToolCallReady)
	if len(ready) != 5 || !strings.Contains(ready[1].Args, `"path":"README.md"`) || !strings.Contains(ready[3].Args, `"command":"ls -la"`) {
		t.Errorf("calls %+v", ready)
	}
	answer := answerText(evs)
	for _, want := range []string{"Hello! I'm fawn's offline demo model", "That's the tour", "The TODO search matched 1 file,",
		filepath.Join(cfgDir, "config.yaml"), "OPENAI_API_KEY", "fawn config --check"} {
		if !strings.Contains(answer, want) {
			t.Errorf("the demo never says %q", want)
		}
	}
	if len(env.Todos.Items()) != 3 || len(s.Todos()) != 3 {
		t.Errorf("to-dos %+v", env.Todos.Items())
	}
	if after := snapshot(t, root); after != before {
		t.Errorf("the demo changed the project:\n%s\n---\n%s", before, after)
	}

	// Asked something after the tour, it says what it is.
	evs = collect(t, s.Run(context.Background(), "fix the bug"), nil)
	if len(ofType(evs, EventToolCallStarted)) != 0 || !strings.Contains(answerText(evs), `can't really act on "fix the bug"`) {
		t.Errorf("second turn:\n%s", render(evs))
	}
}

func TestDemoWithoutReadmeOrTools(t *testing.T) {
	root := demoProject(t, false)
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	// Only the editor and bash: the other steps are skipped.
	s, _, _ := demoSession(t, root, true, func(ts []tools.Tool) []tools.Tool { return []tools.Tool{ts[1], ts[3]} })
	evs := collect(t, s.Run(context.Background(), "hi"), func(ev Event) {
		if ev.Type == EventPermissionAsked {
			s.Approve(ev.ID, Answer{Decision: Deny})
		}
	})
	checkInvariants(t, evs)
	ready := ofType(evs, EventToolCallReady)
	if len(ready) != 2 || !strings.Contains(ready[0].Args, filepath.Join("lib", "util.go")) || !strings.Contains(ready[1].Args, "git status") {
		t.Errorf("calls:\n%s", render(evs))
	}
	if !strings.Contains(answerText(evs), "The command did not run") {
		t.Errorf("the demo does not mention the denied command: %q", answerText(evs))
	}
}

func TestDemoHeadless(t *testing.T) {
	root := demoProject(t, true)
	s, _, _ := demoSession(t, root, false, nil)
	var out, errb bytes.Buffer
	code := RunHeadless(context.Background(), s, "show me", "text", &out, &errb)
	if code != 0 || !strings.HasPrefix(out.String(), "That's the tour") {
		t.Errorf("exit %d, stdout %q", code, out.String())
	}
	if !strings.Contains(errb.String(), "offline demo model") || !strings.Contains(errb.String(), "denied bash") {
		t.Errorf("stderr %q", errb.String())
	}
}
