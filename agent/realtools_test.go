package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/internal/llmtest"
	"github.com/fawn-ide/fawn/terminal"
	"github.com/fawn-ide/fawn/tools"
)

// realTools are fawn's own tools on root, with bash in a real pty.
func realTools(t *testing.T, root string) (*tools.Env, []tools.Tool) {
	t.Helper()
	env, err := tools.NewEnv(root)
	if err != nil {
		t.Fatal(err)
	}
	env.BashTimeout = time.Minute
	term, err := terminal.Start(terminal.Options{Dir: env.Root, Env: []string{"HOME=" + t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { term.Close() })
	return env, append(tools.Builtin(env), tools.NewBash(env, term))
}

// TestDemoTourWithRealTools plays the demo on fawn's real tools: every step
// succeeds, the to-do list is written, and the project is unchanged.
func TestDemoTourWithRealTools(t *testing.T) {
	root := demoProject(t, true)
	before := snapshot(t, root)
	env, ts := realTools(t, root)
	cfg := &config.Config{
		Models:      config.Models{Chat: config.Model{Type: "demo"}},
		Permissions: config.Permissions{Mode: "ask"},
		ConfigDir:   t.TempDir(),
	}
	s, err := NewSession(context.Background(), Options{Config: cfg, Env: env, Tools: ts, Interactive: true, DemoChunkDelay: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	evs := collect(t, s.Run(context.Background(), "hello"), func(ev Event) {
		if ev.Type == EventPermissionAsked {
			s.Approve(ev.ID, Answer{Decision: AllowOnce})
		}
	})
	checkInvariants(t, evs)
	checkHistory(t, s)
	var ran []string
	for _, e := range ofType(evs, EventToolRunEnded) {
		ran = append(ran, e.Name)
		if e.IsError {
			t.Errorf("%s failed: %s", e.Name, e.Result)
		}
	}
	if strings.Join(ran, " ") != "tree text_editor grep bash todo_write" {
		t.Errorf("ran %v:\n%s", ran, render(evs))
	}
	if len(s.Todos()) != 3 {
		t.Errorf("to-dos %+v", s.Todos())
	}
	if !strings.Contains(answerText(evs), "The TODO search matched 1 file,") {
		t.Errorf("closing: %q", answerText(evs))
	}
	if after := snapshot(t, root); after != before {
		t.Errorf("the demo changed the project")
	}
}

// TestCancelRealBash cancels a 30 s command in fawn's real terminal: the
// turn ends, the process is gone, and the next command runs.
func TestCancelRealBash(t *testing.T) {
	marker := fmt.Sprintf("30.%d", time.Now().UnixNano()%1_000_000)
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		call("long", "bash", `{"command":"sleep `+marker+`"}`),
		call("next", "bash", `{"command":"echo next-ok"}`),
		text("Done."),
	}})
	root := t.TempDir()
	env, ts := realTools(t, root)
	s, err := NewSession(context.Background(), Options{Config: testConfig(t, srv.URL(), ModeYolo), Env: env, Tools: ts, Interactive: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	evs := collect(t, s.Run(ctx, "wait"), func(ev Event) {
		if ev.Type == EventToolRunStarted {
			go func() {
				waitProcess(t, "sleep "+marker)
				cancel()
			}()
		}
	})
	checkInvariants(t, evs)
	if !errors.Is(last(evs).Err, ErrCancelled) {
		t.Fatalf("turn ended with %v:\n%s", last(evs).Err, render(evs))
	}
	waitNoProcess(t, "sleep "+marker)
	checkHistory(t, s)

	evs = collect(t, s.Run(context.Background(), "again"), nil)
	checkInvariants(t, evs)
	ended := ofType(evs, EventToolRunEnded)
	if len(ended) != 1 || !strings.Contains(ended[0].Result, "next-ok") || last(evs).Err != nil {
		t.Errorf("next turn:\n%s", render(evs))
	}
}

// waitProcess waits until some process's command line contains s.
func waitProcess(t *testing.T, s string) {
	for end := time.Now().Add(deadline); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if processRunning(s) {
			return
		}
	}
	t.Errorf("no process running %q appeared", s)
}
