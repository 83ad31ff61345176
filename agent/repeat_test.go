package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// A model that repeats the same failing call: from the third identical
// call on, its result says so; the fifth is not run and the turn stops
// with a message for the user. Spacing and key order do not hide a repeat.
func TestALoopingModelIsStopped(t *testing.T) {
	var rs []llmtest.Response
	for i, args := range []string{`{"command":"false"}`, `{ "command": "false" }`, `{"command":"false"}`, `{"command":"false"}`, `{"command":"false"}`, `{"command":"false"}`} {
		rs = append(rs, llmtest.Response{ToolCalls: []llmtest.ToolCall{{ID: "r" + string(rune('1'+i)), Name: "bash", Arguments: args}}})
	}
	rs = append(rs, llmtest.Response{Text: "never"})
	h := newHarness(t, llmtest.Script{Responses: rs}, ModeYolo, func(o *Options) {
		o.Config.Agent.RepeatWarn, o.Config.Agent.RepeatStop = 3, 5
	})
	evs := h.run(context.Background(), "loop", nil)
	res := map[string]string{}
	for _, ev := range ofType(evs, EventToolRunEnded) {
		res[ev.ID] = ev.Result
	}
	if strings.Contains(res["r2"], "[fawn: this is call number") {
		t.Errorf("the second call was noted: %q", res["r2"])
	}
	if !strings.Contains(res["r3"], "[fawn: this is call number 3 of bash") || !strings.Contains(res["r4"], "call number 4") {
		t.Errorf("no note on the third and fourth: %q / %q", res["r3"], res["r4"])
	}
	if !strings.Contains(res["r5"], "not run: this is call number 5") {
		t.Errorf("the fifth ran: %q", res["r5"])
	}
	end := last(evs)
	if end.Err == nil || !strings.Contains(end.Err.Error(), "same bash call 5 times") {
		t.Errorf("the turn did not stop: %v", end.Err)
	}
	if n := len(h.srv.ChatRequests()); n != 5 {
		t.Errorf("%d model requests, want 5", n)
	}
	checkInvariants(t, evs)
	// The next turn starts counting afresh.
	h2 := newHarness(t, llmtest.Script{Responses: []llmtest.Response{rs[0], {Text: "ok"}}}, ModeYolo, func(o *Options) {
		o.Config.Agent.RepeatWarn, o.Config.Agent.RepeatStop = 1, 0
	})
	evs = h2.run(context.Background(), "once", nil)
	if r := ofType(evs, EventToolRunEnded); len(r) != 1 || !strings.Contains(r[0].Result, "call number 1") || last(evs).Err != nil {
		t.Errorf("repeat_warn 1, repeat_stop 0: %s", render(evs))
	}
}
