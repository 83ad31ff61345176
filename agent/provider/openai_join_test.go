package provider

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/cloudwego/eino/schema"
)

// pieces is a body that arrives in the given pieces, one a read.
type pieces struct{ p []string }

func (r *pieces) Read(b []byte) (int, error) {
	if len(r.p) == 0 {
		return 0, io.EOF
	}
	n := copy(b, r.p[0])
	if r.p[0] = r.p[0][n:]; r.p[0] == "" {
		r.p = r.p[1:]
	}
	return n, nil
}

func (r *pieces) Close() error { return nil }

// readAll reads a stream to its end.
func readAll(t *testing.T, sr *schema.StreamReader[*schema.Message]) []*schema.Message {
	t.Helper()
	var out []*schema.Message
	for {
		m, err := sr.Recv()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
}

func textChunk(s string) string {
	return fmt.Sprintf("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":%q}}]}\n\n", s)
}

func reasoningChunk(s string) string {
	return fmt.Sprintf("data: {\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":%q}}]}\n\n", s)
}

// The chunks of one kind that have arrived together come out as one
// chunk; a chunk of another kind, a tool call, usage or the finish ends
// it; the text, the reasoning and the finish are all there, in order, as
// if each chunk had come alone.
func TestOpenAIStreamJoinsTheChunksThatHaveArrived(t *testing.T) {
	var b strings.Builder
	b.WriteString("data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n")
	for i := range 3 {
		b.WriteString(reasoningChunk(fmt.Sprintf("think%d ", i)))
	}
	b.WriteString(": a comment\n")
	for i := range 4 {
		b.WriteString(textChunk(fmt.Sprintf("say%d ", i)))
	}
	b.WriteString("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"both \",\"reasoning_content\":\"both \"}}]}\n\n")
	b.WriteString(textChunk("more "))
	b.WriteString(textChunk("\"quoted\"\n"))
	b.WriteString("data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"bash\",\"arguments\":\"{}\"}}]}}]}\n\n")
	b.WriteString(textChunk("after "))
	b.WriteString(textChunk("the call"))
	b.WriteString("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\".\"},\"finish_reason\":\"stop\"}]}\n\n")
	b.WriteString("data: {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2,\"total_tokens\":5}}\n\n")
	b.WriteString("data: [DONE]\n\n")

	got := readAll(t, newOpenAIStream(&pieces{p: []string{b.String()}}, nil).reader())
	var seq []string
	for _, m := range got {
		var s string
		switch {
		case len(m.ToolCalls) > 0:
			s = "call " + m.ToolCalls[0].Function.Name
		case m.Content != "" && m.ReasoningContent != "":
			s = "both " + m.Content
		case m.ReasoningContent != "":
			s = "reasoning " + m.ReasoningContent
		case m.Content != "":
			s = "text " + m.Content
		}
		if m.ResponseMeta != nil && m.ResponseMeta.FinishReason != "" {
			s += " [" + m.ResponseMeta.FinishReason + "]"
		}
		if m.ResponseMeta != nil && m.ResponseMeta.Usage != nil {
			s += fmt.Sprintf(" usage %d", m.ResponseMeta.Usage.TotalTokens)
		}
		seq = append(seq, s)
	}
	want := []string{
		"reasoning think0 think1 think2 ",
		"text say0 say1 say2 say3 ",
		"both both ",
		"text more \"quoted\"\n",
		"call bash",
		"text after the call. [stop]",
		" usage 5",
	}
	if strings.Join(seq, "|") != strings.Join(want, "|") {
		t.Errorf("chunks:\n%q\nwant:\n%q", seq, want)
	}
}

// Lines cut anywhere between reads are joined only once whole: the text
// is the same, in order, however the body is cut.
func TestOpenAIStreamJoinsOnlyWholeLines(t *testing.T) {
	var b strings.Builder
	var want strings.Builder
	for i := range 200 {
		s := fmt.Sprintf("w%d ", i)
		want.WriteString(s)
		b.WriteString(textChunk(s))
	}
	b.WriteString("data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	body := b.String()
	for _, cut := range []int{1, 7, 50, 333, 4096} {
		var p []string
		for s := body; s != ""; {
			n := min(cut, len(s))
			p = append(p, s[:n])
			s = s[n:]
		}
		var text strings.Builder
		finish := ""
		for _, m := range readAll(t, newOpenAIStream(&pieces{p: p}, nil).reader()) {
			text.WriteString(m.Content)
			if m.ResponseMeta != nil {
				finish = m.ResponseMeta.FinishReason
			}
		}
		if text.String() != want.String() || finish != "stop" {
			t.Errorf("cut every %d bytes: text %q… (%d bytes, finish %q), want %d bytes and stop", cut, text.String()[:min(40, text.Len())], text.Len(), finish, want.Len())
		}
	}
}

// A body that trickles in small pieces is read at most once a frame: the
// read after a small one waits for the rest of the frame. A read that
// finds a backlog (a big one) is followed at once, so a burst is read at
// full speed; every byte comes through, in order.
func TestPacedBodyReadsTricklesOncePerFrame(t *testing.T) {
	big := strings.Repeat("x", pacedSmall+1)
	src := &pieces{p: []string{"a", "b", big, big, "c", "d"}}
	now := time.Unix(1000, 0)
	var slept []time.Duration
	p := &pacedBody{body: src, every: 16 * time.Millisecond, now: func() time.Time { return now },
		sleep: func(d time.Duration) { slept = append(slept, d); now = now.Add(d) }}
	var got strings.Builder
	buf := make([]byte, 64<<10)
	for {
		now = now.Add(time.Millisecond) // each read's own time
		n, err := p.Read(buf)
		got.Write(buf[:n])
		if err != nil {
			break
		}
	}
	if got.String() != "ab"+big+big+"cd" {
		t.Errorf("read %d bytes, not the body", got.Len())
	}
	// "a": first, no wait; "b" after a small read: waits the frame's
	// rest; big after small: waits; big after big: none; "c" after big:
	// none; "d" after small: waits; the EOF read after small: waits.
	want := []time.Duration{15 * time.Millisecond, 15 * time.Millisecond, 15 * time.Millisecond, 15 * time.Millisecond}
	if fmt.Sprint(slept) != fmt.Sprint(want) {
		t.Errorf("slept %v, want %v", slept, want)
	}
}
