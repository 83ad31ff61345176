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

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/fawn-ide/fawn/internal/vt"
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
	clip      Clipboard     // the last OSC 52 write
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
	clip       Clipboard
	cols, rows int
}

// publish copies what the UI reads; s.mu is held.
func (s *screen) publish() {
	m := s.modes
	m.AltScreen = s.emu.IsAltScreen()
	s.pubMu.Lock()
	s.pub = published{modes: m, title: s.title, bells: s.bells, clip: s.clip, cols: s.emu.Width(), rows: s.emu.Height()}
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
	// MouseURXVT: urxvt's (1015) decimal encoding, when SGR is not on.
	MouseURXVT bool
	Focus      bool // focus in/out reports (1004)
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
	s.emu.SetTerminalName("fawn") // what XTVERSION answers
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
		Clipboard: func(_, data string) {
			if !s.internal {
				s.clip = clipboardWrite(s.clip, data)
			}
		},
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
	case ansi.ModeMouseExtUrxvt:
		s.modes.MouseURXVT = on
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
	}
	// Clear keeps the lines' cells for the next lines vt pushes (compact
	// copied them); between two drains it holds a chunk's lines at most.
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

func (s *screen) getClipboard() Clipboard { return s.published().clip }

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
