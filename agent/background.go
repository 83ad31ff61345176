package agent

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/agent/pool"
	"github.com/fawn-ide/fawn/agent/provider"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/session"
)

// What the session offers the work done beside its turns (package
// agent/background: the turn notes, the commit drafter, the goal's judge):
// a model on the background entries, a word at the end of every turn, and
// the notes compaction takes instead of asking for a summary. The work
// itself lives in that package; the session only keeps the two hooks.

// TurnEnd is what a turn leaves for the work done after it.
type TurnEnd struct {
	// History is the whole conversation after the turn; Skip is how many
	// of its first messages stand for an earlier compaction (their
	// summary is the notes' start).
	History []*schema.Message
	Skip    int
	Err     error
}

// Note is a note of turns written in the background: Text stands for the
// Covers messages whose fingerprint is Hash.
type Note struct {
	Text   string
	Covers int
	Hash   string
}

// Notes hands compaction the notes written of a conversation.
type Notes interface {
	// Noted returns the text that stands for the start of msgs and how
	// many of its messages that text covers (0: none are noted yet).
	Noted(msgs []*schema.Message) (string, int)
	// Restore takes the notes a resumed session recorded.
	Restore(notes []Note)
}

// bgHooks are the session's side of its background work.
type bgHooks struct {
	mu      sync.Mutex
	after   func(TurnEnd)
	notes   Notes
	closers []func()
	worker  any
}

// Worker returns the session's background worker, made by mk the first
// time: one session has one, however many ask for it.
func (b Background) Worker(mk func() any) any {
	b.s.bg.mu.Lock()
	w := b.s.bg.worker
	b.s.bg.mu.Unlock()
	if w != nil {
		return w
	}
	w = mk()
	b.s.bg.mu.Lock()
	defer b.s.bg.mu.Unlock()
	if b.s.bg.worker == nil {
		b.s.bg.worker = w
	}
	return b.s.bg.worker
}

// close runs what OnClose was given, once.
func (h *bgHooks) close() {
	h.mu.Lock()
	fs := h.closers
	h.closers = nil
	h.mu.Unlock()
	for _, f := range fs {
		f()
	}
}

// OnClose makes f run when the session closes (the background work
// stops), after its turn has ended.
func (b Background) OnClose(f func()) {
	b.s.bg.mu.Lock()
	defer b.s.bg.mu.Unlock()
	b.s.bg.closers = append(b.s.bg.closers, f)
}

// GoalMaxTurns is goal.max_turns (0 when unset).
func (b Background) GoalMaxTurns() int { return b.s.cfg.Goal.MaxTurns }

// Background is a session's face for its background work.
type Background struct{ s *Session }

// Background returns the session's face for its background work.
func (s *Session) Background() Background { return Background{s: s} }

// OnTurnEnd makes f run at the end of every turn, before EventTurnEnded
// is sent; f must not block (it starts its work and returns).
func (b Background) OnTurnEnd(f func(TurnEnd)) {
	b.s.bg.mu.Lock()
	defer b.s.bg.mu.Unlock()
	b.s.bg.after = f
}

// SetNotes gives compaction its notes.
func (b Background) SetNotes(n Notes) {
	b.s.bg.mu.Lock()
	defer b.s.bg.mu.Unlock()
	b.s.bg.notes = n
}

// RecordNote keeps n in the session's transcript, for a resume.
func (b Background) RecordNote(n Note) { b.s.recorder().note(n) }

// Root is the project's directory.
func (b Background) Root() string { return b.s.env.Root }

// Trusted reports whether the project is trusted (git may read its files).
func (b Background) Trusted() bool { return b.s.trusted }

// History is the conversation so far.
func (b Background) History() []*schema.Message { return b.s.conv.snapshot() }

// BackgroundModel is the model background work is sent to.
type BackgroundModel struct {
	Chat model.BaseChatModel
	// Entries are the entries of models it may go to, in order.
	Entries []string
	// Shared is set when no entry of models.background exists: the work
	// queues on chat_model's slot and shares its prompt cache.
	Shared bool
}

// Model is the model for background work: the entries of
// models.background, each request on the first with a free slot; with
// none, the session's own model, on chat_model's slot.
func (b Background) Model(ctx context.Context) (BackgroundModel, error) {
	s := b.s
	names := s.pools.Background()
	s.mu.Lock()
	own := s.client
	entry := s.ep.entry
	s.mu.Unlock()
	if len(names) == 0 || own.Provider == "custom" {
		if entry == "" {
			entry = pool.Default
		}
		s.mu.Lock()
		mc := s.modelCfg
		s.mu.Unlock()
		return BackgroundModel{Chat: spending{ToolCallingChatModel: own.Chat, s: s, mc: mc}, Entries: []string{entry}, Shared: true}, nil
	}
	var (
		models []model.ToolCallingChatModel
		slots  []*pool.Slot
	)
	for _, name := range names {
		c, ok := s.choice(name)
		if !ok {
			continue
		}
		cl, err := provider.New(ctx, c.Config, s.providerOptions())
		if err != nil {
			return BackgroundModel{}, fmt.Errorf("models.named.%s: %w", name, err)
		}
		models = append(models, spending{ToolCallingChatModel: cl.Chat, s: s, mc: c.Config})
		slots = append(slots, s.pools.Slot(name))
	}
	return BackgroundModel{Chat: s.pools.Spread(models, slots), Entries: names}, nil
}

// Entries are the entries background work goes to, and whether that is
// chat_model's, shared with the conversation (no models.background).
func (b Background) Entries() ([]string, bool) {
	s := b.s
	names := s.pools.Background()
	s.mu.Lock()
	custom := s.client.Provider == "custom"
	entry := s.ep.entry
	s.mu.Unlock()
	if len(names) == 0 || custom {
		if entry == "" {
			entry = pool.Default
		}
		return []string{entry}, true
	}
	return names, false
}

// Failover names the entry the session failed over from and the one it
// uses instead, or "" and "" when it uses its own.
func (b Background) Failover() (from, to string) {
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	if h := b.s.ep.home; h != nil {
		return h.entry, b.s.ep.entry
	}
	return "", ""
}

// Transcript renders msgs as the text a background request reads, within
// budget characters (long results cut, the middle left out).
func Transcript(msgs []*schema.Message, budget int) string {
	return transcriptForSummary(msgs, budget)
}

// turnEnded tells the background work that a turn ended.
func (s *Session) turnEnded(err error) {
	s.bg.mu.Lock()
	f := s.bg.after
	s.bg.mu.Unlock()
	if f == nil {
		return
	}
	h := s.conv.snapshot()
	_, skip := compactedPrefix(h)
	f(TurnEnd{History: h, Skip: skip, Err: err})
}

// notesFor is the text that stands for the start of msgs from the
// background notes, after the summary of an earlier compaction they start
// with, if any, and how many of msgs it covers (0: none).
func (s *Session) notesFor(msgs []*schema.Message) (string, int) {
	s.bg.mu.Lock()
	n := s.bg.notes
	s.bg.mu.Unlock()
	if n == nil {
		return "", 0
	}
	prev, skip := compactedPrefix(msgs)
	if skip >= len(msgs) {
		return "", 0
	}
	text, k := n.Noted(msgs[skip:])
	if k == 0 || strings.TrimSpace(text) == "" {
		return "", 0
	}
	if prev != "" {
		text = "## Before the last compaction\n" + prev + "\n\n" + text
	}
	return text, skip + k
}

// compactedPrefix finds the summary and acknowledgement a compaction made
// between turns at the start of msgs: its summary and 2, or "" and 0.
func compactedPrefix(msgs []*schema.Message) (string, int) {
	if len(msgs) < 2 || msgs[0].Role != schema.User || msgs[1].Role != schema.Assistant || msgs[1].Content != compactAck {
		return "", 0
	}
	text, ok := strings.CutPrefix(msgs[0].Content, compactHeader)
	if !ok {
		return "", 0
	}
	return strings.TrimSpace(text), 2
}

// note records a note of turns.
func (r *recorder) note(n Note) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.w == nil {
		return // nothing was said yet: no session to keep it in
	}
	r.append(sessionNote(n))
}

// notedCompaction is the compaction the background notes allow: the text
// that stands for the conversation and, in a turn, the messages kept after
// it (the turn's request first, then its steps so far). It is "" when the
// notes do not cover the conversation, when the user asked to keep
// something in particular (the notes were written without that focus), or
// when what a turn keeps would still fill more than half the window.
func (s *Session) notedCompaction(t *turn, msgs []*schema.Message, focus string) ([]*schema.Message, string) {
	if strings.TrimSpace(focus) != "" {
		return nil, ""
	}
	if t.input == nil {
		text, k := s.notesFor(msgs)
		if k < len(msgs) {
			return nil, ""
		}
		return nil, text
	}
	i := len(msgs) - 1
	for i >= 0 && msgs[i].Role != schema.User {
		i--
	}
	if i <= 0 {
		return nil, ""
	}
	text, k := s.notesFor(msgs[:i])
	if k < i {
		return nil, ""
	}
	keep := msgs[i:]
	window, _ := s.ContextWindow()
	if s.estimate(request(s.systemPrompt(), append([]*schema.Message{withLead(text, keep[0])}, keep[1:]...)))*2 > window {
		return nil, ""
	}
	return keep, text
}

func sessionNote(n Note) session.Record {
	return session.Record{Type: session.TypeNote, Summary: n.Text, Covers: n.Covers, Hash: n.Hash}
}

// restoreNotes hands the notes a resumed session recorded to its notes.
func (s *Session) restoreNotes(l *session.Log) {
	s.bg.mu.Lock()
	n := s.bg.notes
	s.bg.mu.Unlock()
	if n == nil || l == nil {
		return
	}
	var notes []Note
	for _, r := range l.Notes {
		notes = append(notes, Note{Text: r.Summary, Covers: r.Covers, Hash: r.Hash})
	}
	n.Restore(notes)
}

// spending is a background entry's model whose answers count in the
// session's usage and cost, at that entry's price: background work is
// the user's money as a turn is.
type spending struct {
	model.ToolCallingChatModel
	s  *Session
	mc config.Model
}

// Generate asks the entry and counts what the answer cost.
func (m spending) Generate(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	msg, err := m.ToolCallingChatModel.Generate(ctx, in, opts...)
	if err == nil {
		m.s.spend(msg, m.mc)
	}
	return msg, err
}

// spend adds one background answer's tokens and cost to the session's
// usage (not to a turn's: the work runs between turns).
func (s *Session) spend(msg *schema.Message, mc config.Model) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if msg == nil || msg.ResponseMeta == nil || msg.ResponseMeta.Usage == nil {
		s.usage.Cost.Unpriced++
		return
	}
	u := msg.ResponseMeta.Usage
	s.usage.InputTokens += u.PromptTokens
	s.usage.OutputTokens += u.CompletionTokens
	s.usage.CachedTokens += u.PromptTokenDetails.CachedTokens
	s.usage.Cost.Add(costOf(mc, u.PromptTokens, u.PromptTokenDetails.CachedTokens, u.CompletionTokens))
}
