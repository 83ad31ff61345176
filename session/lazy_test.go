package session

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

// turns are n messages of a coding session from index first: a prompt, a
// call, its result and an answer, then a turn's end, each record a second
// after the one before.
func turns(first, n int, at *time.Time) []Record {
	var recs []Record
	next := func(r Record) {
		*at = at.Add(time.Second)
		r.Time = *at
		recs = append(recs, r)
	}
	for i := first; i < first+n; i++ {
		var m Message
		switch i % 4 {
		case 0:
			m = Message{Role: "user", Content: fmt.Sprintf("step %d", i)}
		case 1:
			m = Message{Role: "assistant", Content: "Looking.", ToolCalls: []ToolCall{{ID: fmt.Sprintf("c%d", i), Name: "bash", Arguments: `{"command":"go test"}`}}}
		case 2:
			m = Message{Role: "tool", ToolCallID: fmt.Sprintf("c%d", i-1), ToolName: "bash", Content: strings.Repeat("FAIL\n", 20)}
		case 3:
			m = Message{Role: "assistant", Content: fmt.Sprintf("Fixed %d.", i)}
		}
		next(msg(i, m))
		if i%4 == 3 {
			next(Record{Type: TypeTurn, Usage: &Usage{Input: 100 + i, Output: 5, Context: i}})
		}
	}
	return recs
}

// lazyCase writes a session of records and checks that OpenLazy reads what
// Load reads: the same state at once, the transcript's last entries, the
// conversation unless it waits, and all of it from Whole.
func lazyCase(t *testing.T, recs []Record, wantPartial, wantLater bool) *Log {
	t.Helper()
	st := newStore(t)
	w, err := st.Create(Record{Time: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Append(recs...); err != nil {
		t.Fatal(err)
	}
	w.Close()
	return lazyCheck(t, st, w.ID(), wantPartial, wantLater)
}

func lazyCheck(t *testing.T, st *Store, id string, wantPartial, wantLater bool) *Log {
	t.Helper()
	full, err := st.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	l, w, err := st.OpenLazy(id)
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	if l.Partial() != wantPartial || l.MessagesLater() != wantLater {
		t.Fatalf("partial %v, messages later %v; want %v, %v", l.Partial(), l.MessagesLater(), wantPartial, wantLater)
	}
	full.Info.Path, full.Info.Size = l.Info.Path, l.Info.Size
	same := func(what string, got, want any) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s differs:\n got %+v\nwant %+v", what, got, want)
		}
	}
	same("header", l.Header, full.Header)
	same("info", l.Info, full.Info)
	same("system", [2]any{l.System, l.SystemTools}, [2]any{full.System, full.SystemTools})
	same("model", l.Model, full.Model)
	same("todos", l.Todos, full.Todos)
	same("workspace", l.Workspace, full.Workspace)
	same("usage", l.Usage, full.Usage)
	same("warnings", l.Warnings, full.Warnings)
	same("notes", l.Notes, full.Notes)
	if !l.MessagesLater() {
		same("messages", l.Messages, full.Messages)
	} else if l.Messages != nil {
		t.Errorf("messages that wait are %d, not nil", len(l.Messages))
	}
	if n := len(l.Transcript); n > len(full.Transcript) {
		t.Fatalf("%d entries of the transcript's %d", n, len(full.Transcript))
	}
	same("the transcript's last entries", l.Transcript, full.Transcript[len(full.Transcript)-len(l.Transcript):])
	if !wantPartial {
		same("transcript", l.Transcript, full.Transcript)
	}
	older, ok := l.Older()
	if !ok {
		t.Fatal("the whole transcript does not end with the part read at once")
	}
	same("older entries and the last ones", append(append([]Entry(nil), older...), l.Transcript...), full.Transcript)
	whole := l.Whole()
	if l.Whole() != whole {
		t.Error("Whole decoded twice")
	}
	same("whole: info", whole.Info, full.Info)
	same("whole: messages", whole.Messages, full.Messages)
	same("whole: transcript", whole.Transcript, full.Transcript)
	same("whole: usage", whole.Usage, full.Usage)
	same("whole: warnings", whole.Warnings, full.Warnings)
	return l
}

func TestOpenLazyNoCompaction(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	recs := append([]Record{{Type: TypeSystem, Prompt: "sys", Tools: []string{"bash"}}, {Type: TypeModel, Model: "m/one"}}, turns(0, 1000, &at)...)
	recs = append(recs, Record{Type: TypeTodos, Time: at, Todos: []Todo{{ID: "1", Title: "t", Status: "pending"}}},
		Record{Type: TypeWorkspace, Time: at, Tabs: []Tab{{Path: "a.go", Line: 2}}, Cwd: "/x"})
	l := lazyCase(t, recs, true, true)
	if len(l.Transcript) < maxRecent {
		t.Errorf("the first frame has %d entries", len(l.Transcript))
	}
	if l.Info.Messages != 1000 || l.Info.Title != "step 0" {
		t.Errorf("info = %+v", l.Info)
	}
	if last := l.Transcript[len(l.Transcript)-1]; last.Record == nil || last.Record.Type != TypeTurn {
		t.Errorf("the last entry is %+v", last)
	}
}

func TestOpenLazyCompactionLate(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	recs := turns(0, 1000, &at)
	recs = append(recs, Record{Type: TypeCompact, Time: at, Reason: "auto", Summary: "so far", TokensBefore: 9000, TokensAfter: 100,
		Messages: []Message{{Role: "user", Content: "summary"}}})
	recs = append(recs, turns(1, 40, &at)...) // the conversation after the compaction starts at 1
	// Trims of messages since the compaction.
	recs = append(recs, Record{Type: TypeTrim, Time: at, Trims: []Trim{{N: 3, Content: "[trimmed]"}}})
	lazyCase(t, recs, true, false)
}

func TestOpenLazyCompactionEarly(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	recs := turns(0, 40, &at)
	recs = append(recs, Record{Type: TypeCompact, Time: at, Reason: "manual", Summary: "early", TokensAfter: 50,
		Messages: []Message{{Role: "user", Content: "summary"}}})
	recs = append(recs, turns(1, 1000, &at)...)
	// Trims of messages the first frame does not decode.
	recs = append(recs, Record{Type: TypeTrim, Time: at, Trims: []Trim{{N: 2, Content: "[trimmed]"}, {N: 990, Content: "[trimmed too]"}}})
	lazyCase(t, recs, true, true)
}

func TestOpenLazyRewinds(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	// A rewind near the end, then one far back (into what is not decoded
	// at once), then more turns.
	recs := turns(0, 1000, &at)
	recs = append(recs, Record{Type: TypeTruncate, Time: at, Keep: Of(980)})
	recs = append(recs, turns(980, 8, &at)...)
	recs = append(recs, Record{Type: TypeTruncate, Time: at, Keep: Of(400)})
	recs = append(recs, turns(400, 300, &at)...)
	lazyCase(t, recs, true, true)

	// A rewind to the start: its first messages wait, the others are gone.
	at = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	recs = turns(0, 600, &at)
	recs = append(recs, Record{Type: TypeTruncate, Time: at, Keep: Of(4)})
	recs = append(recs, turns(4, 8, &at)...)
	lazyCase(t, recs, true, true)

	// A rewind that cuts back before every message not decoded (the first
	// is, for the title): the rest is all there is.
	at = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	recs = turns(0, 600, &at)
	recs = append(recs, Record{Type: TypeTruncate, Time: at, Keep: Of(1)})
	recs = append(recs, turns(1, 8, &at)...)
	lazyCase(t, recs, false, false)
}

func TestOpenLazyHistory(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	recs := turns(0, 500, &at)
	recs = append(recs, Record{Type: TypeHistory, Time: at, Messages: []Message{{Role: "user", Content: "history"}}})
	recs = append(recs, turns(1, 500, &at)...)
	recs = append(recs, Record{Type: TypeHistory, Time: at, Messages: []Message{{Role: "user", Content: "whole"}, {Role: "assistant", Content: "again"}}})
	recs = append(recs, Record{Type: TypeNote, Time: at, Summary: "note", Covers: 2, Hash: "h"})
	lazyCase(t, recs, true, false)
}

func TestOpenLazyShortSession(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	lazyCase(t, turns(0, minRecent-1, &at), false, false)
}

func TestOpenLazyTitle(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	// The first user message comes late: it names the session.
	var recs []Record
	for i := range 300 {
		recs = append(recs, msg(i, Message{Role: "assistant", Content: "hello"}))
	}
	recs = append(recs, msg(300, Message{Role: "user", Typed: "the title", Content: "the title and more"}))
	recs = append(recs, turns(301, 600, &at)...)
	if l := lazyCase(t, recs, true, true); l.Info.Title != "the title" {
		t.Errorf("title %q", l.Info.Title)
	}
}

func TestOpenLazyTornAndCorrupt(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	st := newStore(t)
	w, err := st.Create(Record{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Append(turns(0, 400, &at)...); err != nil {
		t.Fatal(err)
	}
	w.Close()
	path := st.Path(w.ID())
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// A line that is not a record early on, and the last one cut off
	// mid-write.
	lines := strings.SplitAfter(string(data), "\n")
	lines[20] = "{not json\n"
	torn := `{"type":"message","time":"2026-01-01T00:00:00Z","n":400,"message":{"role":"assistant","content":"cut o`
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")+torn), 0o600); err != nil {
		t.Fatal(err)
	}
	l := lazyCheck(t, st, w.ID(), true, true)
	if len(l.Warnings) != 2 || !strings.Contains(l.Warnings[1], "cut off mid-write") {
		t.Errorf("warnings %q", l.Warnings)
	}
	// Open cut the torn line off: the file ends with a whole record.
	if data, _ := os.ReadFile(path); !strings.HasSuffix(string(data), "}\n") {
		t.Errorf("the torn line is still there: %q", data[len(data)-40:])
	}
}

func TestSniffMessage(t *testing.T) {
	for _, c := range []struct {
		line       string
		n          int
		hasN, want bool
	}{
		{`{"type":"message","time":"2026-01-01T00:00:00Z","n":12,"message":{"role":"user"}}` + "\n", 12, true, true},
		{`{"type":"message","time":"2026-01-01T00:00:00Z","message":{"role":"user"}}` + "\n", 0, false, true},
		{`{"type":"message","time":"2026-01-01T00:00:00Z","n":12,"message":{"role":"user"}}`, 0, false, false}, // no newline
		{`{"type":"message","time":"2026-01-01T00:00:00Z","n":012,"message":{}}` + "\n", 0, false, false},
		{`{"type":"message","time":"2026-01-01T00:00:00Z","n":-1,"message":{}}` + "\n", 0, false, false},
		{`{"type":"message","time":"2026-01-01T00:00:00Z","n":1,"message":null}` + "\n", 0, false, false},
		{`{"type":"turn","time":"2026-01-01T00:00:00Z"}` + "\n", 0, false, false},
		{`{"time":"2026-01-01T00:00:00Z","type":"message","message":{}}` + "\n", 0, false, false},
	} {
		n, hasN, ok := sniffMessage([]byte(c.line))
		if n != c.n || hasN != c.hasN || ok != c.want {
			t.Errorf("sniffMessage(%q) = %d, %v, %v", c.line, n, hasN, ok)
		}
	}
}

// A summary a kill left stale: Info reads the transcript as a resume does,
// and says what a whole read says.
func TestInfoWithoutASummary(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	st := newStore(t)
	w, err := st.Create(Record{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Append(turns(0, 1000, &at)...); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if err := os.Remove(st.metaPath(w.ID())); err != nil {
		t.Fatal(err)
	}
	in, err := st.Info(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	full, err := st.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	full.Info.Path = st.Path(w.ID())
	if !reflect.DeepEqual(in, full.Info) {
		t.Errorf("info\n got %+v\nwant %+v", in, full.Info)
	}
}

// sniffTurn reads what the writer writes of a turn as encoding/json does,
// and leaves anything else to it.
func TestSniffTurn(t *testing.T) {
	at := time.Date(2026, 3, 4, 5, 6, 7, 891011121, time.FixedZone("x", 3600))
	var lines []string
	for _, r := range []Record{
		{Type: TypeTurn, Time: at},
		{Type: TypeTurn, Time: at.UTC(), Usage: &Usage{}},
		{Type: TypeTurn, Time: at, Model: "openai/gpt-4o", Usage: &Usage{Input: 1200, Output: 5, Cached: 7, Context: 1100, Steps: 2, Tools: 1, CostUSD: 0.00123, Priced: 2}, DurationMS: 1500},
		{Type: TypeTurn, Time: at, Usage: &Usage{Input: -3, CostUSD: 1e-9, Unpriced: 4}},
		{Type: TypeTurn, Time: at, Usage: &Usage{CostUSD: 12345678.5}},
		{Type: TypeTurn, Time: at, Model: "m", DurationMS: 9},
		{Type: TypeTurn, Time: time.Time{}},
	} {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(b))
	}
	for _, line := range lines {
		got, ok := sniffTurn([]byte(line + "\n"))
		if !ok {
			t.Errorf("not read: %s", line)
			continue
		}
		var want Record
		if err := json.Unmarshal([]byte(line), &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(*got, want) {
			t.Errorf("%s\n got %+v %+v\nwant %+v %+v", line, *got, got.Usage, want, want.Usage)
		}
	}
	// Left to encoding/json.
	for _, line := range []string{
		lines[2], // no newline
		`{"type":"turn","time":"2026-01-01T00:00:00Z","error":"boom"}`,
		`{"type":"turn","time":"2026-01-01T00:00:00Z","usage":{"input":1.5}}`,
		`{"type":"turn","time":"2026-01-01T00:00:00Z","usage":{"input":01}}`,
		`{"type":"turn","time":"2026-01-01T00:00:00Z","usage":{"input":1e3}}`,
		`{"type":"turn","time":"2026-01-01T00:00:00Z","usage":{"other":1}}`,
		`{"type":"turn","time":"2026-01-01T00:00:00Z","usage":{"cost_usd":01.5}}`,
		`{"type":"turn","time":"2026-01-01T00:00:00Z","usage":{"input":99999999999999999999}}`,
		`{"type":"turn","time":"2026-01-01T00:00:00Z","model":"a\"b"}`,
		`{"type":"turn","time":"2026-01-01T00:00:00Z","model":"é"}`,
		`{"type":"turn","time":"not a time"}`,
		`{"type":"turn","time":"2026-01-01T00:00:00Z" }x`,
		`{"type":"turn","time":"2026-01-01T00:00:00Z","duration_ms":5,"model":"m"}`,
		`{"time":"2026-01-01T00:00:00Z","type":"turn"}`,
	} {
		nl := "\n"
		if line == lines[2] {
			nl = ""
		}
		if r, ok := sniffTurn([]byte(line + nl)); ok {
			t.Errorf("read %s as %+v", line, r)
		}
	}
}

// LoadLazy reads a session another writer holds open (a rewind's chat
// shown again): the same state as Load, the transcript's last entries at
// once, the rest from Whole, the rewind applied.
func TestLoadLazyReadsAnOpenSession(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	st := newStore(t)
	w, err := st.Create(Record{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.Append(turns(0, 1000, &at)...); err != nil {
		t.Fatal(err)
	}
	if err := w.Append(Record{Type: TypeTruncate, Time: at, Keep: Of(996)}); err != nil {
		t.Fatal(err)
	}
	full, err := st.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	l, err := st.LoadLazy(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	if !l.Partial() || len(l.Transcript) >= len(full.Transcript) {
		t.Fatalf("partial %v with %d of %d entries", l.Partial(), len(l.Transcript), len(full.Transcript))
	}
	full.Info.Path = l.Info.Path
	if !reflect.DeepEqual(l.Info, full.Info) || !reflect.DeepEqual(l.Usage, full.Usage) {
		t.Errorf("info %+v usage %+v\nwant %+v %+v", l.Info, l.Usage, full.Info, full.Usage)
	}
	if last := l.Transcript[len(l.Transcript)-1]; last.Message != nil || last.Record == nil || last.Record.Type != TypeTurn {
		t.Errorf("the rewound transcript ends with %+v", last)
	}
	older, ok := l.Older()
	if !ok || !reflect.DeepEqual(append(append([]Entry(nil), older...), l.Transcript...), full.Transcript) {
		t.Errorf("the older entries and the last ones are not the transcript (ok %v)", ok)
	}
	if _, err := st.LoadLazy("nope"); err == nil {
		t.Error("a session that is not there loaded")
	}
}
