package e2e

import (
	"fmt"
	"os"
	"sync"
	"time"
)

// ptyOutput reads what a program writes to its pty on a goroutine of its
// own, so that a wait for it can time out: a read deadline on a pty is not
// honoured, and a program that never prints the marker (a trust prompt in
// the way) would hang the benchmark instead of failing it. It reads until
// the pty is closed, so the program never blocks on a full pty.
type ptyOutput struct {
	mu   sync.Mutex
	buf  []byte
	err  error
	wake chan struct{}
}

func readPty(f *os.File) *ptyOutput {
	p := &ptyOutput{wake: make(chan struct{}, 1)}
	go func() {
		b := make([]byte, 64<<10)
		for {
			n, err := f.Read(b)
			p.mu.Lock()
			p.buf = append(p.buf, b[:n]...)
			if err != nil {
				p.err = err
			}
			p.mu.Unlock()
			select {
			case p.wake <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	return p
}

// waitFor returns once seen(output so far) holds, or an error when the
// program's output ended or d passed first.
func (p *ptyOutput) waitFor(d time.Duration, seen func([]byte) bool) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	for {
		p.mu.Lock()
		ok, err := seen(p.buf), p.err
		p.mu.Unlock()
		if ok {
			return nil
		}
		if err != nil {
			return err
		}
		select {
		case <-p.wake:
		case <-timer.C:
			return fmt.Errorf("not seen within %s", d)
		}
	}
}
