package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/internal/llmtest"
	"github.com/fawn-ide/fawn/terminal"
	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/ui/chat"
)

// bashParts starts a scripted server, a real shell and a session whose only
// tool is bash, in yolo mode, on a fresh project.
func bashParts(t *testing.T, script llmtest.Script) (*agent.Session, *terminal.Terminal, *config.Config, string) {
	t.Helper()
	srv := llmtest.Start(t, script)
	root := t.TempDir()
	env, err := tools.NewEnv(root)
	if err != nil {
		t.Fatal(err)
	}
	term, err := terminal.Start(terminal.Options{Dir: env.Root, Env: []string{"HOME=" + t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { term.Close() })
	cfg := &config.Config{DataDir: t.TempDir(), ConfigDir: t.TempDir()}
	cfg.Models.Chat = config.Model{Type: "openai", Model: "llmtest", BaseURL: srv.URL(), Timeout: time.Minute, StallTimeout: 15 * time.Second}
	cfg.Permissions.Mode = "yolo"
	s, err := agent.NewSession(context.Background(), agent.Options{
		Config: cfg, Env: env, Tools: []tools.Tool{tools.NewBash(env, term)}, Interactive: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s, term, cfg, env.Root
}

// bashCard finds the card of the first bash call in the chat.
func bashCard(a *App) *chat.Card {
	for i := 0; i < a.task.list.Len(); i++ {
		if c, ok := a.task.list.Item(i).(*chat.Card); ok && c.Tool == "bash" {
			return c
		}
	}
	return nil
}

// A command that prints 3,000 lines faster than the live preview keeps them
// must not leave the card with a wrong count and a gap: it says how many
// lines were printed, and expanded it starts at the first.
func TestCommandCardCountsEveryLine(t *testing.T) {
	sess, _, cfg, root := bashParts(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"seq 1 3000"}`}}},
		{Text: "Counted."},
	}})
	r := startApp(t, Options{Agent: sess, Services: backend.SessionServices(sess), Config: cfg, Root: root}, 140, 40)
	r.typeText("count")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("Counted.")
	r.waitTurnEnded()
	r.onUI(func() {
		c := bashCard(r.app)
		if c == nil {
			t.Fatalf("no bash card:\n%s", screenText(r.screen))
		}
		collapsed := linesText(c.Render(r.app.rctx, 80))
		if !strings.Contains(collapsed, "2990 earlier lines") || !strings.Contains(collapsed, "of 3000 lines printed") {
			t.Errorf("the folded card does not say how many lines were printed and hidden:\n%s", collapsed)
		}
		c.Toggle()
		body := c.Render(r.app.rctx, 80)[1:]
		first := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(body[0].String()), "│"))
		last := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(body[len(body)-2].String()), "│"))
		if first != "1" || last != "3000" {
			t.Errorf("expanded, the card runs from %q to %q, want 1 to 3000", first, last)
		}
		if n := len(body); n != 3000+1 {
			t.Errorf("expanded, the card has %d body rows, want 3000 lines and the hint", n)
		}
	})
}
