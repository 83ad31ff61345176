package serve

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/tools"
)

// Bounds of what one update carries: a command's live output shows its
// last lines (the model and the session store have all of it), and a
// tool's result is shown clipped.
const (
	maxLiveOutput = 16 << 10
	maxResultText = 4 << 10
)

// mapper turns one turn's agent events into ACP session updates. It keeps,
// per tool-call ID, what the client has been told, so every update names a
// call the client has seen start (also when the agent ends a call it never
// reported as started, or ends calls in another order than it began them).
// It is pure: the caller sends what it returns.
type mapper struct {
	root  string
	calls map[string]*callState
	// dirty are the calls whose live output grew since the last flush, in
	// the order they first grew.
	dirty []string
}

// callState is what the client knows of one tool call.
type callState struct {
	name   string
	kind   acp.ToolKind
	output strings.Builder // the live output of a command so far
	// content is the call's content as last sent (a diff, an output).
	content []acp.ToolCallContent
	ended   bool
	// terminal is the client's terminal the command runs in (""
	// when it runs in fawn's shell): the client shows its output.
	terminal string
}

func newMapper(root string) *mapper {
	return &mapper{root: root, calls: map[string]*callState{}}
}

// event maps ev; output chunks are held until flush.
func (m *mapper) event(ev agent.Event) []acp.SessionUpdate {
	switch ev.Type {
	case agent.EventText:
		if ev.Text == "" {
			return nil
		}
		return []acp.SessionUpdate{acp.UpdateAgentMessageText(ev.Text)}
	case agent.EventReasoning:
		if ev.Text == "" {
			return nil
		}
		return []acp.SessionUpdate{acp.UpdateAgentThoughtText(ev.Text)}
	case agent.EventToolCallStarted:
		_, ups := m.ensure(ev.ID, ev.Name, ev.Agent)
		return ups
	case agent.EventToolCallReady:
		return m.ready(ev)
	case agent.EventToolRunStarted:
		c, ups := m.ensure(ev.ID, ev.Name, ev.Agent)
		u := acp.SessionToolCallUpdate{ToolCallId: acp.ToolCallId(ev.ID), Status: acp.Ptr(acp.ToolCallStatusInProgress)}
		if a := ev.Action; a != nil {
			c.kind = kindOf(c.name, a.Kind)
			u.Kind = acp.Ptr(c.kind)
			if t := title(ev.Agent, a.Summary); t != "" {
				u.Title = acp.Ptr(t)
			}
			if a.Path != "" {
				u.Locations = []acp.ToolCallLocation{{Path: a.Path}}
			}
		}
		return append(ups, acp.SessionUpdate{ToolCallUpdate: &u})
	case agent.EventToolOutput:
		c, ups := m.ensure(ev.ID, ev.Name, ev.Agent)
		if c.terminal != "" {
			// The client shows its terminal's output itself.
			return ups
		}
		if !slices.Contains(m.dirty, ev.ID) {
			m.dirty = append(m.dirty, ev.ID)
		}
		c.output.WriteString(ev.Text)
		return ups
	case agent.EventToolUpdate:
		return m.toolUpdate(ev)
	case agent.EventToolRunEnded:
		return m.ended(ev)
	case agent.EventRetry:
		r := ev.Retry
		if r.Failover != "" {
			return []acp.SessionUpdate{acp.UpdateAgentThoughtText("\n(" + r.Line("") + " — the answer starts over)\n")}
		}
		return []acp.SessionUpdate{acp.UpdateAgentThoughtText(fmt.Sprintf("\n(%s; fawn retries in %s, attempt %d of %d — the answer starts over)\n",
			r.Reason, r.Wait.Round(1e8), r.Attempt+1, r.MaxAttempts))}
	case agent.EventError:
		if ev.Err == nil || errors.Is(ev.Err, agent.ErrCancelled) {
			return nil
		}
		return []acp.SessionUpdate{acp.UpdateAgentMessageText("\n\nfawn: " + ev.Err.Error() + "\n")}
	case agent.EventInfo:
		if ev.Text == "" {
			return nil
		}
		return []acp.SessionUpdate{acp.UpdateAgentThoughtText("\n(fawn: " + ev.Text + ")\n")}
	}
	return nil
}

// ensure is the state of call id, announcing the call first when the
// client has not seen it start.
func (m *mapper) ensure(id, name, agentName string) (*callState, []acp.SessionUpdate) {
	if c, ok := m.calls[id]; ok {
		if c.name == "" && name != "" {
			c.name = name
		}
		return c, nil
	}
	c := &callState{name: name, kind: kindOf(name, -1)}
	m.calls[id] = c
	t := title(agentName, name)
	if t == "" {
		t = "tool call"
	}
	return c, []acp.SessionUpdate{acp.StartToolCall(acp.ToolCallId(id), t,
		acp.WithStartKind(c.kind), acp.WithStartStatus(acp.ToolCallStatusPending))}
}

// ready tells the client the call's arguments: its raw input, a title and
// the file it is about, as far as the arguments say.
func (m *mapper) ready(ev agent.Event) []acp.SessionUpdate {
	c, ups := m.ensure(ev.ID, ev.Name, ev.Agent)
	u := acp.SessionToolCallUpdate{ToolCallId: acp.ToolCallId(ev.ID)}
	var args map[string]any
	if json.Unmarshal([]byte(ev.Args), &args) == nil {
		u.RawInput = args
	} else if ev.Args != "" {
		u.RawInput = ev.Args
	}
	str := func(k string) string { s, _ := args[k].(string); return s }
	if k := kindFromArgs(c.name, str("command")); k != "" {
		c.kind = k
		u.Kind = acp.Ptr(k)
	}
	if p := str("path"); p != "" {
		u.Locations = []acp.ToolCallLocation{{Path: m.abs(p)}}
	}
	switch c.name {
	case "bash":
		if cmd := str("command"); cmd != "" {
			u.Title = acp.Ptr(title(ev.Agent, "$ "+firstLine(cmd)))
		}
	case "text_editor":
		if p := str("path"); p != "" {
			u.Title = acp.Ptr(title(ev.Agent, str("command")+" "+p))
		}
	case "todo_write":
		u.Title = acp.Ptr(title(ev.Agent, "Update the to-do list"))
	}
	return append(ups, acp.SessionUpdate{ToolCallUpdate: &u})
}

// toolUpdate maps a tool's typed payload: an edit's diff, a file viewed,
// the to-do list as a plan, a command's end.
func (m *mapper) toolUpdate(ev agent.Event) []acp.SessionUpdate {
	c, ups := m.ensure(ev.ID, ev.Name, ev.Agent)
	id := acp.ToolCallId(ev.ID)
	switch d := ev.Data.(type) {
	case tools.FileChanged:
		diff := acp.ToolDiffContent(d.Path, string(d.After))
		if d.Before != nil {
			diff = acp.ToolDiffContent(d.Path, string(d.After), string(d.Before))
		}
		c.content = append(c.content, diff)
		return append(ups, acp.UpdateToolCall(id, acp.WithUpdateContent(c.content),
			acp.WithUpdateLocations([]acp.ToolCallLocation{{Path: d.Path}})))
	case tools.FileViewed:
		loc := acp.ToolCallLocation{Path: d.Path}
		if d.Start > 0 {
			loc.Line = acp.Ptr(d.Start)
		}
		return append(ups, acp.UpdateToolCall(id, acp.WithUpdateLocations([]acp.ToolCallLocation{loc})))
	case tools.TodosChanged:
		return append(ups, planUpdate(d.Items))
	case tools.CommandTerminal:
		// The command runs in the client's terminal: the call embeds it,
		// as the protocol has it, and the client shows it live.
		m.undirty(ev.ID)
		c.terminal = d.ID
		c.content = []acp.ToolCallContent{acp.ToolTerminalRef(d.ID)}
		return append(ups, acp.UpdateToolCall(id, acp.WithUpdateContent(c.content)))
	case tools.CommandDone:
		m.undirty(ev.ID)
		if c.terminal != "" {
			// The terminal stays embedded (the client shows it after
			// release too); the output and exit code as fawn read them
			// go in rawOutput.
			return append(ups, acp.UpdateToolCall(id, acp.WithUpdateContent(c.content),
				acp.WithUpdateRawOutput(map[string]any{"exitCode": d.ExitCode, "output": tail(d.Output, maxLiveOutput)})))
		}
		c.content = []acp.ToolCallContent{outputContent(d.Output, d.ExitCode)}
		return append(ups, acp.UpdateToolCall(id, acp.WithUpdateContent(c.content)))
	}
	return ups
}

// ended closes the call: completed or failed, with its result shown when
// nothing more telling (a diff, a command's output) is.
func (m *mapper) ended(ev agent.Event) []acp.SessionUpdate {
	c, ups := m.ensure(ev.ID, ev.Name, ev.Agent)
	m.undirty(ev.ID)
	c.ended = true
	status := acp.ToolCallStatusCompleted
	if ev.IsError {
		status = acp.ToolCallStatusFailed
	}
	opts := []acp.ToolCallUpdateOpt{acp.WithUpdateStatus(status)}
	switch {
	case ev.IsError || len(c.content) == 0:
		content := append([]acp.ToolCallContent(nil), c.content...)
		if len(content) == 0 && c.output.Len() > 0 {
			content = append(content, c.live())
		}
		if r := strings.TrimSpace(ev.Result); r != "" && !(c.name == "todo_write" && !ev.IsError) {
			content = append(content, acp.ToolContent(acp.TextBlock(clip(r, maxResultText))))
		}
		if len(content) > 0 {
			c.content = content
			opts = append(opts, acp.WithUpdateContent(content))
		}
	}
	return append(ups, acp.UpdateToolCall(acp.ToolCallId(ev.ID), opts...))
}

// flush sends the live output that grew since the last flush: one update
// per call, however many chunks came.
func (m *mapper) flush() []acp.SessionUpdate {
	var ups []acp.SessionUpdate
	for _, id := range m.dirty {
		c := m.calls[id]
		if c == nil || c.ended {
			continue
		}
		c.content = []acp.ToolCallContent{c.live()}
		ups = append(ups, acp.UpdateToolCall(acp.ToolCallId(id), acp.WithUpdateContent(c.content)))
	}
	m.dirty = m.dirty[:0]
	return ups
}

func (m *mapper) undirty(id string) {
	for i, d := range m.dirty {
		if d == id {
			m.dirty = append(m.dirty[:i], m.dirty[i+1:]...)
			return
		}
	}
}

func (m *mapper) abs(p string) string {
	if filepath.IsAbs(p) || m.root == "" {
		return p
	}
	return filepath.Join(m.root, p)
}

// live is what the call streamed so far: a command's output as a console
// block, anything else (a subagent's words) as text.
func (c *callState) live() acp.ToolCallContent {
	if c.name == "bash" {
		return outputContent(c.output.String(), -2)
	}
	return acp.ToolContent(acp.TextBlock(tail(c.output.String(), maxLiveOutput)))
}

// tail is the end of s, at most n bytes from a line's start, marked as cut.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := len(s) - n
	if i := strings.IndexByte(s[cut:], '\n'); i >= 0 {
		cut += i + 1
	}
	return "…\n" + s[cut:]
}

// outputContent shows a command's output as a console block: its last
// maxLiveOutput bytes, and its exit status when it has ended (exit -1:
// killed or never ran; -2: still running).
func outputContent(out string, exit int) acp.ToolCallContent {
	out = strings.TrimRight(tail(out, maxLiveOutput), "\n")
	fence := "```"
	for strings.Contains(out, fence) {
		fence += "`"
	}
	text := fence + "console\n" + out + "\n" + fence
	switch {
	case exit == -1:
		text += "\n(no exit status: the command was killed or did not run)"
	case exit > 0:
		text += fmt.Sprintf("\nexit status %d", exit)
	}
	return acp.ToolContent(acp.TextBlock(text))
}

// planUpdate is the to-do list as an ACP plan. A cancelled item stays, as
// completed, with its title saying so: ACP plans have no cancelled state.
func planUpdate(items []tools.Todo) acp.SessionUpdate {
	entries := make([]acp.PlanEntry, 0, len(items))
	for _, t := range items {
		e := acp.PlanEntry{Content: t.Title, Priority: acp.PlanEntryPriorityMedium, Status: acp.PlanEntryStatusPending}
		switch t.Status {
		case "in_progress":
			e.Status = acp.PlanEntryStatusInProgress
		case "completed":
			e.Status = acp.PlanEntryStatusCompleted
		case "cancelled":
			e.Status = acp.PlanEntryStatusCompleted
			e.Content += " (cancelled)"
		}
		switch t.Priority {
		case "high":
			e.Priority = acp.PlanEntryPriorityHigh
		case "low":
			e.Priority = acp.PlanEntryPriorityLow
		}
		entries = append(entries, e)
	}
	return acp.UpdatePlan(entries...)
}

// kindOf is the ACP kind of a call of tool name: what its permission kind
// says (k, or -1 when not known yet), refined by the tool.
func kindOf(name string, k tools.Kind) acp.ToolKind {
	switch name {
	case "grep", "glob", "symbols", "references", "definition":
		return acp.ToolKindSearch
	case "ls", "tree", "hover", "diagnostics", "skill":
		return acp.ToolKindRead
	case "bash":
		return acp.ToolKindExecute
	case "todo_write", "ask_user", "task":
		return acp.ToolKindThink
	}
	switch k {
	case tools.KindRead:
		return acp.ToolKindRead
	case tools.KindEdit:
		return acp.ToolKindEdit
	case tools.KindExec:
		return acp.ToolKindExecute
	}
	return acp.ToolKindOther
}

// kindFromArgs refines a text_editor call's kind by its command.
func kindFromArgs(name, command string) acp.ToolKind {
	if name != "text_editor" || command == "" {
		return ""
	}
	if command == "view" {
		return acp.ToolKindRead
	}
	return acp.ToolKindEdit
}

// title is what the client shows for a call; a subagent's calls say whose
// they are.
func title(agentName, s string) string {
	s = strings.TrimSpace(s)
	if agentName != "" && s != "" {
		return agentName + ": " + s
	}
	return s
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// clip bounds s to about n bytes, on a rune boundary, saying what was cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && (s[cut]&0xC0) == 0x80 {
		cut--
	}
	return s[:cut] + fmt.Sprintf("\n… (%d more bytes)", len(s)-cut)
}
