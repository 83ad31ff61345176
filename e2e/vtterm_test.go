package e2e

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/fawn-ide/fawn/internal/vt"
)

// vtTerm runs a program in a pty of its own and keeps its screen in fawn's
// terminal emulator: the screen is read the instant the output arrives,
// with no multiplexer between (tmux adds its own emulator and a poll), so
// a key's echo can be timed from the write to the cell.
type vtTerm struct {
	cmd  *exec.Cmd
	f    *os.File
	mu   sync.Mutex
	emu  *vt.Emulator
	wake chan struct{}
	done chan struct{} // closed when the output ends
	once sync.Once
}

// startVT starts argv in a w×h pty.
func startVT(tb testing.TB, env []string, w, h int, argv ...string) *vtTerm {
	tb.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: uint16(w), Rows: uint16(h)})
	if err != nil {
		tb.Fatal(err)
	}
	v := &vtTerm{cmd: cmd, f: f, emu: vt.NewEmulator(w, h), wake: make(chan struct{}, 1), done: make(chan struct{})}
	// The emulator's answers to the program's queries go back to it, as
	// a terminal's do; read until the emulator closes even when the pty
	// is gone, so that its writes never block.
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := v.emu.Read(b)
			if n > 0 {
				_, _ = f.Write(b[:n])
			}
			if err != nil {
				return
			}
		}
	}()
	// The pty is read as fast as the program writes, as a terminal reads
	// it, and emulated beside: the program's frames are never held up by
	// the emulator (whose scrolling is slow) and a frame's time is fawn's.
	var (
		pmu     sync.Mutex
		pending []byte
		ended   bool
		more    = make(chan struct{}, 1)
	)
	go func() {
		buf := make([]byte, 64<<10)
		for {
			n, err := f.Read(buf)
			pmu.Lock()
			pending = append(pending, buf[:n]...)
			ended = err != nil
			pmu.Unlock()
			select {
			case more <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	go func() {
		defer close(v.done)
		var chunk []byte
		for range more {
			pmu.Lock()
			chunk, pending = append(chunk[:0], pending...), pending[:0]
			end := ended
			pmu.Unlock()
			if len(chunk) > 0 {
				v.mu.Lock()
				_, _ = v.emu.Write(chunk)
				v.mu.Unlock()
				select {
				case v.wake <- struct{}{}:
				default:
				}
			}
			if end {
				return
			}
		}
	}()
	tb.Cleanup(v.stop)
	return v
}

// Screen is the visible text.
func (v *vtTerm) Screen() string {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.emu.String()
}

// Write sends bytes as typed keys.
func (v *vtTerm) Write(s string) error {
	_, err := io.WriteString(v.f, s)
	return err
}

// WaitUntil waits up to d for ok to hold of the screen, checking after
// every output; it returns the screen, or an error saying what was not seen.
func (v *vtTerm) WaitUntil(d time.Duration, what string, ok func(string) bool) (string, error) {
	timer := time.NewTimer(d)
	defer timer.Stop()
	for {
		s := v.Screen()
		if ok(s) {
			return s, nil
		}
		select {
		case <-v.wake:
		case <-v.done:
			if s := v.Screen(); ok(s) {
				return s, nil
			}
			return s, fmt.Errorf("the program ended before %s; its screen:\n%s", what, s)
		case <-timer.C:
			return s, fmt.Errorf("no %s within %v; the screen:\n%s", what, d, s)
		}
	}
}

// WaitFor waits for every want on the screen at once.
func (v *vtTerm) WaitFor(d time.Duration, want ...string) (string, error) {
	return v.WaitUntil(d, strings.Join(want, " & "), func(s string) bool {
		for _, w := range want {
			if !strings.Contains(s, w) {
				return false
			}
		}
		return true
	})
}

// Exited waits up to d for the program to end.
func (v *vtTerm) Exited(d time.Duration) bool {
	select {
	case <-v.done:
		return true
	case <-time.After(d):
		return false
	}
}

func (v *vtTerm) stop() {
	v.once.Do(func() {
		_ = v.cmd.Process.Kill()
		_ = v.f.Close()
		_ = v.cmd.Wait()
		<-v.done
		// Ends the reader of the emulator's answers (Close would race
		// with its Read).
		if pw, ok := v.emu.InputPipe().(*io.PipeWriter); ok {
			_ = pw.Close()
		}
	})
}
