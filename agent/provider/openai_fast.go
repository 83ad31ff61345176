package provider

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// fastDelta reads the chunk nearly every line of a streamed answer is — one
// choice at index 0 whose delta holds text or reasoning, maybe a finish
// reason, no usage, no tool calls — without encoding/json's reflection,
// whose code and tables, cold again after every pause between two chunks,
// cost more than the decoding itself. Anything else (tool calls, usage,
// several choices, an escape in a key, text that is not valid UTF-8, a line
// that is not one JSON object) gives ok false, and the line goes to
// encoding/json. Values of fields fawn does not read are skipped, checked
// only as far as finding their end needs.
func fastDelta(data []byte) (content, reasoning, finish string, choice, ok bool) {
	d := fastDec{b: data}
	if !d.byte('{') {
		return
	}
	if d.byte('}') {
		return "", "", "", false, d.end()
	}
	for {
		key, esc, good := d.str()
		if !good || esc || !d.byte(':') {
			return
		}
		switch string(key) {
		case "choices":
			if d.null() {
				break
			}
			if !d.byte('[') {
				return
			}
			if d.byte(']') {
				break
			}
			if choice {
				return
			}
			choice = true
			if !d.choice(&content, &reasoning, &finish) || !d.byte(']') {
				return
			}
		case "usage":
			if !d.null() {
				return
			}
		default:
			if foldsTo(key, "choices", "usage") || !d.skip() {
				return
			}
		}
		if d.byte('}') {
			return content, reasoning, finish, choice, d.end()
		}
		if !d.byte(',') {
			return
		}
	}
}

// foldsTo reports whether encoding/json could take key for one of names,
// which it matches without regard to case: any key with a byte outside
// ASCII (Unicode folds "ſ" to "s") or equal to a name but for case.
func foldsTo(key []byte, names ...string) bool {
	for _, c := range key {
		if c >= 0x80 {
			return true
		}
	}
	for _, n := range names {
		if bytes.EqualFold(key, []byte(n)) {
			return true
		}
	}
	return false
}

// fastDec is a position in a line of JSON.
type fastDec struct {
	b []byte
	i int
}

func (d *fastDec) ws() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// byte consumes c (after blanks) if it comes next.
func (d *fastDec) byte(c byte) bool {
	d.ws()
	if d.i < len(d.b) && d.b[d.i] == c {
		d.i++
		return true
	}
	return false
}

func (d *fastDec) end() bool {
	d.ws()
	return d.i == len(d.b)
}

func (d *fastDec) null() bool {
	d.ws()
	if bytes.HasPrefix(d.b[d.i:], []byte("null")) {
		d.i += 4
		return true
	}
	return false
}

// str reads a string: its bytes between the quotes, and whether it has
// escapes. Control characters and invalid UTF-8 are not accepted.
func (d *fastDec) str() (raw []byte, esc, ok bool) {
	if !d.byte('"') {
		return nil, false, false
	}
	start := d.i
	ascii := true
	for d.i < len(d.b) {
		c := d.b[d.i]
		switch {
		case c == '"':
			raw = d.b[start:d.i]
			d.i++
			if !ascii && !utf8.Valid(raw) {
				return nil, false, false
			}
			return raw, esc, true
		case c == '\\':
			esc = true
			if !d.escape() {
				return nil, false, false
			}
			continue
		case c < 0x20:
			return nil, false, false
		case c >= 0x80:
			ascii = false
		}
		d.i++
	}
	return nil, false, false
}

// escape passes over one escape sequence, which must be one JSON has.
func (d *fastDec) escape() bool {
	if d.i+1 >= len(d.b) {
		return false
	}
	switch d.b[d.i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		d.i += 2
		return true
	case 'u':
		if d.i+6 > len(d.b) {
			return false
		}
		for _, h := range d.b[d.i+2 : d.i+6] {
			if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
				return false
			}
		}
		d.i += 6
		return true
	}
	return false
}

// number passes over a number as JSON writes them:
// -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (d *fastDec) number() bool {
	digits := func() int {
		n := 0
		for d.i < len(d.b) && d.b[d.i] >= '0' && d.b[d.i] <= '9' {
			d.i++
			n++
		}
		return n
	}
	if d.i < len(d.b) && d.b[d.i] == '-' {
		d.i++
	}
	switch {
	case d.i < len(d.b) && d.b[d.i] == '0':
		d.i++
	case digits() == 0:
		return false
	}
	if d.i < len(d.b) && d.b[d.i] == '.' {
		d.i++
		if digits() == 0 {
			return false
		}
	}
	if d.i < len(d.b) && (d.b[d.i] == 'e' || d.b[d.i] == 'E') {
		d.i++
		if d.i < len(d.b) && (d.b[d.i] == '+' || d.b[d.i] == '-') {
			d.i++
		}
		if digits() == 0 {
			return false
		}
	}
	return true
}

// text reads a string value (or null, as "") as Go text.
func (d *fastDec) text(out *string) bool {
	if d.null() {
		*out = ""
		return true
	}
	start := d.i
	raw, esc, ok := d.str()
	if !ok {
		return false
	}
	if !esc {
		*out = string(raw)
		return true
	}
	return json.Unmarshal(d.b[start:d.i], out) == nil
}

// choice reads the one choice: index 0, its delta, its finish reason.
func (d *fastDec) choice(content, reasoning, finish *string) bool {
	if !d.byte('{') {
		return false
	}
	if d.byte('}') {
		return true
	}
	var rc, r string
	for {
		key, esc, ok := d.str()
		if !ok || esc || !d.byte(':') {
			return false
		}
		switch string(key) {
		case "index":
			d.ws()
			if d.i >= len(d.b) || d.b[d.i] != '0' {
				return false
			}
			d.i++
			if d.i < len(d.b) && (d.b[d.i] >= '0' && d.b[d.i] <= '9' || d.b[d.i] == '.' || d.b[d.i] == 'e' || d.b[d.i] == 'E') {
				return false
			}
		case "finish_reason":
			if !d.text(finish) {
				return false
			}
		case "delta":
			if !d.delta(content, &rc, &r) {
				return false
			}
		default:
			if foldsTo(key, "index", "finish_reason", "delta") || !d.skip() {
				return false
			}
		}
		if d.byte('}') {
			break
		}
		if !d.byte(',') {
			return false
		}
	}
	*reasoning = rc
	if rc == "" {
		*reasoning = r
	}
	return true
}

func (d *fastDec) delta(content, rc, r *string) bool {
	if d.null() {
		return true
	}
	if !d.byte('{') {
		return false
	}
	if d.byte('}') {
		return true
	}
	for {
		key, esc, ok := d.str()
		if !ok || esc || !d.byte(':') {
			return false
		}
		switch string(key) {
		case "content":
			ok = d.text(content)
		case "reasoning_content":
			ok = d.text(rc)
		case "reasoning":
			ok = d.text(r)
		case "tool_calls":
			ok = d.null()
		default:
			ok = !foldsTo(key, "content", "reasoning_content", "reasoning", "tool_calls") && d.skip()
		}
		if !ok {
			return false
		}
		if d.byte('}') {
			return true
		}
		if !d.byte(',') {
			return false
		}
	}
}

// skip passes over one value of any kind.
func (d *fastDec) skip() bool {
	d.ws()
	if d.i >= len(d.b) {
		return false
	}
	switch c := d.b[d.i]; {
	case c == '"':
		_, _, ok := d.str()
		return ok
	case c == '{' || c == '[':
		closing := byte('}')
		if c == '[' {
			closing = ']'
		}
		d.i++
		if d.byte(closing) {
			return true
		}
		for {
			if c == '{' {
				if _, _, ok := d.str(); !ok || !d.byte(':') {
					return false
				}
			}
			if !d.skip() {
				return false
			}
			if d.byte(closing) {
				return true
			}
			if !d.byte(',') {
				return false
			}
		}
	case c == 't' || c == 'f' || c == 'n':
		for _, lit := range []string{"true", "false", "null"} {
			if bytes.HasPrefix(d.b[d.i:], []byte(lit)) {
				d.i += len(lit)
				return true
			}
		}
		return false
	case c == '-' || c >= '0' && c <= '9':
		return d.number()
	}
	return false
}
