package panes

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/checkpoint"
	"github.com/fawn-ide/fawn/ui/editor"
	"github.com/fawn-ide/fawn/ui/keymap"
	"github.com/fawn-ide/fawn/ui/render"
	"github.com/fawn-ide/fawn/ui/sessions"
	"github.com/fawn-ide/fawn/ui/theme"
)

// ChangeRow is one file of the Changes tab.
type ChangeRow struct {
	Path  string
	State string // "new", "deleted" or ""
	Plus  int
	Minus int
	// Counted is false when the diff was not computed (content not kept,
	// or too many files): the counts are then not shown.
	Counted bool
	By      string
	When    time.Time
}

// maxCountedRows bounds the files whose +/− counts the Changes tab computes
// (each reads the file and diffs it).
const maxCountedRows = 500

// ChangeRows lists the files the session changed, newest first, with
// their +/− counts against the session's start. It reads files: call it
// off the UI goroutine.
func ChangeRows(b *checkpoint.Book) []ChangeRow {
	files := b.Files()
	rows := make([]ChangeRow, 0, len(files))
	for i, f := range files {
		r := ChangeRow{Path: f.Path, By: byWhom(f.By), When: f.Time}
		switch {
		case !f.Original.Exists:
			r.State = "new"
		case !f.Latest.Exists:
			r.State = "deleted"
		}
		if i < maxCountedRows {
			if before, err := VersionContent(b, f.Original); err == nil {
				after, err := os.ReadFile(b.Abs(f.Path))
				if err == nil || os.IsNotExist(err) {
					r.Plus, r.Minus = editor.DiffCounts(before, after)
					r.Counted = true
				}
			}
		}
		rows = append(rows, r)
	}
	return rows
}

func byWhom(by string) string {
	switch by {
	case checkpoint.ByTool:
		return "agent tool"
	case checkpoint.ByCommand:
		return "agent command"
	case checkpoint.ByUser:
		return "you"
	case checkpoint.ByRewind:
		return "rewind"
	}
	return by
}

// ChangesView is the Changes tab of the bottom strip: every file changed
// in this session, newest first, with its +/− counts against the
// session's start and who changed it last. Enter shows the file's diff in
// the editor (where hunks can be reverted), o opens the file, R reverts
// it. The App refreshes it as the agent works.
type ChangesView struct {
	*tview.Box
	th     *theme.Theme
	rows   []ChangeRow
	sel    int
	top    int
	height int
	// note replaces the list when changes are not recorded.
	note string
	now  func() time.Time
	keys *keymap.Table

	// Label and Hint, when set, replace the tab's name and its key hint
	// (a review of a task's branch lists other changes than the session's).
	Label, Hint string

	OnDiff   func(path string)
	OnOpen   func(path string)
	OnRevert func(path string)
}

// NewChangesView is an empty Changes list; keys is its table (nil:
// ChangesKeys).
// KeyHint is the first key bound to action in the list's table, as help
// shows it, for a hint set from outside (Hint).
func (v *ChangesView) KeyHint(action keymap.Action) string { return v.keys.Hint(action) }

func NewChangesView(th *theme.Theme, keys *keymap.Table) *ChangesView {
	if keys == nil {
		keys = ChangesKeys()
	}
	v := &ChangesView{Box: tview.NewBox(), th: th, now: time.Now, keys: keys}
	v.SetBackgroundColor(th.Background)
	return v
}

// SetRows replaces the list. While the list has the focus the selected
// file stays selected; else the newest is. It reports whether the list
// changed.
func (v *ChangesView) SetRows(rows []ChangeRow) bool {
	same := len(rows) == len(v.rows)
	for i := 0; same && i < len(rows); i++ {
		same = rows[i] == v.rows[i]
	}
	if same {
		return false
	}
	selected := ""
	if v.sel < len(v.rows) && v.HasFocus() {
		selected = v.rows[v.sel].Path
	}
	v.rows = rows
	v.sel = 0
	for i, r := range rows {
		if r.Path == selected {
			v.sel = i
		}
	}
	return true
}

// SetNote shows text instead of the list (and empties it).
func (v *ChangesView) SetNote(text string) {
	v.note = text
	v.rows = nil
}

// Title is the tab's title: "Changes" and how many files.
func (v *ChangesView) Title() string {
	name := "Changes"
	if v.Label != "" {
		name = v.Label
	}
	if len(v.rows) == 0 {
		return name
	}
	return fmt.Sprintf("%s %d", name, len(v.rows))
}

// Selected is the selected file's path ("" when none).
func (v *ChangesView) Selected() string {
	if v.sel < len(v.rows) {
		return v.rows[v.sel].Path
	}
	return ""
}

func (v *ChangesView) line(r ChangeRow, width int, selected bool) render.Line {
	th := v.th
	bg := th.Background
	if selected {
		bg = th.CursorLine
		if v.HasFocus() {
			bg = th.Selection
		}
	}
	base := tcell.StyleDefault.Background(bg)
	var right render.Line
	if r.State != "" {
		right = append(right, render.Span{Text: r.State + " ", Style: base.Foreground(th.Accent)})
	}
	if r.Counted {
		right = append(right, render.Span{Text: fmt.Sprintf("+%d", r.Plus), Style: base.Foreground(th.Added)}, render.Span{Text: " ", Style: base},
			render.Span{Text: fmt.Sprintf("−%d", r.Minus), Style: base.Foreground(th.Removed)})
	}
	if r.By != "" {
		right = append(right, render.Span{Text: fmt.Sprintf(" · %s · %s", r.By, sessions.Age(r.When, v.now())), Style: base.Foreground(th.Dim)})
	}
	rw := right.Width()
	if rw > width/2 {
		right = render.TruncateLine(right, width/2)
		rw = right.Width()
	}
	left := render.TruncateLine(render.Line{{Text: r.Path, Style: base.Foreground(th.Foreground)}}, max(0, width-rw-1))
	return append(render.PadTo(left, width-rw, base), right...)
}

// Draw draws the rows that fit, keeping the selection in view.
func (v *ChangesView) Draw(screen tcell.Screen) {
	v.DrawForSubclass(screen, v)
	x, y, w, h := v.GetInnerRect()
	v.height = h
	if w <= 2 || h <= 0 {
		return
	}
	dim := tcell.StyleDefault.Foreground(v.th.Dim)
	if v.note != "" {
		render.DrawText(screen, x+1, y, w-1, v.note, dim)
		return
	}
	if len(v.rows) == 0 {
		render.DrawText(screen, x+1, y, w-1, "Nothing changed in this session yet. The files the agent or you change are listed here.", dim)
		return
	}
	rows := h
	hint := h >= 4
	if hint {
		rows--
	}
	v.sel = min(max(v.sel, 0), len(v.rows)-1)
	if v.sel < v.top {
		v.top = v.sel
	}
	if v.sel >= v.top+rows {
		v.top = v.sel - rows + 1
	}
	v.top = max(0, min(v.top, len(v.rows)-rows))
	for i := 0; i < rows && v.top+i < len(v.rows); i++ {
		render.DrawLine(screen, x+1, y+i, w-2, v.line(v.rows[v.top+i], w-2, v.top+i == v.sel))
	}
	if hint {
		k := v.keys
		hint := k.Hint(ActionChangesDiff) + " diff · " + k.Hint(ActionChangesOpen) + " open · " + k.Hint(ActionChangesRevert) + " revert the file · /rewind: back to before a prompt"
		if v.Hint != "" {
			hint = v.Hint
		}
		render.DrawText(screen, x+1, y+h-1, w-2, hint, dim)
	}
}

// InputHandler moves the selection and acts on the selected file.
func (v *ChangesView) InputHandler() func(event *tcell.EventKey, setFocus func(p tview.Primitive)) {
	return v.WrapInputHandler(func(ev *tcell.EventKey, setFocus func(p tview.Primitive)) {
		page := max(1, v.height-2)
		switch v.keys.Action(ev) {
		case ActionChangesUp:
			v.sel--
		case ActionChangesDown:
			v.sel++
		case ActionChangesPageUp:
			v.sel -= page
		case ActionChangesPageDown:
			v.sel += page
		case ActionChangesTop:
			v.sel = 0
		case ActionChangesBottom:
			v.sel = len(v.rows) - 1
		case ActionChangesDiff:
			v.act(v.OnDiff)
		case ActionChangesOpen:
			v.act(v.OnOpen)
		case ActionChangesRevert:
			v.act(v.OnRevert)
		}
		v.sel = min(max(v.sel, 0), max(0, len(v.rows)-1))
	})
}

func (v *ChangesView) act(f func(string)) {
	if p := v.Selected(); p != "" && f != nil {
		f(p)
	}
}

// MouseHandler selects with a click, shows the diff with a double click,
// and scrolls with the wheel.
func (v *ChangesView) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
	return v.WrapMouseHandler(func(action tview.MouseAction, ev *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
		mx, my := ev.Position()
		if !v.InRect(mx, my) {
			return false, nil
		}
		_, y, _, _ := v.GetInnerRect()
		switch action {
		case tview.MouseScrollUp:
			v.sel = max(0, v.sel-1)
		case tview.MouseScrollDown:
			v.sel = min(len(v.rows)-1, v.sel+1)
		case tview.MouseLeftDown, tview.MouseLeftDoubleClick:
			setFocus(v)
			if i := v.top + my - y; i >= 0 && i < len(v.rows) {
				v.sel = i
				if action == tview.MouseLeftDoubleClick {
					v.act(v.OnDiff)
				}
			}
		default:
			return false, nil
		}
		return true, nil
	})
}

// VersionContent is a recorded version's content (nil for "no file").
func VersionContent(b *checkpoint.Book, v checkpoint.Version) ([]byte, error) {
	if !v.Exists {
		return nil, nil
	}
	if !v.Kept {
		why := v.Note
		if why == "" {
			why = "not kept"
		}
		return nil, errors.New("the content before this session is not kept: " + why)
	}
	return b.Content(v)
}
