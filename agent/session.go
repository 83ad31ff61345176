package agent

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/agent/pool"
	"github.com/fawn-ide/fawn/agent/provider"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/hooks"
	"github.com/fawn-ide/fawn/internal/words"
	"github.com/fawn-ide/fawn/rules"
	"github.com/fawn-ide/fawn/secret"
	"github.com/fawn-ide/fawn/session"
	"github.com/fawn-ide/fawn/skills"
	"github.com/fawn-ide/fawn/subagent"
	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/trust"
)

// Options configure a Session.
type Options struct {
	// Config is the effective configuration (required): the model, the
	// permission mode, agent.max_steps.
	Config *config.Config
	// Env is what the tools share (required): its Root is the project.
	Env *tools.Env
	// Tools are the tools the model may call, in the order it is told them.
	Tools []tools.Tool
	// Interactive is true when a person can answer permission requests. In
	// a non-interactive session a call that would ask is denied, and the
	// model is told why.
	Interactive bool

	// Model, when set, replaces the provider Config describes (embedders,
	// benchmarks). Its tools are bound by NewSession.
	Model model.ToolCallingChatModel
	// HTTPClient carries the provider's requests (nil: a default client).
	// Its transport is wrapped to read the status and Retry-After of errors.
	HTTPClient *http.Client
	// RetryBaseDelay is the first wait before retrying a failed request
	// (default models.retry_delay); it doubles with every attempt.
	RetryBaseDelay time.Duration
	// DemoChunkDelay is the pause between the demo model's chunks (default
	// 12ms, so it reads like a model typing; negative: none).
	DemoChunkDelay time.Duration
	// Store keeps the session on disk as it happens (nil: it is not kept).
	Store *session.Store
	// SaveRule keeps a rule the user gave in the permission dialog
	// ("always") for later sessions and says where (nil: session only).
	SaveRule func(effect, rule string) (where string, err error)
	// Skills are named, with what each is for, in the system prompt (the
	// skill tool, among Tools, loads them).
	Skills []skills.Skill
	// Subagents, when not empty, are offered through the task tool.
	Subagents []subagent.Def
	// AskUser offers the ask_user tool (headless it answers that nobody
	// can) and exit_plan, the end of plan mode (headless the plan is the
	// run's answer).
	AskUser bool
	// HookEnv is the environment hooks run in (nil: fawn's own without
	// shell.unset_env, as the agent's shell has it).
	HookEnv []string
	// Trust is the project's trust for this run (nil: not trusted). In a
	// project that is not trusted the system prompt's git state comes from
	// .git's files alone: the branch, and no status (git status could read
	// files through filters the user's git config names).
	Trust *trust.Decision
	// Redactor hides the secrets fawn knows in every error the session
	// shows or records (nil: the keys of Config, and what looks like a
	// key).
	Redactor *secret.Redactor
	// Sandboxed says whether the shared shell is confined by the OS
	// sandbox right now (nil: never). While it is, the commands the bash
	// tool types there run without asking, unless a rule asks or denies:
	// the sandbox, not a dialog, bounds what they can do.
	Sandboxed func() bool
	// Pools, when set, are the request slots of another session to share
	// (the tasks of one project): their `parallel` caps hold across all of
	// them. nil: the session's own, from Config.
	Pools *pool.Set
}

// Session is one conversation with the agent: its history, usage, mode and
// permission grants. It implements backend.Agent. One turn runs at a time.
type Session struct {
	id          string
	cfg         *config.Config
	env         *tools.Env
	tools       []tools.Tool
	toolByName  map[string]tools.Tool
	names       []string
	interactive bool
	sandboxed   func() bool // Options.Sandboxed
	// trusted is Options.Trust.Trusted(): git may read the project's files.
	trusted bool

	chat model.ToolCallingChatModel
	// client is the model in use, before the tools are bound to it; its
	// Provider is "custom" for Options.Model.
	client       provider.Client
	modelCfg     config.Model  // the model in use; SetModel changes it
	nextModel    *modelSwitch  // set by SetModel, taken up at the next request
	demoDelay    time.Duration // Options.DemoChunkDelay, for a switch to the demo
	maxTokens    int
	timeout      time.Duration
	stallTimeout time.Duration
	retryBase    time.Duration
	maxSteps     int
	demoNote     string
	httpClient   *http.Client
	// pools are the request slots and failover state of every configured
	// endpoint, shared with the subagents; ep is the entry in use.
	pools *pool.Set
	ep    endpoint
	// redact hides secrets in the errors the session reports: a server
	// may echo the key it was sent.
	redact *secret.Redactor

	runner compose.Runnable[[]*schema.Message, *schema.Message]
	conv   *conversation
	store  *session.Store
	ids    *provider.IDSet
	ap     *approver
	rules  *rules.Set // permission rules, checked before the mode
	hooks  *hooks.Runner
	skills []skills.Skill
	// subagents are the task tool's agents; subs the running ones, by task
	// call ID. A subagent's own Session has parent set: the mode, rules
	// and grants are its parent's. viewOnly refuses its text_editor edits.
	subagents []subagent.Def
	subs      map[string]*Session
	// taskSlots bounds how many subagents run at once (maxParallelTasks).
	taskSlots chan struct{}
	parent    *Session
	viewOnly  bool
	// saveRule is Options.SaveRule.
	saveRule func(effect, rule string) (string, error)
	// started is false until the conversation's first turn has run the
	// SessionStart hooks.
	started bool

	wg sync.WaitGroup // the running turn

	mu         sync.Mutex
	mode       Mode
	running    bool
	cancelTurn context.CancelFunc
	system     string
	systemGen  int // conversation generation the system prompt was built for (-1: none)
	// systemTools are the tools the system prompt names: it is rebuilt only
	// when a tool it does not name is added, so a resumed session's prompt
	// stays the same bytes and a server's prompt cache still holds.
	systemTools []string
	rec         *recorder // the transcript (nil when sessions are not kept)
	cps         *checkpoints

	pending []tools.Tool // added by AddTools, bound at the next turn's start
	noted   bool
	usage   Usage
	genTime time.Duration // session total of model streaming time
	// toolChars is the size of the bound tools' schemas (counted on first
	// use: not on the way to the first frame); tokensPerChar what a
	// character of request cost at the server's last report.
	toolChars     *schemaChars
	tokensPerChar float64
	// bg are the hooks of the work done beside the turns (background.go).
	bg bgHooks
}

// NewSession builds a session: the provider, the graph, the permission
// state. It does no I/O beyond constructing the provider, so it is instant;
// the system prompt (which runs git) is built at the first turn.
func NewSession(ctx context.Context, o Options) (*Session, error) {
	if o.Config == nil {
		return nil, errors.New("agent: Options.Config is required")
	}
	if o.Env == nil {
		return nil, errors.New("agent: Options.Env is required")
	}
	cfg := o.Config
	s := &Session{
		id:           session.NewID(),
		cfg:          cfg,
		store:        o.Store,
		env:          o.Env,
		interactive:  o.Interactive,
		sandboxed:    o.Sandboxed,
		trusted:      o.Trust.Trusted(),
		toolByName:   map[string]tools.Tool{},
		conv:         &conversation{},
		ids:          provider.NewIDSet(),
		ap:           newApprover(),
		systemGen:    -1,
		retryBase:    o.RetryBaseDelay,
		maxSteps:     cfg.Agent.MaxSteps,
		timeout:      cfg.Models.Chat.Timeout,
		stallTimeout: cfg.Models.Chat.StallTimeout,
		maxTokens:    cfg.Models.Chat.MaxTokens,
		modelCfg:     cfg.Models.Chat,
		demoDelay:    o.DemoChunkDelay,
		redact:       o.Redactor,
	}
	if s.redact == nil {
		s.redact = secret.NewRedactor(configKeys(cfg)...)
	}
	if s.retryBase <= 0 {
		s.retryBase = cfg.Models.RetryDelay
	}
	if s.retryBase <= 0 {
		s.retryBase = time.Second
	}
	if s.maxSteps <= 0 {
		s.maxSteps = 100
	}
	if s.stallTimeout <= 0 {
		s.stallTimeout = 90 * time.Second
	}
	mode, err := ParseMode(cfg.Permissions.Mode)
	if err != nil {
		return nil, fmt.Errorf("agent: permissions.mode: %w", err)
	}
	s.mode = mode
	if s.rules, err = newRules(cfg.Permissions); err != nil {
		return nil, fmt.Errorf("agent: permissions: %w", err)
	}
	s.saveRule = o.SaveRule
	// The tools that search and list leave out what the read deny rules
	// forbid, by the check text_editor view meets in permit.
	o.Env.ReadDenied = s.readDenied
	s.skills = o.Skills
	if s.hooks, err = newHooks(cfg, o.Env.Root, o.HookEnv); err != nil {
		return nil, fmt.Errorf("agent: hooks: %w", err)
	}

	s.subagents = o.Subagents
	ts := append([]tools.Tool(nil), o.Tools...)
	if o.AskUser {
		ts = append(ts, &askTool{s: s}, s.exitPlan())
	}
	if len(o.Subagents) > 0 {
		s.taskSlots = make(chan struct{}, maxParallelTasks)
		ts = append(ts, &taskTool{s: s, defs: o.Subagents})
	}
	for _, tl := range ts {
		name := tl.Name()
		if _, dup := s.toolByName[name]; dup {
			return nil, fmt.Errorf("agent: two tools are named %q", name)
		}
		s.toolByName[name] = tl
		s.tools = append(s.tools, tl)
		s.names = append(s.names, name)
	}

	s.httpClient = provider.HTTPClient(o.HTTPClient)
	if s.pools = o.Pools; s.pools == nil {
		if s.pools, err = pool.New(cfg.Models); err != nil {
			return nil, fmt.Errorf("agent: %w", err)
		}
	}
	s.ep.entry = pool.Default
	if o.Model == nil {
		if s.client, err = provider.New(ctx, cfg.Models.Chat, s.providerOptions()); err != nil {
			return nil, err
		}
		s.demoNote = s.client.Note
	} else {
		s.client = provider.Client{Chat: o.Model, Provider: "custom", Model: cfg.Models.Chat.Model}
	}
	s.client = s.pooled(s.client, pool.Default)
	if err := s.bind(ctx, s.tools); err != nil {
		return nil, err
	}
	s.rec = newRecorder(s.store, s.id)
	if s.rec != nil {
		s.rec.model = s.client.Name()
	}
	s.conv.rec = s.rec
	if s.store != nil && s.env.Changes == nil {
		s.cps = &checkpoints{s: s}
		s.env.Changes = s.cps
	}
	return s, nil
}

// bind binds ts to the model and compiles the graph over them.
func (s *Session) bind(ctx context.Context, ts []tools.Tool) error {
	chat := s.client.Chat
	if len(ts) > 0 {
		infos := make([]*schema.ToolInfo, 0, len(ts))
		for _, tl := range ts {
			info, err := tl.Info(ctx)
			if err != nil {
				return fmt.Errorf("agent: tool %s: %w", tl.Name(), err)
			}
			infos = append(infos, info)
		}
		s.toolChars = &schemaChars{infos: infos}
		var err error
		if chat, err = chat.WithTools(infos); err != nil {
			return fmt.Errorf("agent: binding the tools to the model: %w", err)
		}
	}
	s.chat = chat
	runner, err := s.buildGraph(ctx)
	if err != nil {
		return fmt.Errorf("agent: building the graph: %w", err)
	}
	s.runner = runner
	return nil
}

// AddTools makes more tools callable from the next turn on: the tools of MCP
// servers that finished starting after the session did, so the IDE never
// waits for them. A name already in use is refused.
func (s *Session) AddTools(ts ...tools.Tool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, tl := range ts {
		name := tl.Name()
		if _, dup := s.toolByName[name]; dup {
			return fmt.Errorf("agent: two tools are named %q", name)
		}
		for _, p := range s.pending {
			if p.Name() == name {
				return fmt.Errorf("agent: two tools are named %q", name)
			}
		}
	}
	s.pending = append(s.pending, ts...)
	return nil
}

// adoptPending binds the tools AddTools queued. It runs at the start of a
// turn, on the turn's goroutine, so no graph is running while it swaps.
func (s *Session) adoptPending(ctx context.Context) error {
	s.mu.Lock()
	pend := s.pending
	s.pending = nil
	s.mu.Unlock()
	if len(pend) == 0 {
		return nil
	}
	old := s.tools
	s.tools = append(append([]tools.Tool(nil), old...), pend...)
	if err := s.bind(ctx, s.tools); err != nil {
		s.tools = old
		return err
	}
	s.mu.Lock()
	for _, tl := range pend {
		s.toolByName[tl.Name()] = tl
		s.names = append(s.names, tl.Name())
	}
	s.mu.Unlock()
	return nil
}

// ParseMode checks a permission mode name ("" is ask).
func ParseMode(name string) (Mode, error) {
	if name == "" {
		return ModeAsk, nil
	}
	if slices.Contains(Modes, Mode(name)) {
		return Mode(name), nil
	}
	var names []string
	for _, m := range Modes {
		names = append(names, string(m))
	}
	return "", fmt.Errorf("%q is not a mode: want one of %s", name, strings.Join(names, ", "))
}

// ID identifies the session: its transcript's name, headless json output's
// session_id, what --resume takes.
func (s *Session) ID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.id
}

// Run starts a turn. Its events arrive in order on the returned channel; the
// last is EventTurnEnded, then the channel is closed. The caller must read
// the channel to its end. Cancelling ctx ends the turn promptly: streaming
// stops, a running tool is cancelled, and the history stays consistent.
func (s *Session) Run(ctx context.Context, prompt string) <-chan Event {
	return s.RunInput(ctx, Input{Text: prompt})
}

// RunInput is Run with images (and whatever else a message may carry).
func (s *Session) RunInput(ctx context.Context, in Input) <-chan Event {
	prompt := in.Text
	out := make(chan Event, 64)
	q := newQueue(out)
	go q.forward()

	s.mu.Lock()
	if s.running {
		s.mu.Unlock()
		q.push(Event{Type: EventTurnStarted, Text: prompt})
		q.push(Event{Type: EventError, Err: ErrBusy})
		q.push(Event{Type: EventTurnEnded, Err: ErrBusy, Usage: &Usage{}, SessionUsage: ptr(s.Usage())})
		q.close()
		return out
	}
	ctx, cancel := context.WithCancel(ctx)
	s.running = true
	s.cancelTurn = cancel
	s.wg.Add(1)
	s.mu.Unlock()

	go func() {
		defer s.wg.Done()
		defer cancel()
		s.runTurn(ctx, in, q)
	}()
	return out
}

func (s *Session) runTurn(ctx context.Context, in Input, q *queue) {
	prompt := in.Text
	s.mu.Lock()
	rec := s.rec
	s.mu.Unlock()
	t := &turn{q: q, start: time.Now(), gen: s.conv.generation(), rec: rec, redact: s.redact}
	defer func() {
		s.mu.Lock()
		s.running = false
		s.cancelTurn = nil
		s.mu.Unlock()
		q.close()
	}()
	t.emit(Event{Type: EventTurnStarted, Text: prompt})

	var turnErr error
	if strings.TrimSpace(prompt) == "" && len(in.Images) == 0 {
		turnErr = errors.New("nothing to do: the message is empty")
	} else if err := s.checkImages(in); err != nil {
		turnErr = err
	} else {
		if note := s.firstNote(); note != "" {
			t.emit(Event{Type: EventInfo, Text: note})
		}
		if err := s.adoptPending(ctx); err != nil {
			t.emit(Event{Type: EventError, Err: err})
		}
		s.ensureSystem(t.gen)
		var extra []string
		if !s.started {
			s.started = true
			if c := hookContext(s.runHooks(ctx, t, "SessionStart", "", "", hooks.Input{})); c != "" {
				extra = append(extra, c)
			}
		}
		res := s.runHooks(ctx, t, "UserPromptSubmit", "", "", hooks.Input{Prompt: prompt})
		if why := blockedBy(res); why != "" {
			turnErr = errors.New("a UserPromptSubmit hook blocked the prompt, so it was not sent: " + why)
		} else {
			if c := hookContext(res); c != "" {
				extra = append(extra, c)
			}
			typed := in.Typed
			if typed == "" {
				typed = in.Text
			}
			if len(extra) > 0 {
				in.Text += "\n\n[fawn: the user's hooks add this context]\n" + strings.Join(extra, "\n")
			}
			s.beginCheckpoint(typed)
			t.input = in.message()
			if typed != in.Text {
				t.input.Extra = map[string]any{typedKey: typed}
			}
			invoke := func(m *schema.Message) error {
				_, err := s.runner.Invoke(withTurn(ctx, t), []*schema.Message{m},
					compose.WithRuntimeMaxSteps(2*s.maxSteps+10))
				return err
			}
			err := invoke(t.input)
			if err == nil && ctx.Err() == nil && t.err == nil && !t.limitHit {
				err = s.stopHooks(ctx, t, invoke)
			}
			turnErr = s.settle(ctx, t, err)
		}
	}
	turnErr = s.redact.Error(turnErr) // it is recorded below, not only shown
	if turnErr != nil && !errors.Is(turnErr, ErrCancelled) {
		t.emit(Event{Type: EventError, Err: turnErr})
	}

	u := t.usage
	if u.ContextTokens == 0 && t.steps > 0 {
		// The server said nothing of the prompt's size: estimate it.
		u.ContextTokens, u.ContextEstimated = s.estimate(s.requestNow(s.conv)), true
	}
	u.Duration = time.Since(t.start)
	u.Turns = 1
	u.Steps = t.steps + t.subSteps
	u.ToolCalls = t.toolCalls + t.subCalls
	if t.genTime > 0 {
		u.TokensPerSecond = float64(u.OutputTokens) / t.genTime.Seconds()
	}
	s.mu.Lock()
	su := &s.usage
	su.InputTokens += u.InputTokens
	su.OutputTokens += u.OutputTokens
	su.CachedTokens += u.CachedTokens
	su.CacheWriteTokens += u.CacheWriteTokens
	su.Cost.Add(u.Cost)
	if u.ContextTokens > 0 {
		su.ContextTokens, su.ContextEstimated = u.ContextTokens, u.ContextEstimated
	}
	su.Duration += u.Duration
	su.Turns++
	su.Steps += u.Steps
	su.ToolCalls += u.ToolCalls
	s.genTime += t.genTime
	if s.genTime > 0 {
		su.TokensPerSecond = float64(su.OutputTokens) / s.genTime.Seconds()
	}
	total := *su
	s.mu.Unlock()
	if rec.failure() != nil && rec.resume(s.conv.snapshot()) {
		t.emit(Event{Type: EventInfo, Text: "the session is being saved again, with all of the conversation (" + rec.path() + ")"})
	}
	if s.env.Todos != nil {
		rec.setTodos(s.env.Todos.Items())
	}
	rec.turnEnded(u, turnErr)
	if err := rec.takeError(); err != nil {
		t.emit(Event{Type: EventError, Err: err})
	}
	if s.parent == nil {
		s.turnEnded(turnErr)
	}
	end := Event{Type: EventTurnEnded, Usage: &u, SessionUsage: &total, Duration: u.Duration, Err: turnErr}
	if t.cutOff {
		end.CutOff = "max_tokens"
	}
	t.emit(end)
}

// settle brings the history to a state the next turn can build on, ends the
// calls that will never run, and says how the turn ended.
func (s *Session) settle(ctx context.Context, t *turn, runErr error) error {
	cancelled := ctx.Err() != nil
	if t.partial != nil {
		s.conv.append(t.gen, t.partial)
	}
	var turnErr error
	switch {
	case cancelled:
		turnErr = ErrCancelled
	case t.err != nil:
		turnErr = t.err
	case t.limitHit:
		turnErr = &StepLimitError{Steps: s.maxSteps}
	case runErr != nil:
		turnErr = fmt.Errorf("the agent stopped: %v", runErr)
	}
	result := cancelledResult
	if !cancelled && turnErr != nil {
		result = "error: not run: the turn ended before this call (" + words.Clip(turnErr.Error(), 200) + ")"
	}
	for _, tc := range s.conv.repair(t.gen, result) {
		t.toolCalls++
		t.emit(Event{Type: EventToolRunEnded, ID: tc.ID, Name: tc.Function.Name, Result: result, IsError: true})
	}
	return turnErr
}

// StepLimitError ends a turn whose model asked for more steps (model
// round-trips) than agent.max_steps (fawn -p --max-turns) allows.
type StepLimitError struct{ Steps int }

func (e *StepLimitError) Error() string {
	return fmt.Sprintf("stopped after %d model steps (agent.max_steps); send \"continue\" to let the agent go on", e.Steps)
}

// Pools are the session's request slots, for another session to share
// (Options.Pools).
func (s *Session) Pools() *pool.Set { return s.pools }

// Close cancels the running turn, if any, waits for it to end, and releases
// the session's idle connections.
func (s *Session) Close() {
	s.mu.Lock()
	cancel := s.cancelTurn
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	s.wg.Wait()
	s.bg.close()
	s.recorder().close()
	s.httpClient.CloseIdleConnections()
}

// Approve answers the permission request of tool call id; the first answer
// wins, later ones are ignored.
func (s *Session) Approve(id string, a Answer) {
	if s.ap.answer(id, a) {
		return
	}
	if task, rest, ok := strings.Cut(id, "/"); ok {
		if sub := s.sub(task); sub != nil {
			sub.Approve(rest, a)
		}
	}
}

// Subagents are the agents the task tool offers (/agents).
func (s *Session) Subagents() []subagent.Def { return s.subagents }

// Mode is the current permission mode.
func (s *Session) Mode() Mode {
	if s.parent != nil {
		return s.parent.Mode()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mode
}

// SetMode changes the permission mode; it applies from the next tool call
// on. An unknown mode is ignored.
func (s *Session) SetMode(m Mode) {
	if _, err := ParseMode(string(m)); err != nil || m == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mode = m
}

// ModelName is "provider/model", e.g. "openai/gpt-4o" or "demo/fawn-demo":
// the model in use, or the one SetModel switched to.
func (s *Session) ModelName() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n := s.nextModel; n != nil {
		return n.client.Name()
	}
	return s.client.Name()
}

// Clear forgets the conversation and the to-do list (/clear): a new
// session starts, the one before stays on disk. Session grants and usage
// totals stay. A turn still running keeps going but adds nothing to the new
// conversation.
func (s *Session) Clear() { s.NewConversation(true) }

// Todos is the agent's to-do list.
func (s *Session) Todos() []tools.Todo {
	if s.env.Todos == nil {
		return nil
	}
	return s.env.Todos.Items()
}

// Usage is the session's usage so far.
func (s *Session) Usage() Usage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.usage
}

// ToolNames lists the tools the model can call.
func (s *Session) ToolNames() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.names...)
}

// History returns a copy of the conversation (without the system prompt).
func (s *Session) History() []*schema.Message { return s.conv.snapshot() }

// firstNote is the notice of the session's first turn: why fawn runs on the
// demo model, when it fell back to it. Only headless sessions need it: the IDE
// says so in the chat as it opens.
func (s *Session) firstNote() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.noted || s.interactive {
		return ""
	}
	s.noted = true
	return s.demoNote
}

// ensureSystem builds the system prompt at the first turn of a
// conversation, and again only when a tool it does not name was added: the
// same bytes turn after turn (and after a resume) keep a server's prompt
// cache warm.
func (s *Session) ensureSystem(gen int) {
	s.mu.Lock()
	ok := s.systemGen == gen
	for _, n := range s.names {
		ok = ok && slices.Contains(s.systemTools, n)
	}
	rec := s.rec
	s.mu.Unlock()
	if !ok {
		p := buildSystemPrompt(s.promptData())
		s.mu.Lock()
		s.system, s.systemGen = p, gen
		s.systemTools = append([]string(nil), s.names...)
		s.mu.Unlock()
	}
	s.mu.Lock()
	p, names := s.system, s.systemTools
	s.mu.Unlock()
	rec.setSystem(p, names)
}

func (s *Session) systemPrompt() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.system
}

// baseURL is the model server's URL as messages show it: without its
// password.
func (s *Session) baseURL() string {
	if s.client.BaseURL == "" {
		return "(default)"
	}
	return secret.URL(s.client.BaseURL)
}

// configKeys are the model keys of cfg, for a session no one gave a
// Redactor.
func configKeys(cfg *config.Config) []string {
	keys := []string{cfg.Models.Chat.APIKey}
	for _, m := range cfg.Models.Named {
		keys = append(keys, m.APIKey)
	}
	return keys
}

func ptr[T any](v T) *T { return &v }
