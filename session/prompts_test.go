package session

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// Prompts gathers what the user typed in every session of the project,
// newest first, once each: what they typed when the model got more, no
// answer or tool result, no session of another project.
func TestPromptsOfEverySession(t *testing.T) {
	st := newStore(t)
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	at := func(min int, m Message) Record {
		r := msg(0, m)
		r.Time = base.Add(time.Duration(min) * time.Minute)
		return r
	}
	write := func(id string, recs ...Record) {
		w, err := st.Create(Record{ID: id, Time: base})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Append(recs...); err != nil {
			t.Fatal(err)
		}
		w.Close()
	}
	write("aa11",
		at(1, Message{Role: "user", Content: "fix the flaky test"}),
		at(2, Message{Role: "assistant", Content: "Done; the role was user"}),
		at(3, Message{Role: "tool", Content: `"role":"user" in a file`, ToolCallID: "c1"}),
		at(10, Message{Role: "user", Content: "run the linter"}),
	)
	write("bb22",
		at(5, Message{Role: "user", Content: "fix the flaky test"}), // again, later than in aa11
		at(6, Message{Role: "user", Content: "explain x.go\n\n<attached path=\"x.go\">…</attached>", Typed: "explain @x.go"}),
		at(7, Message{Role: "user", Parts: []Part{{Type: "text", Text: "what is in this picture"}}}),
	)
	other, err := New(t.TempDir(), t.TempDir(), Options{Fawn: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if w, err := other.Create(Record{ID: "cc33"}); err == nil {
		w.Append(at(20, Message{Role: "user", Content: "another project's prompt"}))
		w.Close()
	}

	got, err := st.Prompts()
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, p := range got {
		texts = append(texts, p.Text)
	}
	want := []string{"run the linter", "what is in this picture", "explain @x.go", "fix the flaky test"}
	if !reflect.DeepEqual(texts, want) {
		t.Fatalf("prompts = %q, want %q", texts, want)
	}
	if got[3].Session != "bb22" || !got[3].Time.Equal(base.Add(5*time.Minute)) {
		t.Errorf("a prompt used twice is kept at its latest use: %+v", got[3])
	}
	if strings.Contains(strings.Join(texts, " "), "another project") {
		t.Error("another project's prompt is listed")
	}
}
