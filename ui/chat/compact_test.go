package chat

import (
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
