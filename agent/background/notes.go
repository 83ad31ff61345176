package background

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"

	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/agent"
)

// notePrompt asks for the note of one turn.
const notePrompt = `You keep notes of a coding session between a user and an AI coding agent, one note per turn, so that the agent can later carry on from the notes alone when its context window is compacted. The transcript of one turn follows; the agent's tool calls are marked "→ call", their results "Result of". If the turn starts with a summary of earlier work, carry what still matters of it into your note.

Write the note in Markdown with exactly these sections:
## Goal
What the user wants, in their words where it matters.
## Constraints
Everything the user asked for, ruled out or corrected, verbatim where the wording matters.
## Progress
What was done and how it was verified (commands, test results); what failed and the error.
## Decisions
What was decided and why.
## Next steps
What remains, in order.
## Critical context
Paths, names, commands, error messages and facts the agent cannot do without.

Be specific and brief. Do not invent anything that is not in the transcript. Do not call tools.`

// maxNotes bounds the notes kept in memory.
const maxNotes = 1000

// Notes writes a note of each turn in the background and hands compaction
// the notes once they cover the whole conversation. A note stands for the
// messages of its turn by their fingerprint (roles, texts, call IDs — not
// tool results, which the session shortens as the window fills), so a
// rewind, a resume or a compaction never pairs a note with other messages.
type Notes struct {
	mu    sync.Mutex
	notes []*note
	// write writes the note of msgs (a test may replace it).
	write func(ctx context.Context, msgs []*schema.Message) (string, error)
	// record keeps a finished note in the session.
	record func(agent.Note)
	// changed is told when a note starts or ends (the status bar).
	changed func()
}

type note struct {
	covers int
	hash   string
	text   string
	done   bool
	err    error
}

// Ready returns the notes that stand for msgs, every one of them, in order.
func (n *Notes) Ready(msgs []*schema.Message) (string, bool) {
	text, covered := n.Noted(msgs)
	return text, covered == len(msgs) && covered > 0
}

// Noted returns the written notes that stand for the start of msgs, in
// order, and how many of its messages they cover (0 when none do): the
// notes of the turns before one whose note is missing, failed or still
// being written.
func (n *Notes) Noted(msgs []*schema.Message) (string, int) {
	n.mu.Lock()
	defer n.mu.Unlock()
	chain, _ := n.chain(msgs)
	k, covered := 0, 0
	for _, nt := range chain {
		if !nt.done || nt.err != nil {
			break
		}
		k++
		covered += nt.covers
	}
	var b strings.Builder
	for i, nt := range chain[:k] {
		if k > 1 {
			fmt.Fprintf(&b, "# Turn %d\n", i+1)
		}
		b.WriteString(nt.text)
		b.WriteString("\n\n")
	}
	text := strings.TrimSpace(b.String())
	if text == "" {
		return "", 0
	}
	return text, covered
}

// Restore takes the notes a resumed session recorded.
func (n *Notes) Restore(notes []agent.Note) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.notes = n.notes[:0]
	for _, r := range notes {
		n.notes = append(n.notes, &note{covers: r.Covers, hash: r.Hash, text: r.Text, done: true})
	}
}

// Pending reports how many notes are being written.
func (n *Notes) Pending() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	k := 0
	for _, nt := range n.notes {
		if !nt.done {
			k++
		}
	}
	return k
}

// chain is the notes that stand for msgs from its start, in order, and
// how many messages they cover. Notes are tried newest first at each
// point, so that of two notes of the same messages the newest counts.
func (n *Notes) chain(msgs []*schema.Message) ([]*note, int) {
	var out []*note
	pos := 0
	for pos < len(msgs) {
		var found *note
		for i := len(n.notes) - 1; i >= 0; i-- {
			nt := n.notes[i]
			if nt.err == nil && pos+nt.covers <= len(msgs) && fingerprint(msgs[pos:pos+nt.covers]) == nt.hash {
				found = nt
				break
			}
		}
		if found == nil {
			break
		}
		out = append(out, found)
		pos += found.covers
	}
	return out, pos
}

// turnEnded starts the note of what the notes do not cover yet of the
// conversation: the turn that just ended (or more, after a rewind or a
// failed note).
func (n *Notes) turnEnded(ctx context.Context, te agent.TurnEnd, run func(func())) {
	msgs := te.History[te.Skip:]
	n.mu.Lock()
	_, pos := n.chain(msgs)
	if pos >= len(msgs) {
		n.mu.Unlock()
		return
	}
	rest := msgs[pos:]
	nt := &note{covers: len(rest), hash: fingerprint(rest)}
	n.notes = append(n.notes, nt)
	if len(n.notes) > maxNotes {
		// The oldest stand for messages compacted away long ago.
		n.notes = append(n.notes[:0:0], n.notes[len(n.notes)-maxNotes:]...)
	}
	n.mu.Unlock()
	n.tell()
	run(func() {
		text, err := n.write(ctx, rest)
		n.mu.Lock()
		nt.text, nt.err, nt.done = text, err, true
		n.mu.Unlock()
		if err == nil && n.record != nil {
			n.record(agent.Note{Text: text, Covers: nt.covers, Hash: nt.hash})
		}
		n.tell()
	})
}

func (n *Notes) tell() {
	if n.changed != nil {
		n.changed()
	}
}

// writeNote asks m for the note of msgs.
func writeNote(ctx context.Context, m agent.BackgroundModel, msgs []*schema.Message) (string, error) {
	return ask(ctx, m, notePrompt, "The turn to note:\n\n"+agent.Transcript(msgs, transcriptBudget))
}

// fingerprint stands for msgs: their roles, the texts of the user's and
// the model's messages, and the IDs of the calls and of the results.
func fingerprint(msgs []*schema.Message) string {
	h := sha256.New()
	for _, m := range msgs {
		fmt.Fprintf(h, "%s\x00", m.Role)
		switch m.Role {
		case schema.Tool:
			fmt.Fprintf(h, "%s\x00", m.ToolCallID)
		default:
			fmt.Fprintf(h, "%d:%s\x00", len(m.Content), m.Content)
			for _, p := range m.UserInputMultiContent {
				fmt.Fprintf(h, "%d:%s\x00", len(p.Text), p.Text)
			}
			for _, tc := range m.ToolCalls {
				fmt.Fprintf(h, "%s\x00", tc.ID)
			}
		}
		h.Write([]byte{1})
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}
