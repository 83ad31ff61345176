package agent

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/internal/llmtest"
	"github.com/fawn-ide/fawn/tools"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestMain fails the package when goroutines of the agent, of eino or of
// HTTP connections outlive the tests (sessions and servers are closed by
// each test's cleanup).
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		var stuck []string
		for end := time.Now().Add(deadline); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
			if stuck = leakedGoroutines(); len(stuck) == 0 {
				break
			}
		}
		if len(stuck) > 0 {
			fmt.Fprintf(os.Stderr, "%d goroutine(s) left behind by the tests:\n%s\n", len(stuck), strings.Join(stuck, "\n\n"))
			code = 1
		}
	}
	os.Exit(code)
}

// deadline bounds every wait of these tests: generous for a loaded machine,
// far below the 30 s a stuck command would take.
const deadline = 20 * time.Second

type harness struct {
	t    *testing.T
	root string
	srv  *llmtest.Server
	s    *Session
	env  *tools.Env
}

// newHarness starts a scripted server and a session on a fresh project
// directory with the test tools.
func newHarness(t *testing.T, script llmtest.Script, mode Mode, edit ...func(*Options)) *harness {
	t.Helper()
	h := &harness{t: t, root: t.TempDir()}
	h.srv = llmtest.Start(t, script)
	h.env = &tools.Env{Root: h.root, Files: tools.NewFileTracker(), Todos: &tools.TodoStore{}}
	o := Options{
		Config:         testConfig(t, h.srv.URL(), mode),
		Env:            h.env,
		Tools:          testTools(h.root),
		Interactive:    true,
		RetryBaseDelay: 5 * time.Millisecond,
	}
	for _, e := range edit {
		e(&o)
	}
	s, err := NewSession(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	h.s = s
	t.Cleanup(func() {
		s.Close()
		h.srv.Close()
	})
	return h
}

func testConfig(t *testing.T, url string, mode Mode) *config.Config {
	return &config.Config{
		Models: config.Models{Chat: config.Model{
			Type: "openai", Model: "llmtest", BaseURL: url,
			Timeout: time.Minute, StallTimeout: 15 * time.Second,
		}},
		Permissions: config.Permissions{Mode: string(mode)},
		Agent:       config.Agent{MaxSteps: 100},
		ConfigDir:   t.TempDir(), // never the real ~/.config/fawn
	}
}

func (h *harness) write(name, text string) {
	h.t.Helper()
	if err := os.WriteFile(filepath.Join(h.root, name), []byte(text), 0o644); err != nil {
		h.t.Fatal(err)
	}
}

// run runs a turn and returns its events; on is called with each as it
// arrives (to answer permission requests or cancel).
func (h *harness) run(ctx context.Context, prompt string, on func(Event)) []Event {
	h.t.Helper()
	return collect(h.t, h.s.Run(ctx, prompt), on)
}

func collect(t *testing.T, ch <-chan Event, on func(Event)) []Event {
	t.Helper()
	var evs []Event
	timeout := time.After(deadline)
	for {
		select {
		case ev, ok := <-ch:
			if !ok {
				if len(evs) == 0 || evs[len(evs)-1].Type != EventTurnEnded {
					t.Fatalf("the stream closed without turn_ended: %s", render(evs))
				}
				return evs
			}
			evs = append(evs, ev)
			if on != nil {
				on(ev)
			}
		case <-timeout:
			t.Fatalf("the turn did not end within %s; events so far:\n%s", deadline, render(evs))
		}
	}
}

func last(evs []Event) Event { return evs[len(evs)-1] }

func ofType(evs []Event, typ EventType) []Event {
	var out []Event
	for _, e := range evs {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

// render writes events one per line, deterministically: consecutive deltas
// are joined (how they are split depends on timing), durations and rates
// left out, and call IDs replaced by c1, c2… in order of appearance (servers
// that send none get made-up ones).
func render(evs []Event) string {
	ids := map[string]string{}
	id := func(s string) string {
		if s == "" {
			return "-"
		}
		if _, ok := ids[s]; !ok {
			ids[s] = fmt.Sprintf("c%d", len(ids)+1)
		}
		return ids[s]
	}
	var joined []Event
	for _, e := range evs {
		if n := len(joined); n > 0 && joinable(&joined[n-1], &e) {
			joined[n-1].Text += e.Text
			continue
		}
		joined = append(joined, e)
	}
	var b strings.Builder
	for _, e := range joined {
		fmt.Fprintf(&b, "%s", e.Type)
		switch e.Type {
		case EventTurnStarted, EventText, EventReasoning, EventInfo:
			fmt.Fprintf(&b, " %q", e.Text)
		case EventToolCallStarted:
			fmt.Fprintf(&b, " %s %s", id(e.ID), e.Name)
		case EventToolArgs:
			fmt.Fprintf(&b, " %s %s", id(e.ID), e.Text)
		case EventToolCallReady:
			fmt.Fprintf(&b, " %s %s %s", id(e.ID), e.Name, e.Args)
		case EventPermissionAsked:
			fmt.Fprintf(&b, " %s %s %s (%s)", id(e.ID), e.Name, e.Permission.Action.Summary, e.Permission.Reason)
		case EventPermissionAnswered:
			fmt.Fprintf(&b, " %s %s %s auto=%v %q", id(e.ID), e.Name, e.Answer.Decision, e.Answer.Auto, e.Answer.Note)
		case EventToolRunStarted:
			fmt.Fprintf(&b, " %s %s %s", id(e.ID), e.Name, e.Action.Summary)
		case EventToolOutput:
			fmt.Fprintf(&b, " %s %q", id(e.ID), e.Text)
		case EventToolUpdate:
			fmt.Fprintf(&b, " %s %T", id(e.ID), e.Data)
		case EventToolRunEnded:
			fmt.Fprintf(&b, " %s %s error=%v %q", id(e.ID), e.Name, e.IsError, e.Result)
		case EventRetry:
			fmt.Fprintf(&b, " attempt %d/%d %q", e.Retry.Attempt, e.Retry.MaxAttempts, e.Retry.Reason)
		case EventError:
			fmt.Fprintf(&b, " %v", e.Err)
		case EventTurnEnded:
			u := e.Usage
			fmt.Fprintf(&b, " in=%d out=%d cached=%d context=%d steps=%d tool_calls=%d err=%v",
				u.InputTokens, u.OutputTokens, u.CachedTokens, u.ContextTokens, u.Steps, u.ToolCalls, e.Err)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./agent -run %s -update to create it)", err, t.Name())
	}
	if got != string(want) {
		t.Errorf("events differ from %s (rerun with -update if the change is intended)\n--- got\n%s--- want\n%s", path, got, want)
	}
}

func leakedGoroutines() []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var out []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "agent.leakedGoroutines") || strings.Contains(g, "testing.tRunner") && !strings.Contains(g, "fawn/agent.(*") {
			continue
		}
		if strings.Contains(g, "fawn-ide/fawn/agent.") || strings.Contains(g, "cloudwego/eino") ||
			strings.Contains(g, "net/http.(*persistConn)") {
			out = append(out, g)
		}
	}
	return out
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(deadline); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatal("condition not met before the deadline")
}
