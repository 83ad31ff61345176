package session

import (
	"fmt"
	"strings"
	"testing"
)

// longConversation is n messages as a coding session has them: prompts,
// answers with tool calls, tool results of a few hundred bytes to a few KB.
func longConversation(n int) []Record {
	recs := make([]Record, 0, n)
	for i := 0; i < n; i++ {
		var m Message
		switch i % 4 {
		case 0:
			m = Message{Role: "user", Content: fmt.Sprintf("step %d: now make the parser handle case %d and run the tests", i, i)}
		case 1:
			m = Message{Role: "assistant", Content: "Looking at the parser first.", ToolCalls: []ToolCall{{ID: fmt.Sprintf("call_%d", i), Type: "function", Name: "bash", Arguments: `{"command":"go test ./parser/..."}`}}}
		case 2:
			m = Message{Role: "tool", ToolCallID: fmt.Sprintf("call_%d", i-1), ToolName: "bash", Content: strings.Repeat("--- FAIL: TestParse (0.00s)\n    parse_test.go:42: got 1, want 2\n", 30)}
		case 3:
			m = Message{Role: "assistant", Content: fmt.Sprintf("Fixed case %d in parser/parse.go:%d; the tests pass.", i, i)}
		}
		recs = append(recs, Record{Type: TypeMessage, N: Of(i), Message: &m})
	}
	return recs
}

// BenchmarkAppend: one message appended (one write), as every message is.
func BenchmarkAppend(b *testing.B) {
	st, _ := New(b.TempDir(), b.TempDir(), Options{Secrets: []string{"sk-never"}})
	w, err := st.Create(Record{})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	recs := longConversation(64)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := recs[i%len(recs)]
		if err := w.Append(r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendSync: a tool result appended and synced, as at the end of
// every tool call and turn; fsync dominates.
func BenchmarkAppendSync(b *testing.B) {
	st, _ := New(b.TempDir(), b.TempDir(), Options{})
	w, err := st.Create(Record{})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	recs := longConversation(64)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := w.Append(recs[i%len(recs)]); err != nil {
			b.Fatal(err)
		}
		if err := w.Sync(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoad1000: reading back a session of 1,000 messages (~0.7 MB).
func BenchmarkLoad1000(b *testing.B) {
	st, _ := New(b.TempDir(), b.TempDir(), Options{})
	w, err := st.Create(Record{})
	if err != nil {
		b.Fatal(err)
	}
	if err := w.Append(longConversation(1000)...); err != nil {
		b.Fatal(err)
	}
	w.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		l, err := st.Load(w.ID())
		if err != nil || len(l.Messages) != 1000 {
			b.Fatal(err, len(l.Messages))
		}
	}
}

// BenchmarkLoad10000: a whole read of a session of 10,000 messages and
// 2,500 turns (~7 MB), as a resumed all-day session's history is read
// after its first frame.
func BenchmarkLoad10000(b *testing.B) {
	st, _ := New(b.TempDir(), b.TempDir(), Options{})
	w, err := st.Create(Record{})
	if err != nil {
		b.Fatal(err)
	}
	var recs []Record
	for i, r := range longConversation(10000) {
		recs = append(recs, r)
		if i%4 == 3 {
			recs = append(recs, Record{Type: TypeTurn, Usage: &Usage{Input: 1000 + i, Output: 50}})
		}
	}
	if err := w.Append(recs...); err != nil {
		b.Fatal(err)
	}
	w.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		l, err := st.Load(w.ID())
		if err != nil || len(l.Messages) != 10000 {
			b.Fatal(err, len(l.Messages))
		}
	}
}
