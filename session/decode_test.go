package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

// tricky is text that JSON escapes or that is easy to read wrong: quotes,
// backslashes, control characters, what json.Marshal escapes for HTML,
// U+2028 and U+2029, multi-byte runes, U+FFFD, a byte that is not UTF-8.
var tricky = []string{
	"", "plain", `"quoted"`, `back\slash`, "a/b", "line\nbreak\r\n", "tab\there", "\x00nul", "\x01\x1f\x7f",
	"<b>&amp;</b>", "\u2028\u2029", "é ü ß", "日本語", "emoji 🦌🏳️‍🌈", "\uFFFD", "bad \xff utf-8", "\xed\xa0\x80",
	"\\u0041 written out", `{"json":"inside"}`, strings.Repeat("--- FAIL: TestParse (0.00s)\n", 40),
}

// writerShapes are the message records the writer writes, every field of
// a message in turn and together, and the records around them.
func writerShapes() []Record {
	at := time.Date(2026, 3, 4, 5, 6, 7, 891011121, time.FixedZone("x", 3600))
	var recs []Record
	add := func(n *int, m Message) {
		recs = append(recs, Record{Type: TypeMessage, Time: at, N: n, Message: &m})
		at = at.Add(time.Second)
	}
	for i, s := range tricky {
		add(Of(i), Message{Role: "user", Content: s})
		add(Of(i), Message{Role: "user", Content: s + " and the file", Typed: s})
		add(Of(i), Message{Role: "assistant", Content: s, Reasoning: s + "thinking"})
		add(Of(i), Message{Role: "assistant", ToolCalls: []ToolCall{{ID: "call_" + s, Type: "function", Name: "bash", Arguments: `{"command":` + fmt.Sprintf("%q", s) + `}`}}})
		add(Of(i), Message{Role: "tool", ToolCallID: "call_" + s, ToolName: "bash", Content: s})
		add(Of(i), Message{Role: "tool", ToolCallID: "c", ToolName: "bash", Name: s, Content: "x"})
	}
	add(nil, Message{Role: "user", Content: "no index"})
	add(Of(0), Message{Role: "assistant"})
	add(Of(1<<40), Message{Role: "assistant", Content: "a large index"})
	add(Of(7), Message{Role: "assistant", Content: "two calls", ToolCalls: []ToolCall{
		{ID: "a", Name: "read", Arguments: "{}"}, {ID: "b", Type: "function", Name: "grep", Arguments: `{"pattern":"x"}`}}})
	add(Of(8), Message{Role: "assistant", ToolCalls: []ToolCall{{ID: "", Name: "", Arguments: ""}}})
	// The writer's other times: UTC, no fraction, the zero time.
	recs = append(recs, Record{Type: TypeMessage, Time: at.UTC(), N: Of(9), Message: &Message{Role: "user", Content: "utc"}},
		Record{Type: TypeMessage, Time: at.Truncate(time.Second), N: Of(10), Message: &Message{Role: "user", Content: "whole seconds"}},
		Record{Type: TypeMessage, N: Of(11), Message: &Message{Role: "user", Content: "zero time"}})
	return recs
}

// leftToJSON are message records decodeMessage leaves to encoding/json:
// the fields it does not read.
func leftToJSON() []Record {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return []Record{
		{Type: TypeMessage, Time: at, N: Of(1), Message: &Message{Role: "user", Parts: []Part{{Type: "text", Text: "look"}, {Type: "image", MIME: "image/png", Blob: "ab12"}}}},
		{Type: TypeMessage, Time: at, N: Of(2), Message: &Message{Role: "assistant", Content: "x", Extra: map[string]any{"signature": "sig", "n": 1.5}}},
		{Type: TypeMessage, Time: at, N: Of(3), Message: &Message{Role: "assistant", ToolCalls: []ToolCall{{ID: "a", Name: "b", Arguments: "{}", Extra: map[string]any{"k": "v"}}}}},
		{Type: TypeMessage, Time: at, N: Of(4)}, // no message
	}
}

// decodedAsJSON checks that decodeMessage read line as encoding/json does.
func decodedAsJSON(t *testing.T, line []byte) {
	t.Helper()
	got, ok := decodeMessage(line)
	if !ok {
		return
	}
	var want Record
	if err := json.Unmarshal(bytes.TrimSpace(line), &want); err != nil {
		t.Fatalf("decodeMessage read a line encoding/json refuses (%v): %q", err, line)
	}
	if !reflect.DeepEqual(*got, want) {
		t.Fatalf("decodeMessage read %q as\n%#v\n%#v\nencoding/json as\n%#v\n%#v", line, *got, got.Message, want, want.Message)
	}
}

func marshalLine(t testing.TB, r Record) []byte {
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// Every message the writer writes is read without encoding/json, to the
// record encoding/json reads; what it does not know is left to
// encoding/json.
func TestDecodeMessageReadsWhatTheWriterWrites(t *testing.T) {
	for _, r := range writerShapes() {
		line := marshalLine(t, r)
		if _, ok := decodeMessage(line); !ok {
			t.Errorf("not read: %s", line)
			continue
		}
		decodedAsJSON(t, line)
	}
	for _, r := range leftToJSON() {
		if line := marshalLine(t, r); func() bool { _, ok := decodeMessage(line); return ok }() {
			t.Errorf("read, not left to encoding/json: %s", line)
		}
	}
	// Random text of the tricky pieces and runes.
	rnd := rand.New(rand.NewPCG(1, 2))
	piece := func() string {
		var b strings.Builder
		for range rnd.IntN(8) {
			if rnd.IntN(3) == 0 {
				b.WriteString(tricky[rnd.IntN(len(tricky))])
			} else {
				b.WriteRune(rune(rnd.IntN(0x10FFFF)))
			}
		}
		return b.String()
	}
	for i := range 3000 {
		m := Message{Role: piece(), Content: piece(), Reasoning: piece(), ToolCallID: piece(), ToolName: piece(), Name: piece(), Typed: piece()}
		if i%2 == 0 {
			m.ToolCalls = []ToolCall{{ID: piece(), Type: piece(), Name: piece(), Arguments: piece()}}
		}
		line := marshalLine(t, Record{Type: TypeMessage, Time: time.Unix(rnd.Int64N(1<<34), rnd.Int64N(1e9)), N: Of(rnd.IntN(1 << 20)), Message: &m})
		if _, ok := decodeMessage(line); !ok {
			t.Fatalf("not read: %s", line)
		}
		decodedAsJSON(t, line)
	}
}

// Lines near the writer's that are not its own: each is either left to
// encoding/json or read as encoding/json reads it.
func TestDecodeMessageLeavesOtherLinesToJSON(t *testing.T) {
	const head = `{"type":"message","time":"2026-01-01T00:00:00Z"`
	for _, c := range []struct {
		line string
		read bool
	}{
		{head + `,"n":3,"message":{"role":"user","content":"hi"}}` + "\n", true},
		{head + `,"n":3,"message":{"role":"user","content":"hi"}}`, false}, // no newline: cut off
		{head + `,"n":3,"message":{"role":"user","content":"hi"}}  ` + "\r\n", true},
		{head + `,"n":3,"message":{"content":"hi","role":"user"}}` + "\n", false}, // another order
		{head + `,"n":3,"message":{"role":"user","Content":"hi"}}` + "\n", false}, // json matches keys case-blind
		{head + `,"n":3,"message":{"role":"user","content":"hi","content":"again"}}` + "\n", false},
		{head + `,"n":3,"message":{"role":"user","content":"hi","x":1}}` + "\n", false},
		{head + `,"n":3,"message":{"role":"user", "content":"hi"}}` + "\n", false},
		{head + `,"n":3,"message":{"role":"user","content":"hi"},"model":"m"}` + "\n", false},
		{head + `,"n":3,"message":{"role":"user","content":"h` + "\x01" + `i"}}` + "\n", false},
		{head + `,"n":3,"message":{"role":"user","content":"\ud83e\udd8c"}}` + "\n", false}, // a surrogate pair
		{head + `,"n":3,"message":{"role":"user","content":"\ud83e"}}` + "\n", false},
		{head + `,"n":3,"message":{"role":"user","content":"\x"}}` + "\n", false},
		{head + `,"n":3,"message":{"role":"user","content":"\u00e9\u00E9\/"}}` + "\n", true},
		{head + `,"n":3,"message":{"role":"user","content":"` + "\xff" + `"}}` + "\n", false},
		{head + `,"n":3,"message":{"role":"user","content":"hi}}` + "\n", false},
		{head + `,"n":3,"message":{"role":"user","content":null}}` + "\n", false},
		{head + `,"n":3,"message":{"role":"user","tool_calls":[]}}` + "\n", false},
		{head + `,"n":3,"message":{"role":"user","tool_calls":null}}` + "\n", false},
		{head + `,"n":3,"message":{"role":"a","tool_calls":[{"id":"1","name":"b","arguments":"{}"},]}}` + "\n", false},
		{head + `,"n":3,"message":{}}` + "\n", false},
		{head + `,"n":3,"message":null}` + "\n", false},
		{head + `,"n":03,"message":{"role":"user"}}` + "\n", false},
		{head + `,"n":3.0,"message":{"role":"user"}}` + "\n", false},
		{head + `,"n":99999999999999999999,"message":{"role":"user"}}` + "\n", false},
		{head + `,"n":-2,"message":{"role":"user"}}` + "\n", true},
		{`{"type":"message","time":"2026-01-01T00:00:00\"Z","n":3,"message":{"role":"user"}}` + "\n", false},
		{`{"type":"message","time":"yesterday","n":3,"message":{"role":"user"}}` + "\n", false},
		{`{"type":"turn","time":"2026-01-01T00:00:00Z"}` + "\n", false},
	} {
		_, ok := decodeMessage([]byte(c.line))
		if ok != c.read {
			t.Errorf("read %v, want %v: %q", ok, c.read, c.line)
		}
		decodedAsJSON(t, []byte(c.line))
	}
}

// A session read with the message decoder is the session encoding/json
// reads: every shape, with records of every other type between them.
func TestLoadWithTheDecoderIsLoadWithJSON(t *testing.T) {
	st := newStore(t)
	w, err := st.Create(Record{})
	if err != nil {
		t.Fatal(err)
	}
	recs := append(writerShapes(), leftToJSON()...)
	recs = append(recs, Record{Type: TypeTurn, Usage: &Usage{Input: 3}}, Record{Type: TypeTrim, Trims: []Trim{{N: 2, Content: "[trimmed]"}}})
	recs = append(recs, writerShapes()...)
	if err := w.Append(recs...); err != nil {
		t.Fatal(err)
	}
	w.Close()
	got, err := st.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(st.Path(w.ID()))
	if err != nil {
		t.Fatal(err)
	}
	// The same lines, each read by encoding/json.
	p := replay{l: &Log{}, name: st.Path(w.ID())}
	for _, line := range bytes.SplitAfter(data, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		p.lineNo++
		var r Record
		if err := json.Unmarshal(bytes.TrimSpace(line), &r); err != nil {
			t.Fatal(err)
		}
		p.l.apply(&r)
		p.off += int64(len(line))
	}
	want, _ := p.end()
	want.good = got.good
	if !reflect.DeepEqual(got, want) {
		t.Error("the session read with the decoder differs from the one encoding/json reads")
	}
}

// FuzzDecodeMessage: whatever the line, decodeMessage either leaves it to
// encoding/json or reads what encoding/json reads.
func FuzzDecodeMessage(f *testing.F) {
	for _, r := range append(writerShapes(), leftToJSON()...) {
		f.Add(marshalLine(f, r))
	}
	f.Add([]byte(`{"type":"message","time":"2026-01-01T00:00:00Z","n":3,"message":{"role":"user","content":"\u00e9\ud83e\udd8c\/"}}` + "\n"))
	f.Add([]byte(`{"type":"message","time":"2026-01-01T00:00:00Z","n":3,"message":{"role":"a","tool_calls":[{"id":"1","type":"f","name":"b","arguments":"{}"},{"id":"2","name":"c","arguments":""}],"tool_call_id":"x"}}` + "\n"))
	f.Fuzz(func(t *testing.T, line []byte) {
		decodedAsJSON(t, line)
	})
}

// FuzzDecodeMessageText: a message of any text, as the writer writes it,
// is read without encoding/json, to what encoding/json reads.
func FuzzDecodeMessageText(f *testing.F) {
	for i, s := range tricky {
		f.Add(s, tricky[(i+1)%len(tricky)], int64(i))
	}
	f.Fuzz(func(t *testing.T, content, args string, at int64) {
		m := Message{Role: "assistant", Content: content, Reasoning: args, ToolCalls: []ToolCall{{ID: content, Type: "function", Name: args, Arguments: args}}, Typed: content}
		line := marshalLine(t, Record{Type: TypeMessage, Time: time.Unix(0, at), N: Of(int(at % 1e6)), Message: &m})
		if _, ok := decodeMessage(line); !ok {
			t.Fatalf("not read: %s", line)
		}
		decodedAsJSON(t, line)
	})
}
