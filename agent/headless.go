package agent

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/fawn-ide/fawn/internal/words"
	"github.com/fawn-ide/fawn/tools"
)

// Exit codes of RunHeadless (the same as fawn's).
const (
	ExitOK          = 0
	ExitFailure     = 1
	ExitUsage       = 2
	ExitInterrupted = 130
)

// Output formats of RunHeadless (--output-format).
const (
	FormatText       = "text"
	FormatJSON       = "json"
	FormatStreamJSON = "stream-json"
)

// Headless is what RunHeadless runs a turn of: fawn's own *Session, or an
// agent fawn hosts.
type Headless interface {
	RunInput(ctx context.Context, in Input) <-chan Event
	// ID is the session's, for a script to go on with ("" for none).
	ID() string
	// SaveError is why the session could not be kept, or nil.
	SaveError() error
	// What stream-json's init line says runs.
	ModelName() string
	ToolNames() []string
	Mode() Mode
}

// headlessDir is the project s works in: fawn's own session's, or what a
// hosted agent says (Root).
func headlessDir(s Headless) string {
	switch x := s.(type) {
	case *Session:
		return x.env.Root
	case interface{ Root() string }:
		return x.Root()
	}
	return ""
}

// RunHeadless runs one turn of s to its end without a screen and prints it
// in format: "text" (the final answer on stdout), "json" (one object at the
// end) or "stream-json" (one object per line as events happen). Notices and
// errors go to stderr; in text mode nothing but the answer goes to stdout.
// It returns the exit code: 0 ok, 1 the turn failed or the session could
// not be saved, 2 a bad format, 130 interrupted (ctx cancelled).
func RunHeadless(ctx context.Context, s Headless, prompt, format string, stdout, stderr io.Writer) int {
	return RunHeadlessOnBranch(ctx, s, Input{Text: prompt}, format, "", stdout, stderr)
}

// RunHeadlessOnBranch is RunHeadless of a whole message (what @-mentions
// attached with it), for a run in a task's worktree: the JSON result and
// stream-json's init line name its branch ("branch", "" for none).
func RunHeadlessOnBranch(ctx context.Context, s Headless, in Input, format, branch string, stdout, stderr io.Writer) int {
	if format == "" {
		format = FormatText
	}
	switch format {
	case FormatText, FormatJSON, FormatStreamJSON:
	default:
		fmt.Fprintf(stderr, "fawn: --output-format %q: want text, json or stream-json\n", format)
		return ExitUsage
	}
	// stdout is buffered and flushed whenever the events that have arrived
	// are written (and before anything goes to stderr): lines that come
	// together leave in one write, and a line never waits for the next
	// event.
	out := bufio.NewWriterSize(stdout, 64<<10)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	line := func(v any) {
		_ = enc.Encode(v) // a closed stdout ends nothing early: the turn still completes and is kept
	}
	stderr = flushFirst{out, stderr}

	if format == FormatStreamJSON {
		// The first line says what runs, so a script can follow the
		// session from there.
		line(initLine{Type: "init", SessionID: s.ID(), Model: s.ModelName(), Tools: s.ToolNames(), Cwd: headlessDir(s), PermissionMode: string(s.Mode()), Branch: branch})
	}
	var answer strings.Builder
	var end *Event
	var plan string              // the plan of an exit_plan call in plan mode
	names := map[string]string{} // call ID → tool name
	// A hosted agent may send a call's arguments again as they change:
	// its tool_call line is the first.
	called := map[string]bool{}
	events := s.RunInput(ctx, in)
	for ev, ok := nextEvent(events, out); ok; ev, ok = nextEvent(events, out) {
		switch ev.Type {
		case EventText:
			answer.WriteString(ev.Text)
		case EventTurnStarted:
			answer.Reset() // a run under a goal has several turns: the answer is the last one's
		case EventToolCallStarted:
			// Text before a call is narration; the answer is what follows the last call.
			answer.Reset()
			names[ev.ID] = ev.Name
		case EventToolCallReady:
			// In plan mode nobody can approve a plan here: the plan is
			// the run's answer (exit_plan tells the model to stop).
			if ev.Name == tools.ExitPlanName && s.Mode() == ModePlan {
				if p, err := tools.ParsePlan(ev.Args); err == nil {
					plan = p
				}
			}
		case EventRetry:
			answer.Reset() // the answer starts over
		case EventTurnEnded:
			e := ev
			end = &e
		}
		if format == FormatStreamJSON {
			if ev.Type == EventToolCallReady {
				if called[ev.ID] {
					continue
				}
				called[ev.ID] = true
			}
			if obj := streamObject(ev, names, s.ID()); obj != nil {
				line(obj)
			}
			if ev.Type == EventInfo || ev.Type == EventGoal {
				fmt.Fprintln(stderr, "fawn:", ev.Text)
			}
			continue
		}
		notice(stderr, ev)
	}
	if end == nil { // cannot happen: Run always ends with EventTurnEnded
		fmt.Fprintln(stderr, "fawn: the turn ended without a result")
		return ExitFailure
	}

	code := ExitOK
	switch {
	case errors.Is(end.Err, ErrCancelled) || ctx.Err() != nil:
		code = ExitInterrupted
	case end.Err != nil:
		code = ExitFailure
	}
	// A session that could not be saved cannot be resumed: the run did not
	// do all it was asked, and a script must not keep its ID.
	sessionID := s.ID()
	if err := s.SaveError(); err != nil {
		fmt.Fprintf(stderr, "fawn: the session could not be saved, so it cannot be resumed: %v (free space there, or set FAWN_HOME to a directory with room)\n", err)
		sessionID = ""
		if code == ExitOK {
			code = ExitFailure
		}
	}
	result := strings.TrimSpace(answer.String())
	if plan != "" {
		result = strings.TrimSpace(plan + "\n\n" + result)
	}
	failure := fmt.Sprint(end.Err)
	var limit *StepLimitError
	subtype := ""
	if errors.As(end.Err, &limit) {
		subtype = "error_max_turns"
		failure = fmt.Sprintf("stopped: the agent used its %d turns (model round-trips; --max-turns, else agent.max_steps) and had not finished; raise --max-turns", limit.Steps)
		if sessionID != "" {
			failure += ", or go on with fawn --resume " + sessionID + " -p continue"
		}
	}
	switch format {
	case FormatText:
		if result != "" {
			fmt.Fprintln(out, result)
		}
		if end.Err != nil {
			fmt.Fprintln(stderr, "fawn:", failure)
		}
	case FormatJSON:
		if result == "" && end.Err != nil {
			result = end.Err.Error()
		}
		u := end.Usage
		if u == nil {
			u = &Usage{}
		}
		line(struct {
			Result     string    `json:"result"`
			SessionID  string    `json:"session_id"`
			Usage      usageJSON `json:"usage"`
			NumTurns   int       `json:"num_turns"`
			ToolCalls  int       `json:"tool_calls"`
			IsError    bool      `json:"is_error"`
			Subtype    string    `json:"subtype,omitempty"`
			DurationMS int64     `json:"duration_ms"`
			CutOff     string    `json:"cut_off,omitempty"`
			CostUSD    *float64  `json:"cost_usd,omitempty"`
			Branch     string    `json:"branch,omitempty"`
		}{result, sessionID, toUsageJSON(u), u.Steps, u.ToolCalls, end.Err != nil, subtype, end.Duration.Milliseconds(), end.CutOff, costJSON(u.Cost), branch})
		if end.Err != nil {
			fmt.Fprintln(stderr, "fawn:", failure)
		}
	case FormatStreamJSON:
		if subtype != "" {
			fmt.Fprintln(stderr, "fawn:", failure)
		}
	}
	return code
}

// nextEvent receives the next event; when nothing more has arrived, what
// is written goes out first, before the wait.
func nextEvent(events <-chan Event, out *bufio.Writer) (Event, bool) {
	if len(events) == 0 {
		_ = out.Flush()
	}
	ev, ok := <-events
	return ev, ok
}

// flushFirst is stderr, written after what is buffered for stdout, so that
// the two keep their order on a terminal.
type flushFirst struct {
	out    *bufio.Writer
	stderr io.Writer
}

func (f flushFirst) Write(p []byte) (int, error) {
	_ = f.out.Flush()
	return f.stderr.Write(p)
}

// notice prints to stderr what a person running fawn -p should know while
// it runs: retries, refusals, notices and errors.
func notice(w io.Writer, ev Event) {
	switch ev.Type {
	case EventRetry:
		if ev.Retry.Failover != "" {
			fmt.Fprintf(w, "fawn: %s\n", ev.Retry.Line(""))
			break
		}
		fmt.Fprintf(w, "fawn: %s, retrying in %s (attempt %d of %d)\n", ev.Retry.Reason, ev.Retry.Wait.Round(100*time.Millisecond), ev.Retry.Attempt+1, ev.Retry.MaxAttempts)
	case EventPermissionAnswered:
		if ev.Answer.Decision == Deny {
			fmt.Fprintf(w, "fawn: denied %s (%s): %s\n", ev.Name, ev.ID, ev.Answer.Note)
		}
	case EventInfo, EventGoal:
		fmt.Fprintln(w, "fawn:", ev.Text)
	case EventHook:
		fmt.Fprintln(w, "fawn:", hookLine(ev))
	case EventCompacted:
		if ev.Err == nil {
			c := ev.Compact
			fmt.Fprintf(w, "fawn: compacted the conversation (%s): about %d → %d tokens\n", c.Reason, c.TokensBefore, c.TokensAfter)
		}
	}
}

// costJSON is the cost for json output: nil (the key left out) when it is
// not known, never a $0 that is not true.
func costJSON(c Cost) *float64 {
	if !c.Known() {
		return nil
	}
	usd := c.USD
	return &usd
}

type usageJSON struct {
	InputTokens     int     `json:"input_tokens"`
	OutputTokens    int     `json:"output_tokens"`
	CachedTokens    int     `json:"cached_tokens"`
	CacheWrite      int     `json:"cache_write_tokens"`
	ContextTokens   int     `json:"context_tokens"`
	TokensPerSecond float64 `json:"tokens_per_second"`
}

func toUsageJSON(u *Usage) usageJSON {
	return usageJSON{u.InputTokens, u.OutputTokens, u.CachedTokens, u.CacheWriteTokens, u.ContextTokens, float64(int(u.TokensPerSecond*10)) / 10}
}

// The stream-json lines; "type" comes first so a reader can switch on it.
type (
	initLine struct {
		Type           string   `json:"type"`
		SessionID      string   `json:"session_id"`
		Model          string   `json:"model"`
		Tools          []string `json:"tools"`
		Cwd            string   `json:"cwd"`
		PermissionMode string   `json:"permission_mode"`
		Branch         string   `json:"branch,omitempty"` // a task's, in its worktree
	}
	textLine struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	toolCallLine struct {
		Type string `json:"type"`
		ID   string `json:"id"`
		Name string `json:"name"`
		Args any    `json:"args"`
	}
	toolResultLine struct {
		Type    string `json:"type"`
		ID      string `json:"id"`
		Name    string `json:"name"`
		Output  string `json:"output"`
		IsError bool   `json:"is_error"`
	}
	permissionLine struct {
		Type     string `json:"type"`
		ID       string `json:"id"`
		Name     string `json:"name"`
		Decision string `json:"decision"`
		Note     string `json:"note,omitempty"`
	}
	retryLine struct {
		Type        string `json:"type"`
		Attempt     int    `json:"attempt"`
		MaxAttempts int    `json:"max_attempts"`
		WaitMS      int64  `json:"wait_ms"`
		Reason      string `json:"reason"`
		// Failover is the entry the request moved to (no wait, no retry).
		Failover string `json:"failover,omitempty"`
	}
	turnEndLine struct {
		Type       string    `json:"type"`
		Usage      usageJSON `json:"usage"`
		DurationMS int64     `json:"duration_ms"`
		SessionID  string    `json:"session_id"`
		IsError    bool      `json:"is_error"`
		CutOff     string    `json:"cut_off,omitempty"`
		CostUSD    *float64  `json:"cost_usd,omitempty"`
	}
	errorLine struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	}
)

// hookJSON is a hook's run in stream-json.
type hookJSON struct {
	Type       string `json:"type"`
	Event      string `json:"event"`
	Command    string `json:"command"`
	ID         string `json:"id,omitempty"`
	Tool       string `json:"tool,omitempty"`
	DurationMS int64  `json:"duration_ms"`
	Exit       int    `json:"exit"`
	Verdict    string `json:"verdict"`
}

// hookLine words a hook's run for people.
func hookLine(ev Event) string {
	h := ev.Hook
	what := h.Event + " hook"
	if ev.Name != "" {
		what += " on " + ev.Name
	}
	return fmt.Sprintf("%s `%s` (%s): %s", what, words.Clip(h.Command, 80), h.Duration.Round(time.Millisecond), h.Verdict())
}

// compactLine is a compaction in stream-json.
type compactLine struct {
	Type         string `json:"type"`
	Reason       string `json:"reason"`
	TokensBefore int    `json:"tokens_before"`
	TokensAfter  int    `json:"tokens_after"`
	Summary      string `json:"summary,omitempty"`
	Error        string `json:"error,omitempty"`
}

// streamObject is the stream-json line of ev, or nil for events that have none.
func streamObject(ev Event, names map[string]string, sessionID string) any {
	switch ev.Type {
	case EventText:
		return textLine{"text", ev.Text}
	case EventReasoning:
		return textLine{"reasoning", ev.Text}
	case EventToolCallReady:
		var args any = ev.Args
		if json.Valid([]byte(ev.Args)) {
			args = json.RawMessage(ev.Args)
		}
		return toolCallLine{"tool_call", ev.ID, ev.Name, args}
	case EventToolRunEnded:
		name := ev.Name
		if name == "" {
			name = names[ev.ID]
		}
		return toolResultLine{"tool_result", ev.ID, name, ev.Result, ev.IsError}
	case EventPermissionAnswered:
		return permissionLine{"permission", ev.ID, ev.Name, ev.Answer.Decision.String(), ev.Answer.Note}
	case EventRetry:
		return retryLine{"retry", ev.Retry.Attempt, ev.Retry.MaxAttempts, ev.Retry.Wait.Milliseconds(), ev.Retry.Reason, ev.Retry.Failover}
	case EventTurnEnded:
		u := ev.Usage
		if u == nil {
			u = &Usage{}
		}
		return turnEndLine{"turn_end", toUsageJSON(u), ev.Duration.Milliseconds(), sessionID, ev.Err != nil, ev.CutOff, costJSON(u.Cost)}
	case EventError:
		return errorLine{"error", ev.Err.Error()}
	case EventHook:
		h := ev.Hook
		return hookJSON{Type: "hook", Event: h.Event, Command: h.Command, ID: ev.ID, Tool: ev.Name, DurationMS: h.Duration.Milliseconds(), Exit: h.Exit, Verdict: h.Verdict()}
	case EventCompacted:
		c := ev.Compact
		l := compactLine{Type: "compact", Reason: c.Reason, TokensBefore: c.TokensBefore, TokensAfter: c.TokensAfter, Summary: c.Summary}
		if ev.Err != nil {
			l.Error = ev.Err.Error()
		}
		return l
	}
	return nil
}
