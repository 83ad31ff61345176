package terminal

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Limits of what a command's result keeps. Output beyond head+tail is counted
// but not stored, so a command that prints gigabytes costs a few dozen KiB.
const (
	captureHead = 8 << 10
	captureTail = 24 << 10
	// A line longer than this is passed on in pieces (minified files, a
	// progress bar that never prints a newline).
	captureMaxLine = 64 << 10
	// What the live preview (onOutput) may have pending at once.
	captureStreamMax = 8 << 10
)

type escState uint8

const (
	escGround escState = iota
	escEsc             // after ESC
	escInter           // ESC followed by intermediate bytes
	escCSI             // ESC [
	escOSC             // ESC ] ... BEL or ST
	escOSCEsc          // ESC inside an OSC
	escStr             // DCS, SOS, PM, APC: ... ST
	escStrEsc          // ESC inside one of those
)

// capture turns the raw pty output of one command into the text a model
// reads: escape sequences removed, CRLF turned into LF, a line rewritten
// with \r (progress bars) reduced to its last state, backspaces applied,
// invalid UTF-8 replaced; it keeps the first and last part of it in bounded
// memory and tells whether the output looks binary.
type capture struct {
	state     escState
	csiParams []byte
	pendingCR bool
	line      []byte

	head     []byte
	headFull bool
	tail     ring

	cleanBytes int64 // text bytes produced
	cleanLines int64 // newlines produced
	rawText    int64 // bytes seen outside escape sequences
	odd        int64 // NULs, stray control bytes, invalid UTF-8
	partial    bool  // a line was passed on before its end
	raw        int64 // every byte written

	stream        []byte
	streamSkipped bool

	// spill gets every line as it is emitted (Command.Spill); nil after
	// a write to it failed.
	spill io.Writer
}

func newCapture() *capture {
	return &capture{tail: ring{buf: make([]byte, captureTail)}}
}

// write consumes raw output.
func (c *capture) write(p []byte) {
	c.raw += int64(len(p))
	for i := 0; i < len(p); i++ {
		b := p[i]
		switch c.state {
		case escGround:
			if b >= 0x20 && b != 0x7f {
				// Fast path: a run of text.
				j := i + 1
				for j < len(p) && p[j] >= 0x20 && p[j] != 0x7f {
					j++
				}
				c.text(p[i:j])
				i = j - 1
				continue
			}
			c.control(b)
		case escEsc:
			c.escByte(b)
		case escCSI:
			c.csiByte(b)
		default:
			c.skipByte(b)
		}
	}
}

// escByte takes the byte after an ESC, which says what sequence it starts.
func (c *capture) escByte(b byte) {
	switch {
	case b == '[':
		c.state = escCSI
		c.csiParams = c.csiParams[:0]
	case b == ']':
		c.state = escOSC
	case b == 'P' || b == 'X' || b == '^' || b == '_':
		c.state = escStr
	case b >= 0x20 && b <= 0x2f:
		c.state = escInter
	case b == 0x1b:
		// ESC ESC: stay.
	default:
		c.state = escGround
	}
}

// csiByte takes a byte of a control sequence: a parameter is kept (the
// first 16), the final byte applies it.
func (c *capture) csiByte(b byte) {
	switch {
	case b >= 0x30 && b <= 0x3f:
		if len(c.csiParams) < 16 {
			c.csiParams = append(c.csiParams, b)
		}
	case b >= 0x20 && b <= 0x2f:
	case b >= 0x40 && b <= 0x7e:
		c.csi(b)
		c.state = escGround
	case b == 0x1b:
		c.state = escEsc
	case b == 0x18 || b == 0x1a: // CAN, SUB abort the sequence
		c.state = escGround
	}
}

// skipByte takes a byte of a sequence whose content changes no text: an
// ESC with intermediates, an OSC, a DCS, SOS, PM or APC string. It only
// looks for the sequence's end.
func (c *capture) skipByte(b byte) {
	switch c.state {
	case escInter:
		if b < 0x20 || b > 0x2f {
			c.state = escGround
		}
	case escOSC:
		switch b {
		case 0x07:
			c.state = escGround
		case 0x1b:
			c.state = escOSCEsc
		}
	case escOSCEsc:
		if b == '\\' {
			c.state = escGround
		} else {
			c.state = escOSC
		}
	case escStr:
		if b == 0x1b {
			c.state = escStrEsc
		}
	case escStrEsc:
		if b == '\\' {
			c.state = escGround
		} else {
			c.state = escStr
		}
	}
}

func (c *capture) text(p []byte) {
	c.rawText += int64(len(p))
	if c.pendingCR {
		// A carriage return not followed by a newline: the line is being
		// redrawn; keep only what comes after.
		c.line = c.line[:0]
		c.pendingCR = false
	}
	c.line = append(c.line, p...)
	if len(c.line) >= captureMaxLine {
		c.flushPartial()
	}
}

func (c *capture) control(b byte) {
	c.rawText++
	switch b {
	case '\n':
		c.pendingCR = false
		c.line = append(c.line, '\n')
		c.emit(c.line)
		c.line = c.line[:0]
	case '\r':
		c.pendingCR = true
	case '\t':
		c.text([]byte{'\t'})
		c.rawText--
	case '\b':
		if c.pendingCR {
			c.line = c.line[:0]
			c.pendingCR = false
		}
		if len(c.line) > 0 {
			_, n := utf8.DecodeLastRune(c.line)
			c.line = c.line[:len(c.line)-n]
		}
	case 0x1b:
		c.rawText--
		c.state = escEsc
	case 0x07: // bell
	default:
		c.odd++
	}
}

// csi applies the few sequences that change which text a line ends up with.
func (c *capture) csi(final byte) {
	switch final {
	case 'K': // erase in line
		if string(c.csiParams) == "2" || c.pendingCR {
			c.line = c.line[:0]
			c.pendingCR = false
		}
	case 'G': // cursor to column N: progress bars use it as a carriage return
		if len(c.csiParams) == 0 || string(c.csiParams) == "1" || string(c.csiParams) == "0" {
			c.pendingCR = true
		}
	}
}

func (c *capture) flushPartial() {
	c.partial = true
	c.emit(c.line)
	c.line = c.line[:0]
}

// emit stores one finished line (or piece of one).
func (c *capture) emit(b []byte) {
	if !utf8.Valid(b) {
		c.odd += int64(invalidBytes(b))
		b = bytes.ToValidUTF8(b, []byte("\uFFFD"))
	}
	c.cleanBytes += int64(len(b))
	if c.spill != nil {
		if _, err := c.spill.Write(b); err != nil {
			c.spill = nil
		}
	}
	if len(b) > 0 && b[len(b)-1] == '\n' {
		c.cleanLines++
	}
	if !c.headFull {
		room := captureHead - len(c.head)
		if len(b) <= room {
			c.head = append(c.head, b...)
		} else {
			c.headFull = true
			if len(c.head) == 0 {
				// One enormous first line: keep its start.
				cut := runeCut(b, room)
				c.head = append(c.head, b[:cut]...)
				c.tail.write(b[cut:])
			} else {
				c.tail.write(b)
			}
		}
	} else {
		c.tail.write(b)
	}
	c.addStream(b)
}

func (c *capture) addStream(b []byte) {
	c.stream = append(c.stream, b...)
	// Trimmed only when twice the limit, so a flood of lines costs one
	// copy per captureStreamMax bytes, not one per line.
	if len(c.stream) > 2*captureStreamMax {
		c.trimStream()
	}
}

func (c *capture) trimStream() {
	if len(c.stream) <= captureStreamMax {
		return
	}
	drop := len(c.stream) - captureStreamMax
	if nl := bytes.IndexByte(c.stream[drop:], '\n'); nl >= 0 && nl < captureStreamMax/2 {
		drop += nl + 1
	}
	c.stream = append(c.stream[:0], c.stream[drop:]...)
	c.streamSkipped = true
}

// takeStream returns the text produced since the last call. When more was
// produced than the preview keeps, older lines are left out and the text
// starts with "…\n".
func (c *capture) takeStream() string {
	if len(c.stream) == 0 {
		return ""
	}
	c.trimStream()
	s := string(c.stream)
	if c.streamSkipped {
		s = "…\n" + s
	}
	c.stream = c.stream[:0]
	c.streamSkipped = false
	return s
}

// finish ends the capture: a last line without a newline is kept as is.
func (c *capture) finish() {
	if len(c.line) > 0 {
		c.emit(c.line)
		c.line = c.line[:0]
	}
	c.pendingCR = false
}

// binary reports output that is not text: more than one byte in twenty was a
// NUL, a stray control byte or invalid UTF-8.
func (c *capture) binary() bool {
	return c.odd > 0 && c.odd*20 > c.rawText
}

// captured is the result of a capture.
type captured struct {
	text          string
	totalBytes    int64
	totalLines    int64
	omittedBytes  int64
	omittedLines  int64
	binary        bool   // then totalBytes counts the raw bytes
	binaryVisible string // a short sanitized sample when binary
}

func (c *capture) result() captured {
	r := captured{totalBytes: c.cleanBytes, totalLines: c.cleanLines, binary: c.binary()}
	if c.cleanBytes > 0 && (c.cleanLines == 0 || !bytes.HasSuffix(c.lastBytes(), []byte("\n"))) {
		r.totalLines++ // the unterminated last line
	}
	head := c.head
	tail := c.tail.bytes()
	if int64(len(head)+len(tail)) >= c.cleanBytes {
		r.text = string(head) + string(tail)
	} else {
		// Cut at line boundaries when one is near.
		if i := bytes.LastIndexByte(head, '\n'); i >= len(head)/2 {
			head = head[:i+1]
		}
		if i := bytes.IndexByte(tail, '\n'); i >= 0 && i < len(tail)/2 {
			tail = tail[i+1:]
		} else if cut := runeStart(tail); cut > 0 {
			tail = tail[cut:]
		}
		r.omittedBytes = c.cleanBytes - int64(len(head)+len(tail))
		r.omittedLines = r.totalLines - int64(bytes.Count(head, []byte("\n"))) - int64(bytes.Count(tail, []byte("\n")))
		if !bytes.HasSuffix(tail, []byte("\n")) {
			r.omittedLines-- // the last line is shown, unterminated
		}
		r.omittedLines = max(r.omittedLines, 0)
		var sb strings.Builder
		sb.Write(head)
		if len(head) > 0 && head[len(head)-1] != '\n' {
			sb.WriteByte('\n')
		}
		fmt.Fprintf(&sb, "[… %s omitted …]\n", omission(r.omittedLines, r.omittedBytes))
		sb.Write(tail)
		r.text = sb.String()
	}
	if r.binary {
		r.totalBytes = c.raw
		r.binaryVisible = sampleText(r.text, 200)
		r.text = ""
	}
	return r
}

func (c *capture) lastBytes() []byte {
	if t := c.tail.bytes(); len(t) > 0 {
		return t
	}
	return c.head
}

func omission(lines, n int64) string {
	size := humanBytes(n)
	switch lines {
	case 0:
		return size
	case 1:
		return "1 line, " + size
	}
	return fmt.Sprintf("%d lines, %s", lines, size)
}

// humanBytes renders a byte count for people: 812 B, 12.3 KiB, 15.1 MiB.
func humanBytes(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	case n < 1<<30:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
}

// sampleText keeps the printable start of s, at most n runes.
func sampleText(s string, n int) string {
	var sb strings.Builder
	for _, r := range s {
		if n == 0 {
			sb.WriteString("…")
			break
		}
		if r == '\uFFFD' || (r < 0x20 && r != '\n' && r != '\t') {
			r = '.'
		}
		sb.WriteRune(r)
		n--
	}
	return sb.String()
}

func invalidBytes(b []byte) int {
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size <= 1 {
			n++
		}
		b = b[size:]
	}
	return n
}

// runeCut returns the largest i <= n that does not split a UTF-8 sequence.
func runeCut(b []byte, n int) int {
	if n >= len(b) {
		return len(b)
	}
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return n
}

// runeStart returns the index of the first rune start in b (a ring's
// oldest bytes may begin inside a UTF-8 sequence).
func runeStart(b []byte) int {
	for i := 0; i < len(b) && i < utf8.UTFMax; i++ {
		if utf8.RuneStart(b[i]) {
			return i
		}
	}
	return 0
}

// ring keeps the last len(buf) bytes written to it.
type ring struct {
	buf []byte
	n   int64 // bytes written in all
}

func (r *ring) write(p []byte) {
	size := len(r.buf)
	if len(p) >= size {
		copy(r.buf, p[len(p)-size:])
		r.n += int64(len(p))
		// Rotate so the oldest byte sits at n % size.
		off := int(r.n % int64(size))
		tmp := append([]byte(nil), r.buf...)
		copy(r.buf[off:], tmp[:size-off])
		copy(r.buf[:off], tmp[size-off:])
		return
	}
	off := int(r.n % int64(size))
	k := copy(r.buf[off:], p)
	copy(r.buf, p[k:])
	r.n += int64(len(p))
}

// bytes returns the kept bytes, oldest first.
func (r *ring) bytes() []byte {
	size := int64(len(r.buf))
	if r.n <= size {
		return r.buf[:r.n]
	}
	off := int(r.n % size)
	out := make([]byte, 0, size)
	out = append(out, r.buf[off:]...)
	return append(out, r.buf[:off]...)
}
