package host

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/aymanbagabas/go-udiff"
	acp "github.com/coder/acp-go-sdk"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/project"
	"github.com/fawn-ide/fawn/tools"
)

// The names a hosted agent's calls go by in fawn's event stream, by what
// they show in: text_editor (an editor tab), bash (the shared terminal, for
// a command run through terminal/*), todo_write (the to-do view), and the
// ACP kinds themselves for what shows in the chat only.
const (
	nameEditor  = "text_editor"
	nameBash    = "bash"
	nameExecute = "execute"
	nameTodo    = "todo_write"
)

// maxSnapshot bounds a file fawn reads to show an agent's edit of it.
const maxSnapshot = 4 << 20

// call is what fawn knows of one of the agent's tool calls.
type call struct {
	id        string
	name      string
	kind      acp.ToolKind
	title     string
	status    acp.ToolCallStatus
	rawInput  any
	rawOutput any
	paths     []string // absolute, in the order first named
	line      int      // the first location's line (1-based), 0 if none
	diffs     []acp.ToolCallContentDiff
	text      string   // the text content
	streamed  string   // the part of text sent as output so far
	terminals []string // terminals whose output is this call's
	args      string   // the arguments last sent
	running   bool
	ended     bool
	started   time.Time
	// before holds each path's content when the call was first seen (a
	// nil value: the file did not exist); shown is the content of each
	// path last shown changed.
	before map[string][]byte
	shown  map[string]string
}

// patch is a tool_call or a tool_call_update: what it sets.
type patch struct {
	id        string
	title     *string
	kind      *acp.ToolKind
	status    *acp.ToolCallStatus
	content   []acp.ToolCallContent
	locations []acp.ToolCallLocation
	rawInput  any
	rawOutput any
}

func patchOfCall(u *acp.SessionUpdateToolCall) patch {
	p := patch{id: string(u.ToolCallId), title: &u.Title, content: u.Content, locations: u.Locations, rawInput: u.RawInput, rawOutput: u.RawOutput}
	if u.Kind != "" {
		p.kind = &u.Kind
	}
	if u.Status != "" {
		p.status = &u.Status
	}
	return p
}

func patchOfUpdate(u acp.ToolCallUpdate) patch {
	return patch{id: string(u.ToolCallId), title: u.Title, kind: u.Kind, status: u.Status, content: u.Content, locations: u.Locations, rawInput: u.RawInput, rawOutput: u.RawOutput}
}

// update maps one session/update of the agent onto the turn's events.
func (h *Host) update(n acp.SessionNotification) {
	u := n.Update
	if u.Plan != nil {
		h.plan(u.Plan.Entries)
		return
	}
	if u.CurrentModeUpdate != nil {
		// The agent changed its own mode; fawn's stays what the user set.
		h.mu.Lock()
		h.agentMode = u.CurrentModeUpdate.CurrentModeId
		h.mu.Unlock()
		return
	}
	if u.AvailableCommandsUpdate != nil {
		h.setCommands(u.AvailableCommandsUpdate.AvailableCommands)
		return
	}
	if u.UsageUpdate != nil {
		h.mu.Lock()
		h.usage.ContextTokens = u.UsageUpdate.Used
		h.mu.Unlock()
		return
	}
	h.mu.Lock()
	t := h.turn
	if r := h.replay; t == nil && r != nil {
		r.add(h, u) // the history of a conversation being loaded
	}
	h.mu.Unlock()
	if t == nil {
		return // between turns nobody shows it (a late or stray update)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case u.AgentMessageChunk != nil:
		if s := blockText(u.AgentMessageChunk.Content); s != "" {
			t.emit(agent.Event{Type: agent.EventText, Text: s})
		}
	case u.AgentThoughtChunk != nil:
		if s := blockText(u.AgentThoughtChunk.Content); s != "" {
			t.emit(agent.Event{Type: agent.EventReasoning, Text: s})
		}
	case u.ToolCall != nil:
		t.apply(patchOfCall(u.ToolCall))
	case u.ToolCallUpdate != nil:
		tu := u.ToolCallUpdate
		t.apply(patch{id: string(tu.ToolCallId), title: tu.Title, kind: tu.Kind, status: tu.Status, content: tu.Content, locations: tu.Locations, rawInput: tu.RawInput, rawOutput: tu.RawOutput})
	}
}

// blockText is a content block as chat text.
func blockText(b acp.ContentBlock) string {
	switch {
	case b.Text != nil:
		return b.Text.Text
	case b.ResourceLink != nil:
		return "[" + b.ResourceLink.Name + "](" + b.ResourceLink.Uri + ")"
	case b.Image != nil:
		return "[image]"
	}
	return ""
}

// plan shows the agent's plan in the to-do view, as a todo_write call of
// fawn's own would: a call of its own, which the to-do view follows.
func (h *Host) plan(entries []acp.PlanEntry) {
	items := make([]tools.Todo, 0, len(entries))
	for i, e := range entries {
		st := string(e.Status)
		if st == "" {
			st = "pending"
		}
		items = append(items, tools.Todo{ID: fmt.Sprint(i + 1), Title: e.Content, Status: st, Priority: string(e.Priority)})
	}
	h.mu.Lock()
	h.todos = items
	h.seq++
	id := fmt.Sprintf("plan-%d", h.seq)
	t := h.turn
	h.mu.Unlock()
	if t == nil {
		return
	}
	args, _ := json.Marshal(map[string]any{"todos": items})
	t.mu.Lock()
	defer t.mu.Unlock()
	t.emit(agent.Event{Type: agent.EventToolCallStarted, ID: id, Name: nameTodo})
	t.emit(agent.Event{Type: agent.EventToolCallReady, ID: id, Name: nameTodo, Args: string(args)})
	t.emit(agent.Event{Type: agent.EventToolRunStarted, ID: id, Name: nameTodo})
	t.emit(agent.Event{Type: agent.EventToolUpdate, ID: id, Name: nameTodo, Data: tools.TodosChanged{Items: items}})
	t.emit(agent.Event{Type: agent.EventToolRunEnded, ID: id, Name: nameTodo, Result: "the agent's plan"})
}

// apply merges p into its call and emits what changed. The caller holds
// t.mu. An update may come for a call never announced (it is announced
// then), out of order (a status never goes back), or after the call ended
// (it is dropped: its card is final).
func (t *turn) apply(p patch) {
	if p.id == "" {
		return
	}
	c, seen := t.calls[p.id]
	if seen && c.ended {
		return
	}
	if !seen {
		c = &call{id: p.id, before: map[string][]byte{}, shown: map[string]string{}, status: acp.ToolCallStatusPending}
		t.calls[p.id] = c
		t.order = append(t.order, c)
		t.calls0++
	}
	if p.title != nil && *p.title != "" {
		c.title = *p.title
	}
	if p.kind != nil {
		c.kind = *p.kind
	}
	if p.rawInput != nil {
		c.rawInput = p.rawInput
	}
	if p.rawOutput != nil {
		c.rawOutput = p.rawOutput
	}
	for _, l := range p.locations {
		c.addPath(t.h.abs(l.Path))
		if c.line == 0 && l.Line != nil {
			c.line = *l.Line
		}
	}
	if p.content != nil {
		// Content replaces the call's content.
		var text []string
		c.diffs = nil
		for _, cc := range p.content {
			switch {
			case cc.Diff != nil:
				d := *cc.Diff
				d.Path = t.h.abs(d.Path)
				c.diffs = append(c.diffs, d)
				c.addPath(d.Path)
			case cc.Content != nil:
				if s := blockText(cc.Content.Content); s != "" {
					text = append(text, s)
				}
			case cc.Terminal != nil:
				t.h.linkTerminal(t, c, cc.Terminal.TerminalId)
			}
		}
		c.text = strings.Join(text, "\n")
	}
	if !seen {
		c.name = nameOf(c)
		t.emit(agent.Event{Type: agent.EventToolCallStarted, ID: c.id, Name: c.name})
	}
	t.snapshot(c)
	st := c.status
	if p.status != nil && rank(*p.status) > rank(st) {
		st = *p.status
	}
	if st != acp.ToolCallStatusPending || c.args != "" {
		// A pending call's arguments are still being written (an agent
		// streams them into updates): they are sent once it is asked
		// about or runs, and again when they change after.
		t.ready(c)
	}
	if st != acp.ToolCallStatusPending && !c.running {
		t.runStarted(c)
	}
	if c.running && c.name != nameEditor && strings.HasPrefix(c.text, c.streamed) && len(c.text) > len(c.streamed) {
		chunk := c.text[len(c.streamed):]
		c.streamed = c.text
		t.emit(agent.Event{Type: agent.EventToolOutput, ID: c.id, Name: c.name, Text: chunk, Data: tools.Output{Text: chunk}})
	}
	c.status = st
	switch st {
	case acp.ToolCallStatusCompleted:
		t.showFiles(c)
		t.finish(c, c.result(), false)
	case acp.ToolCallStatusFailed:
		res := c.result()
		if res == "" {
			res = "the agent reports this call failed"
		}
		t.finish(c, "error: "+res, true)
	}
}

// ready sends the call's arguments if they changed since last sent.
func (t *turn) ready(c *call) {
	if a := c.argsJSON(t.h); a != c.args {
		c.args = a
		t.emit(agent.Event{Type: agent.EventToolCallReady, ID: c.id, Name: c.name, Args: a})
	}
}

// runStarted says the call runs.
func (t *turn) runStarted(c *call) {
	t.ready(c)
	c.running = true
	c.started = time.Now()
	act := c.action(t.h)
	t.emit(agent.Event{Type: agent.EventToolRunStarted, ID: c.id, Name: c.name, Action: &act})
}

// finish ends the call with result.
func (t *turn) finish(c *call, result string, isErr bool) {
	if c.ended {
		return
	}
	if !c.running {
		t.runStarted(c)
	}
	c.ended = true
	var d time.Duration
	if !c.started.IsZero() {
		d = time.Since(c.started)
	}
	t.emit(agent.Event{Type: agent.EventToolRunEnded, ID: c.id, Name: c.name, Result: result, IsError: isErr, Duration: d})
}

// rank orders the statuses: a call's status only moves forward.
func rank(s acp.ToolCallStatus) int {
	switch s {
	case acp.ToolCallStatusInProgress:
		return 1
	case acp.ToolCallStatusCompleted, acp.ToolCallStatusFailed:
		return 2
	}
	return 0
}

// nameOf is the name a call goes by in fawn: what decides where it shows.
func nameOf(c *call) string {
	switch c.kind {
	case acp.ToolKindRead, acp.ToolKindEdit, acp.ToolKindDelete, acp.ToolKindMove:
		return nameEditor
	case acp.ToolKindExecute:
		if len(c.terminals) > 0 {
			return nameBash
		}
		return nameExecute
	case "":
		if len(c.diffs) > 0 {
			return nameEditor
		}
		return string(acp.ToolKindOther)
	}
	return string(c.kind)
}

func (c *call) addPath(p string) {
	if p == "" {
		return
	}
	for _, q := range c.paths {
		if q == p {
			return
		}
	}
	c.paths = append(c.paths, p)
}

// edits reports whether the call changes files.
func (c *call) edits() bool {
	switch c.kind {
	case acp.ToolKindEdit, acp.ToolKindDelete, acp.ToolKindMove:
		return true
	}
	return len(c.diffs) > 0
}

// command is the command line of an execute call, from its input.
func (c *call) command() string {
	if m, ok := c.rawInput.(map[string]any); ok {
		switch v := m["command"].(type) {
		case string:
			return v
		case []any:
			var parts []string
			for _, x := range v {
				if s, ok := x.(string); ok {
					parts = append(parts, s)
				}
			}
			return strings.Join(parts, " ")
		}
		if s, ok := m["cmd"].(string); ok {
			return s
		}
	}
	return ""
}

// argsJSON is the call's arguments as the card reads them.
func (c *call) argsJSON(h *Host) string {
	m := map[string]any{"title": c.title}
	switch c.name {
	case nameEditor:
		cmd := "str_replace"
		switch {
		case c.kind == acp.ToolKindRead:
			cmd = "view"
		case c.kind == acp.ToolKindDelete:
			cmd = "delete"
		case c.kind == acp.ToolKindMove:
			cmd = "move"
		case len(c.diffs) > 0 && c.diffs[0].OldText == nil:
			cmd = "create"
		}
		m["command"] = cmd
		if len(c.paths) > 0 {
			m["path"] = c.paths[0]
		}
	case nameExecute, nameBash:
		cmd := c.command()
		if cmd == "" {
			cmd = c.title
		}
		m["command"] = cmd
	default:
		if c.rawInput != nil {
			m["input"] = c.rawInput
		}
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// action is the call as a permission dialog and a card describe it.
func (c *call) action(h *Host) tools.Action {
	a := tools.Action{Kind: tools.KindOther, Summary: c.title}
	switch {
	case c.kind == acp.ToolKindRead:
		a.Kind = tools.KindRead
	case c.edits():
		a.Kind = tools.KindEdit
		a.Diff = c.diff()
	case c.kind == acp.ToolKindExecute:
		a.Kind = tools.KindExec
		a.Command, a.Cwd = c.command(), h.opts.Root
		if a.Command == "" {
			a.Command = c.title
		}
	case c.kind == acp.ToolKindSearch || c.kind == acp.ToolKindThink:
		a.Kind = tools.KindRead
	}
	if len(c.paths) > 0 {
		a.Path = c.paths[0]
		if a.Kind == tools.KindEdit {
			a.Protected = tools.Protected(h.opts.Root, a.Path)
		}
	}
	return a
}

// diff is the call's diff content as one unified diff.
func (c *call) diff() string {
	var b strings.Builder
	for _, d := range c.diffs {
		old := ""
		if d.OldText != nil {
			old = *d.OldText
		}
		b.WriteString(udiff.Unified(d.Path, d.Path, old, d.NewText))
	}
	return b.String()
}

// result is what the card shows as the call's result.
func (c *call) result() string {
	if c.text != "" {
		return c.text
	}
	switch v := c.rawOutput.(type) {
	case nil:
	case string:
		return v
	default:
		if b, err := json.Marshal(v); err == nil {
			return string(b)
		}
	}
	if c.title != "" {
		return c.title
	}
	return "done"
}

// snapshot reads the files an edit names as they are before it, once per
// file, so that its end can show the change.
func (t *turn) snapshot(c *call) {
	if !c.edits() {
		return
	}
	for _, p := range c.paths {
		if _, ok := c.before[p]; ok {
			continue
		}
		if !project.Within(t.h.opts.Root, p) {
			continue
		}
		b, exists, err := readCapped(p)
		if err != nil {
			continue
		}
		if !exists {
			b = nil
		}
		c.before[p] = b
	}
}

// showFiles shows in the editor what the completed call read or changed:
// a changed file's tab opens or updates with the change marked.
func (t *turn) showFiles(c *call) {
	switch {
	case c.kind == acp.ToolKindRead:
		if len(c.paths) > 0 && project.Within(t.h.opts.Root, c.paths[0]) {
			start := c.line
			if start < 1 {
				start = 1
			}
			t.emit(agent.Event{Type: agent.EventToolUpdate, ID: c.id, Name: c.name, Data: tools.FileViewed{Path: c.paths[0], Start: start, End: -1}})
		}
	case c.edits():
		for _, p := range c.paths {
			t.showChange(c, p)
		}
	}
}

// showChange emits the change of p the call made, if it made one fawn has
// not shown yet: before is what p held when the call was announced, or,
// when the agent had written it already, what the call's diff says it held.
func (t *turn) showChange(c *call, p string) {
	before, known := c.before[p]
	after, exists, err := readCapped(p)
	if err != nil || !project.Within(t.h.opts.Root, p) {
		return
	}
	if !exists {
		after = nil
	}
	if known && !c.fits(p, before) {
		// fawn read the file while the agent was writing it (truncated,
		// half written): that is no "before"; the diff says what was.
		known = false
	}
	if !known || (bytes.Equal(before, after) && (before == nil) == (after == nil)) {
		// The agent wrote the file before fawn learnt its name: what it
		// held comes from the call's diff, or was nothing if it was born
		// in this turn; else fawn only shows the file as it is now.
		before, known = c.diffBefore(p, after)
		if !known && after != nil && bornSince(p, t.born) {
			before, known = nil, true
		}
		if !known {
			if after != nil {
				t.emit(agent.Event{Type: agent.EventToolUpdate, ID: c.id, Name: c.name, Data: tools.FileViewed{Path: p, Start: 1, End: -1}})
			}
			return
		}
	}
	if s, ok := c.shown[p]; ok && s == string(after) {
		return
	}
	c.shown[p] = string(after)
	cmd := "str_replace"
	if before == nil {
		cmd = "create"
	}
	t.h.fileChanged(c.id, c.name, p, before, after, cmd, t)
}

// fits reports whether before can be p's content before the call: it
// holds the old text of each of the call's diffs of p.
func (c *call) fits(p string, before []byte) bool {
	for _, d := range c.diffs {
		if d.Path == p && d.OldText != nil && *d.OldText != "" && !bytes.Contains(before, []byte(*d.OldText)) {
			return false
		}
	}
	return true
}

// diffBefore is p's content before the call's diff of it was applied to
// after; known is false when the diff does not say.
func (c *call) diffBefore(p string, after []byte) ([]byte, bool) {
	for _, d := range c.diffs {
		if d.Path != p {
			continue
		}
		if d.OldText == nil {
			return nil, after != nil
		}
		if d.NewText == *d.OldText || !bytes.Contains(after, []byte(d.NewText)) {
			return nil, false
		}
		return bytes.Replace(after, []byte(d.NewText), []byte(*d.OldText), 1), true
	}
	return nil, false
}

// fileChanged records the change of a file in the checkpoints and emits it
// under call id. The caller holds t.mu.
func (h *Host) fileChanged(id, name, p string, before, after []byte, cmd string, t *turn) {
	if b := h.opts.Checkpoints; b != nil {
		b.Changed(context.Background(), p, before, after)
	}
	t.emit(agent.Event{Type: agent.EventToolUpdate, ID: id, Name: name, Data: tools.FileChanged{Path: p, Before: before, After: after, Command: cmd}})
}

// abs is p (absolute, or relative to the project) as an absolute path.
func (h *Host) abs(p string) string {
	if p == "" {
		return ""
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(h.opts.Root, p)
	}
	return filepath.Clean(p)
}

// readCapped reads a regular file of at most maxSnapshot bytes; exists is
// false when there is none.
func readCapped(p string) (b []byte, exists bool, err error) {
	f, err := os.Open(p)
	if os.IsNotExist(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	if !st.Mode().IsRegular() || st.Size() > maxSnapshot {
		return nil, true, fmt.Errorf("%s: not a regular file of at most %d MB", p, maxSnapshot>>20)
	}
	b, err = io.ReadAll(io.LimitReader(f, maxSnapshot+1))
	if b == nil {
		b = []byte{}
	}
	return b, true, err
}
