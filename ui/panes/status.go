package panes

import (
	"fmt"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/internal/safetext"
	"github.com/fawn-ide/fawn/ui/render"
	"github.com/fawn-ide/fawn/ui/theme"
)

// StatusInfo is what the status bar shows; the App fills it at draw time.
type StatusInfo struct {
	Model string
	Mode  agent.Mode
	State string
	Busy  bool
	Frame uint64
	// Session is the usage so far, Last the last turn's.
	Session, Last *agent.Usage
	ContextWindow int
	Hint          string // right side: "F1 help · Ctrl-Q quit"
	// Background is the work under way beside the turns and the entry it
	// goes to ("⟳ turn note → spare"; "" when none).
	Background string
	// Failover says the conversation's entry is down and which one took
	// over ("default down → using rescue"; "" when none).
	Failover string
}

// BackgroundText is the status bar's word on background work: what runs
// and which entries of models it goes to ("chat_model" when it shares the
// conversation's).
func BackgroundText(what, entries []string, shared bool) string {
	if len(what) == 0 {
		return ""
	}
	seen := map[string]bool{}
	var kinds []string
	for _, w := range what {
		if !seen[w] {
			seen[w] = true
			kinds = append(kinds, w)
		}
	}
	where := strings.Join(entries, ", ")
	if shared {
		where = "chat_model"
	}
	return "⟳ " + strings.Join(kinds, ", ") + " → " + where
}

// StatusBar is the bottom line: model, permission mode, state, tokens in and
// out, context used, the last turn's time and speed; a flash message (e.g.
// "copied 12 lines") replaces the hint for a few seconds.
type StatusBar struct {
	*tview.Box
	kept render.Kept // the row the last frame drew
	// memo is what the last Draw was given and laid out: a frame whose
	// status is the same (most frames of a streamed answer) reuses the
	// layout instead of formatting it again.
	memo       statusMemo
	th         *theme.Theme
	info       func() StatusInfo
	flash      string
	flashUntil time.Time
}

// NewStatusBar is a status bar in th's colours that asks info, at each
// draw, for what to show: all it needs of the App.
func NewStatusBar(th *theme.Theme, info func() StatusInfo) *StatusBar {
	return &StatusBar{Box: tview.NewBox(), th: th, info: info}
}

// Flash shows msg until the time given, replacing the message shown.
func (s *StatusBar) Flash(msg string, until time.Time) {
	s.flash, s.flashUntil = msg, until
}

// Unflash takes msg away if it is the message shown: what it said is no
// longer true ("cancelling…" once the turn has ended).
func (s *StatusBar) Unflash(msg string) {
	if s.flash == msg {
		s.flash = ""
	}
}

// segments returns the status bar's parts, most important first.
func (s *StatusBar) segments(in StatusInfo) []render.Line {
	th := s.th
	base := tcell.StyleDefault.Foreground(th.Foreground).Background(th.CursorLine)
	dim := base.Foreground(th.Dim)
	var segs []render.Line
	segs = append(segs, render.Line{{Text: in.Model, Style: base.Bold(true)}})
	if in.Failover != "" {
		segs = append(segs, render.Line{{Text: in.Failover, Style: base.Foreground(th.Warning)}})
	}
	modeSt := base
	switch in.Mode {
	case agent.ModeYolo:
		modeSt = base.Foreground(th.Error).Bold(true)
	case agent.ModeAcceptEdits:
		modeSt = base.Foreground(th.Warning)
	case agent.ModePlan:
		modeSt = base.Foreground(th.Accent)
	}
	segs = append(segs, render.Line{{Text: string(in.Mode), Style: modeSt}})
	stateSt := dim
	state := in.State
	switch {
	case state == "waiting for you":
		stateSt = base.Foreground(th.Warning).Bold(true)
		state = "⏸ " + state
	case in.Busy:
		stateSt = base.Foreground(th.Accent)
		state = render.Spinner(in.Frame) + " " + state
	}
	segs = append(segs, render.Line{{Text: state, Style: stateSt}})
	if in.Background != "" {
		segs = append(segs, render.Line{{Text: in.Background, Style: base.Foreground(th.Accent)}})
	}
	if u := in.Session; u != nil {
		if u.InputTokens > 0 || u.OutputTokens > 0 {
			segs = append(segs, render.Line{{Text: fmt.Sprintf("↑%s ↓%s", render.Kilo(u.InputTokens), render.Kilo(u.OutputTokens)), Style: base}})
		}
		if c := u.Cost.String(); c != "" { // a model without a price shows none, not $0
			segs = append(segs, render.Line{{Text: c, Style: base}})
		}
		if in.ContextWindow > 0 && u.ContextTokens > 0 {
			pct := u.ContextTokens * 100 / in.ContextWindow
			st := base
			if pct >= 90 {
				st = base.Foreground(th.Error)
			} else if pct >= 75 {
				st = base.Foreground(th.Warning)
			}
			text := fmt.Sprintf("ctx %d%%", pct)
			if pct == 0 {
				text = "ctx <1%"
			}
			if u.ContextEstimated && pct > 0 {
				text = strings.Replace(text, "ctx ", "ctx ~", 1) // the server gave no count
			}
			segs = append(segs, render.Line{{Text: text, Style: st}})
		}
	}
	if u := in.Last; u != nil && u.Duration > 0 {
		t := "last " + render.HumanDuration(u.Duration)
		if u.TokensPerSecond > 0 {
			t += fmt.Sprintf(" · %.0f tok/s", u.TokensPerSecond)
		}
		if u.CachedTokens > 0 && u.InputTokens > 0 {
			t += fmt.Sprintf(" · %d%% cached", u.CachedTokens*100/u.InputTokens)
		}
		segs = append(segs, render.Line{{Text: t, Style: dim}})
	}
	return segs
}

// statusMemo is the key and the result of a status bar's layout.
type statusMemo struct {
	key         statusKey
	line, right render.Line
	ok          bool
}

// statusKey is everything a status bar's layout depends on, by value.
type statusKey struct {
	in            StatusInfo
	session, last agent.Usage
	flash         string
	w             int
	th            *theme.Theme
}

func (s *StatusBar) Draw(screen tcell.Screen) {
	x, y, w, _ := s.GetRect()
	base := tcell.StyleDefault.Foreground(s.th.Foreground).Background(s.th.CursorLine)
	in := s.info()
	key := statusKey{in: in, w: w, th: s.th}
	if s.flash != "" && time.Now().Before(s.flashUntil) {
		key.flash = s.flash
	}
	if u := in.Session; u != nil {
		key.session = *u
	}
	if u := in.Last; u != nil {
		key.last = *u
	}
	key.in.Session, key.in.Last = nil, nil // compared by value above
	if !in.Busy || in.State == "waiting for you" {
		key.in.Frame = 0 // no spinner: the frame does not show
	}
	if !s.memo.ok || s.memo.key != key {
		line, right := s.layout(in, key.flash, base, w)
		s.memo = statusMemo{key: key, line: line, right: right, ok: true}
	}
	line, right := s.memo.line, s.memo.right
	if render.Keep(screen, &s.kept, [4]int{x, y, w, 1}, base, line, right) {
		return // the row shows this already
	}
	render.Fill(screen, x, y, w, 1, base)
	render.DrawLine(screen, x, y, w, line)
	if rw := right.Width(); rw > 0 {
		render.DrawLine(screen, x+w-rw, y, rw, right)
	}
}

// layout lays out what the status bar shows at width w: the parts on the
// left, the hint (or the flash message, if one shows) on the right.
func (s *StatusBar) layout(in StatusInfo, flash string, base tcell.Style, w int) (line, right render.Line) {
	right = render.Line{{Text: safetext.Line(in.Hint) + " ", Style: base.Foreground(s.th.Dim)}}
	if flash != "" {
		// A message may name a file or quote a server.
		right = render.Line{{Text: safetext.Line(flash) + " ", Style: base.Foreground(s.th.Success)}}
	}
	segs := s.segments(in)
	for i := range segs {
		segs[i] = render.SafeLine(segs[i]) // a model's name may be a server's
	}
	sep := render.Span{Text: " │ ", Style: base.Foreground(s.th.Border)}
	// Drop the least important parts until everything fits.
	for n := len(segs); n >= 1; n-- {
		line = render.Line{{Text: " ", Style: base}}
		for i, seg := range segs[:n] {
			if i > 0 {
				line = append(line, sep)
			}
			line = append(line, seg...)
		}
		if line.Width()+right.Width()+1 <= w || n == 1 {
			break
		}
	}
	line = render.TruncateLine(line, w)
	if len(segs) == 0 || line.Width()+right.Width()+1 > w {
		right = nil
	}
	return line, right
}
