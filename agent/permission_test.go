package agent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// threeKinds asks for a read, an edit and a command in one response.
func threeKinds() []llmtest.Response {
	return []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{
			{ID: "r", Name: "read_file", Arguments: `{"path":"a.txt"}`},
			{ID: "w", Name: "write_file", Arguments: `{"path":"b.txt","content":"B"}`},
			{ID: "x", Name: "bash", Arguments: `{"command":"echo hi"}`},
		}},
		text("done"),
	}
}

type outcome struct {
	asked  bool
	ran    bool
	result string
}

func outcomes(evs []Event) map[string]*outcome {
	m := map[string]*outcome{}
	get := func(id string) *outcome {
		if m[id] == nil {
			m[id] = &outcome{}
		}
		return m[id]
	}
	for _, e := range evs {
		switch e.Type {
		case EventPermissionAsked:
			get(e.ID).asked = true
		case EventToolRunStarted:
			get(e.ID).ran = true
		case EventToolRunEnded:
			get(e.ID).result = e.Result
		}
	}
	return m
}

func TestModes(t *testing.T) {
	for _, c := range []struct {
		mode       Mode
		asked, ran string // call IDs, in r w x order
	}{
		{ModeAsk, "wx", "rwx"},
		{ModeAcceptEdits, "x", "rwx"},
		{ModeYolo, "", "rwx"},
		{ModePlan, "", "r"},
	} {
		t.Run(string(c.mode), func(t *testing.T) {
			h := newHarness(t, llmtest.Script{Responses: threeKinds()}, c.mode)
			h.write("a.txt", "A")
			evs := runChecked(t, h, context.Background(), "go", func(ev Event) {
				if ev.Type == EventPermissionAsked {
					h.s.Approve(ev.ID, Answer{Decision: AllowOnce})
				}
			})
			asked, ran := "", ""
			o := outcomes(evs)
			for _, id := range []string{"r", "w", "x"} {
				if o[id].asked {
					asked += id
				}
				if o[id].ran {
					ran += id
				}
			}
			if asked != c.asked || ran != c.ran {
				t.Errorf("asked %q ran %q, want %q %q:\n%s", asked, ran, c.asked, c.ran, render(evs))
			}
			if c.mode == ModePlan {
				for _, id := range []string{"w", "x"} {
					if !strings.Contains(o[id].result, "plan mode") {
						t.Errorf("%s: %q", id, o[id].result)
					}
				}
				if _, err := os.Stat(filepath.Join(h.root, "b.txt")); err == nil {
					t.Error("plan mode wrote a file")
				}
			}
		})
	}
}

func TestDenyWithNote(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: threeKinds()}, ModeAsk)
	h.write("a.txt", "A")
	evs := runChecked(t, h, context.Background(), "go", func(ev Event) {
		if ev.Type == EventPermissionAsked {
			if ev.Permission.Action.Command == "echo hi" {
				h.s.Approve(ev.ID, Answer{Decision: Deny, Note: "use printf instead"})
			} else {
				h.s.Approve(ev.ID, Answer{Decision: Deny})
			}
			h.s.Approve(ev.ID, Answer{Decision: AllowOnce}) // too late: the first answer won
		}
	})
	o := outcomes(evs)
	if o["x"].ran || o["x"].result != "error: the user denied this call. They said: use printf instead" {
		t.Errorf("x: %+v", o["x"])
	}
	if o["w"].ran || !strings.HasPrefix(o["w"].result, "error: the user denied this call. Do not retry") {
		t.Errorf("w: %+v", o["w"])
	}
	msgs := h.srv.ChatRequests()[1].Messages
	if got := string(msgs[len(msgs)-1].Content); !strings.Contains(got, "use printf instead") {
		t.Errorf("the model was not told the note: %q", got)
	}
}

func TestSessionGrants(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{
			{ID: "x1", Name: "bash", Arguments: `{"command":"echo one"}`},
			{ID: "x2", Name: "bash", Arguments: `{"command":"echo one"}`},
			{ID: "x3", Name: "bash", Arguments: `{"command":"echo two"}`},
			{ID: "w1", Name: "write_file", Arguments: `{"path":"f.txt","content":"1"}`},
			{ID: "w2", Name: "write_file", Arguments: `{"path":"f.txt","content":"2"}`},
			{ID: "w3", Name: "write_file", Arguments: `{"path":"g.txt","content":"3"}`},
		}},
		text("done"),
	}}, ModeAsk)
	var asked []string
	evs := runChecked(t, h, context.Background(), "go", func(ev Event) {
		if ev.Type == EventPermissionAsked {
			asked = append(asked, ev.ID)
			h.s.Approve(ev.ID, Answer{Decision: AllowSession})
		}
	})
	if strings.Join(asked, " ") != "x1 x3 w1 w3" {
		t.Errorf("asked %v, want x1 x3 w1 w3 (same command, same file: granted)", asked)
	}
	var auto int
	for _, e := range ofType(evs, EventPermissionAnswered) {
		if e.Answer.Auto && e.Answer.Decision == AllowSession {
			auto++
		}
	}
	if auto != 2 || len(ofType(evs, EventToolRunStarted)) != 6 {
		t.Errorf("events:\n%s", render(evs))
	}
}

func TestHeadlessDeniesWhatWouldAsk(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: threeKinds()}, ModeAcceptEdits, func(o *Options) { o.Interactive = false })
	h.write("a.txt", "A")
	evs := runChecked(t, h, context.Background(), "go", nil)
	o := outcomes(evs)
	if !o["r"].ran || !o["w"].ran || o["x"].ran || len(ofType(evs, EventPermissionAsked)) != 0 {
		t.Errorf("events:\n%s", render(evs))
	}
	if !strings.Contains(o["x"].result, "running headless in accept-edits mode") {
		t.Errorf("x: %q", o["x"].result)
	}
	a := ofType(evs, EventPermissionAnswered)
	if len(a) != 1 || a[0].Answer.Decision != Deny || !a[0].Answer.Auto || !strings.Contains(a[0].Answer.Note, "--permission-mode") {
		t.Errorf("answers: %+v", a)
	}
}

func TestCancelWhileAsking(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{call("x", "bash", `{"command":"echo hi"}`), text("ok")}}, ModeAsk)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	evs := runChecked(t, h, ctx, "go", func(ev Event) {
		if ev.Type == EventPermissionAsked {
			cancel()
		}
	})
	o := outcomes(evs)
	if o["x"].ran || o["x"].result != "error: cancelled by the user" || !errors.Is(last(evs).Err, ErrCancelled) {
		t.Errorf("events:\n%s", render(evs))
	}
	h.s.Approve("x", Answer{Decision: AllowOnce}) // after the fact: ignored, nothing blocks
}

func TestSetModeAndParse(t *testing.T) {
	h := newHarness(t, llmtest.Script{}, ModeAsk)
	h.s.SetMode(ModePlan)
	h.s.SetMode("sideways") // ignored
	if h.s.Mode() != ModePlan {
		t.Errorf("mode %s", h.s.Mode())
	}
	if _, err := ParseMode("sideways"); err == nil || !strings.Contains(err.Error(), "ask, accept-edits, plan, yolo") {
		t.Errorf("ParseMode: %v", err)
	}
}

// A user's ask rule holds for fawn's own reads too: reading the file it
// names asks (in plan mode as well), other reads do not; headless, the
// read is refused and the refusal names the rule.
func TestAskRuleAsksForABuiltInRead(t *testing.T) {
	script := llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{
			{ID: "s", Name: "read_file", Arguments: `{"path":"secret.txt"}`},
			{ID: "a", Name: "read_file", Arguments: `{"path":"a.txt"}`},
		}},
		text("done"),
	}}
	askSecret := func(o *Options) { o.Config.Permissions.Ask = []string{"Read(secret.txt)"} }
	for _, mode := range []Mode{ModeAsk, ModeAcceptEdits, ModePlan} {
		t.Run(string(mode), func(t *testing.T) {
			h := newHarness(t, script, mode, askSecret)
			h.write("secret.txt", "S")
			h.write("a.txt", "A")
			asked := ""
			evs := runChecked(t, h, context.Background(), "read", func(ev Event) {
				if ev.Type == EventPermissionAsked {
					asked += ev.ID
					h.s.Approve(ev.ID, Answer{Decision: Deny})
				}
			})
			o := outcomes(evs)
			if asked != "s" || o["s"].ran || !o["a"].ran {
				t.Errorf("asked %q, want the secret's read only:\n%s", asked, render(evs))
			}
			if !strings.Contains(o["s"].result, "denied") {
				t.Errorf("secret's read: %q", o["s"].result)
			}
		})
	}
	t.Run("headless", func(t *testing.T) {
		h := newHarness(t, script, ModeAsk, askSecret, func(o *Options) { o.Interactive = false })
		h.write("secret.txt", "S")
		h.write("a.txt", "A")
		o := outcomes(runChecked(t, h, context.Background(), "read", nil))
		if o["s"].ran || !o["a"].ran || !strings.Contains(o["s"].result, "reads need the user's permission") || !strings.Contains(o["s"].result, "headless") {
			t.Errorf("secret: %+v, a: %+v", o["s"], o["a"])
		}
	})
}
