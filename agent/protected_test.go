package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
	"github.com/fawn-ide/fawn/tools"
)

// withRealEditor gives the session fawn's own tools on the harness's root.
func withRealEditor(t *testing.T) func(*Options) {
	return func(o *Options) {
		env, err := tools.NewEnv(o.Env.Root)
		if err != nil {
			t.Fatal(err)
		}
		o.Env = env
		o.Tools = tools.Builtin(env)
	}
}

func create(id, path string) llmtest.ToolCall {
	return llmtest.ToolCall{ID: id, Name: "text_editor", Arguments: `{"command":"create","path":"` + path + `","file_text":"` + id + `\n"}`}
}

// Finding 5: in accept-edits mode, and after "allow for this session", a
// write to .git/, .fawn/ or .claude/ (at any depth) still asks, saying why;
// other edits do not. Yolo asks for nothing.
func TestProtectedPathsAlwaysAsk(t *testing.T) {
	calls := []llmtest.ToolCall{
		create("plain", "src/a.txt"),
		create("hook", ".git/hooks/post-checkout"),
		create("cfg", ".fawn/config.yaml"),
		create("cmd", ".claude/commands/x.md"),
		create("sub", "vendor/lib/.git/config"),
	}
	for _, c := range []struct {
		mode  Mode
		asked string
	}{
		{ModeAcceptEdits, ".git/hooks/post-checkout .fawn/config.yaml .claude/commands/x.md vendor/lib/.git/config .git/hooks/post-checkout"},
		{ModeAsk, "src/a.txt .git/hooks/post-checkout .fawn/config.yaml .claude/commands/x.md vendor/lib/.git/config .git/hooks/post-checkout"},
		{ModeYolo, ""},
	} {
		t.Run(string(c.mode), func(t *testing.T) {
			script := llmtest.Script{Responses: []llmtest.Response{
				{ToolCalls: calls},
				// The same hook again, after "allow for this session".
				{ToolCalls: []llmtest.ToolCall{create("again", ".git/hooks/post-checkout")}},
				text("done"),
			}}
			h := newHarness(t, script, c.mode, withRealEditor(t))
			var asked []string
			evs := runChecked(t, h, context.Background(), "go", func(ev Event) {
				if ev.Type != EventPermissionAsked {
					return
				}
				p := ev.Permission.Action.Path
				rel, _ := filepath.Rel(h.root, p)
				asked = append(asked, rel)
				if tools.Protected(h.root, p) != "" && !strings.Contains(ev.Permission.Reason, "always asks: it is inside .") {
					t.Errorf("%s: the reason does not say why: %q", ev.ID, ev.Permission.Reason)
				}
				h.s.Approve(ev.ID, Answer{Decision: AllowSession})
			})
			if got := strings.Join(asked, " "); got != c.asked {
				t.Errorf("asked %q, want %q:\n%s", got, c.asked, render(evs))
			}
			for _, p := range []string{"src/a.txt", ".git/hooks/post-checkout", ".fawn/config.yaml", ".claude/commands/x.md", "vendor/lib/.git/config"} {
				if _, err := os.Stat(filepath.Join(h.root, p)); err != nil {
					t.Errorf("%s was not written after the user allowed it: %v", p, err)
				}
			}
		})
	}
}

// Headless, accept-edits lets ordinary edits run but refuses a protected
// one and says that only yolo would allow it.
func TestProtectedPathHeadless(t *testing.T) {
	script := llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{create("plain", "a.txt"), create("hook", ".git/hooks/pre-commit")}},
		text("done"),
	}}
	h := newHarness(t, script, ModeAcceptEdits, withRealEditor(t), func(o *Options) { o.Interactive = false })
	evs := runChecked(t, h, context.Background(), "go", nil)
	if _, err := os.Stat(filepath.Join(h.root, "a.txt")); err != nil {
		t.Errorf("the ordinary edit did not run:\n%s", render(evs))
	}
	if _, err := os.Stat(filepath.Join(h.root, ".git/hooks/pre-commit")); err == nil {
		t.Errorf(".git/hooks/pre-commit was written headless in accept-edits:\n%s", render(evs))
	}
	var note string
	for _, e := range ofType(evs, EventPermissionAnswered) {
		note += e.Answer.Note
	}
	if !strings.Contains(note, "only --permission-mode yolo") || !strings.Contains(note, ".git/") {
		t.Errorf("note %q", note)
	}
}

func TestProtected(t *testing.T) {
	root := "/p"
	for path, want := range map[string]bool{
		"/p/a.go": false, "/p/.gitignore": false, "/p/Makefile": false, "/p/package.json": false, "/p/.env": false,
		"/p/.github/ISSUE_TEMPLATE/bug.md": false, "/p/docs/.envrc.example": false, "/p/.gitattributes/x": false,
		"/p/.git": true, "/p/.git/config": true, "/p/x/.git/hooks/a": true, "/p/.Git/config": true,
		"/p/.fawn/config.yaml": true, "/p/.claude/settings.json": true, "/q/a": true, "/p/../q": true,
		"/p/.gitattributes": true, "/p/sub/.gitattributes": true, "/p/.gitmodules": true, "/p/.envrc": true, "/p/sub/.envrc": true,
		"/p/.vscode/tasks.json": true, "/p/.vscode/settings.json": true, "/p/.vscode/launch.json": true,
		"/p/.idea/runConfigurations/x.xml": true, "/p/.githooks/pre-commit": true, "/p/.husky/pre-push": true,
		"/p/.devcontainer/devcontainer.json": true, "/p/.github/workflows/x.yml": true, "/p/.github/actions/a/action.yml": true,
		"/p/.gitlab-ci.yml": true, "/p/.circleci/config.yml": true, "/p/.pre-commit-config.yaml": true, "/p/lefthook.yml": true,
		"/p/mise.toml": true, "/p/.mise.toml": true,
	} {
		if got := tools.Protected(root, path) != ""; got != want {
			t.Errorf("%s: protected %v, want %v", path, got, want)
		}
	}
}
