package terminal

import (
	"bytes"
	"fmt"
	"sync"
	"time"
)

// The emulator scrolls slowly (every line feed at the bottom moves every
// cell of the screen), so it is fed from a backlog by its own goroutine and
// never sits on the pty's read path. When output arrives faster than it can
// be drawn, the backlog grows; past skipThreshold the feeder drops the
// line-local part of it (plain text, colours, line erases — nothing that
// moves the cursor elsewhere) but the last few screenfuls, writes a visible
// notice in its place, and rests a frame so that a flood is skipped in bulk
// rather than drawn line by line on the cores the command needs. Whatever
// the output, the backlog never holds more than hardCap bytes.
const (
	skipThreshold = 128 << 10
	skipKeep      = 32 << 10 // at most this much of the end is drawn...
	skipKeepLines = 64       // ...and at most this many lines beyond two screens
	skipMinimum   = 32 << 10
	hardCap       = 32 << 20
	hardKeep      = 1 << 20
	feedPiece     = 4 << 10
	// Hostile output costs up to a few screenfuls of cells per byte
	// (counts are capped to the screen, not to nothing): a piece ends
	// early once it took pieceWork cells, so that the emulator is never
	// held long and what waits for it (search, copy, quitting) waits
	// little.
	pieceWork = 1 << 20
	// Redraws are coalesced to at most 60 a second.
	frameInterval = time.Second / 60
)

type backlog struct {
	mu      sync.Mutex
	buf     []byte
	spare   []byte // the feeder's last buffer, reused
	dropped int64  // bytes cut by hardCap, not yet reported
	// prompt: buf ends a prompt of the shell (its marker is in it), so
	// once fed it is shown at once rather than at the next frame.
	prompt bool
	wake   chan struct{}
}

func newBacklog() *backlog {
	return &backlog{wake: make(chan struct{}, 1)}
}

func (b *backlog) push(p []byte) {
	b.pushPrompt(p, false)
}

// pushPrompt is push for bytes that may end a prompt of the shell.
func (b *backlog) pushPrompt(p []byte, prompt bool) {
	b.mu.Lock()
	b.prompt = b.prompt || prompt
	if b.buf == nil && b.spare != nil {
		b.buf, b.spare = b.spare[:0], nil
	}
	b.buf = append(b.buf, p...)
	if len(b.buf) > hardCap {
		cut := len(b.buf) - hardKeep
		if nl := bytes.IndexByte(b.buf[cut:], '\n'); nl >= 0 {
			cut += nl + 1
		}
		b.dropped += int64(cut)
		b.buf = append(b.buf[:0:0], b.buf[cut:]...)
	}
	b.mu.Unlock()
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

// poke wakes the feeder with nothing new to feed (a resize to carry out).
func (b *backlog) poke() {
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

func (b *backlog) take() ([]byte, int64, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	p, d, prompt := b.buf, b.dropped, b.prompt
	b.buf, b.dropped, b.prompt = nil, 0, false
	return p, d, prompt
}

// recycle hands a taken buffer back for reuse; small ones are kept.
func (b *backlog) recycle(p []byte) {
	if cap(p) == 0 || cap(p) > 4<<20 {
		return
	}
	b.mu.Lock()
	b.spare = p
	b.mu.Unlock()
}

// feed moves the backlog into the emulator until done is closed.
func (t *Terminal) feed() {
	defer t.wg.Done()
	rest := time.NewTimer(0)
	defer rest.Stop()
	for !t.feedUntilPanic(rest) {
	}
}

// feedUntilPanic feeds until done is closed (it returns true) or until a
// panic on the way (scrolling a flood past, a reflow) that screen.write did
// not already recover: then the display restarts as after a panic in the
// emulator, the output in hand is dropped, and it returns false.
func (t *Terminal) feedUntilPanic(rest *time.Timer) (closed bool) {
	defer func() {
		if r := recover(); r != nil {
			t.scr.restart(r)
			t.markDirty()
			closed = false
		}
	}()
	for {
		select {
		case <-t.done:
			return true
		case <-t.log.wake:
		}
		t.applyPendingSize()
		for {
			p, dropped, prompt := t.log.take()
			if len(p) == 0 && dropped == 0 && !prompt {
				break
			}
			if dropped > 0 {
				t.scr.write(skipNotice(dropped, []byte("\x1b[0m")))
			}
			skipped := false
			q := p
			if len(q) > skipThreshold {
				q, skipped = t.skip(q)
			}
			if !t.writePieces(q) {
				return true
			}
			t.log.recycle(p)
			if prompt {
				t.markPrompt()
			}
			if skipped || dropped > 0 {
				rest.Reset(frameInterval)
				select {
				case <-t.done:
					return true
				case <-rest.C:
				}
			}
		}
	}
}

// writePieces feeds p to the emulator a few KiB (or pieceWork cells of
// work) at a time, so that nothing waits long for the emulator's lock; it
// reports false once closed.
func (t *Terminal) writePieces(p []byte) bool {
	for len(p) > 0 {
		t.applyPendingSize()
		n, _ := t.scr.writeSome(p[:min(len(p), feedPiece)], pieceWork)
		p = p[n:]
		t.markDirty()
		select {
		case <-t.done:
			return false
		default:
		}
	}
	return true
}

// skip writes the start of p up to its first line end, then a notice in
// place of the line-local run that follows, and returns the rest and
// whether it skipped.
func (t *Terminal) skip(p []byte) ([]byte, bool) {
	start := bytes.IndexByte(p, '\n') + 1
	if start <= 0 {
		return p, false
	}
	_, rows := t.scr.size()
	keep := max(len(p)-skipKeep, lastLinesStart(p, 2*rows+skipKeepLines))
	end := lineLocalEnd(p, start, keep)
	if end-start < skipMinimum {
		return p, false
	}
	if !t.writePieces(p[:start]) {
		return nil, false
	}
	if t.scr.scrollPast(p[start:end]) {
		// The lines are in the scrollback; the colours they leave in
		// effect carry on.
		t.scr.write(sgrReplay(p[start:end]))
	} else {
		t.scr.write(skipNotice(int64(end-start), sgrReplay(p[start:end])))
	}
	t.skippedBytes.Add(int64(end - start))
	return p[end:], true
}

// lastLinesStart returns where the last n lines of p begin.
func lastLinesStart(p []byte, n int) int {
	i := len(p)
	if i > 0 && p[i-1] == '\n' {
		i--
	}
	for ; n > 0; n-- {
		j := bytes.LastIndexByte(p[:i], '\n')
		if j < 0 {
			return 0
		}
		i = j
	}
	return i + 1
}

// lineLocalEnd returns the end (just after a newline) of the longest run of
// p[from:limit] that only holds text and escape sequences whose effect stays
// on their line: SGR (colours), EL (erase in line) and OSC strings.
func lineLocalEnd(p []byte, from, limit int) int {
	if limit <= from {
		return from
	}
	i := from
	stop := limit
	for i < limit {
		j := bytes.IndexByte(p[i:limit], 0x1b)
		if j < 0 {
			break
		}
		i += j
		n := lineLocalSeq(p[i:])
		if n == 0 {
			stop = i
			break
		}
		i += n
	}
	nl := bytes.LastIndexByte(p[from:stop], '\n')
	if nl < 0 {
		return from
	}
	return from + nl + 1
}

// lineLocalSeq returns the length of the escape sequence at the start of p
// when it is line-local and complete, else 0.
func lineLocalSeq(p []byte) int {
	if len(p) < 2 {
		return 0
	}
	switch p[1] {
	case '[':
		for k := 2; k < len(p) && k < 64; k++ {
			c := p[k]
			if c >= 0x40 && c <= 0x7e {
				if c == 'm' || c == 'K' {
					return k + 1
				}
				return 0
			}
			if c < 0x20 || c > 0x3f {
				return 0
			}
		}
	case ']':
		for k := 2; k < len(p) && k < maxMarkerLen; k++ {
			switch p[k] {
			case 0x07:
				return k + 1
			case 0x1b:
				if k+1 < len(p) && p[k+1] == '\\' {
					return k + 2
				}
				return 0
			}
		}
	}
	return 0
}

// sgrReplay returns the colour changes in p, so the text after a skip keeps
// the colours it would have had: all of them when they are few, else a reset
// and the last one.
func sgrReplay(p []byte) []byte {
	var all []byte
	var last []byte
	for i := 0; i < len(p); {
		j := bytes.IndexByte(p[i:], 0x1b)
		if j < 0 {
			break
		}
		i += j
		n := lineLocalSeq(p[i:])
		if n == 0 {
			i++
			continue
		}
		if p[i+1] == '[' && p[i+n-1] == 'm' {
			last = p[i : i+n]
			if len(all) < 4<<10 {
				all = append(all, last...)
			}
		}
		i += n
	}
	if len(all) < 4<<10 {
		return all
	}
	return append([]byte("\x1b[0m"), last...)
}

// skipNotice is the line shown where output was left out of the display.
// Only reverse video is switched, so the colours in effect carry on.
func skipNotice(n int64, after []byte) []byte {
	s := fmt.Sprintf("\x1b[7m[fawn: display skipped %s of output]\x1b[27m\r\n", humanBytes(n))
	return append([]byte(s), after...)
}

// pump calls OnDamage at most once a frame while the screen keeps
// changing, except for a prompt of the shell: the shell waits for the
// user then, nothing more comes to coalesce with it, and the user waits
// for it, so the prompt is passed on (OnPrompt) at once, whatever the
// frame before it. Prompts that come faster than a frame apart (the
// continuation lines of a pasted here-document) are drawn at the pace of
// other output.
func (t *Terminal) pump() {
	defer t.wg.Done()
	tick := time.NewTimer(0)
	defer tick.Stop()
	var lastPrompt time.Time
	for {
		select {
		case <-t.done:
			return
		case <-t.dirty:
			t.damaged()
		case <-t.prompted:
			if !t.promptShown(&lastPrompt) {
				continue // paced: it marked the screen dirty
			}
		}
		tick.Reset(frameInterval)
		for waiting := true; waiting; {
			select {
			case <-t.done:
				return
			case <-tick.C:
				waiting = false
			case <-t.prompted:
				t.promptShown(&lastPrompt)
			}
		}
	}
}

func (t *Terminal) damaged() {
	if t.opts.OnDamage != nil {
		t.opts.OnDamage()
	}
}

// promptShown passes on a prompt the emulator now shows, at once
// (OnPrompt, or OnDamage without it), unless the last went out less than
// a frame before: then it marks the screen dirty for the paced frame and
// reports false. The damage marked before a prompt passed on is covered.
func (t *Terminal) promptShown(last *time.Time) bool {
	if !last.IsZero() && time.Since(*last) < frameInterval {
		t.markDirty()
		return false
	}
	*last = time.Now()
	select {
	case <-t.dirty:
	default:
	}
	if t.opts.OnPrompt != nil {
		t.opts.OnPrompt()
	} else {
		t.damaged()
	}
	return true
}

func (t *Terminal) markDirty() {
	select {
	case t.dirty <- struct{}{}:
	default:
	}
}

// markPrompt tells the pump that the emulator shows a new prompt.
func (t *Terminal) markPrompt() {
	select {
	case t.prompted <- struct{}{}:
	default:
	}
}
