package session

import (
	"bytes"
	"encoding/json"
	"strconv"
	"sync"
)

// A resumed session of 10,000 messages is 7 MB of JSON, and decoding all of
// it takes a few hundred milliseconds; the first frame needs only the last
// screenfuls of the chat. readLazy decodes, of the message records, only
// the last ones (and the first user message, the session's title), and
// lets each other message stand as a stub that keeps its place: every other
// record (turns, to-dos, compactions, trims, rewinds, the workspace) is
// decoded, so the usage totals, the to-dos, the title, the counts and the
// torn-line check are exact at once. Whole decodes the rest, later, from
// the bytes already read.

// Recent messages decoded at once: at least minRecent; then up to
// maxRecent while their lines stay under recentBytes (a few screens of
// chat either way; large tool results are folded on screen).
const (
	minRecent   = 50
	maxRecent   = 200
	recentBytes = 1 << 20
)

// lazyRole is the role of a stub: a message readLazy did not decode. No
// record has it (a role is user, assistant or tool), and a stub never
// leaves this package: Transcript is cut after the last one, and Messages
// holding one waits for Whole.
const lazyRole = "\x00not decoded"

// messagePrefix is how the writer begins every message record: the type,
// then the time, then the index n and the message (Record's field order).
var messagePrefix = []byte(`{"type":"message","time":"`)

// rest is what readLazy left undecoded: the file's bytes, decoded whole
// once, on the first call to Whole.
type rest struct {
	once sync.Once
	data []byte
	name string
	full *Log
}

// Partial reports whether l was opened lazily with part of it undecoded:
// its Transcript holds the last entries only, and Whole has them all.
func (l *Log) Partial() bool { return l.rest != nil }

// MessagesLater reports whether Messages, the conversation the model is
// sent, is known only to Whole: it reaches back before the messages
// decoded at once (there was no compaction since, or it was long ago).
func (l *Log) MessagesLater() bool { return l.later }

// Whole is the session read whole: l itself when nothing was left
// undecoded, else the log Load would have read, decoded once (the first
// call takes the time; it is safe from any goroutine).
func (l *Log) Whole() *Log {
	r := l.rest
	if r == nil {
		return l
	}
	r.once.Do(func() {
		full, err := read(bytes.NewReader(r.data), r.name)
		if err != nil {
			// readLazy replayed the same header without an error.
			full = l
		}
		full.Info.Path, full.Info.Size = l.Info.Path, l.Info.Size
		r.full, r.data = full, nil
	})
	return r.full
}

// Older is the part of the whole transcript (Whole's) before l's: the
// entries a lazily opened log leaves for later. ok is false when the whole
// transcript does not end with l's, which a line that looked like a
// message but was not one could cause: show Whole's instead.
func (l *Log) Older() (older []Entry, ok bool) {
	full := l.Whole()
	n, m := len(full.Transcript), len(l.Transcript)
	if full == l {
		return nil, true
	}
	if n < m {
		return nil, false
	}
	for i, e := range l.Transcript {
		if !sameEntry(e, full.Transcript[n-m+i]) {
			return nil, false
		}
	}
	return full.Transcript[:n-m], true
}

// sameEntry reports whether a and b are one entry read twice.
func sameEntry(a, b Entry) bool {
	if a.N != b.N || !a.Time.Equal(b.Time) || (a.Message == nil) != (b.Message == nil) || (a.Record == nil) != (b.Record == nil) {
		return false
	}
	if a.Message != nil && (a.Message.Role != b.Message.Role || a.Message.Content != b.Message.Content || len(a.Message.ToolCalls) != len(b.Message.ToolCalls)) {
		return false
	}
	return a.Record == nil || (a.Record.Type == b.Record.Type && a.Record.Error == b.Record.Error)
}

// readLazy replays data, a whole transcript, as read does, but decodes
// only what the first frame of its chat and the state of the session need
// (see the comment at the top of this file). A session of few messages is
// decoded whole.
func readLazy(data []byte, name string) (*Log, error) {
	from, lines, messages := recentStart(data)
	p := replay{l: &Log{Messages: make([]Message, 0, messages), Transcript: make([]Entry, 0, lines)}, name: name}
	// One stub record stands for every message not decoded: apply keeps
	// its Message (the stub) and reads its N at once.
	stub := &Message{Role: lazyRole}
	st, stN := &Record{Type: TypeMessage, Message: stub}, 0
	stubs := 0
	for off := 0; off < len(data); {
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += off + 1
		}
		line := data[off:end]
		var as *Record
		// The first line is the header; until the title is known the
		// messages are decoded (the first user message names the session).
		if off < from && p.lineNo > 0 && p.l.Info.Title != "" {
			if n, hasN, ok := sniffMessage(line); ok {
				as, st.N, stN = st, nil, n
				if hasN {
					st.N = &stN
				}
				stubs++
			}
		}
		if err := p.line(line, as); err != nil {
			return nil, err
		}
		off = end
	}
	l, err := p.end()
	if err != nil || stubs == 0 {
		return l, err
	}
	// The transcript from after its last stub; Messages only when no stub
	// is left in them (a compaction since replaced them, or a rewind cut
	// them off).
	i := len(l.Transcript)
	for i > 0 && l.Transcript[i-1].Message != stub {
		i--
	}
	for _, m := range l.Messages {
		if m.Role == lazyRole {
			l.Messages, l.later = nil, true
			break
		}
	}
	if i == 0 && !l.later {
		return l, nil // every stub was cut off by a rewind
	}
	l.Transcript = append([]Entry(nil), l.Transcript[i:]...)
	l.rest = &rest{data: data, name: name}
	return l, nil
}

// recentStart is the offset in data of the first of the recent messages
// readLazy decodes, and how many lines and message lines data has (to size
// the log's slices: growing them is a good part of the time otherwise).
func recentStart(data []byte) (from, lines, messages int) {
	var ring [maxRecent]int // the offsets of the last message lines
	for off := 0; off < len(data); lines++ {
		if bytes.HasPrefix(data[off:], messagePrefix) {
			ring[messages%maxRecent] = off
			messages++
		}
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			break
		}
		off += end + 1
	}
	for count := 1; count <= min(messages, maxRecent); count++ {
		from = ring[(messages-count)%maxRecent]
		if count >= minRecent && len(data)-from >= recentBytes {
			break
		}
	}
	if messages < maxRecent && (messages < minRecent || len(data)-from < recentBytes) {
		from = 0 // all of them
	}
	return from, lines + 1, messages
}

// sniffMessage reads a message record's index from its first bytes, as the
// writer lays them out: {"type":"message","time":"…","n":N,"message":{…}.
// ok is false for any other line, and for one cut off (no newline), so
// that it is decoded (and judged) in full.
func sniffMessage(line []byte) (n int, hasN, ok bool) {
	if len(line) == 0 || line[len(line)-1] != '\n' {
		return 0, false, false
	}
	if body := bytes.TrimRight(line, " \t\r\n"); len(body) == 0 || body[len(body)-1] != '}' {
		return 0, false, false
	}
	rest, found := bytes.CutPrefix(line, messagePrefix)
	if !found {
		return 0, false, false
	}
	q := bytes.IndexByte(rest, '"')
	if q < 0 {
		return 0, false, false
	}
	rest = rest[q+1:]
	if r, found := bytes.CutPrefix(rest, []byte(`,"n":`)); found {
		j := 0
		for j < len(r) && j < 9 && r[j] >= '0' && r[j] <= '9' {
			n = n*10 + int(r[j]-'0')
			j++
		}
		if j == 0 || (j > 1 && r[0] == '0') {
			return 0, false, false
		}
		rest, hasN = r[j:], true
	}
	if !bytes.HasPrefix(rest, []byte(`,"message":{`)) {
		return 0, false, false
	}
	return n, hasN, true
}

// turnPrefix is how the writer begins every turn record.
var turnPrefix = []byte(`{"type":"turn","time":"`)

// sniffTurn reads a turn record as the writer lays it out — the time, then
// model, usage (whole numbers and cost_usd) and duration_ms, each when set —
// without encoding/json: a long session has thousands, and decoding them
// was most of a lazy read's time. ok is false for anything else (an error
// text, another field, a number or string json would read otherwise, a
// line cut off), which is then decoded in full.
func sniffTurn(line []byte) (r *Record, ok bool) {
	if len(line) == 0 || line[len(line)-1] != '\n' {
		return nil, false
	}
	s, found := bytes.CutPrefix(bytes.TrimRight(line, " \t\r\n"), turnPrefix)
	if !found {
		return nil, false
	}
	q := bytes.IndexByte(s, '"')
	if q < 0 {
		return nil, false
	}
	r = &Record{Type: TypeTurn}
	if r.Time.UnmarshalText(s[:q]) != nil {
		return nil, false
	}
	s = s[q+1:]
	if rest, found := bytes.CutPrefix(s, []byte(`,"model":"`)); found {
		q := bytes.IndexByte(rest, '"')
		if q < 0 || bytes.IndexByte(rest[:q], '\\') >= 0 || !plainText(rest[:q]) {
			return nil, false
		}
		r.Model, s = string(rest[:q]), rest[q+1:]
	}
	if rest, found := bytes.CutPrefix(s, []byte(`,"usage":{`)); found {
		u := &Usage{}
		if s, ok = sniffUsage(rest, u); !ok {
			return nil, false
		}
		r.Usage = u
	}
	if rest, found := bytes.CutPrefix(s, []byte(`,"duration_ms":`)); found {
		n, rest, ok := jsonInt(rest)
		if !ok {
			return nil, false
		}
		r.DurationMS, s = int64(n), rest
	}
	if string(s) != "}" {
		return nil, false
	}
	return r, true
}

// sniffUsage reads the fields of a usage object into u, up to its closing
// brace, and returns what follows it.
func sniffUsage(s []byte, u *Usage) ([]byte, bool) {
	if rest, found := bytes.CutPrefix(s, []byte("}")); found {
		return rest, true
	}
	for {
		if len(s) == 0 || s[0] != '"' {
			return nil, false
		}
		q := bytes.IndexByte(s[1:], '"')
		if q < 0 || len(s) < q+3 || s[q+2] != ':' {
			return nil, false
		}
		key := string(s[1 : q+1])
		s = s[q+3:]
		if key == "cost_usd" {
			end := 0
			for end < len(s) && bytes.IndexByte([]byte("0123456789.eE+-"), s[end]) >= 0 {
				end++
			}
			f, err := strconv.ParseFloat(string(s[:end]), 64)
			if err != nil || !json.Valid(s[:end]) {
				return nil, false
			}
			u.CostUSD, s = f, s[end:]
		} else {
			n, rest, ok := jsonInt(s)
			if !ok {
				return nil, false
			}
			switch key {
			case "input":
				u.Input = n
			case "output":
				u.Output = n
			case "cached":
				u.Cached = n
			case "context":
				u.Context = n
			case "steps":
				u.Steps = n
			case "tools":
				u.Tools = n
			case "priced":
				u.Priced = n
			case "unpriced":
				u.Unpriced = n
			default:
				return nil, false
			}
			s = rest
		}
		switch {
		case len(s) > 0 && s[0] == ',':
			s = s[1:]
		case len(s) > 0 && s[0] == '}':
			return s[1:], true
		default:
			return nil, false
		}
	}
}

// jsonInt reads a whole number as JSON writes one (no leading zero, no
// fraction or exponent, one that fits an int) from the start of s.
func jsonInt(s []byte) (n int, rest []byte, ok bool) {
	end := 0
	if end < len(s) && s[end] == '-' {
		end++
	}
	digits := end
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	if end == digits || (end-digits > 1 && s[digits] == '0') || (end < len(s) && bytes.IndexByte([]byte(".eE"), s[end]) >= 0) {
		return 0, nil, false
	}
	n, err := strconv.Atoi(string(s[:end]))
	if err != nil {
		return 0, nil, false
	}
	return n, s[end:], true
}

// plainText reports whether s is ASCII text without control characters:
// what json reads as it is written.
func plainText(s []byte) bool {
	for _, c := range s {
		if c < 0x20 || c >= 0x80 {
			return false
		}
	}
	return true
}
