package chat

import (
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/ui/commands"
	"github.com/fawn-ide/fawn/ui/keymap"
	"github.com/fawn-ide/fawn/ui/picker"
	"github.com/fawn-ide/fawn/ui/render"
	"github.com/fawn-ide/fawn/ui/theme"
)

// maxInputRows is the most rows the input grows to before it scrolls.
const maxInputRows = 8

// Input is the chat's message editor: a tview.TextArea with the chat key
// table on top — Enter sends, Shift-Enter / Alt-Enter / Ctrl-J insert a
// newline, Up/Down on the first/last line recall history, Tab completes a
// slash command — and a completion popup for commands.
type Input struct {
	*tview.TextArea
	th       *theme.Theme
	keys     *keymap.Table
	commands *commands.Commands

	HintWidth int // the width the placeholder was fitted to
	hint      string
	hintStyle tcell.Style

	history []string
	histPos int    // len(history) when not browsing
	draft   string // the text being written before browsing began

	// completion popup state
	matches []*commands.Command
	compSel int
	// cycling: Tab has put a match into the input and steps through the
	// matches; the list stays as it was for the text typed.
	cycling bool
	// compDismissed hides the popup until the text changes.
	compDismissed string

	// @ completion: the files matching the @-token at the cursor.
	MentionAt     int // offset of the token's "@"; -1 when none
	mentionHits   []string
	mentionSel    int
	mentionWait   bool   // the file list is still coming
	mentionHidden string // the text when Esc closed the list
	// MentionFiles returns the project's paths best matching a query.
	MentionFiles func(query string) (hits []string, loading bool)

	OnSubmit   func(text string)
	OnCancel   func()
	Busy       func() bool
	OnScroll   func(rows int)
	OnMessages func()
	OnOpenFile func()
	// OnHistorySearch opens the search of the prompts sent (Ctrl-R).
	OnHistorySearch func()
	// ImagePath recognises a pasted image file's path (set by the app).
	ImagePath func(text string) (string, bool)

	vim     *inputVim     // chat.keys: vim (inputvim.go)
	vimKeys *keymap.Table // its <Esc> (ChatVimKeys)
}

func NewInput(th *theme.Theme, keys *keymap.Table, commands *commands.Commands) *Input {
	in := &Input{TextArea: tview.NewTextArea(), th: th, keys: keys, commands: commands, MentionAt: -1}
	in.SetBackgroundColor(th.Background)
	in.SetTextStyle(tcell.StyleDefault.Foreground(th.Foreground).Background(th.Background))
	in.hintStyle = tcell.StyleDefault.Foreground(th.Dim).Background(th.Background)
	in.SetSelectedStyle(tcell.StyleDefault.Background(th.Selection).Foreground(th.Foreground))
	in.SetWrap(true)
	in.fitPlaceholder(80)
	return in
}

// fitPlaceholder sets the hint the empty input shows to the phrases that
// fit in width, most useful first, so none is cut in the middle.
func (in *Input) fitPlaceholder(width int) {
	if width == in.HintWidth {
		return
	}
	in.HintWidth = width
	keys := func(action keymap.Action, n int) string {
		var ks []string
		for _, k := range in.keys.Keys(action) {
			if len(ks) < n {
				ks = append(ks, keymap.Display(k))
			}
		}
		return strings.Join(ks, "/")
	}
	type phrase struct {
		text string
		rank int // lower is more useful
	}
	phrases := []phrase{{"Ask fawn…", 0}}
	if k := keys(actChatSend, 1); k != "" {
		phrases = append(phrases, phrase{k + " sends", 1})
	}
	if k := keys(actChatNewline, 2); k != "" {
		phrases = append(phrases, phrase{k + " newline", 4})
	}
	phrases = append(phrases, phrase{"/ commands", 3})
	if in.MentionFiles != nil {
		phrases = append(phrases, phrase{"@ files", 5})
	}
	phrases = append(phrases, phrase{"F1 help", 2})
	keep := map[int]bool{}
	used := 0
	for rank := 0; rank <= 5; rank++ {
		for i, p := range phrases {
			if p.rank != rank {
				continue
			}
			w := render.TextWidth(p.text)
			if i > 0 {
				w += 3 // " · "
			}
			if used+w <= width {
				keep[i] = true
				used += w
			}
		}
	}
	var b strings.Builder
	for i, p := range phrases {
		if !keep[i] {
			continue
		}
		switch {
		case b.Len() == 0:
		case i == 1:
			b.WriteString("  ")
		default:
			b.WriteString(" · ")
		}
		b.WriteString(p.text)
	}
	in.hint = b.String()
}

// Draw draws the text area and, while it is empty, the hint. (tview's
// own placeholder builds a TextView at every frame to draw it, a tenth of
// a frame that redraws the chat while an answer streams; the hint always
// fits on one row.)
func (in *Input) Draw(screen tcell.Screen) {
	in.TextArea.Draw(screen)
	if in.GetTextLength() == 0 && in.hint != "" {
		if x, y, w, h := in.GetInnerRect(); w > 0 && h > 0 {
			render.Fill(screen, x, y, w, h, in.hintStyle) // as tview's TextView does
			render.DrawText(screen, x, y, w, in.hint, in.hintStyle)
		}
	}
	in.drawVimMode(screen)
}

// AddHistory remembers a sent message for Up/Down.
func (in *Input) AddHistory(text string) {
	if n := len(in.history); n == 0 || in.history[n-1] != text {
		in.history = append(in.history, text)
	}
	in.histPos = len(in.history)
}

// Rows is how many rows the input wants at width (1…maxInputRows).
func (in *Input) Rows(width int) int { return in.rowsUpTo(width, maxInputRows) }

// UpdateCompletion recomputes the popup from the text.
func (in *Input) UpdateCompletion() {
	text := in.GetText()
	in.matches = nil
	if text == in.compDismissed {
		return
	}
	in.compDismissed = ""
	in.cycling = false
	in.compSel = 0
	if !strings.HasPrefix(text, "/") || strings.ContainsAny(text, " \n") {
		in.UpdateMentions()
		return
	}
	in.matches = in.commands.Match(text[1:])
}

// UpdateMentions recomputes the @ list for the token at the cursor.
func (in *Input) UpdateMentions() {
	in.MentionAt, in.mentionHits = -1, nil
	text := in.GetText()
	if in.MentionFiles == nil || text == in.mentionHidden {
		return
	}
	in.mentionHidden = ""
	_, _, end := in.GetSelection()
	start, query, ok := mentionToken(text, end)
	if !ok {
		return
	}
	hits, wait := in.MentionFiles(query)
	in.MentionAt, in.mentionHits, in.mentionWait = start, hits, wait
	if in.mentionSel >= len(hits) {
		in.mentionSel = 0
	}
}

// mentioning reports whether the @ list is open.
func (in *Input) mentioning() bool {
	return in.MentionAt >= 0 && (len(in.mentionHits) > 0 || in.mentionWait)
}

// acceptMention puts the selected path in place of the @-token: a file with
// a space after it, a directory with its "/" so the list goes on inside it.
func (in *Input) acceptMention() {
	if len(in.mentionHits) == 0 {
		return
	}
	p := in.mentionHits[in.mentionSel]
	_, _, end := in.GetSelection()
	text := mentionText(p)
	if !strings.HasSuffix(p, "/") {
		text += " "
	}
	in.Replace(in.MentionAt, end, text)
	in.mentionSel = 0
	in.UpdateMentions()
}

// complete is Tab (step 1) or Shift-Tab (step -1, chat.complete_prev)
// while the popup is open:
// a single match is accepted; else the typed name grows to what all the
// matches share; then each Tab puts the next match into the input.
func (in *Input) complete(step int) {
	n := len(in.matches)
	if n == 1 {
		in.accept()
		return
	}
	if !in.cycling {
		typed := strings.TrimPrefix(in.GetText(), "/")
		if common := commonPrefix(in.matches); len(common) > len(typed) && strings.HasPrefix(common, typed) {
			in.SetText("/"+common, true)
			in.UpdateCompletion()
			if len(in.matches) == 1 {
				in.accept()
			}
			return
		}
		in.cycling = true
		if step < 0 {
			in.compSel = (in.compSel + n - 1) % n
		} else if "/"+in.matches[in.compSel].Name == in.GetText() {
			in.compSel = (in.compSel + 1) % n // it is in the input already
		}
	} else {
		in.compSel = (in.compSel + n + step) % n
	}
	in.SetText("/"+in.matches[in.compSel].Name, true)
}

// commonPrefix is the longest prefix of every command name that starts
// with the first's first letter ("" when the names differ at once).
func commonPrefix(cmds []*commands.Command) string {
	if len(cmds) == 0 {
		return ""
	}
	p := cmds[0].Name
	for _, c := range cmds[1:] {
		for !strings.HasPrefix(c.Name, p) {
			p = p[:len(p)-1]
		}
	}
	return p
}

// Completing reports whether the popup is open.
func (in *Input) Completing() bool { return len(in.matches) > 0 }

// accept puts the selected command into the input, with the space its
// arguments (or the message after a bare command) start after.
func (in *Input) accept() {
	if len(in.matches) == 0 {
		return
	}
	text := "/" + in.matches[in.compSel].Name + " "
	in.SetText(text, true)
	in.matches = nil
	in.compDismissed = text
}

func (in *Input) forward(ev *tcell.EventKey, setFocus func(p tview.Primitive)) {
	in.TextArea.InputHandler()(ev, setFocus)
}

func (in *Input) InputHandler() func(event *tcell.EventKey, setFocus func(p tview.Primitive)) {
	return func(ev *tcell.EventKey, setFocus func(p tview.Primitive)) {
		action := in.keys.Action(ev)
		if in.vim != nil && in.vimKey(ev, action, setFocus) {
			return
		}
		if in.mentioning() && in.mentionKey(ev, action) {
			return
		}
		if in.Completing() && in.completionKey(ev, action) {
			return
		}
		if in.chatKey(ev, action, setFocus) {
			in.UpdateCompletion()
		}
	}
}

// mentionKey handles a key while an @-mention's hits show, and says
// whether it took it.
func (in *Input) mentionKey(ev *tcell.EventKey, action keymap.Action) bool {
	switch {
	case action == actChatHistoryPrev && len(in.mentionHits) > 0:
		in.mentionSel = (in.mentionSel + len(in.mentionHits) - 1) % len(in.mentionHits)
	case action == actChatHistoryNext && len(in.mentionHits) > 0:
		in.mentionSel = (in.mentionSel + 1) % len(in.mentionHits)
	case action == actChatComplete || (action == actChatSend && len(in.mentionHits) > 0 && in.mentionQuery() != in.mentionHits[in.mentionSel]):
		in.acceptMention()
	case action == actChatCancel:
		in.mentionHidden = in.GetText()
		in.MentionAt, in.mentionHits = -1, nil
	default:
		return false
	}
	return true
}

// completionKey handles a key while slash-command completions show, and
// says whether it took it. Enter on a command without a required argument
// leaves the bare command in the input and is not taken: it is sent.
func (in *Input) completionKey(ev *tcell.EventKey, action keymap.Action) bool {
	switch {
	case action == actChatHistoryPrev:
		in.compSel = (in.compSel + len(in.matches) - 1) % len(in.matches)
	case action == actChatHistoryNext:
		in.compSel = (in.compSel + 1) % len(in.matches)
	case action == actChatComplete:
		in.complete(1)
	case action == actChatCompletePrev:
		in.complete(-1)
	case action == actChatSend:
		cmd := in.matches[in.compSel]
		if strings.HasPrefix(cmd.Args, "<") {
			in.accept() // a required argument: let the user type it
			return true
		}
		// Arguments in brackets are optional: the command runs
		// bare (/mode and /model then offer a picker).
		in.SetText("/"+cmd.Name, true)
		return false
	case action == actChatCancel:
		in.compDismissed = in.GetText()
		in.matches = nil
	default:
		return false
	}
	return true
}

// chatKey carries out the chat input's action for a key, and says
// whether the text may have changed (so completions are looked up again).
func (in *Input) chatKey(ev *tcell.EventKey, action keymap.Action, setFocus func(p tview.Primitive)) bool {
	switch action {
	case actChatSend:
		text := in.GetText()
		if strings.TrimSpace(text) == "" {
			return false
		}
		in.AddHistory(text)
		in.SetText("", false)
		in.draft = ""
		in.matches = nil
		in.MentionAt, in.mentionHits = -1, nil // the @ list goes with the text
		if in.OnSubmit != nil {
			in.OnSubmit(text)
		}
		return false
	case actChatNewline:
		in.forward(tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone), setFocus)
	case actChatCancel:
		if in.OnCancel != nil {
			in.OnCancel()
		}
		return false
	case actChatInterrupt:
		in.interrupt()
		return false
	case actChatHistoryPrev:
		if in.historyPrev() {
			return false
		}
		in.forward(ev, setFocus)
	case actChatHistoryNext:
		if in.historyNext() {
			return false
		}
		in.forward(ev, setFocus)
	case actChatComplete:
		if strings.HasPrefix(in.GetText(), "/") {
			in.compDismissed = ""
			in.UpdateCompletion()
			if len(in.matches) > 0 {
				in.complete(1)
			}
			return false
		}
		in.forward(ev, setFocus)
	case actChatScrollUp, actChatScrollDown, actChatMessages, actChatOpenFile, actChatHistorySearch:
		in.callback(action)
		return false
	default:
		in.forward(ev, setFocus)
	}
	return true
}

// interrupt is Ctrl-C in the chat: it stops a turn, or puts the text
// aside (Up brings it back).
func (in *Input) interrupt() {
	if in.Busy != nil && in.Busy() {
		if in.OnCancel != nil {
			in.OnCancel()
		}
	} else if in.GetText() != "" {
		in.draft = in.GetText() // Up brings it back
		in.histPos = len(in.history)
		in.AddHistory(in.draft)
		in.SetText("", false)
		in.matches = nil
		in.MentionAt, in.mentionHits = -1, nil // the lists go with the text
	}
}

// historyPrev shows the previous prompt when the cursor is on the first
// row, and says whether it did.
func (in *Input) historyPrev() bool {
	if row, _, _, _ := in.GetCursor(); row == 0 && len(in.history) > 0 && in.histPos > 0 {
		if in.histPos == len(in.history) {
			in.draft = in.GetText()
		}
		in.histPos--
		in.SetText(in.history[in.histPos], true)
		return true
	}
	return false
}

// historyNext shows the next prompt (or the draft) when the cursor is on
// the last row, and says whether it did.
func (in *Input) historyNext() bool {
	if in.histPos < len(in.history) && !strings.Contains(in.afterCursor(), "\n") {
		in.histPos++
		if in.histPos == len(in.history) {
			in.SetText(in.draft, true)
		} else {
			in.SetText(in.history[in.histPos], true)
		}
		return true
	}
	return false
}

// callback hands the App the actions it carries out for the input.
func (in *Input) callback(action keymap.Action) {
	switch {
	case action == actChatScrollUp && in.OnScroll != nil:
		in.OnScroll(-1)
	case action == actChatScrollDown && in.OnScroll != nil:
		in.OnScroll(1)
	case action == actChatMessages && in.OnMessages != nil:
		in.OnMessages()
	case action == actChatOpenFile && in.OnOpenFile != nil:
		in.OnOpenFile()
	case action == actChatHistorySearch && in.OnHistorySearch != nil:
		in.OnHistorySearch()
	}
}

// afterCursor is the text after the cursor.
func (in *Input) afterCursor() string {
	_, _, end := in.GetSelection()
	text := in.GetText()
	if end > len(text) {
		end = len(text)
	}
	return text[end:]
}

func (in *Input) PasteHandler() func(text string, setFocus func(p tview.Primitive)) {
	return func(text string, setFocus func(p tview.Primitive)) {
		// A paste is text, never a command to send: newlines stay newlines.
		text = strings.ReplaceAll(text, "\r\n", "\n")
		text = strings.ReplaceAll(text, "\r", "\n")
		// A dropped image file arrives as its path: it becomes a mention.
		if in.ImagePath != nil {
			if p, ok := in.ImagePath(text); ok {
				text = mentionText(p) + " "
			}
		}
		in.TextArea.PasteHandler()(text, setFocus)
		in.UpdateCompletion()
	}
}

// drawCompletion draws the popup upwards from the row above y, and says
// whether there was one.
func (in *Input) drawCompletion(screen tcell.Screen, x, y, w, maxRows int) bool {
	if in.mentioning() && maxRows > 0 {
		in.drawMentions(screen, x, y, w, maxRows)
		return true
	}
	if !in.Completing() || maxRows <= 0 {
		return false
	}
	n := min(len(in.matches), maxRows, 8)
	// Keep the selection in the visible window.
	first := 0
	if in.compSel >= n {
		first = in.compSel - n + 1
	}
	base := tcell.StyleDefault.Foreground(in.th.Foreground).Background(in.th.CursorLine)
	for i := 0; i < n; i++ {
		cmd := in.matches[first+i]
		st := base
		if first+i == in.compSel {
			st = base.Background(in.th.Selection).Bold(true)
		}
		row := y - n + i
		render.Fill(screen, x, row, w, 1, st)
		name := "/" + cmd.Name
		if cmd.Args != "" {
			name += " " + cmd.Args
		}
		end := render.DrawText(screen, x+1, row, w-1, name, st)
		render.DrawText(screen, max(end+2, x+18), row, x+w-max(end+2, x+18), cmd.Help, st.Foreground(in.th.Dim).Bold(false))
	}
	return true
}

// drawMentions draws the @ list upwards from the row above y.
func (in *Input) drawMentions(screen tcell.Screen, x, y, w, maxRows int) {
	rows := len(in.mentionHits)
	if rows == 0 {
		rows = 1 // "listing files…"
	}
	n := min(rows, maxRows, 8)
	base := tcell.StyleDefault.Foreground(in.th.Foreground).Background(in.th.CursorLine)
	// Matches of a listing still under way are the best of what is listed
	// so far: the top row says so (a better one may come).
	if len(in.mentionHits) > 0 && in.mentionWait && maxRows > 1 {
		n = min(n, maxRows-1)
		render.Fill(screen, x, y-n-1, w, 1, base)
		render.DrawText(screen, x+1, y-n-1, w-1, "… still listing the project's files: more may come", base.Foreground(in.th.Dim).Italic(true))
	}
	first := 0
	if in.mentionSel >= n {
		first = in.mentionSel - n + 1
	}
	query := in.mentionQuery()
	for i := 0; i < n; i++ {
		row := y - n + i
		st := base
		if len(in.mentionHits) == 0 {
			render.Fill(screen, x, row, w, 1, st)
			render.DrawText(screen, x+1, row, w-1, "listing the project's files…", st.Foreground(in.th.Dim).Italic(true))
			continue
		}
		p := render.Sanitize(in.mentionHits[first+i], 1)
		if first+i == in.mentionSel {
			st = base.Background(in.th.Selection).Bold(true)
		}
		render.Fill(screen, x, row, w, 1, st)
		pos := picker.Positions(p, query)
		var l render.Line
		pi := 0
		for off, r := range p {
			cs := st
			if pi < len(pos) && pos[pi] == off {
				cs = cs.Foreground(in.th.Accent)
				pi++
			} else if strings.HasSuffix(p, "/") {
				cs = cs.Foreground(in.th.Accent)
			}
			l = append(l, render.Span{Text: string(r), Style: cs})
		}
		render.DrawLine(screen, x+1, row, w-2, render.TruncateLine(append(render.Line{{Text: "@", Style: st.Foreground(in.th.Dim)}}, l...), w-2))
	}
}

// mentionQuery is the text of the @-token after its "@".
func (in *Input) mentionQuery() string {
	if in.MentionAt < 0 {
		return ""
	}
	text := in.GetText()
	_, _, end := in.GetSelection()
	if end <= in.MentionAt || end > len(text) {
		return ""
	}
	return text[in.MentionAt+1 : end]
}
