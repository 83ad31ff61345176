package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/agent/pool"
	"github.com/fawn-ide/fawn/agent/provider"
	"github.com/fawn-ide/fawn/hooks"
	"github.com/fawn-ide/fawn/internal/words"
	"github.com/fawn-ide/fawn/session"
	"github.com/fawn-ide/fawn/tools"
)

// Compaction describes one compaction of the conversation: the messages so
// far replaced by a summary the model wrote of them.
type Compaction struct {
	// Reason is manual (/compact), auto (the window passed agent.auto_compact)
	// or overflow (the server said the request no longer fits).
	Reason string
	Focus  string // what /compact was asked to keep in particular
	// Summary is the note the model carries on from.
	Summary string
	// TokensBefore and TokensAfter estimate the request's size.
	TokensBefore, TokensAfter int
	// Instructions are the instruction files (AGENTS.md, CLAUDE.md) that
	// stay in the system prompt, untouched by the compaction.
	Instructions []string
	// Todos are the open to-dos written after the summary.
	Todos []tools.Todo
	// FromNotes is set when the summary is the notes written in the
	// background after each turn: no summary was asked for.
	FromNotes bool
	// NotedMessages is how many messages at the start of the conversation
	// went to the summary as their turns' notes rather than as the
	// transcript (0: none).
	NotedMessages int
}

const (
	// EventCompacting: the conversation is being compacted {Compact: Reason, Focus}.
	EventCompacting EventType = "compacting"
	// EventCompacted: the compaction ended {Compact; Err if it failed and
	// the conversation is unchanged}.
	EventCompacted EventType = "compacted"
)

// compactPrompt tells the model how to write the summary.
const compactPrompt = `You are summarising a coding session between a user and an AI coding agent so that the agent can carry on in a fresh context window with nothing but your note. The transcript follows; the agent's tool calls are marked "→ call", their results "Result of".

Write the note in Markdown with exactly these sections:
## Goal
What the user wants, in their words where it matters.
## Constraints and preferences
Everything the user asked for, ruled out or corrected, verbatim where the wording matters.
## Decisions
What was decided and why.
## Files touched
Each file read, created or changed, with why.
## Progress
What is done and how it was verified (commands, test results); what failed and the error.
## Next steps
What remains, in order.

Be specific: paths, names, commands, error messages. Do not invent anything that is not in the transcript. Do not call tools.`

// compactAck answers the summary of a compaction made between turns, so
// the next user message follows an assistant one as every server expects.
const compactAck = "Understood: I have the summary of our conversation and will carry on from it."

// summaryBudget bounds the transcript sent for a summary, in characters:
// what the window holds after the answer's reserve, at a conservative three
// characters a token.
func (s *Session) summaryBudget() int {
	window, _ := s.ContextWindow()
	tokens := window - s.outputLimit() - 2000
	return max(tokens*3, 8000)
}

// Compact compacts the conversation (/compact [focus]) between turns. Its
// events arrive on the returned channel like a turn's: EventCompacting,
// EventCompacted, then EventTurnEnded; cancelling ctx abandons it and
// leaves the conversation as it was.
func (s *Session) Compact(ctx context.Context, focus string) <-chan Event {
	out := make(chan Event, 16)
	q := newQueue(out)
	go q.forward()
	s.mu.Lock()
	if s.running {
		s.mu.Unlock()
		q.push(Event{Type: EventError, Err: ErrBusy})
		q.push(Event{Type: EventTurnEnded, Err: ErrBusy, Usage: &Usage{}, SessionUsage: ptr(s.Usage())})
		q.close()
		return out
	}
	ctx, cancel := context.WithCancel(ctx)
	s.running = true
	s.cancelTurn = cancel
	rec := s.rec
	s.wg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		defer cancel()
		t := &turn{q: q, start: time.Now(), gen: s.conv.generation(), rec: rec, redact: s.redact}
		defer func() {
			s.mu.Lock()
			s.running = false
			s.cancelTurn = nil
			s.mu.Unlock()
			q.close()
		}()
		var err error
		if len(s.conv.snapshot()) == 0 {
			err = errors.New("there is nothing to compact yet")
			t.emit(Event{Type: EventError, Err: err})
		} else if err = s.adoptModel(ctx); err != nil {
			// The summary is the next model request: it is the switched-to
			// model's, as a turn's would be.
			t.emit(Event{Type: EventError, Err: err})
		} else {
			s.ensureSystem(t.gen)
			err = s.compact(ctx, t, "manual", focus)
			if err != nil && ctx.Err() != nil {
				err = ErrCancelled
			}
		}
		u := t.usage
		u.Duration = time.Since(t.start)
		s.mu.Lock()
		s.usage.InputTokens += u.InputTokens
		s.usage.OutputTokens += u.OutputTokens
		s.usage.CachedTokens += u.CachedTokens
		s.usage.Cost.Add(u.Cost)
		total := s.usage
		s.mu.Unlock()
		rec.sync()
		t.emit(Event{Type: EventTurnEnded, Usage: &u, SessionUsage: &total, Duration: u.Duration, Err: err})
	}()
	return out
}

// compact replaces the conversation by a summary of it. In a turn (t.input
// set) the user's request being worked on follows the summary, so the turn
// goes on; between turns an acknowledgement does. On failure the
// conversation is unchanged.
func (s *Session) compact(ctx context.Context, t *turn, reason, focus string) error {
	msgs := s.conv.snapshot()
	system := s.systemPrompt()
	before := s.estimate(request(system, msgs))
	c := &Compaction{Reason: reason, Focus: focus, TokensBefore: before, Instructions: s.instructionFiles()}
	s.runHooks(ctx, t, "PreCompact", "", "", hooks.Input{})
	t.emit(Event{Type: EventCompacting, Compact: &Compaction{Reason: reason, Focus: focus, TokensBefore: before}})
	// The notes written in the background after each turn stand for the
	// conversation when they cover all of it (in a turn: all before the
	// turn's request, whose own steps are kept): no summary request.
	keep, notes := s.notedCompaction(t, msgs, focus)
	if notes == "" {
		// The turns already noted are sent as their notes, the rest as
		// the transcript: a smaller request for the same summary. With a
		// focus the whole transcript goes, since a note may have left
		// out what the focus asks for.
		var earlier string
		rest := msgs
		if strings.TrimSpace(focus) == "" {
			if text, k := s.notesFor(msgs); k > 0 && k < len(msgs) {
				earlier, rest, c.NotedMessages = text, msgs[k:], k
			}
		}
		summary, err := s.summarise(ctx, t, rest, focus, earlier)
		if err != nil {
			err = fmt.Errorf("the conversation could not be compacted: %w", err)
			t.emit(Event{Type: EventCompacted, Compact: c, Err: err})
			return err
		}
		c.Summary = summary
	} else {
		c.Summary, c.FromNotes = notes, true
	}
	if s.env.Todos != nil {
		for _, td := range s.env.Todos.Items() {
			if td.Status != "completed" && td.Status != "cancelled" {
				c.Todos = append(c.Todos, td)
			}
		}
	}
	note := compactionNote(c, t.input != nil)
	var repl []*schema.Message
	if keep != nil {
		repl = append([]*schema.Message{withLead(note, keep[0])}, keep[1:]...)
	} else if in := t.input; in != nil {
		repl = []*schema.Message{withLead(note, in)}
	} else {
		repl = []*schema.Message{schema.UserMessage(note), schema.AssistantMessage(compactAck, nil)}
	}
	c.TokensAfter = s.estimate(request(system, repl))
	if !s.conv.compacted(t.gen, repl, c) {
		err := errors.New("the conversation changed while it was being compacted (a new session began)")
		t.emit(Event{Type: EventCompacted, Compact: c, Err: err})
		return err
	}
	s.mu.Lock()
	s.usage.ContextTokens, s.usage.ContextEstimated = c.TokensAfter, true
	s.mu.Unlock()
	t.usage.ContextTokens, t.usage.ContextEstimated = c.TokensAfter, true
	t.rec.sync()
	t.emit(Event{Type: EventCompacted, Compact: c})
	return nil
}

// compactHeader starts the message that stands for a compacted
// conversation.
const compactHeader = "[fawn: this conversation was compacted to fit the context window. The messages before this point were replaced by the summary below, which you wrote of them. Carry on from it; do not start over.]\n\n"

// compactionNote is the message that stands for the compacted
// conversation.
func compactionNote(c *Compaction, inTurn bool) string {
	var b strings.Builder
	b.WriteString(compactHeader)
	b.WriteString(strings.TrimSpace(c.Summary))
	b.WriteString("\n")
	if len(c.Instructions) > 0 {
		fmt.Fprintf(&b, "\nThe project's instructions (%s) are in the system prompt and still apply.\n", strings.Join(baseNames(c.Instructions), ", "))
	}
	if len(c.Todos) > 0 {
		b.WriteString("\n## Open to-dos\n")
		for _, td := range c.Todos {
			fmt.Fprintf(&b, "- [%s] %s\n", td.Status, td.Title)
		}
	}
	if inTurn {
		b.WriteString("\n## The user's request being worked on\n")
	}
	return b.String()
}

func baseNames(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = filepath.Base(p)
	}
	return out
}

// withLead is the user's message m with text before it.
func withLead(text string, m *schema.Message) *schema.Message {
	if len(m.UserInputMultiContent) == 0 {
		return schema.UserMessage(text + m.Content)
	}
	parts := append([]schema.MessageInputPart{{Type: schema.ChatMessagePartTypeText, Text: text}}, m.UserInputMultiContent...)
	return &schema.Message{Role: schema.User, UserInputMultiContent: parts}
}

// summarise asks the model in use for the summary of msgs.
func (s *Session) summarise(ctx context.Context, t *turn, msgs []*schema.Message, focus, earlier string) (string, error) {
	sys := compactPrompt
	if f := strings.TrimSpace(focus); f != "" {
		sys += "\n\nThe user asks you to keep in particular: " + f
	}
	body := "The transcript to summarise:\n\n" + transcriptForSummary(msgs, s.summaryBudget())
	if earlier != "" {
		body = "Notes kept turn by turn stand for the start of the session; carry what still matters of them into your note.\n\n<notes>\n" + earlier +
			"\n</notes>\n\nThe transcript of what followed, to summarise with the notes:\n\n" + transcriptForSummary(msgs, s.summaryBudget())
	}
	req := []*schema.Message{
		schema.SystemMessage(sys),
		schema.UserMessage(body),
	}
	for n := 1; ; n++ {
		text, f := s.summaryAttempt(ctx, t, req)
		if f == nil {
			if strings.TrimSpace(text) == "" {
				return "", errors.New("the model wrote an empty summary")
			}
			return text, nil
		}
		if f.kind == failCancelled {
			return "", ErrCancelled
		}
		if !f.retryable() || n >= maxAttempts {
			return "", s.describe(f, n)
		}
		wait := backoff(s.retryBase, n, f)
		t.emit(Event{Type: EventRetry, Retry: &RetryInfo{Attempt: n, MaxAttempts: maxAttempts, Wait: wait, Reason: f.reason()}})
		if !sleep(ctx, wait) {
			return "", ErrCancelled
		}
	}
}

// summaryAttempt streams one summary request (no tools bound).
func (s *Session) summaryAttempt(ctx context.Context, t *turn, req []*schema.Message) (string, *failure) {
	reqCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	capture := &provider.Capture{}
	reqCtx = provider.WithCapture(reqCtx, capture)
	stall, start := s.requestClock(cancel)
	defer stall.stop()
	reqCtx = pool.WithAcquired(reqCtx, start)
	sr, err := s.client.Chat.Stream(reqCtx, req, provider.StreamOptions()...)
	start()
	if err != nil {
		return "", classify(ctx, err, context.Cause(reqCtx), capture, false)
	}
	defer sr.Close()
	var b strings.Builder
	var counted *schema.TokenUsage
	for {
		chunk, err := sr.Recv()
		if errors.Is(err, io.EOF) {
			if counted == nil {
				t.usage.Cost.Unpriced++ // no count, no cost
			} else {
				t.usage.Cost.Add(costOf(s.modelCfg, counted.PromptTokens, counted.PromptTokenDetails.CachedTokens, counted.CompletionTokens))
			}
			break
		}
		if err != nil {
			return "", classify(ctx, err, context.Cause(reqCtx), capture, false)
		}
		stall.reset()
		if chunk == nil {
			continue
		}
		b.WriteString(chunk.Content)
		if m := chunk.ResponseMeta; m != nil && m.Usage != nil {
			t.usage.InputTokens += m.Usage.PromptTokens
			t.usage.OutputTokens += m.Usage.CompletionTokens
			t.usage.CachedTokens += m.Usage.PromptTokenDetails.CachedTokens
			counted = m.Usage
		}
	}
	return b.String(), nil
}

// transcriptForSummary renders msgs as text for the summary request, within
// budget characters: long tool results keep their head and tail, and when
// the whole is still too long, messages are left out from the middle (the
// first message — the task, or an earlier summary — and the newest stay).
func transcriptForSummary(msgs []*schema.Message, budget int) string {
	blocks := make([]string, len(msgs))
	for i, m := range msgs {
		var b strings.Builder
		switch m.Role {
		case schema.User:
			b.WriteString("### User\n")
			b.WriteString(messageText(m))
		case schema.Assistant:
			b.WriteString("### Assistant\n")
			b.WriteString(m.Content)
			for _, tc := range m.ToolCalls {
				fmt.Fprintf(&b, "\n→ call %s %s", tc.Function.Name, headTail(tc.Function.Arguments, 2000))
			}
		case schema.Tool:
			fmt.Fprintf(&b, "### Result of %s\n", m.ToolName)
			b.WriteString(headTail(m.Content, 3000))
		default:
			continue
		}
		blocks[i] = b.String()
	}
	total := 0
	for _, bl := range blocks {
		total += len(bl) + 2
	}
	if total <= budget || len(blocks) < 3 {
		return strings.Join(blocks, "\n\n")
	}
	// Keep the first block and as many of the newest as fit.
	keep := len(blocks[0]) + 2
	lo := len(blocks)
	for lo > 1 && keep+len(blocks[lo-1])+2 <= budget {
		lo--
		keep += len(blocks[lo]) + 2
	}
	left := lo - 1
	out := []string{blocks[0]}
	if left > 0 {
		out = append(out, fmt.Sprintf("[… %s left out here: the transcript is longer than fits …]", words.Plural(left, "message", "messages")))
	}
	out = append(out, blocks[lo:]...)
	return strings.Join(out, "\n\n")
}

// messageText is the text of a message; images are named, not shown.
func messageText(m *schema.Message) string {
	if len(m.UserInputMultiContent) == 0 {
		return m.Content
	}
	var parts []string
	for _, p := range m.UserInputMultiContent {
		if p.Type == schema.ChatMessagePartTypeText {
			parts = append(parts, p.Text)
		} else {
			parts = append(parts, "[an image]")
		}
	}
	return strings.Join(parts, "\n")
}

// headTail keeps the start and the end of a text longer than n characters.
func headTail(text string, n int) string {
	if len(text) <= n {
		return text
	}
	head, tail := n*2/3, n/3
	lines := strings.Count(text[head:len(text)-tail], "\n")
	cut := validUTF8Prefix(text[:head])
	end := validUTF8Suffix(text[len(text)-tail:])
	return fmt.Sprintf("%s\n[… %s, %d characters cut …]\n%s", cut, words.Plural(lines, "line", "lines"), len(text)-len(cut)-len(end), end)
}

func validUTF8Prefix(s string) string {
	for i := len(s); i > 0 && i > len(s)-4; i-- {
		if isBoundary(s, i) {
			return s[:i]
		}
	}
	return s
}

func validUTF8Suffix(s string) string {
	for i := 0; i < len(s) && i < 4; i++ {
		if isBoundary(s, i) {
			return s[i:]
		}
	}
	return s
}

// isBoundary reports whether s[i] starts a character (or i is the end).
func isBoundary(s string, i int) bool { return i >= len(s) || s[i]&0xC0 != 0x80 }

// instructionFiles are the instruction files the system prompt holds.
func (s *Session) instructionFiles() []string { return s.instructionFilesIn(s.systemPrompt()) }

// instructionFilesIn are the instruction files the system prompt sys names.
func (s *Session) instructionFilesIn(sys string) []string {
	var paths []string
	for _, name := range []string{"AGENTS.md", "CLAUDE.md"} {
		paths = append(paths, filepath.Join(s.env.Root, name))
	}
	if s.cfg.ConfigDir != "" {
		paths = append(paths, filepath.Join(s.cfg.ConfigDir, "AGENTS.md"))
	}
	var out []string
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && st.Size() > 0 && strings.Contains(sys, p) {
			out = append(out, p)
		}
	}
	return out
}

// --- how full the window is ----------------------------------------------------

// charsPerToken is the rough size of a token, before calibration against
// what the server reports.
const charsPerToken = 4

// requestChars counts the characters of a request, tool schemas included.
func (s *Session) requestChars(msgs []*schema.Message) int {
	n := s.toolChars.get()
	for _, m := range msgs {
		n += 16 + len(m.Content) + len(m.ReasoningContent)
		for _, tc := range m.ToolCalls {
			n += 32 + len(tc.Function.Name) + len(tc.Function.Arguments)
		}
		for _, p := range m.UserInputMultiContent {
			if p.Image != nil {
				n += 1000 * charsPerToken // an image is about a thousand tokens
			} else {
				n += len(p.Text)
			}
		}
	}
	return n
}

// estimate is how many tokens msgs (a whole request) take, calibrated by
// the ratio the server's last report gave.
func (s *Session) estimate(msgs []*schema.Message) int {
	chars := s.requestChars(msgs)
	s.mu.Lock()
	ratio := s.tokensPerChar
	s.mu.Unlock()
	if ratio <= 0 {
		ratio = 1.0 / charsPerToken
	}
	return int(float64(chars) * ratio)
}

// calibrate learns the tokens a character costs from a request the server
// reported the size of.
func (s *Session) calibrate(msgs []*schema.Message, promptTokens int) {
	chars := s.requestChars(msgs)
	if chars < 2000 || promptTokens <= 0 {
		return // too small to say much
	}
	r := float64(promptTokens) / float64(chars)
	r = min(max(r, 0.12), 1.0)
	s.mu.Lock()
	s.tokensPerChar = r
	s.mu.Unlock()
}

// schemaChars is the size of a set of tool schemas, counted once, when it
// is first asked for (marshalling every schema costs about a millisecond).
type schemaChars struct {
	once  sync.Once
	infos []*schema.ToolInfo
	n     int
}

// get returns the count; a nil schemaChars (no tools) counts 0.
func (c *schemaChars) get() int {
	if c == nil {
		return 0
	}
	c.once.Do(func() { c.n = toolSchemaChars(c.infos) })
	return c.n
}

// toolSchemaChars counts the characters the tool schemas add to a request.
func toolSchemaChars(infos []*schema.ToolInfo) int {
	n := 0
	for _, info := range infos {
		n += len(info.Name) + len(info.Desc) + 32
		if info.ParamsOneOf != nil {
			if js, err := info.ParamsOneOf.ToJSONSchema(); err == nil {
				if b, err := json.Marshal(js); err == nil {
					n += len(b)
				}
			}
		}
	}
	return n
}

// --- pressure ------------------------------------------------------------------

// relieve runs before each model request: as the window fills, old tool
// results are shortened to head and tail, then replaced by a stub, and past
// agent.auto_compact the conversation is compacted. The newest two turns
// are never touched by the first two. It reports whether the request must
// be rebuilt.
func (s *Session) relieve(ctx context.Context, t *turn, in []*schema.Message) (changed bool, err error) {
	limit := s.cfg.Agent.AutoCompact
	if limit <= 0 {
		return false, nil
	}
	window, _ := s.ContextWindow()
	est := s.estimate(in)
	if est*100 < window*(limit-15) {
		return false, nil
	}
	if s.trimOld(t, 1) {
		changed = true
		est = s.estimate(request(s.systemPrompt(), s.conv.snapshot()))
	}
	if est*100 >= window*(limit-5) && s.trimOld(t, 2) {
		changed = true
		est = s.estimate(request(s.systemPrompt(), s.conv.snapshot()))
	}
	if est*100 >= window*limit && t.compactedAt != t.steps+1 {
		t.compactedAt = t.steps + 1
		if err := s.compact(ctx, t, "auto", ""); err != nil {
			return changed, err
		}
		return true, nil
	}
	return changed, nil
}

// trimHead is what a trimmed tool result keeps.
const trimHead = 1500

// trimOld shortens the tool results before the newest two turns: level 1
// keeps head and tail, level 2 leaves a one-line stub. The call/result
// pairing is kept. It reports whether anything changed.
func (s *Session) trimOld(t *turn, level int) bool {
	msgs := s.conv.snapshot()
	users := 0
	end := 0
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == schema.User {
			users++
			if users == 2 {
				end = i
				break
			}
		}
	}
	trims := map[int]string{}
	for i := range end {
		m := msgs[i]
		if m.Role != schema.Tool || strings.HasPrefix(m.Content, "[fawn: ") {
			continue
		}
		switch level {
		case 1:
			if len(m.Content) > trimHead*2 {
				trims[i] = "[fawn: shortened to save context]\n" + headTail(m.Content, trimHead)
			}
		case 2:
			if len(m.Content) > 200 {
				trims[i] = fmt.Sprintf("[fawn: the result of this %s call (%s) was removed to save context; run it again if you need it]", m.ToolName, words.Plural(strings.Count(m.Content, "\n")+1, "line", "lines"))
			}
		}
	}
	if len(trims) == 0 {
		return false
	}
	return s.conv.trim(t.gen, trims)
}

// --- the conversation's side --------------------------------------------------

// compacted replaces the conversation by msgs, recording the compaction c,
// unless it was reset since gen.
func (c *conversation) compacted(gen int, msgs []*schema.Message, comp *Compaction) bool {
	c.ready()
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return false
	}
	c.msgs = append([]*schema.Message(nil), msgs...)
	c.rec.compacted(comp, msgs)
	return true
}

// trim replaces the content of the messages at the given indexes.
func (c *conversation) trim(gen int, trims map[int]string) bool {
	c.ready()
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return false
	}
	var recs []session.Trim
	for i, text := range trims {
		if i >= len(c.msgs) {
			continue
		}
		cp := *c.msgs[i]
		cp.Content = text
		c.msgs[i] = &cp
		recs = append(recs, session.Trim{N: i, Content: text})
	}
	c.rec.trimmed(recs)
	return len(recs) > 0
}

// compacted records a compaction and the conversation that replaces it.
func (r *recorder) compacted(c *Compaction, msgs []*schema.Message) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	w := r.writer()
	if w == nil {
		return
	}
	r.append(session.Record{Type: session.TypeCompact, Reason: c.Reason, Focus: c.Focus, Summary: c.Summary,
		TokensBefore: c.TokensBefore, TokensAfter: c.TokensAfter, Messages: toRecords(msgs, w.Blobs())})
	r.syncLocked()
}

// trimmed records shortened tool results.
func (r *recorder) trimmed(trims []session.Trim) {
	if r == nil || len(trims) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.writer() == nil {
		return
	}
	r.append(session.Record{Type: session.TypeTrim, Trims: trims})
}
