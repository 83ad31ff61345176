package safetext

import (
	"io"
	"unicode/utf8"
)

// Writer writes text to a terminal as Text shows it: newlines and tabs
// kept, every other control character shown (␛). fawn's command line
// writes a model's answer, a session's title or a project's configuration
// through one when its output is a terminal. A character cut in two
// between writes, or a CR whose LF may follow, waits for the next write
// (or Flush).
type Writer struct {
	w    io.Writer
	held []byte
}

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write writes p made safe, all but a cut character or a last CR, and
// reports p consumed.
func (w *Writer) Write(p []byte) (int, error) {
	buf := append(w.held, p...)
	keep := incompleteTail(buf)
	w.held = append([]byte(nil), buf[len(buf)-keep:]...)
	if out := buf[:len(buf)-keep]; len(out) > 0 {
		if _, err := io.WriteString(w.w, Text(string(out))); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Flush writes what waits for the next write.
func (w *Writer) Flush() error {
	if len(w.held) == 0 {
		return nil
	}
	held := w.held
	w.held = nil
	_, err := io.WriteString(w.w, Text(string(held)))
	return err
}

// incompleteTail is how many bytes at the end of b may be the start of
// something the next write completes: a UTF-8 sequence cut short, or a CR.
func incompleteTail(b []byte) int {
	if n := len(b); n > 0 && b[n-1] == '\r' {
		return 1
	}
	for i := 1; i <= utf8.UTFMax-1 && i <= len(b); i++ {
		c := b[len(b)-i]
		if c < utf8.RuneSelf {
			return 0
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(b[len(b)-i:]) {
				return i
			}
			return 0
		}
	}
	return 0
}
