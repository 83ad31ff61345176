package agent

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"
)

// fedRun is a Headless whose turn's events the test sends one by one.
type fedRun struct{ events chan Event }

func (f fedRun) RunInput(context.Context, Input) <-chan Event { return f.events }
func (fedRun) ID() string                                     { return "s1" }
func (fedRun) SaveError() error                               { return nil }
func (fedRun) ModelName() string                              { return "m" }
func (fedRun) ToolNames() []string                            { return nil }
func (fedRun) Mode() Mode                                     { return ModeAsk }

// writes records what reaches stdout, write by write.
type writes struct {
	mu sync.Mutex
	w  []string
}

func (w *writes) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.w = append(w.w, string(p))
	return len(p), nil
}

func (w *writes) all() (string, int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Join(w.w, ""), len(w.w)
}

// A slow stream shows each delta as it comes: once nothing more waits, the
// line written is on stdout before the next event is sent.
func TestHeadlessStreamJSONShowsEachDeltaAsItComes(t *testing.T) {
	run := fedRun{events: make(chan Event)}
	out := &writes{}
	done := make(chan int)
	go func() { done <- RunHeadless(context.Background(), run, "hi", FormatStreamJSON, out, &bytes.Buffer{}) }()
	for _, d := range []string{"one", "two", "three"} {
		run.events <- Event{Type: EventText, Text: d}
		want := `{"type":"text","text":"` + d + `"}` + "\n"
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
			if s, _ := out.all(); strings.HasSuffix(s, want) {
				break
			}
			if time.Now().After(deadline) {
				s, _ := out.all()
				t.Fatalf("%q never reached stdout while the stream waited; stdout:\n%s", d, s)
			}
		}
	}
	run.events <- Event{Type: EventTurnEnded, Usage: &Usage{}}
	close(run.events)
	if code := <-done; code != ExitOK {
		t.Errorf("exit %d", code)
	}
	if s, _ := out.all(); !strings.Contains(s, `"type":"turn_end"`) {
		t.Errorf("no turn_end line:\n%s", s)
	}
}

// Lines whose events arrived together leave in one write, in order, and
// whatever goes to stderr comes after the stdout lines before it.
func TestHeadlessStreamJSONWritesWhatArrivedTogetherAtOnce(t *testing.T) {
	run := fedRun{events: make(chan Event, 16)}
	for _, d := range []string{"a", "b", "c", "d"} {
		run.events <- Event{Type: EventText, Text: d}
	}
	run.events <- Event{Type: EventInfo, Text: "note"}
	run.events <- Event{Type: EventTurnEnded, Usage: &Usage{}}
	close(run.events)
	out := &writes{}
	var both bytes.Buffer
	errs := &teeWriter{a: &both, prefix: "ERR "}
	outTee := &teeWriter{a: &both, next: out}
	if code := RunHeadless(context.Background(), run, "hi", FormatStreamJSON, outTee, errs); code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	s, n := out.all()
	var want strings.Builder
	want.WriteString(`{"type":"init"`)
	if !strings.HasPrefix(s, want.String()) {
		t.Fatalf("stdout does not start with the init line:\n%s", s)
	}
	for _, d := range []string{"a", "b", "c", "d"} {
		if !strings.Contains(s, `{"type":"text","text":"`+d+`"}`) {
			t.Errorf("no line for %q:\n%s", d, s)
		}
	}
	if i, j := strings.Index(s, `"text":"a"`), strings.Index(s, `"text":"d"`); i > j {
		t.Errorf("the lines are out of order:\n%s", s)
	}
	if n > 2 {
		t.Errorf("%d writes to stdout for six lines that were all there at once, want at most 2", n)
	}
	if b := both.String(); strings.Index(b, "ERR fawn: note") < strings.Index(b, `"text":"d"`) {
		t.Errorf("stderr's note came before the lines written before it:\n%s", b)
	}
}

// teeWriter writes to a (with prefix) and then to next.
type teeWriter struct {
	a      *bytes.Buffer
	next   *writes
	prefix string
}

func (w *teeWriter) Write(p []byte) (int, error) {
	w.a.WriteString(w.prefix)
	w.a.Write(p)
	if w.next != nil {
		return w.next.Write(p)
	}
	return len(p), nil
}
