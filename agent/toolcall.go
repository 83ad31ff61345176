package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/internal/words"
	"github.com/fawn-ide/fawn/tools"
)

const cancelledResult = "error: cancelled by the user"

// toolMiddleware is the outermost middleware of the tools node. Every known
// tool call goes through it: it checks the arguments, asks permission, sends
// the call's events, and turns every failure into a result the model can
// read, because an error returned to eino would abort the whole run.
func (s *Session) toolMiddleware(next compose.InvokableToolEndpoint) compose.InvokableToolEndpoint {
	return func(ctx context.Context, in *compose.ToolInput) (*compose.ToolOutput, error) {
		return &compose.ToolOutput{Result: s.runTool(ctx, turnOf(ctx), in, next)}, nil
	}
}

func (s *Session) runTool(ctx context.Context, t *turn, in *compose.ToolInput, next compose.InvokableToolEndpoint) string {
	id, name := in.CallID, in.Name
	var began time.Time
	var repeatNote string
	end := func(result string, isErr bool) string {
		result += repeatNote
		var d time.Duration
		if !began.IsZero() {
			d = time.Since(began)
		}
		t.callEnded()
		t.emit(Event{Type: EventToolRunEnded, ID: id, Name: name, Result: result, IsError: isErr, Duration: d})
		return s.toolDone(t, id, name, result)
	}
	if ctx.Err() != nil {
		return end(cancelledResult, true)
	}
	tl := s.toolByName[name]
	args := in.Arguments
	if strings.TrimSpace(args) == "" {
		args = "{}"
	}
	if err := checkJSON(args); err != nil {
		return end(fmt.Sprintf("error: the arguments are not valid JSON (%v): %s\nCall %s again with a JSON object that matches its parameters.", err, words.Clip(args, 400), name), true)
	}
	if n := t.repeated(name, args); s.cfg.Agent.RepeatStop > 0 && n >= s.cfg.Agent.RepeatStop {
		t.mu.Lock()
		t.stuck = fmt.Sprintf("the agent made the same %s call %d times in this turn, so fawn stopped it; say how to go on differently", name, n)
		t.mu.Unlock()
		return end(fmt.Sprintf("error: not run: this is call number %d of %s with these same arguments in this turn. fawn stopped the turn; the user will tell you how to go on.", n, name), true)
	} else if s.cfg.Agent.RepeatWarn > 0 && n >= s.cfg.Agent.RepeatWarn {
		repeatNote = fmt.Sprintf("\n[fawn: this is call number %d of %s with these same arguments in this turn. Repeating it will not change the result: try something different, or ask the user.]", n, name)
	}
	args, approved, refused := s.preToolUse(ctx, t, id, name, args)
	if refused != "" {
		return end(refused, true)
	}
	act, err := tl.Plan(ctx, args)
	if err != nil {
		return end("error: "+strings.TrimPrefix(err.Error(), "error: "), true)
	}
	if s.viewOnly && name == "text_editor" && act.Kind != tools.KindRead {
		return end("error: not run: this agent may only view files (its definition gives it Read, not Edit or Write). Report the change you would make instead.", true)
	}
	v := s.denyOnly
	if !approved {
		v = func(t *turn, id, name string, act tools.Action) verdict { return s.permit(ctx, t, id, name, act) }
	}
	if v := v(t, id, name, act); !v.allow {
		return end(v.result, true)
	}
	if ctx.Err() != nil {
		return end(cancelledResult, true)
	}

	t.mu.Lock()
	t.toolRan = true
	t.mu.Unlock()
	began = time.Now()
	t.emit(Event{Type: EventToolRunStarted, ID: id, Name: name, Action: &act})
	var done atomic.Bool
	tctx := tools.WithEmitter(ctx, func(ev any) {
		if done.Load() {
			return // the call has ended; late output belongs to nothing
		}
		switch p := ev.(type) {
		case tools.Output:
			t.emit(Event{Type: EventToolOutput, ID: id, Text: p.Text, Data: p})
		case *tools.Output:
			t.emit(Event{Type: EventToolOutput, ID: id, Text: p.Text, Data: *p})
		case tools.Images:
			t.keepImages(id, name, p.Images)
			t.emit(Event{Type: EventToolUpdate, ID: id, Name: name, Data: ev})
		default:
			t.emit(Event{Type: EventToolUpdate, ID: id, Name: name, Data: ev})
		}
	})
	out, abandoned, err := callWithGrace(ctx, tctx, next, &compose.ToolInput{Name: name, Arguments: args, CallID: id, CallOptions: in.CallOptions})
	done.Store(true)
	switch {
	case abandoned:
		return end(cancelledResult+fmt.Sprintf(" (the tool did not stop within %s of the cancel; fawn moved on without it)", toolGrace), true)
	case ctx.Err() != nil:
		res := cancelledResult
		if out != nil && strings.TrimSpace(out.Result) != "" {
			res += "\n" + out.Result
		}
		return end(res, true)
	case err != nil:
		return end("error: "+strings.TrimPrefix(err.Error(), "error: "), true)
	}
	return end(s.postToolUse(ctx, t, id, name, args, out.Result), strings.HasPrefix(out.Result, "error:"))
}

// toolGrace is how long a cancelled tool may take to stop before the turn
// ends without it. fawn's tools stop within milliseconds; this bounds one
// that ignores its context, so Esc never freezes the session.
const toolGrace = 3 * time.Second

// callWithGrace runs the tool and returns its result, or, once ctx is
// done and the tool has not returned within toolGrace, gives up on it
// (abandoned): the tool's goroutine finishes on its own, unobserved.
func callWithGrace(ctx, tctx context.Context, next compose.InvokableToolEndpoint, in *compose.ToolInput) (out *compose.ToolOutput, abandoned bool, err error) {
	type result struct {
		out *compose.ToolOutput
		err error
	}
	ch := make(chan result, 1)
	go func() {
		out, err := safeCall(tctx, next, in)
		ch <- result{out, err}
	}()
	select {
	case r := <-ch:
		return r.out, false, r.err
	case <-ctx.Done():
	}
	t := time.NewTimer(toolGrace)
	defer t.Stop()
	select {
	case r := <-ch:
		return r.out, false, r.err
	case <-t.C:
		return nil, true, nil
	}
}

// safeCall runs a tool, turning a panic into an error: one broken tool must
// not take the session down.
func safeCall(ctx context.Context, next compose.InvokableToolEndpoint, in *compose.ToolInput) (out *compose.ToolOutput, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("the tool crashed: %v", r)
		}
	}()
	return next(ctx, in)
}

func checkJSON(args string) error {
	var v any
	if err := json.Unmarshal([]byte(args), &v); err != nil {
		return err
	}
	switch v.(type) {
	case map[string]any:
		return nil
	case []any:
		return fmt.Errorf("want an object, got an array")
	case string:
		return fmt.Errorf("want an object, got a string")
	case nil:
		return fmt.Errorf("want an object, got null")
	default:
		return fmt.Errorf("want an object, got %v", v)
	}
}

// unknownTool answers a call to a tool that does not exist. eino runs no
// middleware on this path, so its events are sent here.
func (s *Session) unknownTool(ctx context.Context, name, _ string) (string, error) {
	t := turnOf(ctx)
	id := compose.GetToolCallID(ctx)
	res := fmt.Sprintf("error: there is no tool named %q. The tools are: %s.", name, strings.Join(s.ToolNames(), ", "))
	if ctx.Err() != nil {
		res = cancelledResult
	}
	t.callEnded()
	t.emit(Event{Type: EventToolRunEnded, ID: id, Name: name, Result: res, IsError: true})
	return s.toolDone(t, id, name, res), nil
}

// todoReminder is appended to the last result of a batch while to-dos are
// open, so the list stays current over long turns.
func (s *Session) todoReminder(batch []schema.ToolCall) string {
	if s.env == nil || s.env.Todos == nil || s.env.Todos.Open() == 0 {
		return ""
	}
	for _, tc := range batch {
		if tc.Function.Name == "todo_write" {
			return "" // the call's own result shows the list
		}
	}
	var open []string
	for _, it := range s.env.Todos.Items() {
		if it.Status == "pending" || it.Status == "in_progress" {
			open = append(open, fmt.Sprintf("[%s] %s", it.Status, it.Title))
		}
	}
	return fmt.Sprintf("\n\n(fawn reminder: %d open to-do(s): %s. Keep the list current with todo_write: mark items completed as soon as they are done.)",
		len(open), words.Clip(strings.Join(open, "; "), 600))
}
