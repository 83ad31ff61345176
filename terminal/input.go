package terminal

// What goes to the shell: the user's keys and pastes, the terminal's
// size, and the one queue every write to the pty takes.

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"sync"
)

// Write sends the user's keys (already encoded as the terminal would) to
// the shell. While an agent command runs they are held and sent after it,
// except Ctrl-C, which goes through at once and interrupts it.
func (t *Terminal) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return 0, errors.New("terminal: closed")
	}
	if t.sh == nil && t.spawning {
		if len(t.held) < 64<<10 {
			t.held = append(t.held, p...)
		}
		return len(p), nil
	}
	if t.sh == nil {
		if bytes.ContainsAny(p, "\r\n") {
			dir := t.cwd
			if st, err := os.Stat(dir); err != nil || !st.IsDir() {
				dir = t.root
			}
			t.quickExits = 0
			t.notice("starting a new shell in " + dir)
			t.restart(dir)
		}
		return len(p), nil
	}
	if t.agent {
		if bytes.Equal(p, []byte{0x03}) {
			if t.run != nil {
				t.run.userInterrupt = true
			}
			t.sh.out.enqueue(p)
			return len(p), nil
		}
		if len(t.held) < 64<<10 {
			t.held = append(t.held, p...)
		}
		return len(p), nil
	}
	t.input(p)
	return len(p), nil
}

// input sends user bytes to the shell; t.mu is held.
func (t *Terminal) input(p []byte) {
	if t.state == stateReady && bytes.ContainsAny(p, "\r\n") {
		// A command line may have been entered: until a marker says what
		// the shell does, an agent command must not be typed into it.
		t.setState(stateUnknown)
	}
	t.sh.out.enqueue(p)
}

// Paste sends pasted text, bracketed when the program asked for it (then
// it arrives as text, not as keys to act on).
func (t *Terminal) Paste(text string) {
	text = strings.ReplaceAll(text, "\x1b", "")
	var p []byte
	if t.scr.getModes().BracketedPaste {
		p = []byte("\x1b[200~" + text + "\x1b[201~")
	} else {
		p = []byte(strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\r"), "\n", "\r"))
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed || (t.sh == nil && !t.spawning) {
		return
	}
	if t.agent || t.sh == nil {
		if len(t.held)+len(p) <= 1<<20 {
			t.held = append(t.held, p...)
		}
		return
	}
	t.input(p)
}

// The largest size the emulator takes: a bigger pane shows blanks past it
// rather than allocating (two screens of ~100 bytes a cell) for it.
const (
	maxCols = 1000
	maxRows = 500
)

// Resize sets the terminal's size in cells; the shell gets SIGWINCH. It
// never waits for the emulator: while it is busy the feeder resizes it
// next.
//
// The size asked for is stored first and taken, under the emulator's
// lock and resizeMu, by whichever of the UI and the feeder gets there:
// an older size can never be applied, to the emulator or to the pty,
// after a newer one.
func (t *Terminal) Resize(cols, rows int) {
	if cols < 1 || rows < 1 {
		return
	}
	cols, rows = min(cols, maxCols), min(rows, maxRows)
	t.pendingSize.Store(&[2]int{cols, rows})
	if !t.resizeMu.TryLock() {
		t.log.poke() // the feeder is applying a size: it takes this one next
		return
	}
	defer t.resizeMu.Unlock()
	if !t.scr.mu.TryLock() {
		t.log.poke()
		return
	}
	// The view resizes as it draws, and draws the resized screen next:
	// no frame to ask for (one asked for would hold back, by a frame, the
	// shell's answer to the resize, a prompt painted again).
	t.applySizeLocked(false)
}

// applyPendingSize carries out a resize the UI asked for while the
// emulator was busy (feeder goroutine).
func (t *Terminal) applyPendingSize() {
	if t.pendingSize.Load() == nil {
		return
	}
	t.resizeMu.Lock()
	defer t.resizeMu.Unlock()
	t.scr.mu.Lock()
	t.applySizeLocked(true)
}

// applySizeLocked applies the size last asked for; resizeMu and the
// emulator's lock are held, and the emulator's is released here, before
// the pty is told; draw asks for a frame.
func (t *Terminal) applySizeLocked(draw bool) {
	sz := t.pendingSize.Swap(nil)
	if sz != nil {
		t.scr.resizeLocked(sz[0], sz[1])
	}
	t.scr.mu.Unlock()
	if sz != nil {
		t.resized(sz[0], sz[1], draw)
	}
}

// resized tells the shell its new size and, with draw, asks for a frame.
func (t *Terminal) resized(cols, rows int, draw bool) {
	t.mu.Lock()
	sh := t.sh
	t.mu.Unlock()
	if sh != nil {
		_ = setWinsize(sh.pty, cols, rows)
	}
	if draw {
		t.markDirty()
	}
}

// writer is a shell's single input queue: keys, pastes, emulator replies
// and agent commands all go through it, in order, and no caller ever
// blocks on a pty whose program does not read.
type writer struct {
	mu   sync.Mutex
	q    []byte
	wake chan struct{}
	f    *os.File
}

func newWriter(f *os.File) *writer {
	return &writer{f: f, wake: make(chan struct{}, 1)}
}

func (w *writer) enqueue(p []byte) {
	w.mu.Lock()
	w.q = append(w.q, p...)
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

func (w *writer) loop(wg *sync.WaitGroup, stop <-chan struct{}) {
	defer wg.Done()
	for {
		select {
		case <-stop:
			return
		case <-w.wake:
		}
		for {
			w.mu.Lock()
			p := w.q
			w.q = nil
			w.mu.Unlock()
			if len(p) == 0 {
				break
			}
			if _, err := w.f.Write(p); err != nil {
				return
			}
		}
	}
}
