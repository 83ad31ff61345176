package dialogs

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/internal/safetext"
	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/ui/chat"
	"github.com/fawn-ide/fawn/ui/keymap"
	"github.com/fawn-ide/fawn/ui/render"
)

// PermissionDialog asks the user about one tool call at a time: the tool and
// why it asks, the diff of an edit or the command and directory of a shell
// call, and the answers — allow once (y), allow for the session (a), deny
// (n or Esc), deny with a note to the model (d). Requests that arrive while
// one is shown wait in a queue.
type PermissionDialog struct {
	*tview.Box
	ctx   *chat.Ctx
	keys  *keymap.Table
	ask   *AskKeys // a plan's, a question's and the note's keys
	queue []agent.PermissionRequest

	scroll   int
	bodyRows int // rows of the body in the last draw
	noting   bool
	// choice is the highlighted option of a question (ask_user); the one
	// past the last is "other…".
	choice int
	note   *tview.InputField

	// OnAnswer receives the user's answer to request id.
	OnAnswer func(id string, a agent.Answer)
}

func NewPermissionDialog(ctx *chat.Ctx, keys *keymap.Table) *PermissionDialog {
	d := &PermissionDialog{Box: tview.NewBox(), ctx: ctx, keys: keys, ask: DefaultAskKeys()}
	th := ctx.Th
	d.note = tview.NewInputField().
		SetLabel("Note to the model: ").
		SetFieldStyle(tcell.StyleDefault.Background(th.CodeBg).Foreground(th.Foreground)).
		SetLabelStyle(tcell.StyleDefault.Foreground(th.Accent).Background(th.CursorLine))
	d.note.SetBackgroundColor(th.CursorLine)
	d.note.SetPlaceholder(d.noteHint("what to do instead")).
		SetPlaceholderStyle(tcell.StyleDefault.Foreground(th.Dim).Background(th.CodeBg))
	return d
}

// Push queues a request; the first one shows at once.
func (d *PermissionDialog) Push(req agent.PermissionRequest) {
	for _, q := range d.queue {
		if q.ID == req.ID {
			return
		}
	}
	d.queue = append(d.queue, req)
	if len(d.queue) == 1 {
		d.reset()
	}
}

// Drop withdraws the request of call id (answered elsewhere, or its call ended).
func (d *PermissionDialog) Drop(id string) {
	for i, q := range d.queue {
		if q.ID == id {
			d.queue = append(d.queue[:i], d.queue[i+1:]...)
			if i == 0 {
				d.reset()
			}
			return
		}
	}
}

// Current returns the request shown, or nil.
func (d *PermissionDialog) Current() *agent.PermissionRequest {
	if len(d.queue) == 0 {
		return nil
	}
	return &d.queue[0]
}

// Pending is the number of requests waiting, the shown one included.
func (d *PermissionDialog) Pending() int { return len(d.queue) }

func (d *PermissionDialog) Visible() bool { return len(d.queue) > 0 }
func (d *PermissionDialog) Modal() bool   { return true }

func (d *PermissionDialog) reset() {
	d.scroll, d.noting, d.choice = 0, false, 0
	d.note.SetText("")
	d.note.SetLabel("Note to the model: ")
	d.note.SetPlaceholder(d.noteHint("what to do instead"))
	if req := d.Current(); req != nil && req.Question != nil {
		d.note.SetLabel("Your answer: ")
		d.note.SetPlaceholder(d.noteHint("in your own words"))
	}
	if req := d.Current(); req != nil && req.Plan != "" {
		d.note.SetLabel("What to change: ")
		d.note.SetPlaceholder(d.noteHint("the plan goes back with this note"))
	}
}

// noteHint is the note field's placeholder: what to write, and its keys.
func (d *PermissionDialog) noteHint(what string) string {
	n := d.ask.Note
	return what + " (" + n.Hint(ActionNoteSend) + " sends, " + n.Hint(ActionNoteBack) + " goes back)"
}

func (d *PermissionDialog) answer(a agent.Answer) {
	req := d.Current()
	if req == nil {
		return
	}
	id := req.ID
	d.queue = d.queue[1:]
	d.reset()
	if d.OnAnswer != nil {
		d.OnAnswer(id, a)
	}
}

// Verb says what a call wants to do, for the dialog's first line.
func Verb(k tools.Kind) string {
	switch k {
	case tools.KindEdit:
		return "edit a file"
	case tools.KindExec:
		return "run a command"
	case tools.KindRead:
		return "read"
	case tools.KindFetch:
		return "reach the web"
	default:
		return "act"
	}
}

// body returns the dialog's scrollable lines for req at width.
func (d *PermissionDialog) body(req *agent.PermissionRequest, width int) []render.Line {
	rc := d.ctx
	base := tcell.StyleDefault.Foreground(rc.Th.Foreground).Background(rc.Th.CursorLine)
	dim := base.Foreground(rc.Th.Dim)
	a := req.Action
	var out []render.Line
	add := func(l render.Line) { out = append(out, l) }
	wrap := func(text string, st tcell.Style, first, indent render.Line) {
		out = append(out, render.WrapText(text, st, width, first, indent)...)
	}
	if req.Plan != "" {
		return d.planBody(req, width)
	}
	if q := req.Question; q != nil {
		wrap(q.Text, base.Bold(true), nil, nil)
		add(nil)
		key := base.Foreground(rc.Th.Accent).Bold(true)
		for i, o := range append(append([]string(nil), q.Options...), "Other… (answer in your own words)") {
			st, mark := base, "  "
			if i == d.choice {
				st, mark = base.Reverse(true), "› "
			}
			wrap(o, st, render.Line{{Text: mark, Style: key}, {Text: fmt.Sprintf("%d ", i+1), Style: key}}, render.Line{{Text: "    ", Style: base}})
		}
		return out
	}
	if a.Summary != "" && strings.TrimSpace(strings.TrimPrefix(a.Summary, "$")) != strings.TrimSpace(a.Command) {
		wrap(a.Summary, base.Bold(true), nil, nil) // the command itself shows below
	}
	if req.Reason != "" {
		wrap(req.Reason, dim.Italic(true), nil, nil)
	}
	switch {
	case a.Command != "":
		add(nil)
		cmdStyle := base.Foreground(rc.Th.Warning).Bold(true)
		for i, l := range commandLines(a.Command) {
			first := render.Line{{Text: "  ", Style: dim}}
			if i == 0 {
				first = render.Line{{Text: "$ ", Style: dim}}
			}
			var spans []render.Span
			for _, p := range l {
				st := cmdStyle
				if p.marker {
					st = dim.Reverse(true)
				}
				spans = append(spans, render.Span{Text: p.text, Style: st})
			}
			out = append(out, render.WrapSpans(spans, width, first, render.Line{{Text: "  ", Style: dim}}, true)...)
		}
		if a.Cwd != "" {
			wrap(a.Cwd, dim, render.Line{{Text: "in ", Style: dim}}, render.Line{{Text: "   ", Style: dim}})
		}
	case a.Diff != "":
		if a.Path != "" {
			wrap(render.RelPath(rc.Root, a.Path), base, render.Line{{Text: "file ", Style: dim}}, nil)
		}
		add(nil)
		for _, l := range chat.ColorDiff(a.Diff, rc) {
			for i := range l {
				l[i].Style = l[i].Style.Background(rc.Th.CursorLine)
			}
			out = append(out, render.WrapSpans(l, width, nil, nil, true)...)
		}
	case a.Path != "":
		wrap(render.RelPath(rc.Root, a.Path), base, render.Line{{Text: "file ", Style: dim}}, nil)
	}
	return out
}

// cmdPart is a piece of a command line as the dialog shows it: the text
// itself, or a marker standing for what would otherwise be invisible.
type cmdPart struct {
	text   string
	marker bool
}

// commandLines is cmd as the permission dialog shows it, hiding nothing: a
// run of blank lines is one marker line ("⏎×60"), a long run of spaces is a
// marker ("␠×200"), and control and invisible characters are shown as
// safetext.Exact shows them ("␍", "␛", "<U+202E>") instead of being
// dropped or acted on by the terminal.
func commandLines(cmd string) [][]cmdPart {
	var out [][]cmdPart
	blank := 0
	flush := func() {
		switch {
		case blank == 1:
			out = append(out, nil)
		case blank > 1:
			out = append(out, []cmdPart{{fmt.Sprintf("⏎×%d", blank), true}})
		}
		blank = 0
	}
	lines := strings.Split(cmd, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) == "" && i > 0 && i < len(lines)-1 {
			blank++
			continue
		}
		flush()
		out = append(out, commandLine(l))
	}
	return out
}

// commandLine splits one line of a command into text and markers.
func commandLine(l string) []cmdPart {
	var parts []cmdPart
	var b strings.Builder
	emit := func(p cmdPart) {
		if b.Len() > 0 {
			parts = append(parts, cmdPart{text: b.String()})
			b.Reset()
		}
		parts = append(parts, p)
	}
	rs := []rune(l)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == ' ' || r == '\t':
			j := i
			for j < len(rs) && (rs[j] == ' ' || rs[j] == '\t') {
				j++
			}
			if j-i >= 16 {
				emit(cmdPart{fmt.Sprintf("␠×%d", j-i), true})
			} else {
				b.WriteString(strings.Repeat(" ", j-i))
			}
			i = j - 1
		default:
			// What the user approves must be exactly what runs: every
			// control and invisible character is a marker (safetext's
			// Exact form: ␍, ␛, <U+202E>, <U+200B>).
			if shown := safetext.Exact(string(r)); shown != string(r) {
				emit(cmdPart{shown, true})
			} else {
				b.WriteRune(r)
			}
		}
	}
	if b.Len() > 0 {
		parts = append(parts, cmdPart{text: b.String()})
	}
	return parts
}

func (d *PermissionDialog) Draw(screen tcell.Screen) {
	req := d.Current()
	if req == nil {
		return
	}
	th := d.ctx.Th
	sx, sy, sw, sh := d.GetRect()
	w := min(sw-4, max(60, sw*3/4))
	if w > 110 {
		w = 110
	}
	inner := w - 4
	body := d.body(req, inner)
	footer := d.footer(req, inner)
	h := min(sh-2, len(body)+len(footer)+5)
	if h < 6 {
		h = min(sh, 6)
	}
	x := sx + (sw-w)/2
	y := sy + (sh-h)/2
	base := tcell.StyleDefault.Foreground(th.Foreground).Background(th.CursorLine)
	render.Fill(screen, x, y, w, h, base)
	title := fmt.Sprintf(" %s wants to %s ", req.Tool, Verb(req.Action.Kind))
	if req.Agent != "" {
		title = fmt.Sprintf(" the %s agent: %s wants to %s ", req.Agent, req.Tool, Verb(req.Action.Kind))
	}
	if req.Plan != "" {
		title = " the agent's plan: approve it to leave plan mode "
	}
	if req.Question != nil {
		title = " the agent asks you "
		if req.Agent != "" {
			title = fmt.Sprintf(" the %s agent asks you ", req.Agent)
		}
	}
	if n := len(d.queue); n > 1 {
		title += fmt.Sprintf("(1 of %d) ", n)
	}
	render.DrawBorder(screen, x, y, w, h, base.Foreground(th.Warning), render.Line{{Text: title, Style: base.Foreground(th.Warning).Bold(true)}})

	// Body, scrollable; the footer stays put.
	d.bodyRows = h - 3 - len(footer)
	if d.scroll > len(body)-d.bodyRows {
		d.scroll = max(0, len(body)-d.bodyRows)
	}
	for i := 0; i < d.bodyRows && d.scroll+i < len(body); i++ {
		render.DrawLine(screen, x+2, y+1+i, inner, body[d.scroll+i])
	}
	if len(body) > d.bodyRows {
		below := len(body) - min(d.scroll+d.bodyRows, len(body))
		more := fmt.Sprintf(" ↑↓ PgDn: %d more lines ", below)
		if below == 1 {
			more = " ↑↓ PgDn: 1 more line "
		}
		if d.scroll+d.bodyRows >= len(body) {
			more = fmt.Sprintf(" ↑↓ %d/%d ", len(body), len(body))
		}
		render.DrawText(screen, x+w-2-len(more), y+h-1, len(more), more, base.Foreground(th.Dim))
	}
	fy := y + h - 1 - len(footer)
	for i, l := range footer {
		render.DrawLine(screen, x+2, fy+i, inner, l)
	}
	if d.noting {
		d.note.SetRect(x+2, fy-1, inner, 1)
		d.note.Draw(screen)
	}
}

func (d *PermissionDialog) footer(req *agent.PermissionRequest, width int) []render.Line {
	th := d.ctx.Th
	base := tcell.StyleDefault.Foreground(th.Foreground).Background(th.CursorLine)
	key := base.Foreground(th.Accent).Bold(true)
	var items []render.Line
	if req.Plan != "" {
		return d.planFooter(width)
	}
	if q := req.Question; q != nil {
		items = []render.Line{
			{{Text: fmt.Sprintf("1–%d", len(q.Options)+1), Style: key}, {Text: " pick", Style: base}},
			{{Text: d.ask.Question.Hint(ActionQuestionUp) + d.ask.Question.Hint(ActionQuestionDown) + " " + d.ask.Question.Hint(ActionQuestionChoose), Style: key}, {Text: " choose", Style: base}},
			{{Text: d.ask.Question.Hint(ActionQuestionDismiss), Style: key}, {Text: " do not answer", Style: base}},
		}
		return packItems(items, width, base)
	}
	for _, b := range []struct {
		action keymap.Action
		label  string
	}{
		{actPermissionAllow, "allow once"},
		{actPermissionAllowSession, "allow for this session"},
		{actPermissionAllowAlways, "always (add a rule)"},
		{actPermissionDeny, "deny"},
		{actPermissionDenyNote, "deny with a note"},
	} {
		keys := d.keys.Keys(b.action)
		if len(keys) == 0 {
			continue
		}
		var ks []string
		for _, k := range keys {
			ks = append(ks, keymap.Display(k))
		}
		items = append(items, render.Line{{Text: strings.Join(ks, "/"), Style: key}, {Text: " " + b.label, Style: base}})
	}
	return packItems(items, width, base)
}

// packItems packs whole items into rows, so no answer is split across two.
func packItems(items []render.Line, width int, base tcell.Style) []render.Line {
	var out []render.Line
	var cur render.Line
	for _, it := range items {
		if len(cur) > 0 && cur.Width()+3+it.Width() > width {
			out = append(out, cur)
			cur = nil
		}
		if len(cur) > 0 {
			cur = append(cur, render.Span{Text: "   ", Style: base})
		}
		cur = append(cur, it...)
	}
	return append(out, cur)
}

func (d *PermissionDialog) InputHandler() func(event *tcell.EventKey, setFocus func(p tview.Primitive)) {
	return func(ev *tcell.EventKey, setFocus func(p tview.Primitive)) {
		if d.Current() == nil {
			return
		}
		if q := d.Current().Question; q != nil && !d.noting {
			d.question(q, ev)
			return
		}
		if d.Current().Plan != "" && !d.noting {
			d.planKey(ev)
			return
		}
		if d.noting {
			switch d.ask.Note.Action(ev) {
			case ActionNoteSend:
				if d.Current().Question != nil {
					if text := strings.TrimSpace(d.note.GetText()); text != "" {
						d.answer(agent.Answer{Decision: agent.AllowOnce, Note: text})
					}
					return
				}
				d.answer(agent.Answer{Decision: agent.Deny, Note: strings.TrimSpace(d.note.GetText())})
			case ActionNoteBack:
				d.noting = false
			default:
				d.note.InputHandler()(ev, setFocus)
			}
			return
		}
		switch d.keys.Action(ev) {
		case actPermissionAllow:
			d.answer(agent.Answer{Decision: agent.AllowOnce})
		case actPermissionAllowSession:
			d.answer(agent.Answer{Decision: agent.AllowSession})
		case actPermissionAllowAlways:
			d.answer(agent.Answer{Decision: agent.AllowAlways})
		case actPermissionDeny:
			d.answer(agent.Answer{Decision: agent.Deny})
		case actPermissionDenyNote:
			d.noting = true
			d.note.SetText("")
		case actPermissionScrollUp:
			step := 1
			if ev.Key() == tcell.KeyPgUp {
				step = max(1, d.bodyRows-1)
			}
			d.scroll = max(0, d.scroll-step)
		case actPermissionScrollDown:
			step := 1
			if ev.Key() == tcell.KeyPgDn {
				step = max(1, d.bodyRows-1)
			}
			d.scroll += step
		}
	}
}

func (d *PermissionDialog) PasteHandler() func(text string, setFocus func(p tview.Primitive)) {
	return func(text string, setFocus func(p tview.Primitive)) {
		if d.noting {
			d.note.PasteHandler()(strings.ReplaceAll(text, "\n", " "), setFocus)
		}
	}
}

func (d *PermissionDialog) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
	return func(action tview.MouseAction, ev *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
		switch action {
		case tview.MouseScrollUp:
			d.scroll = max(0, d.scroll-1)
		case tview.MouseScrollDown:
			d.scroll++
		}
		return true, nil
	}
}

// question handles a key while a question (ask_user) is shown: a number
// picks an option, the arrows and Enter choose, the last option ("other…")
// opens the answer field, and Esc leaves it unanswered.
func (d *PermissionDialog) question(q *agent.Question, ev *tcell.EventKey) {
	n := len(q.Options) + 1
	pick := func(i int) {
		if i == n-1 {
			d.choice, d.noting = i, true
			d.note.SetText("")
			return
		}
		d.answer(agent.Answer{Decision: agent.AllowOnce, Note: q.Options[i]})
	}
	switch d.ask.Question.Action(ev) {
	case ActionQuestionUp:
		d.choice = (d.choice + n - 1) % n
	case ActionQuestionDown:
		d.choice = (d.choice + 1) % n
	case ActionQuestionChoose:
		pick(d.choice)
	case ActionQuestionDismiss:
		d.answer(agent.Answer{Decision: agent.Deny, Auto: true, Note: "not answered"})
	default:
		// The options' numbers are their labels, not bindings.
		if r := ev.Rune(); ev.Key() == tcell.KeyRune && r >= '1' && int(r-'0') <= n {
			pick(int(r - '1'))
		}
	}
}
