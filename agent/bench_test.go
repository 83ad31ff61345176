package agent

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/internal/llmtest"
	"github.com/fawn-ide/fawn/tools"
)

// instantModel answers at once, from memory: a first response of `calls`
// calls to noop (args split in two fragments) after `chunks` text chunks,
// then a one-chunk final answer. It leaves fawn's own work to measure.
type instantModel struct {
	calls, chunks int
}

func (m *instantModel) WithTools([]*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	return m, nil
}

func (m *instantModel) Generate(ctx context.Context, in []*schema.Message, _ ...model.Option) (*schema.Message, error) {
	return nil, fmt.Errorf("instantModel streams only")
}

func (m *instantModel) Stream(ctx context.Context, in []*schema.Message, _ ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	// The last chunk says why the answer ended, as a real server's does
	// (an answer without it is taken for one cut off).
	if in[len(in)-1].Role == schema.Tool {
		return schema.StreamReaderFromArray([]*schema.Message{{Role: schema.Assistant, Content: "done",
			ResponseMeta: &schema.ResponseMeta{FinishReason: "stop"}}}), nil
	}
	var out []*schema.Message
	for i := 0; i < m.chunks; i++ {
		out = append(out, &schema.Message{Role: schema.Assistant, Content: "word "})
	}
	for i := 0; i < m.calls; i++ {
		ix := i
		out = append(out,
			&schema.Message{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{Index: &ix, ID: fmt.Sprintf("b%d", i), Function: schema.FunctionCall{Name: "noop", Arguments: `{"n":`}}}},
			&schema.Message{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{Index: &ix, Function: schema.FunctionCall{Arguments: fmt.Sprintf(`%d}`, i)}}}})
	}
	reason := "stop"
	if m.calls > 0 {
		reason = "tool_calls"
	}
	out = append(out, &schema.Message{Role: schema.Assistant, ResponseMeta: &schema.ResponseMeta{FinishReason: reason}})
	return schema.StreamReaderFromArray(out), nil
}

// noop is a tool that costs nothing: no decoding, no work.
type noop struct{}

func (noop) Name() string { return "noop" }
func (noop) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: "noop", Desc: "does nothing", ParamsOneOf: schema.NewParamsOneOfByParams(
		map[string]*schema.ParameterInfo{"n": {Type: schema.Integer}})}, nil
}
func (noop) Plan(context.Context, string) (tools.Action, error) {
	return tools.Action{Kind: tools.KindRead, Summary: "noop"}, nil
}
func (noop) InvokableRun(context.Context, string, ...tool.Option) (string, error) { return "ok", nil }

func noopTool() tools.Tool { return noop{} }

func benchSession(b *testing.B, m model.ToolCallingChatModel, extra ...tools.Tool) *Session {
	b.Helper()
	cfg := &config.Config{Models: config.Models{Chat: config.Model{Type: "openai", Model: "instant"}},
		Permissions: config.Permissions{Mode: "yolo"}, ConfigDir: b.TempDir()}
	env := &tools.Env{Root: b.TempDir(), Todos: &tools.TodoStore{}}
	s, err := NewSession(context.Background(), Options{Config: cfg, Env: env, Model: m, Tools: append([]tools.Tool{noopTool()}, extra...)})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(s.Close)
	return s
}

// timedTurn runs one turn, reads every event as the UI would, and returns its time.
func timedTurn(b *testing.B, s *Session) time.Duration {
	start := time.Now()
	var end Event
	for ev := range s.Run(context.Background(), "go") {
		end = ev
	}
	d := time.Since(start)
	if end.Err != nil {
		b.Fatal(end.Err)
	}
	resetHistory(s)
	return d
}

// resetHistory empties the conversation between iterations, so it does not
// grow, but keeps the system prompt: rebuilding it runs git, whose process
// start would swamp what is measured.
func resetHistory(s *Session) {
	s.conv.clear()
	s.mu.Lock()
	s.systemGen = s.conv.generation()
	s.mu.Unlock()
}

// clear empties the conversation; a new generation makes repairs started
// before it do nothing.
func (c *conversation) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.msgs = nil
	c.later = nil
}

// BenchmarkToolCallOverhead measures what fawn adds to each tool call: the
// graph, the middleware, permission check, events and history. Both turns
// timed have the same two model steps, so (T(21 calls) − T(1 call)) / 20 is
// the cost of a call alone; the instant model and the no-op tool cost ~0.
func BenchmarkToolCallOverhead(b *testing.B) {
	many := benchSession(b, &instantModel{calls: 21})
	one := benchSession(b, &instantModel{calls: 1})
	b.ReportMetric(overhead(b, many, one)/20, "ns/call")
}

// BenchmarkStreamChunkOverhead measures what fawn adds to each streamed
// chunk, from the model's stream to the consumer of the event channel.
func BenchmarkStreamChunkOverhead(b *testing.B) {
	many := benchSession(b, &instantModel{chunks: 2001})
	one := benchSession(b, &instantModel{chunks: 1})
	b.ReportMetric(overhead(b, many, one)/2000, "ns/chunk")
}

// overhead is the median over the iterations of T(many) − T(one) in ns,
// each pair of turns timed back to back. Both sessions run an untimed turn
// first (the first turn of a session pays one-off costs), and the median
// keeps a turn that a busy machine stalled from swamping a short run: a
// sum over three iterations once came out negative.
func overhead(b *testing.B, many, one *Session) float64 {
	timedTurn(b, many)
	timedTurn(b, one)
	var diffs []float64
	for b.Loop() {
		diffs = append(diffs, float64((timedTurn(b, many) - timedTurn(b, one)).Nanoseconds()))
	}
	sort.Float64s(diffs)
	return diffs[len(diffs)/2]
}

// BenchmarkScriptedTurn is a whole turn against the scripted HTTP server
// (text, two calls, an answer): the reference the overheads compare with.
func BenchmarkScriptedTurn(b *testing.B) {
	srv := llmtest.NewServer(llmtest.Script{Loop: true, Responses: []llmtest.Response{
		{Text: strings.Repeat("word ", 40), ToolCalls: []llmtest.ToolCall{
			{Name: "noop", Arguments: `{"n":1}`}, {Name: "noop", Arguments: `{"n":2}`},
		}},
		{Text: strings.Repeat("done ", 40)},
	}})
	defer srv.Close()
	cfg := &config.Config{Models: config.Models{Chat: config.Model{Type: "openai", Model: "llmtest", BaseURL: srv.URL()}},
		Permissions: config.Permissions{Mode: "yolo"}, ConfigDir: b.TempDir()}
	s, err := NewSession(context.Background(), Options{Config: cfg, Env: &tools.Env{Root: b.TempDir()}, Tools: []tools.Tool{noopTool()}})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for b.Loop() {
		timedTurn(b, s)
	}
}

// BenchmarkCancelLatency measures the time from cancelling a turn (Esc) to
// its last event, while a 30 s command runs and while a stream waits.
func BenchmarkCancelLatency(b *testing.B) {
	b.Run("command", func(b *testing.B) {
		root := b.TempDir()
		srv := llmtest.NewServer(llmtest.Script{Loop: true, Responses: []llmtest.Response{
			{ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"echo go; sleep 30"}`}}},
		}})
		defer srv.Close()
		cfg := &config.Config{Models: config.Models{Chat: config.Model{Type: "openai", Model: "llmtest", BaseURL: srv.URL()}},
			Permissions: config.Permissions{Mode: "yolo"}, ConfigDir: b.TempDir()}
		s, err := NewSession(context.Background(), Options{Config: cfg, Env: &tools.Env{Root: root}, Tools: []tools.Tool{bashTool(root)}})
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		var total time.Duration
		for b.Loop() {
			total += cancelWhen(s, func(ev Event) bool { return ev.Type == EventToolOutput })
			resetHistory(s)
		}
		b.ReportMetric(float64(total.Microseconds())/float64(b.N)/1000, "ms/cancel")
	})
	b.Run("stream", func(b *testing.B) {
		srv := llmtest.NewServer(llmtest.Script{Loop: true, Responses: []llmtest.Response{
			{Text: "waiting for more", Fault: &llmtest.Fault{Kind: llmtest.Stall, After: 1}},
		}})
		defer srv.Close()
		cfg := &config.Config{Models: config.Models{Chat: config.Model{Type: "openai", Model: "llmtest", BaseURL: srv.URL()}},
			Permissions: config.Permissions{Mode: "yolo"}, ConfigDir: b.TempDir()}
		s, err := NewSession(context.Background(), Options{Config: cfg, Env: &tools.Env{Root: b.TempDir()}})
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		var total time.Duration
		for b.Loop() {
			total += cancelWhen(s, func(ev Event) bool { return ev.Type == EventText })
			resetHistory(s)
		}
		b.ReportMetric(float64(total.Microseconds())/float64(b.N)/1000, "ms/cancel")
	})
}

// cancelWhen runs a turn, cancels it at the first event that matches, and
// returns the time from the cancel to the end of the stream.
func cancelWhen(s *Session, match func(Event) bool) time.Duration {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var at time.Time
	for ev := range s.Run(ctx, "go") {
		if at.IsZero() && match(ev) {
			at = time.Now()
			cancel()
		}
	}
	if at.IsZero() {
		return 0
	}
	return time.Since(at)
}
