package chat

import (
	"fmt"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/internal/words"
	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/ui/render"
)

// CardStatus is where a tool call is in its life.
type CardStatus int

const (
	// StatusPreparing: the model is still writing the call's arguments.
	StatusPreparing CardStatus = iota
	// StatusWaiting: the call waits for the user's permission.
	StatusWaiting
	// StatusRunning: the tool runs.
	StatusRunning
	// StatusDone: it finished and succeeded.
	StatusDone
	// StatusFailed: it finished with an error.
	StatusFailed
	// StatusDenied: the user (or the mode) refused it.
	StatusDenied
	// StatusCancelled: the turn was cancelled before it finished.
	StatusCancelled
)

func (s CardStatus) String() string {
	return [...]string{"preparing", "waiting for permission", "running", "done", "failed", "denied", "cancelled"}[s]
}

// finished reports whether the call has ended.
func (s CardStatus) finished() bool { return s >= StatusDone }

// cardBodyLines is how many body lines a collapsed card shows.
const cardBodyLines = 10

// maxCardOutput bounds the output a card keeps; the terminal pane has it all.
const maxCardOutput = 5000

// Card is the chat's view of one tool call. The router feeds it every event
// with its call ID; its ToolKind decides the summary and the body.
type Card struct {
	ID   string
	Tool string
	Kind *ToolKind

	Status   CardStatus
	Args     string // the arguments: fragments while preparing, then the full JSON
	Action   *tools.Action
	Started  time.Time
	Duration time.Duration
	Result   string
	IsError  bool
	Note     string // a denial's note
	AutoNote bool   // the note is fawn's (a mode, cancellation), not the user's

	output  []string // complete output lines
	partial string   // output after the last newline
	dropped int      // output lines dropped from the front
	// cmd is the finished command's output as the model got it; it
	// replaces the live view, which may have gaps.
	cmd *tools.CommandDone
	// spill, once set, has the finished command's output in the file the
	// bash tool kept it in; cmd.Output is then "" and Result only how it
	// ended.
	spill *spilled
	// exit is a finished command's exit status (-1: it has none), from its
	// CommandDone or, on a restored card, read back from its saved result;
	// nil when not known.
	exit *int

	Viewed  *tools.FileViewed
	Changed *tools.FileChanged
	// Code is what the language servers said of the edit.
	Code    string
	Todos   []tools.Todo
	hasTodo bool

	// Agent is the subagent that made the call ("" for the main agent);
	// its card is indented under the task's.
	Agent string
	// For a task call: the subagent's calls so far, what its last one
	// did, and what it spent once it finished.
	subCalls int
	subLast  *Card
	subUsage *agent.SubagentUsage

	// hooks are the runs of the hooks that gated the call.
	hooks []cardHook

	Expanded bool
	// jump, when set, shows the pane the call drove (Enter or a click on the card).
	jump func()

	// ready: Args is complete. args is Args decoded (argMap), let go by a
	// finished card whose lines the message list let go (dropRender): a
	// long session keeps thousands of cards, and a decoded map costs
	// several times its JSON.
	ready bool
	args  map[string]any
	ver   uint64
}

func newCard(id, tool string, kind *ToolKind) *Card {
	return &Card{ID: id, Tool: tool, Kind: kind}
}

func (c *Card) changed() { c.ver++ }

// argMap is the call's arguments decoded (nil while they stream in).
func (c *Card) argMap() map[string]any {
	if !c.ready {
		return nil
	}
	if c.args == nil {
		c.args = decodeArgs(c.Args)
	}
	return c.args
}

// dropRender lets a finished card's decoded arguments go once its lines
// are let go; they are decoded again when it is drawn.
func (c *Card) dropRender() {
	if c.Status.finished() {
		c.args = nil
	}
}

// arg returns a string argument of the call ("" when absent or not decoded yet).
func (c *Card) arg(name string) string {
	switch v := c.argMap()[name].(type) {
	case string:
		return v
	case float64:
		return fmt.Sprint(v)
	case bool:
		return fmt.Sprint(v)
	}
	return ""
}

// OutputLines returns the output captured so far, line by line: a
// finished command's is split from its output when asked, not kept split
// (a line's string header is 16 bytes, more than a short line's text, and
// a long session keeps hundreds of finished cards).
func (c *Card) OutputLines() []string {
	if c.spill != nil {
		out, _ := c.spilledLines()
		return out
	}
	out := c.output
	if c.cmd != nil {
		if text := strings.TrimSuffix(c.cmd.Output, "\n"); text != "" {
			out = append(strings.Split(text, "\n"), c.output...)
		}
	}
	if c.partial != "" {
		return append(append([]string(nil), out...), c.partial)
	}
	return out
}

// skipMark stands in the live view for lines it left out.
const skipMark = "\x00skipped"

func (c *Card) addOutput(s string, skipped bool) {
	if skipped {
		if c.partial != "" {
			c.output = append(c.output, c.partial)
			c.partial = ""
		}
		c.output = append(c.output, skipMark)
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	parts := strings.Split(c.partial+s, "\n")
	c.partial = parts[len(parts)-1]
	c.output = append(c.output, parts[:len(parts)-1]...)
	if over := len(c.output) - maxCardOutput; over > 0 {
		c.output = append([]string(nil), c.output[over:]...)
		c.dropped += over
	}
}

// handle applies one event of this call.
func (c *Card) handle(ev agent.Event) {
	switch ev.Type {
	case agent.EventToolArgs:
		if !c.ready {
			c.Args += ev.Text
		}
	case agent.EventToolCallReady:
		c.Args, c.ready = ev.Args, true
		c.args = nil // decoded when first asked for
		if ev.Name != "" {
			c.Tool = ev.Name
		}
	case agent.EventPermissionAsked:
		c.Status = StatusWaiting
		if ev.Permission != nil {
			a := ev.Permission.Action
			c.Action = &a
		}
		if ev.Action != nil {
			c.Action = ev.Action
		}
	case agent.EventPermissionAnswered:
		switch {
		case ev.Answer != nil && ev.Answer.Decision == agent.Deny && ev.Answer.Auto && isCancelResult(ev.Answer.Note):
			c.Status = StatusCancelled
		case ev.Answer != nil && ev.Answer.Decision == agent.Deny:
			c.Status = StatusDenied
			c.Note, c.AutoNote = ev.Answer.Note, ev.Answer.Auto
		case c.Status == StatusWaiting && !c.Started.IsZero():
			c.Status = StatusRunning // a question answered: the call goes on
		case c.Status == StatusWaiting:
			c.Status = StatusPreparing
		}
	case agent.EventToolRunStarted:
		c.Status = StatusRunning
		c.Started = time.Now()
		if ev.Action != nil {
			c.Action = ev.Action
		}
	case agent.EventToolOutput:
		out, _ := ev.Data.(tools.Output)
		c.addOutput(ev.Text, out.Skipped)
	case agent.EventToolUpdate:
		switch d := ev.Data.(type) {
		case tools.FileViewed:
			c.Viewed = &d
		case tools.FileChanged:
			c.Changed = &d
		case tools.CodeReport:
			c.Code = d.Text
		case tools.TodosChanged:
			c.Todos = d.Items
			c.hasTodo = true
		case tools.Output:
			c.addOutput(d.Text, d.Skipped)
		case agent.SubagentUsage:
			c.subUsage = &d
		case tools.CommandDone:
			c.cmd = &d
			c.exit = &d.ExitCode
			c.output, c.partial, c.dropped = nil, "", 0
		}
	case agent.EventToolRunEnded:
		c.Result = ev.Result
		if c.cmd != nil && len(c.cmd.Output) > 0 && strings.HasPrefix(c.Result, c.cmd.Output) {
			// The result is the output and a line on how it ended: the
			// output is kept once, in the result (the model's history
			// holds the same string).
			c.cmd.Output = c.Result[:len(c.cmd.Output)]
		}
		c.IsError = ev.IsError
		c.Duration = ev.Duration
		if c.Duration == 0 && !c.Started.IsZero() {
			c.Duration = time.Since(c.Started)
		}
		switch {
		case c.Status == StatusDenied || c.Status == StatusCancelled:
		case ev.IsError && isCancelResult(ev.Result):
			c.Status = StatusCancelled
		case ev.IsError:
			c.Status = StatusFailed
		default:
			c.Status = StatusDone
		}
		c.leaveInSpill()
	}
	c.changed()
}

// isCancelResult recognises the results the agent gives calls the user cancelled.
func isCancelResult(s string) bool {
	s = strings.ToLower(s)
	return strings.Contains(s, "cancelled by the user") || strings.Contains(s, "canceled by the user") ||
		strings.Contains(s, "interrupted by the user")
}

// cancel marks a call that never finished because its turn ended.
func (c *Card) cancel() {
	if !c.Status.finished() {
		c.Status = StatusCancelled
		if !c.Started.IsZero() {
			c.Duration = time.Since(c.Started)
		}
		c.changed()
	}
}

func (c *Card) Toggle() {
	c.Expanded = !c.Expanded
	c.changed()
}

func (c *Card) rev(rc *Ctx) uint64 {
	if c.Status == StatusRunning || c.Status == StatusPreparing {
		return movingRev(c.ver, rc.Frame)
	}
	return stillRev(c.ver)
}

// Summary is the card's one line: the kind's, or the tool name and arguments.
func (c *Card) Summary(rc *Ctx) string {
	s := ""
	if c.Kind != nil && c.Kind.Summary != nil {
		s = c.Kind.Summary(c, rc)
	}
	if s == "" {
		s = genericSummary(c)
	}
	if c.Agent != "" {
		s = c.Agent + " ▸ " + s
	}
	return strings.TrimSpace(render.Sanitize(strings.ReplaceAll(s, "\n", " "), 1))
}

// statusMark is the card's status glyph, its style and the words at the
// right of its header (a duration, "denied", "waiting for permission").
func (c *Card) statusMark(rc *Ctx) (string, tcell.Style, string) {
	th := rc.Th
	base := rc.style()
	took := ""
	if c.Duration > 0 {
		took = render.HumanDuration(c.Duration)
	}
	switch c.Status {
	case StatusPreparing:
		return render.Spinner(rc.Frame), base.Foreground(th.Dim), "preparing"
	case StatusWaiting:
		if c.Tool == "ask_user" {
			return "?", base.Foreground(th.Warning), "waiting for your answer"
		}
		if c.Tool == tools.ExitPlanName {
			return "?", base.Foreground(th.Warning), "waiting for your approval"
		}
		return "⏸", base.Foreground(th.Warning), "waiting for permission"
	case StatusRunning:
		el := ""
		if e := time.Since(c.Started); !c.Started.IsZero() && e >= time.Second {
			el = fmt.Sprintf("%ds", int(e.Seconds()))
		}
		return render.Spinner(rc.Frame), base.Foreground(th.Accent), el
	case StatusDone:
		if c.Kind != nil && c.Kind.Failed != nil && c.Kind.Failed(c) {
			return "✗", base.Foreground(th.Error), took
		}
		return "✓", base.Foreground(th.Success), took
	case StatusFailed:
		return "✗", base.Foreground(th.Error), took
	case StatusDenied:
		if c.Tool == tools.ExitPlanName { // the user wants more planning
			return "↺", base.Foreground(th.Warning), "sent back"
		}
		return "⊘", base.Foreground(th.Error), "denied"
	default:
		return "⊘", base.Foreground(th.Dim), "cancelled"
	}
}

func (c *Card) Render(rc *Ctx, width int) []render.Line {
	if c.Agent != "" && width > 8 {
		// A subagent's call: indented under its task, named by its agent.
		lines := c.renderCard(rc, width-2)
		for i, l := range lines {
			lines[i] = append(render.Line{{Text: "  ", Style: rc.style()}}, l...)
		}
		return lines
	}
	return c.renderCard(rc, width)
}

// renderCard draws the card at width: its header (and, expanded, the whole
// call), then its body, folded when long.
func (c *Card) renderCard(rc *Ctx, width int) []render.Line {
	lines := c.renderHeader(rc, width)
	lines = append(lines, c.hookLines(rc, width)...)
	if body := c.renderBody(rc); len(body) > 0 {
		lines = append(lines, c.renderFolded(rc, body, width)...)
	}
	return lines
}

// renderHeader is the card's first line — glyph, icon, summary and status
// — and, when expanded, the whole call if the summary cut it.
func (c *Card) renderHeader(rc *Ctx, width int) []render.Line {
	th := rc.Th
	base := rc.style()
	dim := base.Foreground(th.Dim)

	glyph, gst, status := c.statusMark(rc)
	icon := "⚙"
	if c.Kind != nil && c.Kind.Icon != "" {
		icon = c.Kind.Icon
	}

	// Header: glyph icon summary ........ status
	right := render.Line{{Text: " " + status, Style: gst}}
	if status == "" {
		right = nil
	}
	left := render.Line{{Text: glyph + " ", Style: gst.Bold(true)}, {Text: icon + " ", Style: base.Foreground(th.Accent)}}
	sumW := width - left.Width() - right.Width()
	head := append(render.Line(nil), left...)
	sum := render.TruncateLine(render.Line{{Text: c.Summary(rc), Style: base.Bold(true)}}, max(sumW, 1))
	head = append(head, sum...)
	if gap := width - head.Width() - right.Width(); gap >= 0 {
		head = append(head, render.Span{Text: strings.Repeat(" ", gap), Style: base})
		head = append(head, right...)
	}
	lines := []render.Line{head}
	if c.Expanded && c.Kind != nil && c.Kind.Full != nil {
		// The summary is one line, cut to the width: expanded, the card
		// shows the whole call.
		if full := strings.TrimSpace(c.Kind.Full(c)); full != "" && (sum.Width() < render.TextWidth(c.Summary(rc)) || full != c.Summary(rc)) {
			bar := render.Line{{Text: "  │ ", Style: dim}}
			lines = append(lines, render.WrapText(full, base.Bold(true), width, bar, bar)...)
		}
	}
	return lines
}

// renderBody is what the card shows under its header, unfolded: its
// kind's body, an error, the user's note on a denial.
func (c *Card) renderBody(rc *Ctx) []render.Line {
	th := rc.Th
	base := rc.style()
	var body []render.Line
	if c.Kind != nil && c.Kind.Body != nil {
		body = c.Kind.Body(c, rc)
	}
	if len(body) == 0 && c.IsError {
		for _, l := range strings.Split(strings.TrimSpace(c.Result), "\n") {
			body = append(body, render.Line{{Text: render.Sanitize(l, 4), Style: base.Foreground(th.Error)}})
		}
	}
	if c.Status == StatusCancelled && len(c.OutputLines()) == 0 && isCancelResult(c.Result) {
		body = nil // "cancelled" says it all
	}
	if c.Status == StatusDenied && c.Note != "" && c.Tool != tools.ExitPlanName { // a plan's result quotes the note
		switch {
		case !c.AutoNote:
			body = append(body, render.Line{{Text: "your note to the model: " + render.Sanitize(c.Note, 1), Style: base.Foreground(th.Warning)}})
		case len(body) == 0:
			body = append(body, render.Line{{Text: render.Sanitize(c.Note, 1), Style: base.Foreground(th.Warning)}}) // "plan mode: edits are refused"
		}
	}
	return body
}

// renderFolded lays the body out under a bar: collapsed, a long body shows
// its first (or, for a tail kind, last) cardBodyLines and a fold line.
func (c *Card) renderFolded(rc *Ctx, body []render.Line, width int) []render.Line {
	dim := rc.style().Foreground(rc.Th.Dim)
	tail := c.Kind != nil && c.Kind.Tail
	bar := render.Span{Text: "  │ ", Style: dim}
	shown := body
	hidden := 0
	if !c.Expanded && len(body) > cardBodyLines {
		hidden = len(body) - cardBodyLines
		if tail {
			shown = body[hidden:]
		} else {
			shown = body[:cardBodyLines]
		}
	}
	foldText := fmt.Sprintf("… %s (Space expands)", words.Plural(hidden, "more line", "more lines"))
	if c.Kind != nil && c.Kind.Fold != nil {
		foldText = c.Kind.Fold(c, hidden)
	}
	// The fold says what is hidden: it wraps rather than lose its end.
	fold := render.WrapLine([]render.Span{{Text: foldText, Style: dim.Italic(true)}}, width, render.Line{bar}, render.Line{bar})
	var lines []render.Line
	if hidden > 0 && tail {
		lines = append(lines, fold...)
	}
	for _, l := range shown {
		if c.IsError || c.Status == StatusDenied {
			// Errors say what to do: they wrap rather than lose their end.
			lines = append(lines, render.WrapLine(l, width, render.Line{bar}, render.Line{bar})...)
			continue
		}
		lines = append(lines, render.TruncateLine(append(render.Line{bar}, l...), width))
	}
	if hidden > 0 && !tail {
		lines = append(lines, fold...)
	}
	if c.Expanded && len(body) > cardBodyLines {
		lines = append(lines, render.Line{bar, {Text: "(Space collapses)", Style: dim.Italic(true)}})
	}
	return lines
}

// foldLine reports whether row line of the rendered card is its
// "… more lines" row, which a click expands.
func (c *Card) foldLine(line int, rendered []render.Line) bool {
	if line < 0 || line >= len(rendered) {
		return false
	}
	if strings.Contains(rendered[line].String(), "(Space collapses)") {
		return true
	}
	// A fold may wrap: its rows run from one starting with "…" to the one
	// ending in "(Space expands)".
	for start := line; start >= max(1, line-2); start-- {
		if !strings.HasPrefix(strings.TrimLeft(rendered[start].String(), " │"), "…") {
			continue
		}
		for end := start; end < min(start+3, len(rendered)); end++ {
			if strings.Contains(rendered[end].String(), "expands)") {
				return end >= line
			}
		}
		return false
	}
	return false
}

func (c *Card) CopyText() string {
	var b strings.Builder
	b.WriteString(c.Summary(&Ctx{}))
	if out := c.OutputLines(); len(out) > 0 {
		b.WriteString("\n")
		for i, l := range out {
			if l == skipMark {
				l = "…"
			}
			if i > 0 {
				b.WriteString("\n")
			}
			b.WriteString(l)
		}
	} else if c.Result != "" {
		b.WriteString("\n")
		b.WriteString(c.Result)
	}
	return b.String()
}

// subagentProgress notes on a task's card an event of one of its
// subagent's calls (child is that call's card).
func (c *Card) subagentProgress(ev agent.Event, child *Card) {
	switch ev.Type {
	case agent.EventToolCallStarted:
		c.subCalls++
	case agent.EventToolRunStarted, agent.EventPermissionAsked:
		c.subLast = child
	default:
		return
	}
	c.changed()
}
