package ui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/session"
	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/ui/editor"
	"github.com/fawn-ide/fawn/ui/panes"
	"github.com/fawn-ide/fawn/ui/theme"
)

// fakeBranch is a task's branch over real files: base holds each file's
// content on the base, the task's directory the branch's.
type fakeBranch struct {
	root string
	base map[string]string

	mu      sync.Mutex
	plan    MergePlan
	planErr error
	merged  []string // "squash|message" of each Merge
}

func (b *fakeBranch) Uncommitted(context.Context) ([]string, error) { return nil, nil }
func (b *fakeBranch) Commit(context.Context, string) error          { return nil }
func (b *fakeBranch) Discard(context.Context) error                 { return nil }
func (b *fakeBranch) Plan(context.Context) (MergePlan, error)       { return b.plan, b.planErr }

func (b *fakeBranch) Merge(_ context.Context, squash bool, message string) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.merged = append(b.merged, fmt.Sprintf("%v|%s", squash, message))
	return "merged: the fake says so", nil
}

func (b *fakeBranch) Review(context.Context) ([]panes.ChangeRow, error) {
	var rows []panes.ChangeRow
	for p, old := range b.base {
		now, _ := os.ReadFile(filepath.Join(b.root, p))
		if !bytes.Equal(now, []byte(old)) {
			plus, minus := editor.DiffCounts([]byte(old), now)
			rows = append(rows, panes.ChangeRow{Path: p, Plus: plus, Minus: minus, Counted: true})
		}
	}
	return rows, nil
}

func (b *fakeBranch) Content(_ context.Context, p string) ([]byte, []byte, error) {
	old, ok := b.base[p]
	if !ok {
		return nil, nil, errors.New(p + " is not changed")
	}
	now, err := os.ReadFile(filepath.Join(b.root, p))
	return []byte(old), now, err
}

// branchTaskApp opens task x, on a fakeBranch over a real session (its
// checkpoints kept) and real editor tabs in a temporary directory holding
// files; base is what the base has.
func branchTaskApp(t *testing.T, files, base map[string]string) (*running, *fakeBranch) {
	t.Helper()
	root := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env, err := tools.NewEnv(root)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &config.Config{DataDir: t.TempDir(), ConfigDir: t.TempDir()}
	cfg.Models.Chat.Type = "demo"
	st, err := session.New(cfg.DataDir, root, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := agent.NewSession(context.Background(), agent.Options{Config: cfg, Env: env, Tools: []tools.Tool{tools.NewTextEditor(env)}, Interactive: true, Store: st, DemoChunkDelay: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sess.Close)
	tabs := editor.New(env.Root, theme.Get(""), editor.DefaultKeys())
	t.Cleanup(tabs.Close)
	br := &fakeBranch{root: env.Root, base: base}
	opts := Options{Agent: newScriptAgent(), Config: cfg}
	opts.NewTask = func(ctx context.Context, name string) (TaskOptions, error) {
		return TaskOptions{Agent: sess, Services: backend.SessionServices(sess), Root: env.Root, Editor: tabs, Branch: "fawn/" + name, Tree: br}, nil
	}
	r := startApp(t, opts, 160, 40)
	tabs.SetRedraw(r.app.RequestDraw)
	r.typeText("/task new x")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("task x works on branch fawn/x")
	return r, br
}

// /task review lists in the Changes tab every file the task's branch
// changed against its base; Enter shows a file's diff against the base,
// where r puts the hunk back as the base has it (through the checkpoints:
// /rewind lists it); /task review again gives the tab back to the
// session's changes. The project's own task has no branch to review.
func TestTaskReviewShowsTheBranchAgainstItsBase(t *testing.T) {
	var lines []string
	for i := 1; i <= 30; i++ {
		lines = append(lines, fmt.Sprintf("line %d", i))
	}
	base := strings.Join(lines, "\n") + "\n"
	changed := strings.Replace(strings.Replace(base, "line 3\n", "LINE THREE\n", 1), "line 25\n", "LINE 25\n", 1)
	r, _ := branchTaskApp(t, map[string]string{"f.txt": changed, "same.txt": "same\n"}, map[string]string{"f.txt": base, "same.txt": "same\n"})

	r.typeText("/task review")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("reviewing fawn/x against its base")
	r.waitScreen("Review 1")
	r.waitScreen("+2 −2")
	if strings.Contains(r.text(), "same.txt") {
		t.Error("the review lists a file the branch did not change")
	}
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("fawn/x against its base")
	r.waitScreen("@@ -1,6 +1,6 @@")
	r.key(tcell.KeyRune, 'r', 0)
	r.waitScreen("revert a hunk of f.txt to the base: restored f.txt")
	want := strings.Replace(base, "line 25\n", "LINE 25\n", 1)
	waitFor(t, "the hunk put back", func() bool {
		b, _ := os.ReadFile(filepath.Join(r.app.task.root, "f.txt"))
		return string(b) == want
	})
	r.waitScreen("+1 −1")

	r.waitScreen("@@ -22,7 +22,7 @@") // the diff again, with what is left
	r.onUI(func() { r.app.focusOn(panes.Chat) })
	r.typeText("/task review")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("the Changes tab shows this session's changes again")
	// The session's changes are read again off the UI goroutine.
	waitFor(t, "the tab to count the session's one change", func() bool {
		got := ""
		r.onUI(func() { got = r.app.task.changes.Title() })
		return got == "Changes 1"
	})

	r.key(tcell.KeyRune, ',', tcell.ModAlt)
	r.typeText("/task review")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("this task works in the project itself")
}

// /task merge of a branch that cannot fast-forward shows the drafted
// messages and merges as the user chose (here one squashed commit); a
// conflict found before is said, and nothing is merged.
func TestTaskMergeConfirmsTheDraftedMessage(t *testing.T) {
	r, br := branchTaskApp(t, map[string]string{"a.txt": "a\n"}, map[string]string{"a.txt": "a\n"})
	br.plan = MergePlan{Message: "Merge task x (fawn/x) into main\n\n- add c", SquashMessage: "add c\n\n(task x, squashed from fawn/x)"}
	r.typeText("/task merge")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("Merge fawn/x")
	r.waitScreen("- add c")
	r.waitScreen("one squashed commit")
	r.key(tcell.KeyRune, 's', 0)
	r.waitScreen("merged: the fake says so")
	br.mu.Lock()
	if len(br.merged) != 1 || br.merged[0] != "true|"+br.plan.SquashMessage {
		t.Errorf("merges: %q", br.merged)
	}
	br.mu.Unlock()

	br.plan, br.planErr = MergePlan{}, errors.New("merging fawn/x into main conflicts in a.txt: nothing was merged")
	r.typeText("/task merge")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("not merged: merging fawn/x into main conflicts in a.txt")
	br.mu.Lock()
	if len(br.merged) != 1 {
		t.Errorf("a conflicting branch was merged: %q", br.merged)
	}
	br.mu.Unlock()
}
