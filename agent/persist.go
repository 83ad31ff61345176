package agent

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"

	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/agent/provider"
	"github.com/fawn-ide/fawn/internal/words"
	"github.com/fawn-ide/fawn/session"
	"github.com/fawn-ide/fawn/tools"
)

// recorder writes the session's transcript as it happens: every message
// appended to the conversation, the system prompt and the model when they
// change, the to-dos, turn ends, compactions. The file is created at the
// first message, so a session that never ran a turn leaves nothing behind.
// Its methods are called with the conversation's lock held (messages) or
// from the turn's goroutine, one at a time.
type recorder struct {
	st *session.Store

	mu     sync.Mutex
	w      *session.Writer
	id     string
	parent string
	err    error // the first failure, said once
	told   bool
	// held: the file has been open here (created or resumed), so what is
	// in it is the session's; otherwise a file of its ID is what a failed
	// Create left.
	held bool

	system      string // the system prompt recorded (or to record)
	systemTools []string
	systemOut   bool   // the system prompt is in the file
	model       string // the model recorded
	todos       []tools.Todo
	workspace   string // the last workspace recorded, encoded
}

func newRecorder(st *session.Store, id string) *recorder {
	if st == nil {
		return nil
	}
	return &recorder{st: st, id: id}
}

// writer returns the open writer, creating the file when there is none.
func (r *recorder) writer() *session.Writer {
	if r.w != nil || r.err != nil {
		return r.w
	}
	w, err := r.st.Create(session.Record{ID: r.id, Parent: r.parent})
	if err != nil {
		r.fail(err)
		return nil
	}
	r.w, r.held = w, true
	r.systemOut = false
	if r.system != "" {
		r.writeSystem()
	}
	if r.model != "" {
		r.append(session.Record{Type: session.TypeModel, Model: r.model})
	}
	return w
}

func (r *recorder) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

// takeError returns a failure not said yet.
func (r *recorder) takeError() error {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err == nil || r.told {
		return nil
	}
	r.told = true
	return fmt.Errorf("the session is not being saved (%v); fawn tries again after each turn", r.err)
}

// failure is the reason the session is not being saved, or nil.
func (r *recorder) failure() error {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// resume tries again to save a session whose saving failed (a full disk
// that has room again): it reopens the transcript, or creates it when it
// never was, and writes what it lacks of the conversation, msgs, so
// nothing said while it failed is lost. It tries once the
// failure has been said (at the end of a later turn than the one it
// happened in). It reports whether the session is being saved again; if
// not, the failure stays, said once.
func (r *recorder) resume(msgs []*schema.Message) bool {
	if r == nil {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err == nil || !r.told {
		return false // saving works, or its failure is this turn's, not said yet
	}
	if r.w != nil {
		_ = r.w.Close() // its error is sticky: only a new writer writes again
		r.w = nil
	}
	w, err := r.st.Create(session.Record{ID: r.id, Parent: r.parent})
	var had *session.Log // what the file held, when it was reopened
	if errors.Is(err, os.ErrExist) {
		if r.held {
			// Written before it failed: carry on at its end (a torn
			// last line is cut off).
			had, w, err = r.st.Open(r.id)
		} else if os.Remove(r.st.Path(r.id)) == nil {
			// What the failed Create left, without its header.
			w, err = r.st.Create(session.Record{ID: r.id, Parent: r.parent})
		}
	}
	if err != nil {
		return false
	}
	r.w, r.err, r.held = w, nil, true
	if r.system != "" {
		r.writeSystem()
	}
	if r.model != "" {
		r.append(session.Record{Type: session.TypeModel, Model: r.model})
	}
	// The messages the file lacks, as messages, so the chat of a resumed
	// session shows them too.
	n := 0
	if had != nil {
		n = min(len(had.Messages), len(msgs))
	}
	recs := make([]session.Record, 0, len(msgs)-n+1)
	for i, m := range msgs[n:] {
		rm := toRecord(m, w.Blobs())
		recs = append(recs, session.Record{Type: session.TypeMessage, N: session.Of(n + i), Message: &rm})
	}
	if had != nil {
		// And the conversation as it is, whole, in case what the file
		// held is not where it began (a compaction or a rewind while
		// saving failed).
		recs = append(recs, session.Record{Type: session.TypeHistory, Messages: toRecords(msgs, w.Blobs())})
	}
	r.append(recs...)
	if len(r.todos) > 0 {
		todos := make([]session.Todo, len(r.todos))
		for i, it := range r.todos {
			todos[i] = session.Todo{ID: it.ID, Title: it.Title, Status: it.Status, Priority: it.Priority}
		}
		r.append(session.Record{Type: session.TypeTodos, Todos: todos})
	}
	r.syncLocked()
	if r.err != nil {
		return false // still failing: said once (told stays as it was)
	}
	r.told = false
	return true
}

func (r *recorder) append(recs ...session.Record) {
	if w := r.writer(); w != nil {
		if err := w.Append(recs...); err != nil {
			r.fail(err)
		}
	}
}

func (r *recorder) writeSystem() {
	r.systemOut = true
	r.append(session.Record{Type: session.TypeSystem, Prompt: r.system, Tools: r.systemTools})
}

// setSystem records the system prompt when it changed.
func (r *recorder) setSystem(prompt string, names []string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if prompt == r.system && r.systemOut {
		return
	}
	r.system, r.systemTools = prompt, append([]string(nil), names...)
	if r.w != nil {
		r.writeSystem()
	} else {
		r.systemOut = false
	}
}

// setModel records the model in use when it changed.
func (r *recorder) setModel(name string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if name == r.model {
		return
	}
	r.model = name
	if r.w != nil {
		r.append(session.Record{Type: session.TypeModel, Model: name})
	}
}

// appended records msgs, appended to the conversation at index n.
func (r *recorder) appended(n int, msgs []*schema.Message) {
	if r == nil || len(msgs) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	w := r.writer()
	if w == nil {
		return
	}
	recs := make([]session.Record, 0, len(msgs))
	for i, m := range msgs {
		rm := toRecord(m, w.Blobs())
		recs = append(recs, session.Record{Type: session.TypeMessage, N: session.Of(n + i), Message: &rm})
	}
	r.append(recs...)
}

// replaced records the conversation replaced whole.
func (r *recorder) replaced(msgs []*schema.Message) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	w := r.writer()
	if w == nil {
		return
	}
	r.append(session.Record{Type: session.TypeHistory, Messages: toRecords(msgs, w.Blobs())})
}

// setTodos records the to-do list when it changed.
func (r *recorder) setTodos(items []tools.Todo) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if slices.Equal(items, r.todos) {
		return
	}
	r.todos = append([]tools.Todo(nil), items...)
	if r.w == nil && len(items) == 0 {
		return
	}
	todos := make([]session.Todo, len(items))
	for i, it := range items {
		todos[i] = session.Todo{ID: it.ID, Title: it.Title, Status: it.Status, Priority: it.Priority}
	}
	r.append(session.Record{Type: session.TypeTodos, Todos: todos})
}

// turnEnded records a turn's end and syncs the file.
func (r *recorder) turnEnded(u Usage, err error) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.w == nil {
		return // nothing was said: no session to keep
	}
	rec := session.Record{Type: session.TypeTurn, Model: r.model, DurationMS: u.Duration.Milliseconds(),
		Usage: &session.Usage{Input: u.InputTokens, Output: u.OutputTokens, Cached: u.CachedTokens, Context: u.ContextTokens, Steps: u.Steps, Tools: u.ToolCalls,
			CostUSD: u.Cost.USD, Priced: u.Cost.Priced, Unpriced: u.Cost.Unpriced}}
	if err != nil {
		rec.Error = err.Error()
	}
	r.append(rec)
	r.syncLocked()
}

// setWorkspace records what the IDE has open, when it changed and the
// session has a file.
func (r *recorder) setWorkspace(ws session.Workspace) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	b, _ := json.Marshal(ws)
	if r.w == nil || string(b) == r.workspace {
		return
	}
	r.workspace = string(b)
	r.append(session.Record{Type: session.TypeWorkspace, Tabs: ws.Tabs, Cwd: ws.Cwd})
	r.syncLocked()
}

func (r *recorder) sync() {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.syncLocked()
}

func (r *recorder) syncLocked() {
	if r.w == nil {
		return
	}
	if err := r.w.Sync(); err != nil {
		r.fail(err)
	}
}

func (r *recorder) close() {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.w != nil {
		if err := r.w.Close(); err != nil {
			r.fail(err)
		}
		r.w = nil
	}
}

// path is the transcript's file ("" before it exists).
func (r *recorder) path() string {
	if r == nil {
		return ""
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.w == nil {
		return ""
	}
	return r.w.Path()
}

// --- messages on disk ---------------------------------------------------------

func toRecords(msgs []*schema.Message, blobs *session.Blobs) []session.Message {
	out := make([]session.Message, len(msgs))
	for i, m := range msgs {
		out[i] = toRecord(m, blobs)
	}
	return out
}

// toRecord is the stored form of m: its images go to the blobs.
func toRecord(m *schema.Message, blobs *session.Blobs) session.Message {
	r := session.Message{
		Role:       string(m.Role),
		Content:    m.Content,
		Reasoning:  m.ReasoningContent,
		ToolCallID: m.ToolCallID,
		ToolName:   m.ToolName,
		Name:       m.Name,
		Extra:      jsonSafe(m.Extra),
	}
	if typed, ok := r.Extra[typedKey].(string); ok {
		r.Typed = typed
		delete(r.Extra, typedKey) // jsonSafe's copy
		if len(r.Extra) == 0 {
			r.Extra = nil
		}
	}
	for _, tc := range m.ToolCalls {
		r.ToolCalls = append(r.ToolCalls, session.ToolCall{ID: tc.ID, Type: tc.Type, Name: tc.Function.Name, Arguments: tc.Function.Arguments, Extra: jsonSafe(tc.Extra)})
	}
	for _, p := range m.UserInputMultiContent {
		switch {
		case p.Type == schema.ChatMessagePartTypeText:
			r.Parts = append(r.Parts, session.Part{Type: "text", Text: p.Text})
		case p.Image != nil:
			part := session.Part{Type: "image", MIME: p.Image.MIMEType, Detail: string(p.Image.Detail)}
			switch {
			case p.Image.Base64Data != nil:
				data, err := base64.StdEncoding.DecodeString(*p.Image.Base64Data)
				if err == nil {
					part.Blob, err = blobs.Put(data)
				}
				if err != nil {
					part = session.Part{Type: "text", Text: "[an image that could not be kept: " + err.Error() + "]"}
				}
			case p.Image.URL != nil:
				part.URL = *p.Image.URL
			}
			r.Parts = append(r.Parts, part)
		}
	}
	return r
}

// jsonSafe keeps the entries of extra that survive a JSON round trip.
func jsonSafe(extra map[string]any) map[string]any {
	if len(extra) == 0 {
		return nil
	}
	out := map[string]any{}
	for k, v := range extra {
		if _, err := json.Marshal(v); err == nil {
			out[k] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// fromRecord is the message r stores.
func fromRecord(r session.Message, blobs *session.Blobs) *schema.Message {
	m := &schema.Message{
		Role:             schema.RoleType(r.Role),
		Content:          r.Content,
		ReasoningContent: r.Reasoning,
		ToolCallID:       r.ToolCallID,
		ToolName:         r.ToolName,
		Name:             r.Name,
		Extra:            r.Extra,
	}
	if r.Typed != "" {
		m.Extra = map[string]any{typedKey: r.Typed}
		for k, v := range r.Extra {
			m.Extra[k] = v
		}
	}
	for _, tc := range r.ToolCalls {
		typ := tc.Type
		if typ == "" {
			typ = "function"
		}
		m.ToolCalls = append(m.ToolCalls, schema.ToolCall{ID: tc.ID, Type: typ, Function: schema.FunctionCall{Name: tc.Name, Arguments: tc.Arguments}, Extra: tc.Extra})
	}
	for _, p := range r.Parts {
		switch p.Type {
		case "text":
			m.UserInputMultiContent = append(m.UserInputMultiContent, schema.MessageInputPart{Type: schema.ChatMessagePartTypeText, Text: p.Text})
		case "image":
			img := &schema.MessageInputImage{Detail: schema.ImageURLDetail(p.Detail)}
			img.MIMEType = p.MIME
			switch {
			case p.Blob != "":
				data, err := blobs.Get(p.Blob)
				if err != nil {
					m.UserInputMultiContent = append(m.UserInputMultiContent, schema.MessageInputPart{Type: schema.ChatMessagePartTypeText, Text: "[an image that is no longer kept]"})
					continue
				}
				enc := base64.StdEncoding.EncodeToString(data)
				img.Base64Data = &enc
			case p.URL != "":
				u := p.URL
				img.URL = &u
			}
			m.UserInputMultiContent = append(m.UserInputMultiContent, schema.MessageInputPart{Type: schema.ChatMessagePartTypeImageURL, Image: img})
		}
	}
	return m
}

// --- resuming -------------------------------------------------------------------

// Resumed is what Resume restored.
type Resumed struct {
	// Log is the session as it was read: the UI shows its transcript. It
	// may be Partial, its transcript the last entries (Log.Whole has all).
	Log *session.Log
	// ForkedFrom, when set, is the session another fawn is writing: this
	// one carries on from a copy of it, under a new ID.
	ForkedFrom string
	// Notes say what the user should know: a torn last line skipped, calls
	// a kill interrupted, another model than the one recorded.
	Notes []string
}

// killedResult answers the calls a stopped fawn never finished.
const killedResult = "error: not finished: fawn stopped (it was closed or killed) while this call ran; it may have run in part. Check its effects before you run it again."

// Sessions lists the project's sessions, newest first (nil without a store).
func (s *Session) Sessions() ([]session.Info, error) {
	if s.store == nil {
		return nil, nil
	}
	return s.store.List()
}

// Store is the project's session store (nil when sessions are not kept).
func (s *Session) Store() *session.Store { return s.store }

// TranscriptPath is the file the session is written to ("" until its first
// message).
func (s *Session) TranscriptPath() string { return s.rec.path() }

// Resume makes the session carry on from the stored session id (a unique
// prefix will do): its conversation, system prompt, to-dos and usage. The
// conversation in progress is closed first (it stays on disk). A session
// another fawn is writing is forked: this session carries on from a copy
// under a new ID. Calls a stopped fawn never finished get a result saying
// so. It fails while a turn runs. A long conversation is read lazily: what
// needs the history before it has been read (the next turn) waits for it.
func (s *Session) Resume(id string) (*Resumed, error) {
	if s.store == nil {
		return nil, errors.New("sessions are not kept (there is no data directory)")
	}
	s.mu.Lock()
	running := s.running
	s.mu.Unlock()
	if running {
		return nil, ErrBusy
	}
	id, err := s.store.Find(id)
	if err != nil {
		return nil, err
	}
	res := &Resumed{}
	// Lazily: what the chat shows first and the session's state at once,
	// the rest of the transcript when it is asked for (see later.go).
	l, w, err := s.store.OpenLazy(id)
	if errors.Is(err, session.ErrLocked) {
		if l, err = s.store.Load(id); err != nil {
			return nil, err
		}
		if w, err = s.store.Fork(l); err != nil {
			return nil, err
		}
		res.ForkedFrom = id
		res.Notes = append(res.Notes, fmt.Sprintf("session %s is open in another fawn: this one carries on from a copy of it, %s", id, w.ID()))
	} else if err != nil {
		return nil, err
	}
	res.Log = l
	res.Notes = append(res.Notes, l.Warnings...)

	blobs := w.Blobs()
	s.recorder().close()
	rec := &recorder{st: s.store, id: w.ID(), w: w, held: true, model: l.Model, system: l.System, systemTools: l.SystemTools, systemOut: l.System != ""}
	for _, t := range l.Todos {
		rec.todos = append(rec.todos, tools.Todo{ID: t.ID, Title: t.Title, Status: t.Status, Priority: t.Priority})
	}
	if ws := l.Workspace; ws != nil {
		b, _ := json.Marshal(*ws)
		rec.workspace = string(b)
	}
	ids := provider.NewIDSet()
	var gen, killed int
	if l.MessagesLater() {
		// The repair waits for the history too; the calls it will
		// answer are at its end, among the messages read already.
		gen = s.conv.resetLater(laterMessages(l, blobs, ids), killedResult, rec)
		killed = unanswered(l.Transcript)
	} else {
		msgs := make([]*schema.Message, len(l.Messages))
		for i, m := range l.Messages {
			msgs[i] = fromRecord(m, blobs)
			for _, tc := range m.ToolCalls {
				ids.Claim(tc.ID)
			}
		}
		gen = s.conv.reset(msgs, rec)
		if killed = len(s.conv.repair(gen, killedResult)); killed > 0 {
			rec.sync()
		}
	}
	if killed > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("%s a stopped fawn never finished %s answered as interrupted", words.Plural(killed, "call", "calls"), map[bool]string{true: "is", false: "are"}[killed == 1]))
	}
	if s.env.Todos != nil {
		s.env.Todos.Replace(rec.todos)
	}

	s.mu.Lock()
	s.id = w.ID()
	s.rec = rec
	s.ids = ids
	s.started = false
	if l.System != "" {
		s.system, s.systemTools, s.systemGen = l.System, l.SystemTools, gen
	} else {
		s.systemGen = -1
	}
	s.usage = Usage{InputTokens: l.Usage.Input, OutputTokens: l.Usage.Output, CachedTokens: l.Usage.Cached,
		ContextTokens: l.Usage.Context, Turns: l.Info.Turns, Steps: l.Usage.Steps, ToolCalls: l.Usage.Tools,
		Cost: Cost{USD: l.Usage.CostUSD, Priced: l.Usage.Priced, Unpriced: l.Usage.Unpriced}}
	if l.Usage.Steps > l.Usage.Priced+l.Usage.Unpriced {
		// Turns kept before fawn priced them: their cost is not known.
		s.usage.Cost.Unpriced += l.Usage.Steps - l.Usage.Priced - l.Usage.Unpriced
	}
	s.genTime = 0
	cur := s.client.Name()
	if s.nextModel != nil {
		cur = s.nextModel.client.Name()
	}
	s.mu.Unlock()
	if l.Model != "" && l.Model != cur {
		res.Notes = append(res.Notes, fmt.Sprintf("the session was on %s; it carries on with %s", l.Model, cur))
	}
	rec.setModel(cur)
	s.restoreNotes(l)
	return res, nil
}

// NewConversation starts a fresh session (/new): the conversation and the
// to-dos are forgotten, a new ID is taken, and the file of the one before
// is closed (it stays on disk, to resume). Usage totals start over unless
// keepUsage.
func (s *Session) NewConversation(keepUsage bool) {
	if s.env.Todos != nil {
		s.env.Todos.Replace(nil)
	}
	s.recorder().close()
	s.mu.Lock()
	s.id = session.NewID()
	s.rec = newRecorder(s.store, s.id)
	if s.rec != nil {
		s.rec.model = s.client.Name()
	}
	s.conv.reset(nil, s.rec)
	s.ids = provider.NewIDSet()
	s.started = false
	if keepUsage {
		s.usage.ContextTokens = 0
	} else {
		s.usage = Usage{}
		s.genTime = 0
	}
	s.mu.Unlock()
}

// RecordWorkspace keeps what the IDE has open (tabs with their cursors, the
// terminal's directory) in the session, for a resume to bring back. It
// writes only when something changed, and only to a session that has a
// file already.
func (s *Session) RecordWorkspace(ws session.Workspace) { s.recorder().setWorkspace(ws) }

// SaveError is why the session is not being saved, or nil when it is (or
// sessions are not kept).
func (s *Session) SaveError() error { return s.recorder().failure() }

func (s *Session) recorder() *recorder {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rec
}

// toolDone puts the result of call id into the conversation as soon as the
// call ends, so a kill loses no finished call, and syncs the transcript. The
// batch's last call gets the to-do reminder. It returns the result as the
// model receives it.
func (s *Session) toolDone(t *turn, id, name, result string) string {
	if len(t.batch) > 0 && t.batch[len(t.batch)-1].ID == id {
		result += s.todoReminder(t.batch)
	}
	s.conv.append(t.gen, schema.ToolMessage(result, id, schema.WithToolName(name)))
	if s.env != nil && s.env.Todos != nil {
		t.rec.setTodos(s.env.Todos.Items())
	}
	t.rec.sync()
	return result
}

// reset replaces the conversation (a resume, a new session) and the
// transcript it is written to, and returns its new generation: a turn
// still running adds nothing to it.
func (c *conversation) reset(msgs []*schema.Message, rec *recorder) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.msgs = msgs
	c.rec = rec
	c.later = nil
	return c.gen
}

// record writes a repaired conversation: the messages added at its end, or
// the whole of it when the repair changed what was there.
func (c *conversation) record(out []*schema.Message) {
	if c.rec == nil {
		return
	}
	n := len(c.msgs)
	if len(out) >= n {
		same := true
		for i := range n {
			if out[i] != c.msgs[i] {
				same = false
				break
			}
		}
		if same {
			c.rec.appended(n, out[n:])
			return
		}
	}
	c.rec.replaced(out)
}

// appendMissing adds the tool results of out that are not in the
// conversation yet (toolDone puts each there as its call ends).
func (c *conversation) appendMissing(gen int, out []*schema.Message) {
	c.ready()
	c.mu.Lock()
	have := map[string]bool{}
	for i := len(c.msgs) - 1; i >= 0 && c.msgs[i].Role == schema.Tool; i-- {
		have[c.msgs[i].ToolCallID] = true
	}
	c.mu.Unlock()
	var missing []*schema.Message
	for _, m := range out {
		if !have[m.ToolCallID] {
			missing = append(missing, m)
		}
	}
	c.append(gen, missing...)
}
