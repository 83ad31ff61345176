package chat

import (
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/agent"
)

// A failover is shown as the retry notice is, saying which entry is down
// and which took over, and the broken answer before it is dropped.
func TestFailoverNotice(t *testing.T) {
	h := newHarness()
	for _, ev := range []agent.Event{
		{Type: agent.EventTurnStarted, Text: "hi"},
		{Type: agent.EventText, Text: "BROKEN half"},
		{Type: agent.EventRetry, Retry: &agent.RetryInfo{Reason: "default down (connection failed)", Failover: "spare"}},
		{Type: agent.EventText, Text: "Whole answer."},
	} {
		h.router.Handle(ev)
	}
	var all []string
	for i := range h.list.Len() {
		all = append(all, h.list.Item(i).CopyText())
	}
	text := strings.Join(all, "\n")
	if !strings.Contains(text, "default down (connection failed) → using spare") || strings.Contains(text, "retrying") {
		t.Errorf("no failover notice:\n%s", text)
	}
	if strings.Contains(text, "BROKEN") || !strings.Contains(text, "Whole answer.") {
		t.Errorf("the broken answer is still shown, or the whole one is not:\n%s", text)
	}
}
