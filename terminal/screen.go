package terminal

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/fawn-ide/fawn/internal/vt"
	"github.com/gdamore/tcell/v2"
)

// screen wraps the terminal emulator (internal/vt) behind one mutex,
// so it can be swapped for another emulator without touching the rest.
//
// vt answers the queries programs send (device attributes, cursor position,
// colours) through a synchronous pipe; a goroutine drains it into the pty's
// writer queue, or the first query (vim sends several) would block the
// feeder forever.
//
// The UI never waits for mu, which the feeder holds while the emulator
// parses: what the UI reads between frames (modes, title, bells, size) is
// published under pubMu at the end of every write, and a draw that finds mu
// taken shows the last frame rendered (see drawTo).
type screen struct {
	mu        sync.Mutex
	emu       *vt.Emulator
	colors    Colors
	hist      history
	pushed    uint64 // lines ever moved into hist
	modes     Modes
	title     string
	cursorOff bool
	leftAlt   bool // a program left the alternate screen during this write
	internal  bool // fawn itself is writing to the emulator: no callbacks

	margins   bool          // a program set scroll margins (DECSTBM)
	frozen    *frozenScreen // the screen as a synchronized update began
	damaged   func()        // asks for a draw (nil in tests)
	freezeBuf []uv.Cell     // the frozen cells, kept for the next update
	bells     uint64        // BEL characters the programs rang
	shape     int           // the cursor shape the program set (DECSCUSR: 0 the user's own … 6 steady bar)
	light     bool          // the pane's colours are light: the colour-scheme query hears so
	reply     func([]byte)
	replies   []byte // fawn's own answers, sent once the write is over

	// The shell's markers (fawnrc.bash), as the emulator meets them: at
	// bash's prompt (readline edits a line), and the line its prompt ends
	// on (in lines counted as Spot does). Reflow leaves that line to
	// readline, which redraws it.
	nonce      string
	atPrompt   bool
	promptLine int64

	histTimer *time.Timer // a scrollback reflow waiting for the width to stay put

	replyDone chan struct{} // closed when the current emulator's replies are drained

	pubMu sync.Mutex
	pub   published
	// pendingNonce is a new shell's marker nonce, taken up by the next
	// write: a shell starts without waiting for the emulator.
	pendingNonce atomic.Pointer[string]

	// frameMu guards frame, the last frame rendered, which a draw that
	// finds the emulator busy shows again; frameWanted asks the feeder to
	// render one between two writes.
	frameMu     sync.Mutex
	frame       frame
	frameWanted atomic.Bool
	restarts    int // emulators replaced after a panic
}

// published is what the UI reads without waiting for the emulator.
type published struct {
	modes      Modes
	title      string
	bells      uint64
	cols, rows int
}

// publish copies what the UI reads; s.mu is held.
func (s *screen) publish() {
	m := s.modes
	m.AltScreen = s.emu.IsAltScreen()
	s.pubMu.Lock()
	s.pub = published{modes: m, title: s.title, bells: s.bells, cols: s.emu.Width(), rows: s.emu.Height()}
	s.pubMu.Unlock()
}

func (s *screen) published() published {
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	return s.pub
}

// Colors are the pane's default colours, as programs that ask (OSC 10 and
// 11, the colour-scheme query CSI ? 996 n) are told them: vim and others
// pick their background from the answer. Nil colours are vt's (white on
// black).
type Colors struct {
	Foreground, Background color.Color
}

// light says whether c is a light colour (relative luminance above half).
func light(c color.Color) bool {
	if c == nil {
		return false
	}
	r, g, b, _ := c.RGBA()
	return 0.2126*float64(r)+0.7152*float64(g)+0.0722*float64(b) > 0.5*0xffff
}

// Modes are the emulator states that decide how input is encoded.
type Modes struct {
	AppCursor      bool // DECCKM: arrows send ESC O A
	AppKeypad      bool // DECKPAM
	BracketedPaste bool
	AltScreen      bool
	// Mouse is the tracking the program asked for: 0 none, 9 X10 (press
	// only), 1000 press/release, 1002 + drag, 1003 any motion.
	Mouse    int
	MouseSGR bool // SGR (1006) encoding instead of X10 bytes
	Focus    bool // focus in/out reports (1004)
}

func newScreen(cols, rows, scrollback int, colors Colors, reply func([]byte)) *screen {
	s := &screen{
		hist:   history{max: scrollback},
		light:  light(colors.Background),
		reply:  reply,
		colors: colors,
	}
	s.newEmulator(cols, rows)
	s.publish()
	return s
}

// newEmulator gives the screen a new emulator, with fawn's handlers and a
// goroutine draining its replies; s.mu is held or the screen is new.
func (s *screen) newEmulator(cols, rows int) {
	colors := s.colors
	s.emu = vt.NewEmulator(cols, rows)
	if colors.Foreground != nil {
		s.emu.SetDefaultForegroundColor(colors.Foreground)
	}
	if colors.Background != nil {
		s.emu.SetDefaultBackgroundColor(colors.Background)
	}
	s.emu.RegisterCsiHandler('r', func(params ansi.Params) bool {
		// DECSTBM: whether scroll margins are set decides whether a flood
		// may be scrolled past (scrollPast). vt's handler does the rest.
		top, _, _ := params.Param(0, 1)
		bottom, _, _ := params.Param(1, 0)
		s.margins = top > 1 || (bottom > 0 && bottom < s.emu.Height())
		return false
	})
	s.emu.RegisterEscHandler(int(ansi.Command(0, '#', '8')), func() bool {
		// DECALN split across two writes (write cuts the others out):
		// the fill, at least.
		s.alignmentFill()
		return true
	})
	s.emu.RegisterOscHandler(6973, func(data []byte) bool {
		s.shellMark(data)
		return true
	})
	s.emu.RegisterEscHandler('c', func() bool {
		s.margins = false // RIS
		return false
	})
	s.emu.RegisterCsiHandler(ansi.Command(0, ' ', 'q'), func(params ansi.Params) bool {
		// DECSCUSR, kept as sent: vt's own handler (which runs too) turns
		// 0, the user's own cursor, into a blinking block.
		if n, _, _ := params.Param(0, 0); n >= 0 && n <= 6 && !s.internal {
			s.shape = n
		}
		return false
	})
	s.emu.RegisterCsiHandler(ansi.Command('?', 0, 'n'), func(params ansi.Params) bool {
		// The colour-scheme query (CSI ? 996 n): 1 dark, 2 light. vt
		// answers the other device status reports.
		if n, _, _ := params.Param(0, 0); n != 996 {
			return false
		}
		scheme := 1
		if s.light {
			scheme = 2
		}
		s.replies = append(s.replies, "\x1b[?997;"+strconv.Itoa(scheme)+"n"...)
		return true
	})
	// vt's scrollback keeps about a hundred bytes per cell and drops its
	// oldest line by shifting the whole buffer. It only serves as a transit
	// area: after every write its lines move into hist, compactly. A write
	// adds at most one line per byte, so it never fills.
	s.emu.SetScrollbackSize(feedPiece + 1024)
	s.emu.RegisterCsiHandler('J', func(params ansi.Params) bool {
		// ED 3 clears the scrollback (clear(1) sends it); vt's own handler
		// does the rest.
		if n, _, _ := params.Param(0, 0); n == 3 && !s.emu.IsAltScreen() {
			s.hist.clear()
		}
		return false
	})
	s.emu.SetCallbacks(vt.Callbacks{
		Title: func(t string) { s.title = t },
		Bell: func() {
			if !s.internal {
				s.bells++
			}
		},
		AltScreen: func(on bool) {
			if s.internal {
				return
			}
			s.modes.AltScreen = on
			if !on {
				s.leftAlt = true
			}
		},
		CursorVisibility: func(visible bool) {
			if !s.internal {
				s.cursorOff = !visible
			}
		},
		EnableMode: func(m ansi.Mode) {
			if !s.internal {
				s.setMode(m, true)
			}
		},
		DisableMode: func(m ansi.Mode) {
			if !s.internal {
				s.setMode(m, false)
			}
		},
	})
	done := make(chan struct{})
	s.replyDone = done
	go func(emu *vt.Emulator, reply func([]byte)) {
		defer close(done)
		buf := make([]byte, 4096)
		for {
			n, err := emu.Read(buf)
			if n > 0 {
				reply(append([]byte(nil), buf[:n]...))
			}
			if err != nil {
				return
			}
		}
	}(s.emu, s.reply)
}

// closeReplies ends the reply goroutine of the current emulator and
// returns the channel closed once it has; s.mu is held.
func (s *screen) closeReplies() chan struct{} {
	// Closing the pipe directly rather than through emu.Close keeps the
	// emulator's closed flag untouched, which its Read reads unlocked.
	if pw, ok := s.emu.InputPipe().(*io.PipeWriter); ok {
		_ = pw.Close()
	}
	return s.replyDone
}

// maxRestarts is how many times a screen replaces an emulator that
// panicked before it stops showing output (each one was reset by a
// panic on the bytes that reached it).
const maxRestarts = 100

// recovered replaces an emulator that panicked on output with a new one of
// the same size, keeping the scrollback, and says so on the new screen:
// the pane goes on showing the shell, which never noticed. s.mu is held.
func (s *screen) recovered(p any) {
	cols, rows := s.emu.Width(), s.emu.Height()
	_ = s.closeReplies()
	s.restarts++
	s.frozen, s.leftAlt, s.internal, s.margins = nil, false, false, false
	s.modes, s.cursorOff, s.shape = Modes{}, false, 0
	s.newEmulator(cols, rows)
	msg := fmt.Sprintf("the terminal display failed (%v) and was reset; the shell goes on", p)
	_, _ = s.emu.WriteString("\x1b[7m[fawn: " + sanitizeNotice(msg) + "]\x1b[27m\r\n")
	s.drain()
}

// restart restarts the display after a panic outside write (which
// recovers its own).
func (s *screen) restart(p any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.restarts < maxRestarts {
		s.recovered(p)
	}
	s.publish()
}

// sanitizeNotice keeps a panic's message to one printable line.
func sanitizeNotice(m string) string {
	m = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return ' '
		}
		return r
	}, m)
	if len(m) > 200 {
		m = m[:200] + "…"
	}
	return m
}

// shellMark notes a marker of the shell's (OSC 6973;nonce;kind…) as the
// emulator reaches it; s.mu is held.
func (s *screen) shellMark(data []byte) {
	parts := bytes.SplitN(data, []byte{';'}, 4)
	if len(parts) < 3 || s.nonce == "" || string(parts[1]) != s.nonce || len(parts[2]) != 1 {
		return
	}
	switch parts[2][0] {
	case markPrompt, markContinue:
		s.atPrompt = true
		s.promptLine = int64(s.pushed) + int64(s.emu.Scrollback().Len()) + int64(s.emu.CursorPosition().Y)
	case markStarted:
		s.atPrompt = false
	}
}

// setNonce tells the screen the current shell's marker nonce, which the
// next write takes up: the caller (a shell starting, with Terminal.mu
// held) must not wait for a write in progress.
func (s *screen) setNonce(nonce string) {
	s.pendingNonce.Store(&nonce)
}

// takeNonce takes up a new shell's nonce; s.mu is held.
func (s *screen) takeNonce() {
	if n := s.pendingNonce.Swap(nil); n != nil {
		s.nonce, s.atPrompt = *n, false
	}
}

// setMode tracks the modes input encoding depends on; it runs inside
// emu.Write, with s.mu held.
func (s *screen) setMode(m ansi.Mode, on bool) {
	dm, ok := m.(ansi.DECMode)
	if !ok {
		return
	}
	switch dm {
	case ansi.ModeCursorKeys:
		s.modes.AppCursor = on
	case ansi.ModeNumericKeypad:
		s.modes.AppKeypad = on
	case ansi.ModeBracketedPaste:
		s.modes.BracketedPaste = on
	case ansi.ModeMouseX10, ansi.ModeMouseNormal, ansi.ModeMouseButtonEvent, ansi.ModeMouseAnyEvent:
		if on {
			s.modes.Mouse = int(dm)
		} else if s.modes.Mouse == int(dm) {
			s.modes.Mouse = 0
		}
	case ansi.ModeMouseExtSgr:
		s.modes.MouseSGR = on
	case ansi.ModeFocusEvent:
		s.modes.Focus = on
	case ansi.ModeSynchronizedOutput:
		if on {
			s.freeze()
		} else {
			s.frozen = nil
		}
	}
}

// syncLimit is how long a synchronized update may hold the screen: a
// program that dies in the middle of one does not freeze the pane.
var syncLimit = time.Second

// frozenScreen is what the pane shows while a program's synchronized
// update (mode 2026) is under way: the screen as it was when it began, so
// that a frame drawn in pieces is never shown half drawn.
type frozenScreen struct {
	since            time.Time
	cols, rows       int
	cells            []uv.Cell
	cursor           uv.Position
	cursorOff, isAlt bool
}

// freeze keeps the visible screen until the update ends; s.mu is held.
func (s *screen) freeze() {
	e := s.emu
	f := &frozenScreen{since: time.Now(), cols: e.Width(), rows: e.Height(), cursor: e.CursorPosition(),
		cursorOff: s.cursorOff, isAlt: e.IsAltScreen()}
	// The cells are copied into the last freeze's buffer: programs that
	// use synchronized updates send one per frame.
	if n := f.cols * f.rows; cap(s.freezeBuf) >= n {
		f.cells = s.freezeBuf[:n]
		clear(f.cells)
	} else {
		f.cells = make([]uv.Cell, n)
		s.freezeBuf = f.cells
	}
	for y := 0; y < f.rows; y++ {
		for x := 0; x < f.cols; x++ {
			if c := e.CellAt(x, y); c != nil {
				f.cells[y*f.cols+x] = *c
			}
		}
	}
	s.frozen = f
	if s.damaged != nil {
		// Drawn again when the hold runs out, should the update never end.
		time.AfterFunc(syncLimit+frameInterval, s.damaged)
	}
}

// cellAt is the cell the pane shows at col, row: the frozen screen's
// during a synchronized update, else the emulator's.
func (s *screen) cellAt(col, row int) *uv.Cell {
	if f := s.frozen; f != nil {
		if col < f.cols && row < f.rows {
			return &f.cells[row*f.cols+col]
		}
		return nil
	}
	return s.emu.CellAt(col, row)
}

// close stops the reply goroutine.
func (s *screen) close() {
	s.mu.Lock()
	if s.histTimer != nil {
		s.histTimer.Stop()
	}
	done := s.closeReplies()
	s.mu.Unlock()
	<-done
}

// write feeds all of p to the emulator and returns the work it took
// (cells written, moved or visited).
func (s *screen) write(p []byte) (work uint64) {
	_, work = s.writeSome(p, 0)
	return work
}

// writeSome feeds p to the emulator until the work it took passes budget
// (0: no budget), and returns how much of p it fed and the work. It stops
// only where a grapheme cluster cannot go on (before an ESC, after a line
// feed), so hostile output holds the emulator for about budget cells of
// work however it is cut. A panic in the emulator is recovered: the screen
// restarts with a new emulator (recovered) and the rest of p is dropped.
func (s *screen) writeSome(p []byte, budget uint64) (n int, work uint64) {
	s.mu.Lock()
	s.takeNonce()
	before := s.emu.Work()
	defer func() {
		if r := recover(); r != nil {
			if s.restarts < maxRestarts {
				s.recovered(r)
			}
			before, n = s.emu.Work(), len(p)
		}
		work = s.emu.Work() - before
		s.publish()
		if s.frameWanted.Swap(false) {
			s.renderFrame()
		}
		out := s.replies
		s.replies = nil
		s.mu.Unlock()
		if len(out) > 0 {
			s.reply(out)
		}
	}()
	if s.restarts >= maxRestarts {
		return len(p), 0
	}
	over := func() bool { return budget > 0 && s.emu.Work()-before > budget }
	for n < len(p) && !over() {
		// DECALN (ESC # 8), which vt ignores, fills the screen with E and
		// homes the cursor: vttest draws its frames on it. The stream is
		// cut around it so that what follows lands on the filled screen.
		seg := p[n:]
		i := bytes.Index(seg, decaln)
		if i >= 0 {
			seg = seg[:i]
		}
		k := s.feedChunks(seg, over)
		n += k
		if k < len(seg) || i < 0 {
			break
		}
		s.alignmentFill()
		s.internalWrite("\x1b[r\x1b[H") // margins reset, cursor home
		n += len(decaln)
	}
	if s.leftAlt {
		// The alternate screen has a scrollback of its own that nothing
		// shows: empty it (ED 3 there) while no program uses that screen.
		// A program that entered it again in the same write keeps it; its
		// scrollback is emptied when it leaves. The switches are fawn's
		// own, so they reach no callback (which would ask for the same
		// clean-up again, after the next program entered the screen).
		s.leftAlt = false
		if !s.emu.IsAltScreen() {
			s.internalWrite("\x1b[?1047h\x1b[3J\x1b[?1047l")
		}
	}
	return n, 0 // work is set by the deferred function
}

// chunk is how many bytes the emulator is given at a time within a write,
// between which writeSome checks its budget and the scrollback is drained
// (a chunk of counted scrolls cannot overflow vt's transit scrollback).
const chunk = 64

// feedChunks writes p to the emulator a chunk at a time until over says
// the budget is spent, and returns how much it wrote; s.mu is held. A chunk
// ends before an ESC or after a line feed (or at p's end), where no
// grapheme cluster goes on: vt ends the cluster it composes at the end of
// every write.
func (s *screen) feedChunks(p []byte, over func() bool) int {
	n := 0
	for n < len(p) {
		end := len(p)
		if len(p)-n > chunk {
			end = cutPoint(p, n+chunk)
		}
		_, _ = s.emu.Write(p[n:end])
		s.drain()
		n = end
		if over() {
			break
		}
	}
	return n
}

// cutPoint returns the first place at or after i where p may be cut
// between two writes: before an ESC or after a line feed, else p's end.
func cutPoint(p []byte, i int) int {
	j := bytes.IndexAny(p[i:], "\x1b\n")
	if j < 0 {
		return len(p)
	}
	if p[i+j] == '\n' {
		return i + j + 1
	}
	return i + j
}

// decaln is the screen alignment test (DECALN).
var decaln = []byte("\x1b#8")

// alignmentFill fills the screen with E in the default colours; s.mu is
// held.
func (s *screen) alignmentFill() {
	e := s.emu
	for y := 0; y < e.Height(); y++ {
		for x := 0; x < e.Width(); x++ {
			e.SetCell(x, y, &uv.Cell{Content: "E", Width: 1})
		}
	}
}

// internalWrite feeds the emulator a sequence of fawn's own, whose effects
// the callbacks do not see; s.mu is held.
func (s *screen) internalWrite(seq string) {
	s.internal = true
	_, _ = s.emu.WriteString(seq)
	s.internal = false
}

// drain moves the lines vt pushed into its scrollback into hist.
func (s *screen) drain() {
	sb := s.emu.Scrollback()
	if sb == nil || sb.Len() == 0 {
		return
	}
	lines := sb.Lines()
	for i, line := range lines {
		l := s.hist.compact(line)
		l.wrapped = sb.Wrapped(i)
		s.hist.push(l)
		s.pushed++
		lines[i] = nil // Clear keeps the array; let the cells go
	}
	sb.Clear()
}

// resizeLocked changes the emulator's size; s.mu is held. When the screen
// gets shorter, the lines above the cursor scroll into the scrollback the
// way xterm does it, so the prompt stays in view instead of being cut off.
func (s *screen) resizeLocked(cols, rows int) {
	defer s.publish()
	if cols == s.emu.Width() && rows == s.emu.Height() {
		return
	}
	if cols != s.emu.Width() && !s.emu.IsAltScreen() && s.frozen == nil {
		s.reflow(cols, rows)
		return
	}
	if !s.emu.IsAltScreen() {
		if y := s.emu.CursorPosition().Y; y >= rows {
			n := y - rows + 1
			// SU scrolls the region up, keeping the cursor; CUU follows it.
			_, _ = s.emu.WriteString("\x1b[" + strconv.Itoa(n) + "S\x1b[" + strconv.Itoa(n) + "A")
			s.drain()
		}
	}
	s.emu.Resize(cols, rows)
}

// size, getModes, getBells and getTitle read what the last write
// published: they never wait for the emulator.
func (s *screen) size() (cols, rows int) {
	p := s.published()
	return p.cols, p.rows
}

func (s *screen) getModes() Modes { return s.published().modes }

func (s *screen) getBells() uint64 { return s.published().bells }

func (s *screen) getTitle() string { return s.published().title }

// text returns the visible screen as plain text, trailing spaces trimmed.
func (s *screen) text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var sb strings.Builder
	for y := 0; y < s.emu.Height(); y++ {
		var line strings.Builder
		for x := 0; x < s.emu.Width(); x++ {
			c := s.emu.CellAt(x, y)
			if c == nil {
				line.WriteByte(' ')
				continue
			}
			if c.Width == 0 && c.Content == "" {
				continue // the second half of a wide character
			}
			if c.Content == "" {
				line.WriteByte(' ')
			} else {
				line.WriteString(c.Content)
			}
		}
		sb.WriteString(strings.TrimRight(line.String(), " "))
		sb.WriteByte('\n')
	}
	return strings.TrimRight(sb.String(), "\n")
}

// scrollbackText returns the scrollback lines as plain text, oldest first.
func (s *screen) scrollbackText() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, s.hist.len())
	for i := range out {
		l := s.hist.line(i)
		var sb strings.Builder
		for c := 0; c < l.cells(); c++ {
			content, width := l.cell(c)
			if width == 0 && content == "" {
				continue
			}
			if content == "" {
				content = " "
			}
			sb.WriteString(content)
		}
		out[i] = strings.TrimRight(sb.String(), " ")
	}
	return out
}

// DrawOptions says how DrawTo renders.
type DrawOptions struct {
	// ScrollBack is how many lines the view is scrolled back from the live
	// screen (0 shows the live screen). It is clamped to what exists.
	ScrollBack int
	// Anchor is the Drawn.Pushed of the draw ScrollBack was chosen at: the
	// lines pushed since are added, so a view scrolled back stays on the
	// same lines while output goes on.
	Anchor uint64
	// Style is used for cells in the terminal's default colours.
	Style tcell.Style
}

// Drawn reports what DrawTo drew.
type Drawn struct {
	// ScrollBack is the clamped scroll position actually drawn.
	ScrollBack int
	// Lines is how many scrollback lines there are to scroll through.
	Lines int
	// Pushed counts every line that ever entered the scrollback; a view
	// scrolled back adds the difference between two draws to stay put.
	Pushed uint64
	// CursorX, CursorY are relative to the drawn area; CursorVisible is
	// false when the program hid the cursor or the view is scrolled back.
	CursorX, CursorY int
	CursorVisible    bool
	// CursorShape is the shape the program asked for (DECSCUSR; vim's bar
	// in insert mode): tcell numbers them as DECSCUSR does.
	CursorShape tcell.CursorStyle
}

// cellSetter is what a frame is rendered into.
type cellSetter interface {
	SetContent(x, y int, primary rune, combining []rune, style tcell.Style)
}

// frame is the pane's area as last rendered from the emulator.
type frame struct {
	w, h  int
	cells []frameCell
	drawn Drawn
	opts  DrawOptions // what it was rendered with
	// What the UI last asked for, which the feeder renders when the UI
	// found the emulator busy.
	wantW, wantH int
	want         DrawOptions
}

type frameCell struct {
	r    rune
	comb []rune
	st   tcell.Style
}

func (f *frame) SetContent(x, y int, r rune, comb []rune, st tcell.Style) {
	if x >= 0 && y >= 0 && x < f.w && y < f.h {
		f.cells[y*f.w+x] = frameCell{r: r, comb: comb, st: st}
	}
}

// drawTo draws the emulator's cells into the w×h area at x, y of scr. It
// never waits for the emulator: when a write holds it, the last frame is
// drawn again and the feeder renders a new one once the write is over
// (and asks for a draw).
func (s *screen) drawTo(scr tcell.Screen, x, y, w, h int, o DrawOptions) Drawn {
	locked := s.mu.TryLock()
	s.frameMu.Lock()
	defer s.frameMu.Unlock()
	s.frame.wantW, s.frame.wantH, s.frame.want = w, h, o
	if locked {
		s.renderFrameLocked()
		s.mu.Unlock()
	} else {
		s.frameWanted.Store(true)
	}
	d := s.blit(scr, x, y, w, h, o.Style)
	if !locked && (s.frame.opts != o || s.frame.w != w || s.frame.h != h) {
		// A frame rendered for other options (the view scrolled, or was
		// resized, since): the view is told what it asked for, so that
		// the stale frame does not undo its scrolling.
		d.ScrollBack = o.ScrollBack
		if o.Anchor != 0 {
			d.Pushed = o.Anchor
		}
		d.Lines = max(d.Lines, o.ScrollBack)
		d.CursorVisible = false
	}
	return d
}

// renderFrame renders the frame the UI last asked for; s.mu is held.
func (s *screen) renderFrame() {
	s.frameMu.Lock()
	defer s.frameMu.Unlock()
	s.renderFrameLocked()
}

// renderFrameLocked renders the frame; s.mu and s.frameMu are held.
func (s *screen) renderFrameLocked() {
	f := &s.frame
	f.w, f.h = max(f.wantW, 0), max(f.wantH, 0)
	if n := f.w * f.h; cap(f.cells) >= n {
		f.cells = f.cells[:n]
	} else {
		f.cells = make([]frameCell, n)
	}
	f.drawn = s.render(f, f.w, f.h, f.want)
	f.opts = f.want
}

// blit draws the frame at x, y of scr, blank where it does not cover the
// w×h area; s.frameMu is held.
func (s *screen) blit(scr tcell.Screen, x, y, w, h int, base tcell.Style) Drawn {
	f := &s.frame
	for row := 0; row < h; row++ {
		for col := 0; col < w; col++ {
			if col < f.w && row < f.h {
				c := &f.cells[row*f.w+col]
				scr.SetContent(x+col, y+row, c.r, c.comb, c.st)
			} else {
				scr.SetContent(x+col, y+row, ' ', nil, base)
			}
		}
	}
	d := f.drawn
	if d.CursorX >= w || d.CursorY >= h {
		d.CursorVisible = false
	}
	return d
}

// render draws the emulator's cells into a w×h area of dst; s.mu is held.
func (s *screen) render(scr cellSetter, w, h int, o DrawOptions) Drawn {
	x, y := 0, 0
	e := s.emu
	sbLen := 0
	if !e.IsAltScreen() {
		sbLen = s.hist.len()
	}
	back := max(o.ScrollBack, 0)
	if back > 0 && o.Anchor != 0 && s.pushed > o.Anchor {
		back += int(s.pushed - o.Anchor)
	}
	back = min(back, sbLen)
	d := Drawn{ScrollBack: back, Lines: sbLen, Pushed: s.pushed, CursorShape: tcell.CursorStyle(s.shape)}
	baseFg, baseBg, _ := o.Style.Decompose()
	rows, cols := e.Height(), e.Width()
	if f := s.frozen; f != nil && (time.Since(f.since) > syncLimit || f.cols != cols || f.rows != rows) {
		s.frozen = nil // held too long, or resized since
	}
	cursor, cursorOff := e.CursorPosition(), s.cursorOff
	if f := s.frozen; f != nil {
		cursor, cursorOff = f.cursor, f.cursorOff
	}
	for row := 0; row < h; row++ {
		idx := row - back // < 0: a scrollback line
		if idx < 0 {
			s.drawHistLine(scr, x, y+row, w, s.hist.line(sbLen+idx), o.Style, baseFg, baseBg)
			continue
		}
		for col := 0; col < w; {
			var c *uv.Cell
			if idx < rows && col < cols {
				c = s.cellAt(col, idx)
			}
			if c == nil || (c.Content == "" && c.Width == 0) {
				scr.SetContent(x+col, y+row, ' ', nil, o.Style)
				col++
				continue
			}
			st := cellStyle(c, o.Style)
			if c.Link.URL != "" {
				st = st.Underline(true) // an OSC 8 hyperlink
			}
			r, comb := splitContent(c.Content)
			scr.SetContent(x+col, y+row, r, comb, st)
			width := max(c.Width, 1)
			for k := 1; k < width && col+k < w; k++ {
				// Covered by the wide character; tcell skips these.
				scr.SetContent(x+col+k, y+row, ' ', nil, st)
			}
			col += width
		}
	}
	if back == 0 && !cursorOff {
		if cursor.X < w && cursor.Y < h {
			d.CursorX, d.CursorY, d.CursorVisible = cursor.X, cursor.Y, true
		}
	}
	return d
}

func (s *screen) drawHistLine(scr cellSetter, x, y, w int, l *histLine, base tcell.Style, fg, bg tcell.Color) {
	n := 0
	if l != nil {
		n = l.cells()
	}
	run := 0
	for col := 0; col < w; {
		if col >= n {
			scr.SetContent(x+col, y, ' ', nil, base)
			col++
			continue
		}
		for run+1 < len(l.runs) && int(l.runs[run+1].col) <= col {
			run++
		}
		st := base
		if len(l.runs) > 0 {
			st = s.hist.styles[l.runs[run].style]
			if f, b, _ := st.Decompose(); f == tcell.ColorDefault || b == tcell.ColorDefault {
				if f == tcell.ColorDefault {
					st = st.Foreground(fg)
				}
				if b == tcell.ColorDefault {
					st = st.Background(bg)
				}
			}
		}
		content, width := l.cell(col)
		if content == "" {
			scr.SetContent(x+col, y, ' ', nil, st)
			col++
			continue
		}
		r, comb := splitContent(content)
		scr.SetContent(x+col, y, r, comb, st)
		for k := 1; k < width && col+k < w; k++ {
			scr.SetContent(x+col+k, y, ' ', nil, st)
		}
		col += max(width, 1)
	}
}

// history is the scrollback, kept compactly: a ring of lines, each its
// text, where its cells start (only for lines that are not plain ASCII),
// and its style runs.
type history struct {
	max   int
	lines []histLine
	head  int // index of the oldest line once the ring is full

	// Styles are interned: a run is a column and an index here. Past
	// maxStyles distinct styles (a truecolor rainbow), new ones are drawn
	// in the default style.
	styles   []tcell.Style
	styleIdx map[tcell.Style]uint16
}

const maxStyles = 4096

type histLine struct {
	text  string
	offs  []uint32 // cell i is text[offs[i]:offs[i+1]]; nil: one byte per cell
	wide  []uint8  // cell widths when offs is set
	runs  []styleRun
	ncell int
	// wrapped: the line was filled and its text goes on in the next line
	// (autowrap); reflow rejoins them.
	wrapped bool
}

type styleRun struct {
	col   uint16
	style uint16 // index into history.styles
}

func (h *history) styleID(st tcell.Style) uint16 {
	if id, ok := h.styleIdx[st]; ok {
		return id
	}
	if h.styleIdx == nil {
		h.styles = []tcell.Style{tcell.StyleDefault}
		h.styleIdx = map[tcell.Style]uint16{tcell.StyleDefault: 0}
		if st == tcell.StyleDefault {
			return 0
		}
	}
	if len(h.styles) >= maxStyles {
		return 0
	}
	id := uint16(len(h.styles))
	h.styles = append(h.styles, st)
	h.styleIdx[st] = id
	return id
}

func (h *history) push(l histLine) {
	if h.max <= 0 {
		return
	}
	if len(h.lines) < h.max {
		h.lines = append(h.lines, l)
		return
	}
	h.lines[h.head] = l
	h.head = (h.head + 1) % h.max
}

func (h *history) len() int { return len(h.lines) }

// line returns line i, 0 being the oldest.
func (h *history) line(i int) *histLine {
	if i < 0 || i >= len(h.lines) {
		return nil
	}
	return &h.lines[(h.head+i)%len(h.lines)]
}

func (h *history) clear() {
	h.lines, h.head = nil, 0
}

func (l *histLine) cells() int { return l.ncell }

// cell returns cell i's content ("" for the second half of a wide
// character) and width.
func (l *histLine) cell(i int) (string, int) {
	if l.offs == nil {
		return l.text[i : i+1], 1
	}
	return l.text[l.offs[i]:l.offs[i+1]], int(l.wide[i])
}

// compact copies a vt line (trailing blanks already trimmed by vt) into a
// histLine.
func (h *history) compact(line uv.Line) histLine {
	line = line[:min(len(line), 1<<16-1)]
	l := histLine{ncell: len(line)}
	var sb strings.Builder
	ascii := true
	size := 0
	for i := range line {
		c := &line[i]
		size += len(c.Content)
		if c.Width != 1 || len(c.Content) != 1 || c.Content[0] >= 0x80 {
			ascii = false
		}
	}
	sb.Grow(size)
	if !ascii {
		l.offs = make([]uint32, len(line)+1)
		l.wide = make([]uint8, len(line))
	}
	var last tcell.Style
	for i := range line {
		c := &line[i]
		content := c.Content
		if !ascii {
			l.offs[i] = uint32(sb.Len())
			l.wide[i] = uint8(min(c.Width, 255))
		}
		sb.WriteString(content)
		st := cellStyle(c, tcell.StyleDefault)
		if i == 0 || st != last {
			l.runs = append(l.runs, styleRun{col: uint16(i), style: h.styleID(st)})
			last = st
		}
	}
	if !ascii {
		l.offs[len(line)] = uint32(sb.Len())
	}
	l.text = sb.String()
	if len(l.runs) == 1 && l.runs[0].style == 0 {
		l.runs = nil
	}
	return l
}

func splitContent(s string) (rune, []rune) {
	if s == "" {
		return ' ', nil
	}
	r, n := utf8.DecodeRuneInString(s)
	if n == len(s) {
		return r, nil
	}
	return r, []rune(s[n:])
}

// cellStyle turns a vt cell style into a tcell style on top of base, whose
// colours stand for the terminal's defaults.
func cellStyle(c *uv.Cell, base tcell.Style) tcell.Style {
	st := base
	cs := &c.Style
	if cs.Fg != nil {
		st = st.Foreground(tcellColor(cs.Fg))
	}
	if cs.Bg != nil {
		st = st.Background(tcellColor(cs.Bg))
	}
	if cs.Attrs != 0 {
		a := cs.Attrs
		st = st.Bold(a&uv.AttrBold != 0).Dim(a&uv.AttrFaint != 0).Italic(a&uv.AttrItalic != 0).
			Blink(a&(uv.AttrBlink|uv.AttrRapidBlink) != 0).Reverse(a&uv.AttrReverse != 0).
			StrikeThrough(a&uv.AttrStrikethrough != 0)
		if a&uv.AttrConceal != 0 {
			_, bg, _ := st.Decompose()
			st = st.Foreground(bg)
		}
	}
	if cs.Underline != uv.UnderlineStyleNone {
		st = st.Underline(true)
	}
	return st
}

// tcellColor keeps palette colours as palette colours, so the user's
// terminal theme decides what "red" looks like; 24-bit colours pass as RGB.
func tcellColor(c color.Color) tcell.Color {
	switch v := c.(type) {
	case ansi.BasicColor:
		return tcell.PaletteColor(int(v))
	case ansi.IndexedColor:
		return tcell.PaletteColor(int(v))
	case ansi.TrueColor:
		return tcell.NewHexColor(int32(v))
	}
	r, g, b, a := c.RGBA()
	if a == 0 {
		return tcell.ColorDefault
	}
	return tcell.NewRGBColor(int32(r>>8), int32(g>>8), int32(b>>8))
}
