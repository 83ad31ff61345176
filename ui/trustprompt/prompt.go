// Package trustprompt owns the question fawn asks before the IDE opens on a
// directory whose files would make it act: start programs, or send the
// conversation and keys to a server they chose. It shows every such item
// exactly — the whole command line, the URL — with its file and line,
// wrapped and scrollable, never cut, control characters made visible; and
// takes one answer: trust and remember (y), start without them (n, Esc),
// or leave fawn (q, Ctrl-C).
//
// It is a screen of its own, shown only when something needs trusting, so
// it costs nothing on the way to the IDE's first frame otherwise. [View] is
// the widget (a tview primitive, tested on a simulation screen); [Run]
// shows it on a terminal and waits for the answer.
//
// Its keys are a table (DefaultKeys: trust.accept, trust.ignore, …) the
// user's bindings override, as every key fawn binds.
//
// It imports trust, ui/display, ui/keymap, ui/theme and internal/safetext,
// never ui; cmd/fawn shows it before the IDE starts.
package trustprompt

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
	"github.com/rivo/uniseg"

	"github.com/fawn-ide/fawn/internal/safetext"
	"github.com/fawn-ide/fawn/trust"
	"github.com/fawn-ide/fawn/ui/display"
	"github.com/fawn-ide/fawn/ui/keymap"
	"github.com/fawn-ide/fawn/ui/theme"
)

// Answer is what the user decided.
type Answer int

const (
	// Quit: the user left fawn without opening the IDE.
	Quit Answer = iota
	// Trust: trust the directory's items and remember it.
	Trust
	// Ignore: open the IDE with the items ignored, and ask again next time.
	Ignore
)

func (a Answer) String() string { return [...]string{"quit", "trust", "ignore"}[a] }

// Options say what to ask about.
type Options struct {
	// Dir is the project directory.
	Dir string
	// Items are what its files would make fawn do; New those the user has
	// not trusted before (all of them unless Changed).
	Items, New []trust.Item
	// Changed: the user trusted this directory before, and its files have
	// changed since.
	Changed bool
	Theme   theme.Theme
	// Keys is the prompt's key table (nil: DefaultKeys).
	Keys *keymap.Table

	drawn func() // tests: called after each draw of Run
}

// View is the prompt. It is answered once; Answered reports the answer.
type View struct {
	*tview.Box
	opts     Options
	scroll   int
	bodyRows int
	answer   Answer
	answered bool
}

// New returns the prompt for opts.
func New(opts Options) *View {
	if opts.Keys == nil {
		opts.Keys = DefaultKeys()
	}
	return &View{Box: tview.NewBox(), opts: opts}
}

// Answered returns the answer once the user gave one.
func (v *View) Answered() (Answer, bool) { return v.answer, v.answered }

func (v *View) set(a Answer) {
	if !v.answered {
		v.answer, v.answered = a, true
	}
}

type span struct {
	text  string
	style tcell.Style
}

type line []span

// body is the scrollable text at width.
func (v *View) body(width int) []line {
	th := v.opts.Theme
	base := tcell.StyleDefault.Foreground(th.Foreground)
	dim := base.Foreground(th.Dim)
	bold := base.Bold(true)
	warn := base.Foreground(th.Warning).Bold(true)
	var out []line
	para := func(text string, st tcell.Style, indent int) {
		for _, l := range wrap(text, width-indent) {
			out = append(out, line{{strings.Repeat(" ", indent), st}, {l, st}})
		}
	}
	blank := func() { out = append(out, nil) }

	para(safetext.Exact(v.opts.Dir), bold, 0)
	blank()
	shown := v.opts.Items
	if v.opts.Changed {
		para("You trusted this folder before, but its files have changed. Now they would also make fawn:", base, 0)
		shown = v.opts.New
	} else {
		para("Files in this folder would make fawn:", base, 0)
	}
	blank()
	for _, it := range shown {
		head := "• " + trust.Label(it.Kind)
		if it.Name != "" {
			head += " " + safetext.Exact(it.Name)
		}
		para(head, bold, 0)
		para(safetext.Exact(it.Detail), warn, 4)
		if it.Source != "" {
			para("in "+safetext.Exact(rel(v.opts.Dir, it.Source)), dim, 4)
		}
	}
	blank()
	para("Trust this folder only if you wrote these files or trust the people who did: the programs would run as you, with your files.", base, 0)
	para("Not now: fawn opens without them (everything else works) and asks again next time.", dim, 0)
	return out
}

func (v *View) footer() line {
	th := v.opts.Theme
	base := tcell.StyleDefault.Foreground(th.Foreground)
	key := base.Foreground(th.Accent).Bold(true)
	k := v.opts.Keys
	return line{
		{k.Hint(ActionAccept), key}, {" trust and remember   ", base},
		{k.Hint(ActionIgnore), key}, {" not now   ", base},
		{k.Hint(ActionQuit), key}, {" quit fawn", base},
	}
}

// Draw draws the prompt centred in the view's rectangle.
func (v *View) Draw(screen tcell.Screen) {
	v.Box.DrawForSubclass(screen, v)
	th := v.opts.Theme
	sx, sy, sw, sh := v.GetInnerRect()
	w := min(sw, 100)
	inner := max(10, w-4)
	body := v.body(inner)
	h := min(sh, len(body)+5)
	x, y := sx+(sw-w)/2, sy+(sh-h)/2
	base := tcell.StyleDefault.Foreground(th.Foreground).Background(th.Background)
	for r := y; r < y+h; r++ {
		for c := x; c < x+w; c++ {
			screen.SetContent(c, r, ' ', nil, base)
		}
	}
	border := base.Foreground(th.Warning)
	drawBox(screen, x, y, w, h, border)
	title := " Trust this folder? "
	if v.opts.Changed {
		title = " This folder's files changed — trust them again? "
	}
	drawText(screen, x+2, y, w-4, title, border.Bold(true))

	v.bodyRows = max(1, h-4)
	v.scroll = max(0, min(v.scroll, len(body)-v.bodyRows))
	for i := 0; i < v.bodyRows && v.scroll+i < len(body); i++ {
		cx := x + 2
		for _, s := range body[v.scroll+i] {
			cx += drawText(screen, cx, y+1+i, x+2+inner-cx, s.text, s.style.Background(th.Background))
		}
	}
	if len(body) > v.bodyRows {
		more := fmt.Sprintf(" ↑↓ %d/%d ", min(v.scroll+v.bodyRows, len(body)), len(body))
		drawText(screen, x+w-2-uniseg.StringWidth(more), y+h-1, w, more, border)
	}
	cx := x + 2
	for _, s := range v.footer() {
		cx += drawText(screen, cx, y+h-2, x+2+inner-cx, s.text, s.style.Background(th.Background))
	}
}

// InputHandler answers or scrolls.
func (v *View) InputHandler() func(event *tcell.EventKey, setFocus func(p tview.Primitive)) {
	return v.WrapInputHandler(func(ev *tcell.EventKey, _ func(p tview.Primitive)) {
		switch v.action(ev) {
		case ActionAccept:
			v.set(Trust)
		case ActionIgnore:
			v.set(Ignore)
		case ActionQuit:
			v.set(Quit)
		case ActionUp:
			v.scroll--
		case ActionDown:
			v.scroll++
		case ActionPageUp:
			v.scroll -= max(1, v.bodyRows-1)
		case ActionPageDown:
			v.scroll += max(1, v.bodyRows-1)
		case ActionTop:
			v.scroll = 0
		case ActionBottom:
			v.scroll = 1 << 20
		}
		v.scroll = max(0, v.scroll)
	})
}

// MouseHandler scrolls with the wheel.
func (v *View) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
	return v.WrapMouseHandler(func(action tview.MouseAction, _ *tcell.EventMouse, _ func(p tview.Primitive)) (bool, tview.Primitive) {
		switch action {
		case tview.MouseScrollUp:
			v.scroll = max(0, v.scroll-1)
		case tview.MouseScrollDown:
			v.scroll++
		}
		return true, nil
	})
}

// Run shows the prompt on screen (not yet initialised; nil: the terminal),
// waits for the answer and restores the terminal. A cancelled ctx (a
// signal) ends it with Quit and ctx's error.
func Run(ctx context.Context, screen tcell.Screen, opts Options) (Answer, error) {
	if screen == nil {
		s, err := display.Open()
		if err != nil {
			return Quit, fmt.Errorf("cannot open the terminal: %w", err)
		}
		screen = s
	}
	if err := screen.Init(); err != nil {
		return Quit, fmt.Errorf("cannot open the terminal: %w", err)
	}
	defer screen.Fini()
	screen.EnableMouse(tcell.MouseButtonEvents)
	screen.SetTitle("fawn — trust " + safetext.Line(filepath.Base(opts.Dir)) + "?")
	v := New(opts)
	events := make(chan tcell.Event, 16)
	quit := make(chan struct{})
	defer close(quit)
	go screen.ChannelEvents(events, quit)
	draw := func() {
		w, h := screen.Size()
		v.SetRect(0, 0, w, h)
		screen.Clear()
		v.Draw(screen)
		screen.Show()
		if opts.drawn != nil {
			opts.drawn()
		}
	}
	draw()
	for {
		select {
		case <-ctx.Done():
			return Quit, ctx.Err()
		case ev, ok := <-events:
			if !ok {
				return Quit, nil
			}
			switch ev := ev.(type) {
			case *tcell.EventKey:
				v.InputHandler()(ev, func(tview.Primitive) {})
			case *tcell.EventMouse:
				if ev.Buttons()&(tcell.WheelUp|tcell.WheelDown) != 0 {
					act := tview.MouseScrollDown
					if ev.Buttons()&tcell.WheelUp != 0 {
						act = tview.MouseScrollUp
					}
					v.MouseHandler()(act, ev, func(tview.Primitive) {})
				}
			case *tcell.EventResize:
				screen.Sync()
			case *tcell.EventError:
				return Quit, ev
			}
			if a, ok := v.Answered(); ok {
				return a, nil
			}
			draw()
		}
	}
}

// rel shows a source inside dir relative to it.
func rel(dir, source string) string {
	if r, err := filepath.Rel(dir, source); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return source
}

// wrap breaks text into rows of at most width cells, at spaces when it can
// and anywhere when a word is longer than a row: nothing is ever cut.
func wrap(text string, width int) []string {
	width = max(1, width)
	var rows []string
	for _, para := range strings.Split(text, "\n") {
		var cur strings.Builder
		curW := 0
		flush := func() {
			rows = append(rows, strings.TrimRight(cur.String(), " "))
			cur.Reset()
			curW = 0
		}
		for _, word := range strings.SplitAfter(para, " ") {
			ww := uniseg.StringWidth(word)
			if curW > 0 && curW+uniseg.StringWidth(strings.TrimRight(word, " ")) > width {
				flush()
			}
			if ww <= width-curW {
				cur.WriteString(word)
				curW += ww
				continue
			}
			g := uniseg.NewGraphemes(word)
			for g.Next() {
				cw := g.Width()
				if curW+cw > width && curW > 0 {
					flush()
				}
				cur.WriteString(g.Str())
				curW += cw
			}
		}
		flush()
	}
	return rows
}

// drawText draws s from x within width cells and returns the cells used.
func drawText(screen tcell.Screen, x, y, width int, s string, st tcell.Style) int {
	used := 0
	g := uniseg.NewGraphemes(s)
	for g.Next() {
		rs := g.Runes()
		w := g.Width()
		if used+w > width {
			break
		}
		screen.SetContent(x+used, y, rs[0], rs[1:], st)
		used += w
	}
	return used
}

func drawBox(screen tcell.Screen, x, y, w, h int, st tcell.Style) {
	if w < 2 || h < 2 {
		return
	}
	for c := x + 1; c < x+w-1; c++ {
		screen.SetContent(c, y, '─', nil, st)
		screen.SetContent(c, y+h-1, '─', nil, st)
	}
	for r := y + 1; r < y+h-1; r++ {
		screen.SetContent(x, r, '│', nil, st)
		screen.SetContent(x+w-1, r, '│', nil, st)
	}
	screen.SetContent(x, y, '╭', nil, st)
	screen.SetContent(x+w-1, y, '╮', nil, st)
	screen.SetContent(x, y+h-1, '╰', nil, st)
	screen.SetContent(x+w-1, y+h-1, '╯', nil, st)
}
