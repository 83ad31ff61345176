package terminal

import (
	"bytes"
	"strconv"
)

// The shell hooks in fawnrc.bash print OSC 6973 markers carrying a nonce that
// is new for every shell, so output that merely contains a marker (a log of
// an earlier session, cat of this file) cannot be mistaken for one.
const (
	markStarted  = 'S' // PS0: the command line was read and runs now
	markDone     = 'D' // first PROMPT_COMMAND hook: finished, with $? and $PWD
	markPrompt   = 'P' // end of PS1: readline waits for input
	markContinue = 'C' // end of PS2: the command line is incomplete
)

// A marker longer than this is not one of ours (a PWD is at most PATH_MAX).
const maxMarkerLen = 8 << 10

type marker struct {
	kind   byte
	status int    // markDone
	pwd    string // markDone
}

// markerScanner splits the shell's output into data and markers. It keeps a
// partial marker that ends a read until the next one completes it.
type markerScanner struct {
	prefix []byte // ESC ] 6973 ; nonce ;
	carry  []byte
}

func newMarkerScanner(nonce string) *markerScanner {
	return &markerScanner{prefix: []byte("\x1b]6973;" + nonce + ";")}
}

// scan calls data for each run of output bytes and mark for each marker, in
// stream order. data's argument is only valid during the call.
func (s *markerScanner) scan(p []byte, data func([]byte), mark func(marker)) {
	if len(s.carry) > 0 {
		p = append(s.carry, p...)
		s.carry = nil
	}
	for len(p) > 0 {
		i := bytes.IndexByte(p, 0x1b)
		if i < 0 {
			data(p)
			return
		}
		rest := p[i:]
		n := min(len(s.prefix), len(rest))
		if !bytes.Equal(rest[:n], s.prefix[:n]) {
			data(p[:i+1])
			p = p[i+1:]
			continue
		}
		if n < len(s.prefix) {
			// The read ended inside what may be a marker.
			if i > 0 {
				data(p[:i])
			}
			s.carry = append([]byte(nil), rest...)
			return
		}
		body := rest[len(s.prefix):]
		end := bytes.IndexByte(body, 0x07)
		if end < 0 {
			if len(rest) > maxMarkerLen {
				data(p[:i+1])
				p = p[i+1:]
				continue
			}
			if i > 0 {
				data(p[:i])
			}
			s.carry = append([]byte(nil), rest...)
			return
		}
		if i > 0 {
			data(p[:i])
		}
		if m, ok := parseMarker(body[:end]); ok {
			mark(m)
		}
		p = body[end+1:]
	}
}

// parseMarker reads "S", "P", "C" or "D;STATUS;PWD".
func parseMarker(b []byte) (marker, bool) {
	if len(b) == 0 {
		return marker{}, false
	}
	m := marker{kind: b[0]}
	switch m.kind {
	case markStarted, markPrompt, markContinue:
		return m, len(b) == 1
	case markDone:
		rest := b[1:]
		if len(rest) == 0 || rest[0] != ';' {
			return marker{}, false
		}
		rest = rest[1:]
		semi := bytes.IndexByte(rest, ';')
		if semi < 0 {
			return marker{}, false
		}
		st, err := strconv.Atoi(string(rest[:semi]))
		if err != nil {
			return marker{}, false
		}
		m.status = st
		m.pwd = string(rest[semi+1:])
		return m, true
	}
	return marker{}, false
}
