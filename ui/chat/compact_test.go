package chat

import (
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/agent"
)

// A compaction that ends must be drawn as ended whatever the spinner's
// frame was: the revision of the running card is never that of the
// finished one (it once was, at frame 1, and the spinner stayed forever).
func TestCompactionCardEndsAtAnyFrame(t *testing.T) {
	for frame := uint64(0); frame < 5; frame++ {
		r := &Router{list: &MessageList{}}
		rc := &Ctx{Frame: frame}
		r.compaction(agent.Event{Type: agent.EventCompacting, Compact: &agent.Compaction{Reason: "manual"}})
		it := r.compact
		running := it.rev(rc)
		r.compaction(agent.Event{Type: agent.EventCompacted, Compact: &agent.Compaction{Reason: "manual", Summary: "s", TokensBefore: 10, TokensAfter: 5}})
		if it.running || it.rev(rc) == running {
			t.Errorf("frame %d: the finished card has the running card's revision %d", frame, running)
		}
	}
	// The same holds for tool cards and reasoning.
	for frame := uint64(0); frame < 5; frame++ {
		rc := &Ctx{Frame: frame}
		for ver := uint64(0); ver < 4; ver++ {
			if movingRev(ver, rc.Frame) == stillRev(ver+1) || movingRev(ver, rc.Frame) == stillRev(ver) {
				t.Errorf("ver %d frame %d: moving and still revisions meet", ver, frame)
			}
		}
	}
}

// A compaction made from the turn notes says so on its card, and so does
// one made from the notes of the first turns and the transcript of the
// rest.
func TestCompactionCardSaysFromTheNotes(t *testing.T) {
	for want, c := range map[string]agent.Compaction{
		"· from the turn notes":                     {FromNotes: true},
		"· the turn notes and the turns after them": {NotedMessages: 4},
	} {
		r := &Router{list: &MessageList{}}
		r.compaction(agent.Event{Type: agent.EventCompacting, Compact: &agent.Compaction{Reason: "auto"}})
		it := r.compact
		c.Reason, c.Summary, c.TokensBefore, c.TokensAfter = "auto", "s", 10, 5
		r.compaction(agent.Event{Type: agent.EventCompacted, Compact: &c})
		var text string
		for _, l := range it.Render(darkCtx(), 120) {
			for _, sp := range l {
				text += sp.Text
			}
		}
		if !strings.Contains(text, want) {
			t.Errorf("the card reads %q, want %q", text, want)
		}
	}
}
