package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

func text(s string) llmtest.Response { return llmtest.Response{Text: s} }

func call(id, name, args string) llmtest.Response {
	return llmtest.Response{ToolCalls: []llmtest.ToolCall{{ID: id, Name: name, Arguments: args}}}
}

// answerText joins the text events of a turn.
func answerText(evs []Event) string {
	var b strings.Builder
	for _, e := range ofType(evs, EventText) {
		b.WriteString(e.Text)
	}
	return b.String()
}

// checkInvariants asserts what every turn's stream must satisfy.
func checkInvariants(t *testing.T, evs []Event) {
	t.Helper()
	if evs[0].Type != EventTurnStarted || last(evs).Type != EventTurnEnded {
		t.Errorf("stream does not open with turn_started and close with turn_ended:\n%s", render(evs))
	}
	started := map[string]int{}
	ended := map[string]int{}
	lastArgs := map[string]int{}
	for i, e := range evs {
		switch e.Type {
		case EventToolCallStarted:
			started[e.ID]++
		case EventToolArgs:
			lastArgs[e.ID] = i
		case EventToolRunStarted:
			if j, ok := lastArgs[e.ID]; ok && j > i {
				t.Errorf("call %s: run started before its last argument fragment", e.ID)
			}
			if started[e.ID] == 0 {
				t.Errorf("call %s: run started but the call never did", e.ID)
			}
		case EventToolRunEnded:
			ended[e.ID]++
		case EventTurnEnded:
			if i != len(evs)-1 {
				t.Errorf("turn_ended at %d of %d", i, len(evs))
			}
		}
		if e.ID == "" && strings.HasPrefix(string(e.Type), "tool_") {
			t.Errorf("event %d (%s) has no call ID", i, e.Type)
		}
	}
	for id, n := range started {
		if ended[id] != n {
			t.Errorf("call %s started %d time(s) and ended %d time(s):\n%s", id, n, ended[id], render(evs))
		}
	}
}

// checkHistory asserts the session's history is one a model accepts.
func checkHistory(t *testing.T, s *Session) {
	t.Helper()
	h := s.History()
	for i := 0; i < len(h); i++ {
		if len(h[i].ToolCalls) == 0 {
			if h[i].Role == "tool" {
				t.Errorf("history[%d]: a tool message answering nothing", i)
			}
			continue
		}
		for j, tc := range h[i].ToolCalls {
			if i+1+j >= len(h) || h[i+1+j].ToolCallID != tc.ID {
				t.Errorf("history[%d]: call %s is not answered in order", i, tc.ID)
			}
		}
		i += len(h[i].ToolCalls)
	}
}

func runChecked(t *testing.T, h *harness, ctx context.Context, prompt string, on func(Event)) []Event {
	t.Helper()
	evs := h.run(ctx, prompt, on)
	checkInvariants(t, evs)
	checkHistory(t, h.s)
	return evs
}

func TestRateLimitThenSuccess(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{Fault: &llmtest.Fault{Kind: llmtest.RateLimit, RetryAfter: 1}},
		text("Done."),
	}}, ModeAsk)
	evs := runChecked(t, h, context.Background(), "hi", nil)
	retries := ofType(evs, EventRetry)
	if len(retries) != 1 {
		t.Fatalf("%d retries, want 1:\n%s", len(retries), render(evs))
	}
	r := retries[0].Retry
	if r.Wait != time.Second || r.Attempt != 1 || r.MaxAttempts != 4 || r.Reason != "rate limited (429)" {
		t.Errorf("retry %+v, want a 1 s wait (Retry-After) after attempt 1 of 4", r)
	}
	if e := last(evs); e.Err != nil || answerText(evs) != "Done." {
		t.Errorf("turn: %v, answer %q", e.Err, answerText(evs))
	}
}

func TestServerErrorFiveTimes(t *testing.T) {
	var rs []llmtest.Response
	for range 5 {
		rs = append(rs, llmtest.Response{Fault: &llmtest.Fault{Kind: llmtest.ServerError, Message: "boom"}})
	}
	h := newHarness(t, llmtest.Script{Responses: append(rs, text("back"))}, ModeAsk)
	evs := runChecked(t, h, context.Background(), "hi", nil)
	if n := len(ofType(evs, EventRetry)); n != 3 {
		t.Errorf("%d retries, want 3 (4 attempts):\n%s", n, render(evs))
	}
	if h.srv.Served() != 4 {
		t.Errorf("%d requests, want 4", h.srv.Served())
	}
	err := last(evs).Err
	if err == nil || !strings.Contains(err.Error(), "failed (500) (4 attempts): boom") {
		t.Errorf("turn error %v", err)
	}
	if len(ofType(evs, EventError)) != 1 {
		t.Errorf("want one error event:\n%s", render(evs))
	}
	// The user's message stays in the history, and the session goes on.
	if hist := h.s.History(); len(hist) != 1 || hist[0].Content != "hi" {
		t.Errorf("history after the failure: %+v", hist)
	}
	evs = runChecked(t, h, context.Background(), "again", nil)
	if last(evs).Err != nil || answerText(evs) != "back" {
		t.Errorf("next turn: %v %q", last(evs).Err, answerText(evs))
	}
}

func TestDropMidStreamIsRetriedOnce(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "This answer will break off somewhere in the middle.", ChunkSize: 4, Fault: &llmtest.Fault{Kind: llmtest.Drop, After: 3}},
		text("The whole answer."),
	}}, ModeAsk)
	evs := runChecked(t, h, context.Background(), "hi", nil)
	retries := ofType(evs, EventRetry)
	if len(retries) != 1 || retries[0].Retry.Reason != "connection dropped mid-answer" {
		t.Fatalf("retries:\n%s", render(evs))
	}
	if !strings.HasPrefix(answerText(evs), "This answer ") || !strings.HasSuffix(answerText(evs), "The whole answer.") {
		t.Errorf("text events %q", answerText(evs))
	}
	hist := h.s.History()
	if len(hist) != 2 || hist[1].Content != "The whole answer." {
		t.Errorf("history keeps only the whole answer: %+v", hist)
	}
}

func TestDropAfterAToolRanEndsTheTurn(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		call("c1", "read_file", `{"path":"a.txt"}`),
		{Text: "The file says a, and then the connection", ChunkSize: 6, Fault: &llmtest.Fault{Kind: llmtest.Drop, After: 4}},
		text("Recovered."),
	}}, ModeAsk)
	h.write("a.txt", "a")
	evs := runChecked(t, h, context.Background(), "read a", nil)
	if len(ofType(evs, EventRetry)) != 0 {
		t.Errorf("retried after a tool ran:\n%s", render(evs))
	}
	err := last(evs).Err
	if err == nil || !strings.Contains(err.Error(), "dropped mid-answer") {
		t.Errorf("turn error %v", err)
	}
	// Nothing lost: the call, its result and the partial answer are kept.
	hist := h.s.History()
	if len(hist) != 4 || hist[2].Content != "a" || hist[3].Content != "The file says a, and the" {
		for i, m := range hist {
			t.Logf("history[%d] %s %q", i, m.Role, m.Content)
		}
		t.Fatal("history after the drop")
	}
	evs = runChecked(t, h, context.Background(), "go on", nil)
	if last(evs).Err != nil {
		t.Errorf("next turn: %v", last(evs).Err)
	}
}

func TestDropWhileCallsStreamEndsThem(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "x1", Name: "read_file", Arguments: `{"path":"a.txt"}`}, {ID: "x2", Name: "read_file", Arguments: `{"path":"b.txt"}`}},
			ArgChunkSize: 3, Fault: &llmtest.Fault{Kind: llmtest.Drop, After: 4}},
		call("y1", "read_file", `{"path":"a.txt"}`),
		text("ok"),
	}}, ModeAsk)
	h.write("a.txt", "a")
	evs := runChecked(t, h, context.Background(), "read", nil)
	var broken int
	for _, e := range ofType(evs, EventToolRunEnded) {
		if strings.Contains(e.Result, "broke off") {
			broken++
		}
	}
	if broken == 0 || len(ofType(evs, EventRetry)) != 1 || last(evs).Err != nil {
		t.Errorf("want the announced calls ended, one retry, a good turn:\n%s", render(evs))
	}
}

func TestStall(t *testing.T) {
	stallCfg := func(o *Options) { o.Config.Models.Chat.StallTimeout = 300 * time.Millisecond }
	t.Run("before any output", func(t *testing.T) {
		h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
			{Text: "never", Fault: &llmtest.Fault{Kind: llmtest.Stall}},
			text("Here."),
		}}, ModeAsk, stallCfg)
		evs := runChecked(t, h, context.Background(), "hi", nil)
		r := ofType(evs, EventRetry)
		if len(r) != 1 || r[0].Retry.Reason != "no answer from the server" || answerText(evs) != "Here." {
			t.Errorf("events:\n%s", render(evs))
		}
	})
	t.Run("mid-answer, every time", func(t *testing.T) {
		stalled := llmtest.Response{Text: "one two three four", ChunkSize: 4, Fault: &llmtest.Fault{Kind: llmtest.Stall, After: 2}}
		h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{stalled, stalled}}, ModeAsk, stallCfg)
		evs := runChecked(t, h, context.Background(), "hi", nil)
		err := last(evs).Err
		if len(ofType(evs, EventRetry)) != 1 || err == nil || !strings.Contains(err.Error(), "stall_timeout") {
			t.Errorf("want one retry then a stall error; got %v:\n%s", err, render(evs))
		}
		if hist := h.s.History(); len(hist) != 2 || hist[1].Content != "one two " {
			t.Errorf("history %+v", hist)
		}
	})
}

func TestMalformedChunkAndNoDone(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "abcdefghijkl", ChunkSize: 3, Fault: &llmtest.Fault{Kind: llmtest.Malformed, After: 2}},
		{Text: "Fine.", Fault: &llmtest.Fault{Kind: llmtest.NoDone}},
	}}, ModeAsk)
	evs := runChecked(t, h, context.Background(), "hi", nil)
	r := ofType(evs, EventRetry)
	if len(r) != 1 || r[0].Retry.Reason != "the server sent a malformed chunk" || last(evs).Err != nil {
		t.Errorf("events:\n%s", render(evs))
	}
	if hist := h.s.History(); hist[len(hist)-1].Content != "Fine." {
		t.Errorf("a stream without [DONE] was not taken whole: %+v", hist)
	}
}

func TestBadArgumentsAndUnknownTool(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{
			{ID: "bad", Name: "read_file", Arguments: `{"path": "a.txt"`},
			{ID: "arr", Name: "read_file", Arguments: `["a.txt"]`},
			{ID: "missing", Name: "read_file", Arguments: `{}`},
			{ID: "ghost", Name: "delete_everything", Arguments: `{"really":true}`},
			{ID: "good", Name: "read_file", Arguments: `{"path":"a.txt"}`},
		}},
		text("Some calls failed."),
	}}, ModeAsk)
	h.write("a.txt", "content of a")
	evs := runChecked(t, h, context.Background(), "go", nil)
	results := map[string]Event{}
	for _, e := range ofType(evs, EventToolRunEnded) {
		results[e.ID] = e
	}
	for id, want := range map[string]string{
		"bad":     "error: the arguments are not valid JSON",
		"arr":     "want an object, got an array",
		"missing": `error: read_file: missing parameter "path"`,
		"ghost":   `error: there is no tool named "delete_everything". The tools are: read_file, write_file, bash.`,
	} {
		if r := results[id]; !r.IsError || !strings.Contains(r.Result, want) {
			t.Errorf("%s: %q (error=%v), want it to contain %q", id, r.Result, r.IsError, want)
		}
	}
	if r := results["good"]; r.IsError || r.Result != "content of a" {
		t.Errorf("good call: %+v", r)
	}
	if n := len(ofType(evs, EventToolRunStarted)); n != 1 {
		t.Errorf("%d runs started, want only the good one", n)
	}
	// The model saw every result; the bad arguments went back as {}.
	msgs := h.srv.ChatRequests()[1].Messages
	if msgs[2].ToolCalls[0].Function.Arguments != "{}" || !strings.Contains(string(msgs[3].Content), "not valid JSON") {
		t.Errorf("second request: %+v", msgs[2:])
	}
	if last(evs).Err != nil {
		t.Errorf("turn: %v", last(evs).Err)
	}
}

func TestHTTPErrorsSayWhatToDo(t *testing.T) {
	for _, c := range []struct {
		fault llmtest.Fault
		want  string
	}{
		{llmtest.Fault{Kind: llmtest.ContextLength}, "no longer fits the model's context window"},
		{llmtest.Fault{Kind: llmtest.ServerError, Status: 401, Message: "Incorrect API key provided"}, "Check models.chat_model.api_key"},
		{llmtest.Fault{Kind: llmtest.ServerError, Status: 404, Message: "model not found"}, "an OpenAI-compatible URL ends in /v1"},
		{llmtest.Fault{Kind: llmtest.ServerError, Status: 400, Message: "temperature out of range"}, "rejected the request (400): temperature out of range"},
	} {
		t.Run(fmt.Sprint(c.fault.Status, c.fault.Kind), func(t *testing.T) {
			h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{{Fault: &c.fault}, text("unused")}}, ModeAsk)
			evs := runChecked(t, h, context.Background(), "hi", nil)
			err := last(evs).Err
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want it to say %q", err, c.want)
			}
			if h.srv.Served() != 1 || len(ofType(evs, EventRetry)) != 0 {
				t.Errorf("retried a request that cannot succeed")
			}
		})
	}
}

func TestConnectionRefused(t *testing.T) {
	h := newHarness(t, llmtest.Script{}, ModeAsk, func(o *Options) {
		o.Config.Models.Chat.BaseURL = "http://127.0.0.1:1/v1" // nothing listens on port 1
	})
	evs := runChecked(t, h, context.Background(), "hi", nil)
	err := last(evs).Err
	if len(ofType(evs, EventRetry)) != 3 || err == nil || !strings.Contains(err.Error(), "cannot reach the model server at http://127.0.0.1:1/v1") {
		t.Errorf("error %v:\n%s", err, render(evs))
	}
}

func TestCancelDuringStreaming(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: strings.Repeat("slowly ", 200), ChunkSize: 7, Delay: llmtest.Duration(20 * time.Millisecond),
			ToolCalls: []llmtest.ToolCall{{Name: "read_file", Arguments: `{"path":"x"}`}}},
		text("Next turn works."),
	}}, ModeAsk)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	texts := 0
	evs := runChecked(t, h, ctx, "talk", func(ev Event) {
		if ev.Type == EventText {
			if texts++; texts == 3 {
				cancel()
			}
		}
	})
	if !errors.Is(last(evs).Err, ErrCancelled) || len(ofType(evs, EventError)) != 0 {
		t.Errorf("turn ended with %v:\n%s", last(evs).Err, render(evs))
	}
	hist := h.s.History()
	if len(hist) != 2 || !strings.HasPrefix(hist[1].Content, "slowly") || len(hist[1].ToolCalls) != 0 {
		t.Errorf("history after cancel: %+v", hist)
	}
	evs = runChecked(t, h, context.Background(), "again", nil)
	if last(evs).Err != nil || answerText(evs) != "Next turn works." {
		t.Errorf("next turn: %v", last(evs).Err)
	}
}

// TestCancelDuringLongCommand cancels a 30 s command: the turn ends long
// before the command would, its process group is gone, the history answers
// the call with "cancelled by the user", and the next turn works.
func TestCancelDuringLongCommand(t *testing.T) {
	marker := fmt.Sprintf("30.%d", time.Now().UnixNano()%1_000_000)
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "Waiting.", ToolCalls: []llmtest.ToolCall{
			{ID: "long", Name: "bash", Arguments: `{"command":"echo started; sleep ` + marker + `; echo done"}`},
			{ID: "after", Name: "read_file", Arguments: `{"path":"a.txt"}`},
		}},
		text("Next turn works."),
	}}, ModeYolo)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	evs := runChecked(t, h, ctx, "wait", func(ev Event) {
		if ev.Type == EventToolOutput && strings.Contains(ev.Text, "started") {
			cancel()
		}
	})
	if !errors.Is(last(evs).Err, ErrCancelled) {
		t.Fatalf("turn ended with %v", last(evs).Err)
	}
	for _, e := range ofType(evs, EventToolRunEnded) {
		if !strings.HasPrefix(e.Result, "error: cancelled by the user") {
			t.Errorf("%s ended with %q", e.ID, e.Result)
		}
	}
	waitNoProcess(t, "sleep "+marker)
	hist := h.s.History()
	if len(hist) != 4 || !strings.HasPrefix(hist[2].Content, "error: cancelled by the user") || hist[3].Content != "error: cancelled by the user" {
		t.Errorf("history: %+v", hist)
	}
	evs = runChecked(t, h, context.Background(), "again", nil)
	if last(evs).Err != nil || answerText(evs) != "Next turn works." {
		t.Errorf("next turn: %v", last(evs).Err)
	}
}

// waitNoProcess waits until no process's command line contains s.
func waitNoProcess(t *testing.T, s string) {
	t.Helper()
	for end := time.Now().Add(deadline); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if !processRunning(s) {
			return
		}
	}
	t.Errorf("a process running %q is still alive", s)
}

func processRunning(s string) bool {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err == nil && strings.Contains(strings.ReplaceAll(string(b), "\x00", " "), s) {
			return true
		}
	}
	return false
}

func TestStepLimit(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		call("s1", "read_file", `{"path":"a.txt"}`),
		call("s2", "read_file", `{"path":"a.txt"}`),
		call("s3", "read_file", `{"path":"a.txt"}`),
		text("Continuing."),
	}}, ModeAsk, func(o *Options) { o.Config.Agent.MaxSteps = 2 })
	h.write("a.txt", "a")
	evs := runChecked(t, h, context.Background(), "loop", nil)
	err := last(evs).Err
	if err == nil || !strings.Contains(err.Error(), "stopped after 2 model steps (agent.max_steps)") {
		t.Errorf("turn error %v", err)
	}
	if h.srv.Served() != 2 {
		t.Errorf("%d requests, want 2", h.srv.Served())
	}
	ended := ofType(evs, EventToolRunEnded)
	if len(ended) != 2 || !strings.Contains(ended[1].Result, "not run") {
		t.Errorf("calls:\n%s", render(evs))
	}
	evs = runChecked(t, h, context.Background(), "continue", nil)
	if len(ofType(evs, EventToolRunStarted)) != 1 {
		t.Errorf("next turn:\n%s", render(evs))
	}
}

// Finding 7: a stream that ends without a finish reason (a clean close
// mid-answer, an empty 200, a body that is not SSE, a JSON body to a
// streaming request) is never taken as a complete answer, and a call whose
// arguments were cut is never run.
func TestStreamsWithoutAFinishReason(t *testing.T) {
	cut := func(after int) *llmtest.Fault { return &llmtest.Fault{Kind: llmtest.Cut, After: after} }
	t.Run("cut once, retried", func(t *testing.T) {
		h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
			{Text: "This answer stops somewhere in the middle.", ChunkSize: 4, Fault: cut(3)},
			text("The whole answer."),
		}}, ModeAsk)
		evs := runChecked(t, h, context.Background(), "hi", nil)
		r := ofType(evs, EventRetry)
		if len(r) != 1 || !strings.Contains(r[0].Retry.Reason, "cut off") || last(evs).Err != nil {
			t.Fatalf("events:\n%s", render(evs))
		}
		if hist := h.s.History(); len(hist) != 2 || hist[1].Content != "The whole answer." {
			t.Errorf("history %+v", hist)
		}
	})
	t.Run("cut twice, reported", func(t *testing.T) {
		c := llmtest.Response{Text: "one two three four", ChunkSize: 4, Fault: cut(2)}
		h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{c, c}}, ModeAsk)
		evs := runChecked(t, h, context.Background(), "hi", nil)
		if err := last(evs).Err; err == nil || !strings.Contains(err.Error(), "cut off") {
			t.Fatalf("turn error %v:\n%s", err, render(evs))
		}
		if hist := h.s.History(); len(hist) != 2 || hist[1].Content != "one two " {
			t.Errorf("the part that arrived is not kept: %+v", hist)
		}
	})
	t.Run("cut in a call's arguments", func(t *testing.T) {
		c := llmtest.Response{ToolCalls: []llmtest.ToolCall{{ID: "w1", Name: "write_file", Arguments: `{"path":"b.txt","content":"BBBBBBBBBBBB"}`}},
			ArgChunkSize: 5, Fault: cut(4)}
		h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{c, c}}, ModeYolo)
		evs := runChecked(t, h, context.Background(), "write", nil)
		if n := len(ofType(evs, EventToolRunStarted)); n != 0 {
			t.Errorf("a cut call ran:\n%s", render(evs))
		}
		if _, err := os.Stat(filepath.Join(h.root, "b.txt")); err == nil {
			t.Error("b.txt was written from cut arguments")
		}
		if err := last(evs).Err; err == nil || !strings.Contains(err.Error(), "no tool call in it was run") {
			t.Errorf("turn error %v", err)
		}
	})
	t.Run("after a tool ran", func(t *testing.T) {
		h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
			call("c1", "read_file", `{"path":"a.txt"}`),
			{Text: "The file says a, and", ChunkSize: 4, Fault: cut(3)},
			text("unused"),
		}}, ModeAsk)
		h.write("a.txt", "a")
		evs := runChecked(t, h, context.Background(), "read a", nil)
		if len(ofType(evs, EventRetry)) != 0 {
			t.Errorf("retried after a tool ran:\n%s", render(evs))
		}
		if err := last(evs).Err; err == nil || !strings.Contains(err.Error(), "cut off") {
			t.Errorf("turn error %v", err)
		}
	})
	for _, kind := range []llmtest.FaultKind{llmtest.Empty, llmtest.NotSSE, llmtest.JSONBody} {
		t.Run(string(kind), func(t *testing.T) {
			bad := llmtest.Response{Text: "Whole text, but not as a stream.", Fault: &llmtest.Fault{Kind: kind}}
			h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{bad, bad, bad, bad, bad, bad}}, ModeAsk,
				func(o *Options) { o.RetryBaseDelay = time.Millisecond })
			evs := runChecked(t, h, context.Background(), "hi", nil)
			err := last(evs).Err
			if err == nil {
				t.Fatalf("a %s body was taken as an answer:\n%s", kind, render(evs))
			}
			if !strings.Contains(err.Error(), "sent no answer") {
				t.Errorf("error %v", err)
			}
		})
	}
}

// models.retry_delay is the first wait before a failed request is sent
// again (the option, when a caller sets one, wins); it doubles with each
// attempt, with ±20% jitter.
func TestRetryDelayFromConfig(t *testing.T) {
	fail := llmtest.Response{Fault: &llmtest.Fault{Kind: llmtest.ServerError, Status: 503}}
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{fail, fail, text("Back.")}}, ModeAsk,
		func(o *Options) {
			o.RetryBaseDelay = 0
			o.Config.Models.RetryDelay = 40 * time.Millisecond
		})
	evs := runChecked(t, h, context.Background(), "hi", nil)
	retries := ofType(evs, EventRetry)
	if len(retries) != 2 || answerText(evs) != "Back." {
		t.Fatalf("want two retries, then the answer:\n%s", render(evs))
	}
	for i, e := range retries {
		base := 40 * time.Millisecond << i
		if w := e.Retry.Wait; w < base*8/10 || w > base*12/10 {
			t.Errorf("retry %d waited %s, want %s ±20%%", i+1, w, base)
		}
	}
}
