package chat

import (
	"context"
	"errors"
	"time"

	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/ui/panes"
	"github.com/fawn-ide/fawn/ui/render"
)

// Workspace is what the router drives besides the chat; the App implements it.
type Workspace interface {
	// EditorPane returns the editor, or nil when there is none.
	EditorPane() Editor
	// Reveal brings p forward in the bottom strip unless the user works in
	// the other tab or the terminal is busy.
	Reveal(p panes.Pane)
	// TerminalUsed says the agent's command printed in the terminal.
	TerminalUsed()
	// FileChanged says the agent changed a file (the explorer marks it).
	FileChanged(path string)
	// JumpTo focuses p (a card's Enter or click).
	JumpTo(p panes.Pane)
	SetTodos(items []tools.Todo)
	AskPermission(req agent.PermissionRequest)
	// PermissionDone withdraws the dialog of call id, answered or not.
	PermissionDone(id string)
	// AgentTerminal is the agent terminal tab, opened on first use; nil
	// when the task has none.
	AgentTerminal() AgentOutput
}

// AgentOutput is the agent terminal tab (*panes.AgentTerm): the commands a
// hosted agent runs itself, and their output as it arrives.
type AgentOutput interface {
	Command(id, command string)
	Output(id, text string)
	Ended(id string, failed bool)
}

// sink receives the events of one tool call.
type sink interface{ handle(ev agent.Event) }

// Router turns a turn's events into widget updates. On "tool call started" it
// looks the tool up in the Registry and creates that call's sinks: always its
// card in the chat, plus the sink of the pane its kind drives (editor,
// terminal, to-do). Every later event with the call's ID goes to those sinks,
// in whatever order calls finish. It runs on the UI goroutine.
type Router struct {
	Reg  *Registry
	list *MessageList
	ws   Workspace

	// paneSinks builds the extra sink for a kind's pane: a registry, so that a
	// new pane is one entry here, not a case in every handler.
	paneSinks map[panes.Pane]func(c *Card) sink

	calls map[string]*route
	// cards of the current turn, to cancel the unfinished ones at its end.
	turnCards []*Card

	text      *assistantItem
	reasoning *reasoningItem
	retry     *Notice
	compact   *compactItem // the compaction running
	// partial holds the text and reasoning items of the model response being
	// streamed, until one of its tools runs: a retry after a broken stream
	// replaces them.
	partial   []Item
	LastError string

	// State for the status bar.
	TurnActive   bool
	running      int
	LastTurn     *agent.Usage
	SessionUsage *agent.Usage
	// Cancelled is set when the user Cancelled the current turn.
	Cancelled bool
	// lastDelta is when the last text or reasoning delta arrived.
	lastDelta time.Time
}

// StreamedSince reports whether answer text arrived since t.
func (r *Router) StreamedSince(t time.Time) bool {
	return !r.lastDelta.Before(t) && !r.lastDelta.IsZero()
}

type route struct {
	card  *Card
	sinks []sink
}

// NewRouter builds a router that appends to list and drives ws.
func NewRouter(reg *Registry, list *MessageList, ws Workspace) *Router {
	r := &Router{Reg: reg, list: list, ws: ws, calls: map[string]*route{}}
	r.paneSinks = map[panes.Pane]func(c *Card) sink{
		panes.Editor:   func(c *Card) sink { return &editorSink{ws: ws, card: c} },
		panes.Terminal: func(c *Card) sink { return &terminalSink{ws: ws, card: c} },
		panes.Todo:     func(c *Card) sink { return &todoSink{ws: ws, card: c} },
	}
	return r
}

// Card returns the card of call id, or nil.
func (r *Router) Card(id string) *Card {
	if rt, ok := r.calls[id]; ok {
		return rt.card
	}
	return nil
}

// Handle routes one event.
func (r *Router) Handle(ev agent.Event) {
	switch ev.Type {
	case agent.EventTurnStarted:
		r.BeginTurn()
	case agent.EventText:
		r.lastDelta = time.Now()
		if r.reasoning != nil {
			r.reasoning.finish()
			r.reasoning = nil
		}
		if ev.Text == "" {
			return
		}
		if r.text == nil {
			r.text = &assistantItem{open: true}
			r.list.Append(r.text)
			r.partial = append(r.partial, r.text)
		}
		r.text.append(ev.Text)
	case agent.EventReasoning:
		r.lastDelta = time.Now()
		if ev.Text == "" {
			return
		}
		if r.reasoning == nil {
			r.reasoning = newReasoning()
			r.list.Append(r.reasoning)
			r.partial = append(r.partial, r.reasoning)
			r.endText()
		}
		r.reasoning.append(ev.Text)
	case agent.EventToolCallStarted, agent.EventToolArgs, agent.EventToolCallReady,
		agent.EventPermissionAsked, agent.EventPermissionAnswered, agent.EventToolRunStarted,
		agent.EventToolOutput, agent.EventToolUpdate, agent.EventToolRunEnded:
		r.tool(ev)
	case agent.EventRetry:
		r.showRetry(ev.Retry)
	case agent.EventError:
		if ev.Err != nil {
			r.showError(ev.Err)
		}
	case agent.EventInfo:
		r.list.Append(&Notice{Kind: NoticeInfo, Text: ev.Text})
	case agent.EventGoal:
		r.endText()
		r.list.Append(GoalCardOf(ev))
	case agent.EventCompacting, agent.EventCompacted:
		r.compaction(ev)
	case agent.EventHook:
		if ev.Hook != nil && r.hookInCard(ev) {
			break
		}
		if ev.Hook != nil {
			kind := NoticeInfo
			if ev.Hook.Block || ev.Hook.Warning != "" {
				kind = NoticeError
			}
			r.list.Append(&Notice{Kind: kind, Text: "⚙ " + agent.HookLine(ev)})
			r.endText()
		}
	case agent.EventTurnEnded:
		r.endTurn(ev)
	}
}

// hookInCard shows the run of a hook on a tool call in the call's card,
// and reports whether it found the card (a hook of no call, or of one the
// chat has no card for, is a line of its own).
func (r *Router) hookInCard(ev agent.Event) bool {
	if ev.ID == "" {
		return false
	}
	if rt, ok := r.calls[ev.ID]; ok {
		rt.card.addHook(ev.Hook)
		return true
	}
	for _, c := range r.turnCards { // a PostToolUse hook runs after its call ended
		if c.ID == ev.ID {
			c.addHook(ev.Hook)
			return true
		}
	}
	return false
}

// endText ends the answer block text streams into: the next text starts
// a new one.
func (r *Router) endText() {
	if r.text != nil {
		r.text.finish()
		r.text = nil
	}
}

func newReasoning() *reasoningItem {
	return &reasoningItem{started: time.Now()}
}

func (r *Router) BeginTurn() {
	r.partial = r.partial[:0]
	r.TurnActive = true
	r.Cancelled = false
	r.endText()
	r.reasoning, r.retry = nil, nil
	r.LastError = ""
	r.turnCards = r.turnCards[:0]
}

// tool routes an event of one call, creating its sinks on first sight (also
// when the call's start was never announced, as for unknown tools).
func (r *Router) tool(ev agent.Event) {
	if ev.Type == agent.EventToolRunStarted {
		r.partial = r.partial[:0] // a tool ran: that response will not be retried
	}
	rt, ok := r.calls[ev.ID]
	if !ok {
		kind := r.Reg.Lookup(ev.Name)
		c := newCard(ev.ID, ev.Name, kind)
		c.Agent = ev.Agent
		rt = &route{card: c, sinks: []sink{c}}
		if mk, ok := r.paneSinks[kind.Drives]; ok {
			rt.sinks = append(rt.sinks, mk(c))
		}
		if kind.AgentTerminal {
			rt.sinks = append(rt.sinks, &agentTermSink{ws: r.ws, card: c})
		}
		r.calls[ev.ID] = rt
		r.turnCards = append(r.turnCards, c)
		r.list.Append(c)
		// Text after a tool call starts a new block below its card.
		r.endText()
		if r.reasoning != nil {
			r.reasoning.finish()
			r.reasoning = nil
		}
	}
	wasRunning := rt.card.Status == StatusRunning
	for _, s := range rt.sinks {
		s.handle(ev)
	}
	if ev.Parent != "" {
		if p, ok := r.calls[ev.Parent]; ok {
			p.card.subagentProgress(ev, rt.card)
		}
	}
	switch ev.Type {
	case agent.EventPermissionAsked:
		req := agent.PermissionRequest{ID: ev.ID, Tool: ev.Name}
		if ev.Permission != nil {
			req = *ev.Permission
		} else if ev.Action != nil {
			req.Action = *ev.Action
		}
		if req.ID == "" {
			req.ID = ev.ID
		}
		if req.Tool == "" {
			req.Tool = rt.card.Tool
		}
		r.ws.AskPermission(req)
	case agent.EventPermissionAnswered:
		r.ws.PermissionDone(ev.ID)
	case agent.EventToolRunEnded:
		r.ws.PermissionDone(ev.ID)
		delete(r.calls, ev.ID)
	}
	if isRunning := rt.card.Status == StatusRunning; isRunning != wasRunning {
		if isRunning {
			r.running++
		} else {
			r.running--
		}
	}
}

func (r *Router) showRetry(ri *agent.RetryInfo) {
	if ri == nil {
		return
	}
	// A retried request streams its answer again from the start: drop what
	// the broken stream showed, so the answer is not shown twice.
	for _, it := range r.partial {
		r.list.Remove(it)
	}
	r.partial = r.partial[:0]
	r.endText()
	r.reasoning = nil
	text := ri.Line(render.HumanDuration(ri.Wait))
	if r.retry == nil {
		r.retry = &Notice{Kind: noticeRetry}
		r.list.Append(r.retry)
	}
	r.retry.set(text)
}

func (r *Router) showError(err error) {
	msg := err.Error()
	if msg == r.LastError {
		return
	}
	r.LastError = msg
	r.list.Append(&Notice{Kind: NoticeError, Text: msg})
}

func (r *Router) endTurn(ev agent.Event) {
	if r.reasoning != nil {
		r.reasoning.finish()
	}
	for _, c := range r.turnCards {
		if !c.Status.finished() {
			if c.Status == StatusRunning {
				r.running--
			}
			c.cancel()
			r.ws.PermissionDone(c.ID)
			delete(r.calls, c.ID)
		}
	}
	r.turnCards = r.turnCards[:0]
	if ev.Usage != nil {
		u := *ev.Usage
		r.LastTurn = &u
	}
	if ev.SessionUsage != nil {
		u := *ev.SessionUsage
		r.SessionUsage = &u
	}
	switch {
	case ev.Err != nil && (errors.Is(ev.Err, context.Canceled) || r.Cancelled):
		r.list.Append(&Notice{Kind: NoticeCancel, Text: "cancelled"})
	case ev.Err != nil:
		r.showError(ev.Err)
	case r.Cancelled:
		r.list.Append(&Notice{Kind: NoticeCancel, Text: "cancelled"})
	}
	r.endText()
	r.reasoning, r.retry = nil, nil
	r.TurnActive = false
	r.running = 0
}

// ResetUsage forgets the usage shown: another session is in use, whose
// totals the agent reports.
func (r *Router) ResetUsage() { r.LastTurn, r.SessionUsage = nil, nil }

// State is the agent's state in words, for the status bar.
func (r *Router) State(waiting bool) string {
	switch {
	case waiting:
		return "waiting for you"
	case r.running > 0:
		for _, c := range r.turnCards {
			if c.Status == StatusRunning {
				return "running " + c.Tool
			}
		}
		return "running a tool"
	case r.TurnActive:
		return "thinking"
	}
	return "idle"
}

// Busy reports whether something moves on screen (spinners must tick).
func (r *Router) Busy() bool { return r.TurnActive || r.running > 0 }

// editorSink opens the files a text_editor call views or changes.
type editorSink struct {
	ws   Workspace
	card *Card
}

func (s *editorSink) handle(ev agent.Event) {
	if ev.Type != agent.EventToolUpdate {
		return
	}
	ed := s.ws.EditorPane()
	switch d := ev.Data.(type) {
	case tools.FileViewed:
		if ed != nil {
			ed.AgentViewed(d)
		}
		path, line := d.Path, d.Start
		s.card.jump = func() { s.open(path, line) }
	case tools.FileChanged:
		if ed != nil {
			ed.AgentChanged(d)
		}
		s.ws.FileChanged(d.Path)
		start, _, _ := changedRange(splitLines(d.Before), splitLines(d.After))
		path, line := d.Path, start+1
		s.card.jump = func() { s.open(path, line) }
	}
}

func (s *editorSink) open(path string, line int) {
	if ed := s.ws.EditorPane(); ed != nil {
		_ = ed.Open(path, line)
	}
	s.ws.JumpTo(panes.Editor)
}

// terminalSink brings the terminal forward while a bash call runs in it.
type terminalSink struct {
	ws   Workspace
	card *Card
}

func (s *terminalSink) handle(ev agent.Event) {
	switch ev.Type {
	case agent.EventToolRunStarted:
		s.ws.Reveal(panes.Terminal)
		s.ws.TerminalUsed()
		s.card.jump = func() { s.ws.JumpTo(panes.Terminal) }
	case agent.EventToolOutput, agent.EventToolRunEnded:
		s.ws.TerminalUsed()
	}
}

// agentTermSink writes a hosted agent's own command and its output into
// the agent terminal tab as they arrive.
type agentTermSink struct {
	ws      Workspace
	card    *Card
	out     AgentOutput
	started bool
}

func (s *agentTermSink) handle(ev agent.Event) {
	switch ev.Type {
	case agent.EventToolRunStarted:
		if s.out = s.ws.AgentTerminal(); s.out == nil {
			return
		}
		cmd := s.card.arg("command")
		if ev.Action != nil && ev.Action.Command != "" {
			cmd = ev.Action.Command
		}
		s.out.Command(s.card.ID, cmd)
		s.started = true
		s.card.jump = func() { s.ws.JumpTo(panes.Terminal) }
	case agent.EventToolOutput:
		if s.started {
			s.out.Output(s.card.ID, ev.Text)
		}
	case agent.EventToolRunEnded:
		if s.started {
			s.out.Ended(s.card.ID, ev.IsError)
			s.started = false
		}
	}
}

// todoSink shows a todo_write call's list in the to-do view.
type todoSink struct {
	ws   Workspace
	card *Card
}

func (s *todoSink) handle(ev agent.Event) {
	if d, ok := ev.Data.(tools.TodosChanged); ok && ev.Type == agent.EventToolUpdate {
		s.ws.SetTodos(d.Items)
		s.ws.Reveal(panes.Todo)
		s.card.jump = func() { s.ws.JumpTo(panes.Todo) }
	}
}

// Editor is what the router drives of the editor tabs (*editor.Tabs).
// All methods are called on the UI goroutine.
type Editor interface {
	tview.Primitive
	// AgentViewed opens or focuses the file's tab, scrolled to the range.
	AgentViewed(ev tools.FileViewed)
	// AgentChanged shows an edit that landed on disk and marks its lines.
	AgentChanged(ev tools.FileChanged)
	// Open opens path at a 1-based line (0: keep the position).
	Open(path string, line int) error
}

// Running is the number of tool calls running.
func (r *Router) Running() int { return r.running }
