package session

import (
	"bytes"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Messages are most of a session's bytes, and encoding/json spent most of a
// whole read on them (it checks a line, then decodes it, both through
// reflection). decodeMessage reads a message record exactly as the writer
// lays it out (json.Marshal of a Record: its fields in order, no spaces)
// and takes nothing else: a field it does not know (parts, extra), another
// order, a space, an escape json.Marshal never writes, text that is not
// UTF-8 — anything — and the line goes to encoding/json, as before. Tests
// compare it with encoding/json on every shape the writer writes, and a
// fuzz target on any line.

// messageKeys are the fields of a Message decodeMessage reads, in the
// order json.Marshal writes them (Parts and Extra are left to
// encoding/json).
var messageKeys = [...]string{"role", "content", "reasoning", "tool_calls", "tool_call_id", "tool_name", "name", "typed"}

// decodeMessage reads a message record as the writer writes it:
// {"type":"message","time":"…","n":N,"message":{"role":…}} and a newline.
// ok is false for any other line (and a line cut off), which is then
// decoded by encoding/json.
func decodeMessage(line []byte) (r *Record, ok bool) {
	if len(line) == 0 || line[len(line)-1] != '\n' {
		return nil, false
	}
	s, found := bytes.CutPrefix(bytes.TrimRight(line, " \t\r\n"), messagePrefix)
	if !found {
		return nil, false
	}
	q := bytes.IndexByte(s, '"')
	if q < 0 || bytes.IndexByte(s[:q], '\\') >= 0 {
		return nil, false
	}
	r = &Record{Type: TypeMessage}
	if r.Time.UnmarshalText(s[:q]) != nil {
		return nil, false
	}
	s = s[q+1:]
	if rest, found := bytes.CutPrefix(s, []byte(`,"n":`)); found {
		n, rest, ok := jsonInt(rest)
		if !ok {
			return nil, false
		}
		r.N, s = &n, rest
	}
	s, found = bytes.CutPrefix(s, []byte(`,"message":{`))
	if !found {
		return nil, false
	}
	m := &Message{}
	if s, ok = decodeMessageFields(s, m); !ok || string(s) != "}" {
		return nil, false
	}
	r.Message = m
	return r, true
}

// decodeMessageFields reads a message's fields, from after its opening
// brace up to its closing one, into m, and returns what follows it: role
// first, then any of the others in messageKeys's order.
func decodeMessageFields(s []byte, m *Message) ([]byte, bool) {
	next := 0
	for {
		key, rest, ok := plainKey(s)
		if !ok {
			return nil, false
		}
		i := next
		for i < len(messageKeys) && messageKeys[i] != key {
			i++
		}
		if i == len(messageKeys) || (next == 0 && i != 0) {
			return nil, false
		}
		next = i + 1
		if key == "tool_calls" {
			rest, ok = decodeToolCalls(rest, &m.ToolCalls)
		} else {
			var v string
			v, rest, ok = jsonString(rest)
			switch key {
			case "role":
				m.Role = v
			case "content":
				m.Content = v
			case "reasoning":
				m.Reasoning = v
			case "tool_call_id":
				m.ToolCallID = v
			case "tool_name":
				m.ToolName = v
			case "name":
				m.Name = v
			case "typed":
				m.Typed = v
			}
		}
		if !ok || len(rest) == 0 {
			return nil, false
		}
		switch rest[0] {
		case ',':
			s = rest[1:]
		case '}':
			return rest[1:], true
		default:
			return nil, false
		}
	}
}

// decodeToolCalls reads a non-empty array of calls, each
// {"id":…,"type":…,"name":…,"arguments":…} with type left out when empty
// (json.Marshal's order; an extra goes to encoding/json), and returns what
// follows it.
func decodeToolCalls(s []byte, calls *[]ToolCall) ([]byte, bool) {
	if len(s) == 0 || s[0] != '[' {
		return nil, false
	}
	s = s[1:]
	for {
		var tc ToolCall
		var ok bool
		s, ok = bytes.CutPrefix(s, []byte(`{"id":`))
		if !ok {
			return nil, false
		}
		if tc.ID, s, ok = jsonString(s); !ok {
			return nil, false
		}
		if rest, found := bytes.CutPrefix(s, []byte(`,"type":`)); found {
			if tc.Type, s, ok = jsonString(rest); !ok {
				return nil, false
			}
		}
		if s, ok = bytes.CutPrefix(s, []byte(`,"name":`)); !ok {
			return nil, false
		}
		if tc.Name, s, ok = jsonString(s); !ok {
			return nil, false
		}
		if s, ok = bytes.CutPrefix(s, []byte(`,"arguments":`)); !ok {
			return nil, false
		}
		if tc.Arguments, s, ok = jsonString(s); !ok || len(s) < 2 || s[0] != '}' {
			return nil, false
		}
		*calls = append(*calls, tc)
		switch s[1] {
		case ',':
			s = s[2:]
		case ']':
			return s[2:], true
		default:
			return nil, false
		}
	}
}

// plainKey reads an object's key and its colon: ASCII without escapes, as
// every key decodeMessage knows is written.
func plainKey(s []byte) (key string, rest []byte, ok bool) {
	if len(s) == 0 || s[0] != '"' {
		return "", nil, false
	}
	q := bytes.IndexByte(s[1:], '"')
	if q < 0 || len(s) < q+3 || s[q+2] != ':' {
		return "", nil, false
	}
	k := s[1 : q+1]
	if bytes.IndexByte(k, '\\') >= 0 {
		return "", nil, false
	}
	return string(k), s[q+3:], true
}

// jsonString reads a JSON string from the start of s as encoding/json
// reads one, and returns what follows it. ok is false for what json.Marshal
// never writes and encoding/json would read otherwise or refuse: a control
// character, text that is not UTF-8, an escape of a UTF-16 surrogate, an
// unknown escape, a string not closed.
func jsonString(s []byte) (v string, rest []byte, ok bool) {
	if len(s) == 0 || s[0] != '"' {
		return "", nil, false
	}
	s = s[1:]
	// Most strings have no escape: one pass, one copy.
	i, ascii := 0, true
	for ; i < len(s); i++ {
		c := s[i]
		if c == '"' {
			if !ascii && !utf8.Valid(s[:i]) {
				return "", nil, false
			}
			return string(s[:i]), s[i+1:], true
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return "", nil, false
		}
		if c >= utf8.RuneSelf {
			ascii = false
		}
	}
	if !ascii && !utf8.Valid(s[:i]) {
		return "", nil, false
	}
	// Escapes: the text is built once, in a buffer of the escaped length
	// (never less than the text's).
	var buf strings.Builder
	buf.Grow(escapedLen(s))
	buf.Write(s[:i])
	for i < len(s) {
		c := s[i]
		switch {
		case c == '"':
			return buf.String(), s[i+1:], true
		case c == '\\':
			if i+1 >= len(s) {
				return "", nil, false
			}
			switch e := s[i+1]; e {
			case '"', '\\', '/':
				buf.WriteByte(e)
			case 'b':
				buf.WriteByte('\b')
			case 'f':
				buf.WriteByte('\f')
			case 'n':
				buf.WriteByte('\n')
			case 'r':
				buf.WriteByte('\r')
			case 't':
				buf.WriteByte('\t')
			case 'u':
				r, ok := hex4(s[i+2:])
				if !ok || utf16.IsSurrogate(r) {
					return "", nil, false
				}
				buf.WriteRune(r)
				i += 4
			default:
				return "", nil, false
			}
			i += 2
		case c < 0x20:
			return "", nil, false
		default:
			// A run of plain bytes up to the next quote or escape.
			j, ascii := i, true
			for ; j < len(s) && s[j] != '"' && s[j] != '\\'; j++ {
				if s[j] < 0x20 {
					return "", nil, false
				}
				if s[j] >= utf8.RuneSelf {
					ascii = false
				}
			}
			if !ascii && !utf8.Valid(s[i:j]) {
				return "", nil, false
			}
			buf.Write(s[i:j])
			i = j
		}
	}
	return "", nil, false
}

// escapedLen is the length of the JSON string s begins, up to its closing
// quote (all of s when there is none).
func escapedLen(s []byte) int {
	for i := 0; ; {
		q := bytes.IndexByte(s[i:], '"')
		if q < 0 {
			return len(s)
		}
		i += q
		odd := false
		for j := i - 1; j >= 0 && s[j] == '\\'; j-- {
			odd = !odd
		}
		if !odd {
			return i
		}
		i++
	}
}

// hex4 reads the four hex digits of a \u escape.
func hex4(s []byte) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range s[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r*16 + rune(c)
	}
	return r, true
}
