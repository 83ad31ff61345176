package agent

import (
	"fmt"
	"time"

	"github.com/fawn-ide/fawn/hooks"
	"github.com/fawn-ide/fawn/pricing"
	"github.com/fawn-ide/fawn/tools"
)

// EventType names an event; the names are also the stream-json "type" values
// where headless mode prints them directly.
type EventType string

const (
	// EventTurnStarted opens a turn. Text is the user's message.
	EventTurnStarted EventType = "turn_started"
	// EventText is a delta of the answer's text.
	EventText EventType = "text"
	// EventReasoning is a delta of the model's reasoning.
	EventReasoning EventType = "reasoning"
	// EventToolCallStarted: the model began a call {ID, Name}.
	EventToolCallStarted EventType = "tool_call_started"
	// EventToolArgs: a fragment of the call's JSON arguments {ID, Text}.
	EventToolArgs EventType = "tool_args"
	// EventToolCallReady: the call's arguments are complete {ID, Name, Args}.
	EventToolCallReady EventType = "tool_call_ready"
	// EventPermissionAsked: the call waits for Session.Approve {ID, Name, Permission}.
	EventPermissionAsked EventType = "permission_asked"
	// EventPermissionAnswered: the answer that was taken {ID, Name, Answer}.
	EventPermissionAnswered EventType = "permission_answered"
	// EventToolRunStarted: the tool began to run {ID, Name, Action}.
	EventToolRunStarted EventType = "tool_run_started"
	// EventToolOutput: a chunk of streamed output {ID, Text, Data: tools.Output}.
	EventToolOutput EventType = "tool_output"
	// EventToolUpdate: a typed payload from the tool {ID, Data: tools.FileViewed | tools.FileChanged | tools.TodosChanged | ...}.
	EventToolUpdate EventType = "tool_update"
	// EventToolRunEnded: the call finished {ID, Name, Result, IsError, Duration}.
	// Every EventToolCallStarted is eventually matched by one EventToolRunEnded,
	// also when the call was denied, failed to parse or was cancelled.
	EventToolRunEnded EventType = "tool_run_ended"
	// EventRetry: the model request failed and will be retried {Retry}.
	// When the response had begun (a stream that broke mid-answer), the
	// answer starts over: text and reasoning streamed since the last tool
	// call are superseded by what follows, and the calls that response had
	// started have already been ended.
	EventRetry EventType = "retry"
	// EventTurnEnded closes a turn {Usage, SessionUsage, Duration, Err if the turn failed}.
	// It is always the last event of a run's stream.
	EventTurnEnded EventType = "turn_ended"
	// EventError reports a problem the user should see {Err}; the turn may go on or end.
	EventError EventType = "error"
	// EventInfo is a notice for the user that is not an error {Text}, e.g. "running on the demo model".
	EventInfo EventType = "info"
	// EventGoal is the goal of a run or a judge's verdict on it {Text: the
	// card's line; Data: the verdict (package agent/background)}.
	EventGoal EventType = "goal"
)

// Event is one item of a turn's stream. Which fields are set depends on Type
// (see the constants).
type Event struct {
	Type EventType
	// ID is the tool-call ID for every tool event. A subagent's calls have
	// IDs "<task call ID>/<call ID>", Parent the task call's ID and Agent
	// the subagent's name.
	ID     string
	Name   string
	Agent  string
	Parent string

	Text string // text/reasoning delta, argument fragment, tool output chunk, info
	Args string // complete JSON arguments (EventToolCallReady)

	Action     *tools.Action      // what the call does (EventToolRunStarted, EventPermissionAsked)
	Permission *PermissionRequest // EventPermissionAsked
	Answer     *Answer            // EventPermissionAnswered

	Result   string        // EventToolRunEnded: the text the model receives
	IsError  bool          // EventToolRunEnded
	Duration time.Duration // EventToolRunEnded, EventTurnEnded

	Data any // EventToolUpdate payload (see package tools)

	Retry        *RetryInfo    // EventRetry
	Compact      *Compaction   // EventCompacting, EventCompacted
	Hook         *hooks.Result // EventHook
	Usage        *Usage        // EventTurnEnded: this turn
	SessionUsage *Usage        // EventTurnEnded: the session so far

	Err error // EventError, and EventTurnEnded when the turn failed
	// CutOff is "max_tokens" on EventTurnEnded when the turn's last answer
	// was cut off at the output limit (finish_reason "length").
	CutOff string
}

// RetryInfo describes one wait before a retried model request.
type RetryInfo struct {
	Attempt     int           // 1-based attempt that failed
	MaxAttempts int           // attempts allowed in all
	Wait        time.Duration // how long until the next attempt
	Reason      string        // "rate limited (429)", "server error (502)", "connection reset"
	// Failover, when set, is the entry of models.named the request moves
	// to at once: Reason says why the one before is down.
	Failover string
}

// Line is the notice of a retry: "server error (502) — retrying in 2s
// (attempt 2 of 4)", or "default down (server error (502)) → using spare".
func (r *RetryInfo) Line(wait string) string {
	if r.Failover != "" {
		return r.Reason + " → using " + r.Failover
	}
	return fmt.Sprintf("%s — retrying in %s (attempt %d of %d)", r.Reason, wait, r.Attempt+1, r.MaxAttempts)
}

// Usage counts tokens and time.
type Usage struct {
	// InputTokens counts every prompt token, the cached ones included.
	InputTokens  int
	OutputTokens int
	// CachedTokens are prompt tokens the server read from its prompt cache;
	// CacheWriteTokens those it wrote to it (Anthropic reports both).
	CachedTokens     int
	CacheWriteTokens int
	// ContextTokens is the prompt size of the last request: how full the context window is.
	ContextTokens int
	// ContextEstimated is set when the server reported no prompt size and
	// ContextTokens is fawn's estimate.
	ContextEstimated bool
	Duration         time.Duration
	// TokensPerSecond is output tokens over the time the model spent producing them.
	TokensPerSecond float64
	Turns           int
	// Steps counts model responses (one per round trip of the agent loop).
	Steps     int
	ToolCalls int
	// Cost is what the responses cost at their models' prices.
	Cost Cost
}

// Cost is what responses cost, in US dollars, at the prices package
// pricing knows; Unpriced counts the responses it could not price (a model
// without a price, a server that reported no usage).
type Cost struct {
	USD              float64
	Priced, Unpriced int
}

// Known says whether the cost is the whole cost: some responses, all of
// them priced. fawn shows no cost otherwise, rather than a wrong one.
func (c Cost) Known() bool { return c.Priced > 0 && c.Unpriced == 0 }

// Add adds o's responses to c.
func (c *Cost) Add(o Cost) {
	c.USD += o.USD
	c.Priced += o.Priced
	c.Unpriced += o.Unpriced
}

// String is the cost in dollars ("$0.42"), or "" when it is not Known.
func (c Cost) String() string {
	if !c.Known() {
		return ""
	}
	return pricing.Format(c.USD)
}
