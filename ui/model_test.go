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
	"github.com/fawn-ide/fawn/tools"
)

// /model offers the configured models and those the server lists; the one
// chosen answers from the next request, and the status bar names it.
func TestModelPickerSwitchesTheModel(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Models: []string{"scripted", "coder-7b", "coder-32b"},
		Responses: []llmtest.Response{{Text: "first answer"}, {Text: "second answer"}}})
	root := t.TempDir()
	env, err := tools.NewEnv(root)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &config.Config{DataDir: t.TempDir(), ConfigDir: t.TempDir()}
	cfg.Models.Chat = config.Model{Type: "openai", Model: "scripted", BaseURL: srv.URL(), Timeout: time.Minute, StallTimeout: 15 * time.Second, ContextWindow: 1000}
	cfg.Models.Named = map[string]config.Model{"offline": {Type: "demo"}}
	cfg.Permissions.Mode = "ask"
	sess, err := agent.NewSession(context.Background(), agent.Options{Config: cfg, Env: env, Interactive: true, DemoChunkDelay: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sess.Close)
	r := startApp(t, Options{Agent: sess, Services: backend.SessionServices(sess), Config: cfg, Root: root}, 120, 30)
	r.typeText("hello")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("first answer")

	r.typeText("/model")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("Model")
	r.waitScreen("coder-32b") // listed by the server
	s := r.text()
	for _, want := range []string{"● scripted", "the default", "offline", "demo", "listed by 127.0.0.1"} {
		if !strings.Contains(s, want) {
			t.Errorf("the picker lacks %q:\n%s", want, s)
		}
	}
	r.typeText("c32")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("model: openai/coder-32b")
	if line := r.statusLine(); !strings.Contains(line, "openai/coder-32b") {
		t.Errorf("the status bar says %q", line)
	}
	r.typeText("again")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("second answer")
	reqs := srv.ChatRequests()
	if len(reqs) != 2 || reqs[0].Model != "scripted" || reqs[1].Model != "coder-32b" {
		t.Errorf("requests went to %v", func() (m []string) {
			for _, r := range reqs {
				m = append(m, r.Model)
			}
			return
		}())
	}
	// By name, straight away: the configured demo.
	r.typeText("/model offline")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("model: demo/fawn-demo")
}
