package ui

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/internal/llmtest"
	"github.com/fawn-ide/fawn/tools"
)

// twoSlotApp runs the App on a session whose chat_model is main and whose
// background entry ("spare") is bg.
func twoSlotApp(t *testing.T, root string, main, bg *llmtest.Server) *running {
	t.Helper()
	env, err := tools.NewEnv(root)
	if err != nil {
		t.Fatal(err)
	}
	mc := func(model, url string) config.Model {
		return config.Model{Type: "openai", Model: model, BaseURL: url, Timeout: time.Minute, StallTimeout: 15 * time.Second}
	}
	cfg := &config.Config{DataDir: t.TempDir(), ConfigDir: t.TempDir()}
	cfg.Models.Chat = mc("scripted", main.URL())
	cfg.Models.Named = map[string]config.Model{"spare": mc("spare", bg.URL())}
	cfg.Models.Background = []string{"spare"}
	cfg.Permissions.Mode = "ask"
	sess, err := agent.NewSession(context.Background(), agent.Options{Config: cfg, Env: env, Interactive: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sess.Close)
	return startApp(t, Options{Agent: sess, Services: backend.SessionServices(sess), Config: cfg, Root: root}, 140, 40)
}

func runGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v: %s", args, err, out)
	}
	return string(out)
}

// /commit shows the message drafted on the background entry in a box with
// the diff stat beside it; Enter commits with exactly that message, and a
// message edited there is committed as edited.
func TestCommitDialogCommitsTheDraftedMessage(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[user]\n\tname = Test\n\temail = test@example.com\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("greet.go", "package greet\n")
	runGit(t, root, "init", "-q")
	runGit(t, root, "add", ".")
	runGit(t, root, "commit", "-q", "-m", "first")
	write("greet.go", "package greet\n\nconst Hello = \"hi\"\n")

	const drafted = "greet: say hello\n\nHello is the greeting the package offers."
	main := llmtest.Start(t, llmtest.Script{})
	bg := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: drafted}, {Text: "greet: say goodbye"}}})
	r := twoSlotApp(t, root, main, bg)

	r.typeText("/commit")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("Commit message")
	r.waitScreen("greet: say hello")
	r.waitScreen("greet.go")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("Committed ")
	if got := runGit(t, root, "log", "-1", "--format=%B"); strings.TrimSuffix(got, "\n") != drafted {
		t.Errorf("committed %q, want exactly the drafted %q", got, drafted)
	}

	write("greet.go", "package greet\n")
	r.typeText("/commit")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("greet: say goodbye")
	r.typeText(" (edited)")
	r.key(tcell.KeyEnter, 0, 0)
	waitFor(t, "the second commit", func() bool {
		out, _ := exec.Command("git", "-C", root, "log", "-1", "--format=%s").Output()
		return strings.TrimSpace(string(out)) == "greet: say goodbye (edited)"
	})
	if n := len(main.ChatRequests()); n != 0 {
		t.Errorf("chat_model got %d requests; the drafts go to the background entry", n)
	}
}

// /goal TEXT sends TEXT, and the goal and each verdict show as cards: not
// met goes on with the judge's words, met stops.
func TestGoalCardsInTheChat(t *testing.T) {
	main := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: "made a.txt"}, {Text: "made b.txt too"}}})
	// The spare gets the judge's requests and the turns' notes, in an
	// order the scheduling decides: the judge is answered by what its
	// transcript shows, a note by anything.
	bg := llmtest.Start(t, llmtest.Script{Respond: func(req *llmtest.ChatRequest, _ int) llmtest.Response {
		var all strings.Builder
		for _, m := range req.Messages {
			all.WriteString(string(m.Content))
		}
		switch {
		case !strings.Contains(all.String(), "You judge whether"):
			return llmtest.Response{Text: "## Goal\nA note."}
		case strings.Contains(all.String(), "made b.txt too"):
			return llmtest.Response{Text: "MET"}
		}
		return llmtest.Response{Text: "NOT MET: b.txt is missing"}
	}})
	r := twoSlotApp(t, t.TempDir(), main, bg)
	r.typeText("/goal make a.txt and b.txt")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("◎ goal: make a.txt and b.txt")
	r.waitScreen("◎ goal not met (turn 1 of 10): b.txt is missing")
	r.waitScreen("made b.txt too")
	r.waitScreen("◎ goal met after 2 turns")
	reqs := main.ChatRequests()
	if len(reqs) != 2 || !strings.Contains(string(reqs[1].Messages[len(reqs[1].Messages)-1].Content), "b.txt is missing") {
		t.Fatalf("chat_model's requests: %d; the second must carry the judge's words", len(reqs))
	}
	r.typeText("/goal")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("Goal: make a.txt and b.txt")
	r.typeText("/goal clear")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("The goal is dropped")
}

// While the turn's note is being written on the background entry, the
// status bar says so and names the entry; once written, it says nothing.
func TestStatusBarShowsBackgroundWork(t *testing.T) {
	main := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: "the answer"}}})
	// The note is answered after a pause (a request without streaming
	// waits out a stall, then gets the whole answer).
	slow := &llmtest.Fault{Kind: llmtest.Stall, Stall: llmtest.Duration(3 * time.Second)}
	bg := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: "## Goal\nslowly noted", Fault: slow}}})
	r := twoSlotApp(t, t.TempDir(), main, bg)
	r.typeText("hello")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("the answer")
	waitFor(t, "the status bar to name the note and its entry", func() bool {
		return strings.Contains(r.statusLine(), "⟳ turn note → spare")
	})
	waitFor(t, "the status bar to drop the note once written", func() bool {
		return !strings.Contains(r.statusLine(), "turn note")
	})
}
