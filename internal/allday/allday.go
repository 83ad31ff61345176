// Package allday owns the fixture of the all-day session: a deterministic
// plan of a long conversation with fawn's agent — what the user types each
// turn (a prompt, and before some turns /compact or /model), and what the
// scripted model answers to every request the turn makes: plain text,
// bash calls (some with long output), text_editor creates, views and
// edits of project files, to-do updates, subagents (the task tool) and
// their own steps, and the background turn notes and summaries. The e2e
// benchmark and test drive the real binary through it (e2e/allday_test.go);
// the model's side is [Plan.Respond], an llmtest Script's Respond.
//
// The plan is a function of the number of turns alone, so a run of 50 and
// a run of 2,000 are the same session at two lengths: three compactions
// at a quarter, a half and three quarters of the run, two model switches
// at a third and two thirds.
//
// It imports internal/llmtest; e2e imports it.
package allday

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// The two models of the session: the run starts on ModelA, switches to
// ModelB at a third and back at two thirds.
const (
	ModelA = "allday-a"
	ModelB = "allday-b"
)

// files is how many project files the turns create and edit, in turn: an
// editor tab each.
const files = 8

// Turn is one turn of the session as the user drives it.
type Turn struct {
	// N counts from 1.
	N int
	// Before is a command typed and finished before the prompt
	// ("/compact", "/model allday-b"), or "".
	Before string
	// Prompt is what the user types; it holds [TurnTag].
	Prompt string
	// Done is the first line of the model's last answer: the turn is over
	// once it is on the screen and the agent is idle.
	Done string
	// steps are the model's answers, one per request of the turn: each
	// but the last makes tool calls.
	steps []llmtest.Response
	// sub are the steps of the subagent a step's task call starts.
	sub []llmtest.Response
}

// Plan is the whole session.
type Plan struct {
	Turns []Turn
	// Files are the project files the session creates (relative paths).
	Files []string

	mu     sync.Mutex
	counts Counts
}

// Counts says how many requests of each kind the model answered.
type Counts struct {
	Steps, Subagent, Notes, Summaries, Other int
	// Unknown are requests of the main conversation the plan has no step
	// for (a turn asked again, a step too many): a run's fixture and
	// fawn disagree.
	Unknown int
	// LastUnknown describes the last of them.
	LastUnknown string
}

// TurnTag marks turn n's prompt; SubTag marks the task of turn n's subagent.
func TurnTag(n int) string { return fmt.Sprintf("[allday turn %d]", n) }

// SubTag marks the prompt of turn n's subagent.
func SubTag(n int) string { return fmt.Sprintf("[allday subtask %d]", n) }

// Compactions and Switches are the turns before which the user compacts
// the conversation and switches the model, for a session of turns turns.
func Compactions(turns int) []int { return []int{turns / 4, turns / 2, turns * 3 / 4} }

// Switches is where the model changes: to ModelB, then back to ModelA.
func Switches(turns int) []int { return []int{turns / 3, turns * 2 / 3} }

// New makes the plan of a session of turns turns (at least 8, so that its
// compactions and switches fall on distinct turns).
func New(turns int) *Plan {
	turns = max(turns, 8)
	p := &Plan{}
	for i := range files {
		p.Files = append(p.Files, fmt.Sprintf("src/f%d.go", i))
	}
	version := make([]int, files)
	created := make([]bool, files)
	before := map[int]string{}
	for _, n := range Compactions(turns) {
		before[n] = "/compact"
	}
	sw := Switches(turns)
	before[sw[0]] = "/model " + ModelB
	before[sw[1]] = "/model " + ModelA
	for n := 1; n <= turns; n++ {
		t := Turn{N: n, Before: before[n], Done: fmt.Sprintf("Turn %d done.", n)}
		k := n % files
		file := p.Files[k]
		t.Prompt = fmt.Sprintf("%s look at %s and carry on with the plan", TurnTag(n), file)
		var calls [][]llmtest.ToolCall
		switch {
		case !created[k]:
			created[k] = true
			calls = append(calls, []llmtest.ToolCall{call("text_editor", map[string]any{"command": "create", "path": file, "file_text": source(k, version[k])})})
		case n%7 == 0:
			// A turn of talk: no call.
		case n%4 == 0:
			calls = append(calls, []llmtest.ToolCall{call("bash", map[string]any{"command": fmt.Sprintf("grep -c version %s && ls src | head -3", file)})})
		case n%4 == 1:
			calls = append(calls, []llmtest.ToolCall{call("text_editor", map[string]any{"command": "view", "path": file})})
		case n%4 == 2:
			old := fmt.Sprintf("const version = %d", version[k])
			version[k]++
			calls = append(calls, []llmtest.ToolCall{
				call("text_editor", map[string]any{"command": "view", "path": file}),
				call("text_editor", map[string]any{"command": "str_replace", "path": file, "old_str": old, "new_str": fmt.Sprintf("const version = %d", version[k])}),
			})
		default:
			calls = append(calls, []llmtest.ToolCall{
				call("bash", map[string]any{"command": fmt.Sprintf("echo turn-%d; wc -l %s", n, file)}),
				call("text_editor", map[string]any{"command": "view", "path": file, "view_range": []int{1, 6}}),
			})
		}
		switch {
		case n%25 == 0:
			calls = append(calls, []llmtest.ToolCall{call("task", map[string]any{
				"description": fmt.Sprintf("Check the sources %d", n),
				"prompt":      fmt.Sprintf("%s Count the lines of every file under src and report the largest.", SubTag(n)),
			})})
			t.sub = []llmtest.Response{
				{Text: "Counting.", ToolCalls: []llmtest.ToolCall{call("bash", map[string]any{"command": "wc -l src/*.go | sort -n | tail -2"})}},
				{Text: fmt.Sprintf("Subtask %d: every file under src has a dozen lines; %s is as large as any.", n, file)},
			}
		case n%10 == 0:
			// A long output: the model sees its head and tail, the rest
			// is kept beside the session.
			calls = append(calls, []llmtest.ToolCall{call("bash", map[string]any{"command": fmt.Sprintf("seq 1 %d", 20000+n)})})
		case n%5 == 0:
			calls = append(calls, []llmtest.ToolCall{call("todo_write", map[string]any{"todos": todos(n)})})
		case n%2 == 1:
			calls = append(calls, []llmtest.ToolCall{call("bash", map[string]any{"command": "head -4 " + file})})
		}
		for j, c := range calls {
			for i := range c {
				c[i].ID = fmt.Sprintf("call_t%d_s%d_%d", n, j, i)
			}
			t.steps = append(t.steps, llmtest.Response{
				Text:      fmt.Sprintf("Step %d of turn %d: working on %s.", j+1, n, file),
				ToolCalls: c,
				Usage:     usage(n, j),
			})
		}
		t.steps = append(t.steps, llmtest.Response{Text: answer(t, file), Usage: usage(n, len(calls))})
		p.Turns = append(p.Turns, t)
	}
	return p
}

// Counts is what the model answered so far.
func (p *Plan) Counts() Counts {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.counts
}

// Respond answers one request of the session: a background note or
// summary by its system prompt, a subagent's step by its task's tag, a
// turn's step by the tag of the last prompt and the answers given since.
func (p *Plan) Respond(req *llmtest.ChatRequest, _ int) llmtest.Response {
	p.mu.Lock()
	defer p.mu.Unlock()
	system := ""
	if len(req.Messages) > 0 && req.Messages[0].Role == "system" {
		system = string(req.Messages[0].Content)
	}
	switch {
	case strings.Contains(system, "one note per turn"):
		p.counts.Notes++
		return llmtest.Response{Text: note(p.counts.Notes), Usage: &llmtest.Usage{PromptTokens: 900, CompletionTokens: 120}}
	case strings.Contains(system, "You are summarising a coding session"):
		p.counts.Summaries++
		return llmtest.Response{Text: fmt.Sprintf("## Goal\nCarry on with the plan over src/.\n## Progress\nSummary %d of the session so far: every file under src was created and edited.", p.counts.Summaries),
			Usage: &llmtest.Usage{PromptTokens: 4000, CompletionTokens: 200}}
	case system != "" && !strings.Contains(system, "fawn"):
		p.counts.Other++
		return llmtest.Response{Text: "Nothing to add."}
	}
	if n, after, ok := lastTagged(req.Messages, "[allday subtask "); ok {
		p.counts.Subagent++
		if t := p.turn(n); t != nil && after < len(t.sub) {
			r := t.sub[after]
			for i := range r.ToolCalls {
				r.ToolCalls[i].ID = fmt.Sprintf("call_sub%d_s%d_%d", n, after, i)
			}
			return r
		}
		return p.unknown(fmt.Sprintf("subtask %d, step %d", n, after+1))
	}
	if n, after, ok := lastTagged(req.Messages, "[allday turn "); ok {
		if t := p.turn(n); t != nil && after < len(t.steps) {
			p.counts.Steps++
			return t.steps[after]
		}
		return p.unknown(fmt.Sprintf("turn %d, step %d", n, after+1))
	}
	return p.unknown("a request with no turn's prompt in it")
}

func (p *Plan) unknown(what string) llmtest.Response {
	p.counts.Unknown++
	p.counts.LastUnknown = what
	return llmtest.Response{Text: "The all-day plan has no answer for " + what + "."}
}

func (p *Plan) turn(n int) *Turn {
	if n < 1 || n > len(p.Turns) {
		return nil
	}
	return &p.Turns[n-1]
}

// lastTagged finds the last user message holding tag followed by a
// number: that number, and how many answers of the model follow it.
func lastTagged(msgs []llmtest.Message, tag string) (n, after int, ok bool) {
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		if m.Role == "assistant" {
			after++
			continue
		}
		if m.Role != "user" {
			continue
		}
		text := string(m.Content)
		j := strings.LastIndex(text, tag)
		if j < 0 {
			continue
		}
		if _, err := fmt.Sscanf(text[j+len(tag):], "%d]", &n); err != nil {
			continue
		}
		return n, after, true
	}
	return 0, 0, false
}

func call(name string, args map[string]any) llmtest.ToolCall {
	b, err := json.Marshal(args)
	if err != nil {
		panic(err) // the plan's own maps: always encodable
	}
	return llmtest.ToolCall{Name: name, Arguments: string(b)}
}

// source is file k's text at version v: a dozen lines of Go.
func source(k, v int) string {
	return fmt.Sprintf(`package src

// F%d is one of the all-day session's files.
const version = %d

func F%d(xs []int) int {
	total := 0
	for _, x := range xs {
		total += x * %d
	}
	return total
}
`, k, v, k, k+1)
}

func todos(n int) []map[string]any {
	status := func(i int) string {
		switch {
		case i < (n/5)%4:
			return "completed"
		case i == (n/5)%4:
			return "in_progress"
		}
		return "pending"
	}
	var out []map[string]any
	for i, title := range []string{"Read the sources", "Bump the versions", "Run the checks", "Write the summary"} {
		out = append(out, map[string]any{"id": fmt.Sprint(i + 1), "title": title, "status": status(i)})
	}
	return out
}

// answer is the turn's last text: its Done line, then some Markdown (a
// list every turn, a code block every third).
func answer(t Turn, file string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\nWhat changed in **%s**:\n\n- the version constant, checked by a view\n- nothing else; the tests still pass\n", t.Done, file)
	if t.N%3 == 0 {
		fmt.Fprintf(&b, "\n```go\nfunc F(xs []int) int {\n\treturn len(xs) * %d\n}\n```\n", t.N)
	}
	if t.N%7 == 0 {
		b.WriteString("\nA longer word on the plan: " + strings.Repeat("the sources stay small and every edit is checked by a view. ", 6) + "\n")
	}
	return b.String()
}

func note(n int) string {
	return fmt.Sprintf("## Goal\nCarry on with the plan over src/.\n## Constraints\nNone.\n## Progress\nNote %d: a file viewed or edited.\n## Decisions\nNone.\n## Next steps\nThe next file.\n## Critical context\nsrc/", n)
}

func usage(n, step int) *llmtest.Usage {
	return &llmtest.Usage{PromptTokens: 3000 + 10*(n%200) + 400*step, CompletionTokens: 60 + n%40, CachedTokens: 2500}
}
