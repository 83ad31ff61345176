package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/agent/provider"
	"github.com/fawn-ide/fawn/internal/words"
	"github.com/fawn-ide/fawn/subagent"
	"github.com/fawn-ide/fawn/tools"
)

// A subagent runs a task the main agent hands it (the task tool) in a
// Session of its own: its own conversation, system prompt (the definition's
// body), tools (the definition's allow-list, never task or todo_write) and
// step count. It shares everything the user sees and decides with the main
// agent: the project, the editor tabs and the one terminal (its commands
// queue for the shell like any other), the permission mode, rules, grants
// and hooks, and the one-question-at-a-time permission dialog, which names
// the agent that asks. Its events reach the main turn's stream with their
// IDs made "<task call ID>/<call ID>" and Agent set, so the IDE routes them
// like the main agent's; its words stream into the task's card. Esc
// cancels the whole tree: the subagent runs under the task call's context.

// SubagentUsage is sent, as the Data of an EventToolUpdate of the task
// call, when a subagent finishes: what it spent.
type SubagentUsage struct {
	Agent string
	Usage Usage
}

type taskTool struct {
	s    *Session
	defs []subagent.Def
}

func (t *taskTool) Name() string { return "task" }

func (t *taskTool) usable() []subagent.Def {
	var out []subagent.Def
	for _, d := range t.defs {
		if d.Err == nil {
			out = append(out, d)
		}
	}
	return out
}

func (t *taskTool) Info(context.Context) (*schema.ToolInfo, error) {
	var b strings.Builder
	b.WriteString("Hand a self-contained task to a subagent, which works on it in its own context with its own tools and returns its final answer as this call's result. " +
		"Use it for a search or a piece of work whose details you do not need to keep in your own context, or to do independent tasks at once: several task calls in one response run in parallel. " +
		"The subagent knows nothing of this conversation: the prompt must say everything it needs (the goal, the files, what to report). " +
		"It cannot call task or todo_write. The agents:")
	var names []string
	for _, d := range t.usable() {
		fmt.Fprintf(&b, "\n- %s: %s", d.Name, d.Description)
		names = append(names, d.Name)
	}
	return &schema.ToolInfo{
		Name: "task",
		Desc: b.String(),
		ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{
			"description":   {Type: schema.String, Required: true, Desc: "A short (3-6 words) description of the task, shown to the user."},
			"prompt":        {Type: schema.String, Required: true, Desc: "The task, in full: everything the subagent needs to know."},
			"subagent_type": {Type: schema.String, Enum: names, Desc: "Which agent does it (default general)."},
		}),
	}, nil
}

type taskArgs struct {
	Description  string `json:"description"`
	Prompt       string `json:"prompt"`
	SubagentType string `json:"subagent_type"`
}

func (t *taskTool) decode(argsJSON string) (taskArgs, subagent.Def, error) {
	var a taskArgs
	if err := json.Unmarshal([]byte(argsJSON), &a); err != nil {
		return a, subagent.Def{}, fmt.Errorf("the arguments of task do not decode: %v", err)
	}
	if strings.TrimSpace(a.Prompt) == "" {
		return a, subagent.Def{}, fmt.Errorf("task needs a prompt: the whole task, for an agent that knows nothing of this conversation")
	}
	if a.SubagentType == "" {
		a.SubagentType = subagent.General.Name
	}
	var names []string
	for _, d := range t.defs {
		if d.Name == a.SubagentType {
			if d.Err != nil {
				return a, d, fmt.Errorf("the agent %s cannot be used: %v", d.Name, d.Err)
			}
			return a, d, nil
		}
		if d.Err == nil {
			names = append(names, d.Name)
		}
	}
	return a, subagent.Def{}, fmt.Errorf("there is no agent named %q; the agents are: %s", a.SubagentType, strings.Join(names, ", "))
}

// Plan reads: handing over a task changes nothing; the subagent's own
// calls ask for themselves.
func (t *taskTool) Plan(_ context.Context, argsJSON string) (tools.Action, error) {
	a, d, err := t.decode(argsJSON)
	if err != nil {
		return tools.Action{}, err
	}
	what := a.Description
	if what == "" {
		what = words.Clip(a.Prompt, 60)
	}
	return tools.Action{Kind: tools.KindRead, Summary: d.Name + ": " + what}, nil
}

func (t *taskTool) InvokableRun(ctx context.Context, argsJSON string, _ ...tool.Option) (string, error) {
	a, d, err := t.decode(argsJSON)
	if err != nil {
		return "", err
	}
	return t.s.runTask(ctx, compose.GetToolCallID(ctx), d, a.Prompt)
}

// maxParallelTasks is how many subagents run at once; further task calls
// of the same response wait for a slot (a model asking for fifty must not
// open fifty streams at once).
const maxParallelTasks = 4

// runTask runs a subagent on prompt and returns its answer.
func (s *Session) runTask(ctx context.Context, callID string, d subagent.Def, prompt string) (string, error) {
	parent := turnOf(ctx)
	if s.taskSlots != nil {
		select {
		case s.taskSlots <- struct{}{}:
			defer func() { <-s.taskSlots }()
		case <-ctx.Done():
			return cancelledResult, nil
		}
	}
	sub, note, err := s.newSub(ctx, d)
	if err != nil {
		return "", err
	}
	if note != "" {
		parent.emit(Event{Type: EventInfo, Text: note})
	}
	s.mu.Lock()
	if s.subs == nil {
		s.subs = map[string]*Session{}
	}
	s.subs[callID] = sub
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.subs, callID)
		s.mu.Unlock()
		sub.httpClient.CloseIdleConnections()
	}()

	relay := func(ev Event) { s.relay(parent, callID, d.Name, ev) }
	t := &turn{relay: relay, start: time.Now(), gen: sub.conv.generation(), redact: sub.redact}
	t.input = schema.UserMessage(prompt)
	_, runErr := sub.runner.Invoke(withTurn(ctx, t), []*schema.Message{t.input},
		compose.WithRuntimeMaxSteps(2*sub.maxSteps+10))
	turnErr := sub.settle(ctx, t, runErr)

	u := t.usage
	u.Duration, u.Turns, u.Steps, u.ToolCalls = time.Since(t.start), 1, t.steps, t.toolCalls
	parent.addUsage(u, t.genTime)
	parent.emit(Event{Type: EventToolUpdate, ID: callID, Name: "task", Data: SubagentUsage{Agent: d.Name, Usage: u}})

	answer := strings.TrimSpace(t.lastText)
	switch {
	case ctx.Err() != nil:
		return cancelledResult, nil
	case turnErr != nil:
		res := fmt.Sprintf("error: the %s agent did not finish: %v.", d.Name, turnErr)
		if answer != "" {
			res += "\nWhat it said last:\n" + answer
		}
		return res, nil
	case answer == "":
		return fmt.Sprintf("The %s agent finished without a final answer (it made %d tool calls).", d.Name, t.toolCalls), nil
	}
	return answer, nil
}

// relay passes an event of a subagent's turn on to the main turn.
func (s *Session) relay(parent *turn, callID, agent string, ev Event) {
	switch ev.Type {
	case EventTurnStarted, EventTurnEnded, EventReasoning:
		return
	case EventText:
		// The subagent's words stream into the task's card.
		parent.emit(Event{Type: EventToolOutput, ID: callID, Text: ev.Text, Data: tools.Output{Text: ev.Text}})
		return
	case EventRetry:
		if ev.Retry != nil {
			parent.emit(Event{Type: EventInfo, Text: agent + " agent: " + ev.Retry.Line(ev.Retry.Wait.Round(time.Millisecond).String())})
		}
		return
	case EventCompacting, EventCompacted:
		if ev.Type == EventCompacted {
			parent.emit(Event{Type: EventInfo, Text: agent + " agent: its conversation was compacted"})
		}
		return
	case EventError:
		if ev.Err != nil {
			ev.Err = fmt.Errorf("%s agent: %w", agent, ev.Err)
		}
		parent.emit(ev)
		return
	case EventInfo:
		ev.Text = agent + " agent: " + ev.Text
		parent.emit(ev)
		return
	}
	if ev.ID == "" {
		parent.emit(ev)
		return
	}
	ev.ID = callID + "/" + ev.ID
	ev.Agent, ev.Parent = agent, callID
	if ev.Permission != nil {
		p := *ev.Permission
		p.ID, p.Agent = ev.ID, agent
		ev.Permission = &p
	}
	parent.emit(ev)
}

// newSub builds the session of a subagent.
func (s *Session) newSub(ctx context.Context, d subagent.Def) (*Session, string, error) {
	s.mu.Lock()
	client, mc, entry := s.client, s.modelCfg, s.ep.entry
	all := append([]tools.Tool(nil), s.tools...)
	s.mu.Unlock()
	var note string
	inherit := d.Model == "" || d.Model == "inherit"
	if inherit {
		// With models.background, a subagent's requests go to the first
		// free of those entries and chat_model.
		cl, spreadCfg, ok, err := s.spread(ctx)
		if err != nil {
			return nil, "", err
		}
		if ok {
			client, mc, entry = cl, spreadCfg, ""
		}
	} else {
		found := false
		for _, c := range s.ConfiguredModels() {
			if c.Name != d.Model {
				continue
			}
			found = true
			cl, err := provider.New(ctx, c.Config, s.providerOptions())
			if err != nil {
				note = fmt.Sprintf("the %s agent's model %q cannot be used (%v); it runs on the session's model", d.Name, d.Model, err)
				break
			}
			client, mc, entry = s.pooled(cl, c.Name), c.Config, c.Name
		}
		if !found {
			note = fmt.Sprintf("the %s agent asks for the model %q, which is not in your configuration (models.named); it runs on the session's model", d.Name, d.Model)
		}
	}
	maxSteps := s.cfg.Agent.SubagentMaxSteps
	if maxSteps <= 0 {
		maxSteps = 50
	}
	sub := &Session{
		id:           s.ID(),
		cfg:          s.cfg,
		env:          s.env,
		interactive:  s.interactive,
		trusted:      s.trusted,
		toolByName:   map[string]tools.Tool{},
		conv:         &conversation{},
		ids:          provider.NewIDSet(),
		ap:           s.ap.child(),
		parent:       s,
		hooks:        s.hooks,
		saveRule:     s.saveRule,
		viewOnly:     d.ViewOnly(),
		retryBase:    s.retryBase,
		maxSteps:     maxSteps,
		timeout:      mc.Timeout,
		stallTimeout: mc.StallTimeout,
		maxTokens:    mc.MaxTokens,
		modelCfg:     mc,
		demoDelay:    s.demoDelay,
		client:       client,
		httpClient:   s.httpClient,
		pools:        s.pools,
		ep:           endpoint{entry: entry},
		started:      true,
		redact:       s.redact,
	}
	if sub.stallTimeout <= 0 {
		sub.stallTimeout = 90 * time.Second
	}
	for _, tl := range all {
		if d.Allows(tl.Name()) && tl.Name() != tools.ExitPlanName { // the main agent's plan is the user's to approve
			sub.tools = append(sub.tools, tl)
			sub.toolByName[tl.Name()] = tl
			sub.names = append(sub.names, tl.Name())
		}
	}
	if err := sub.bind(ctx, sub.tools); err != nil {
		return nil, "", err
	}
	sub.system = subSystemPrompt(d, s.env.Root, sub.names)
	sub.systemGen = sub.conv.generation()
	sub.systemTools = sub.names
	return sub, note, nil
}

func subSystemPrompt(d subagent.Def, root string, names []string) string {
	return fmt.Sprintf("%s\n\n# Environment\n- Project root: %s (relative paths are relative to it)\n- Today's date: %s\n- Your tools: %s\n- You are the %s subagent: your final answer goes back to the main agent, not to the user.",
		strings.TrimSpace(d.Prompt), root, time.Now().Format("2006-01-02"), strings.Join(names, ", "), d.Name)
}

// addUsage adds a subagent's spending to the turn that ran it (the
// session's total then includes it; the context in use is the turn's own).
func (t *turn) addUsage(u Usage, gen time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.usage.InputTokens += u.InputTokens
	t.usage.OutputTokens += u.OutputTokens
	t.usage.CachedTokens += u.CachedTokens
	t.usage.CacheWriteTokens += u.CacheWriteTokens
	t.usage.Cost.Add(u.Cost)
	t.subSteps += u.Steps
	t.subCalls += u.ToolCalls
	t.genTime += gen
}

// sub is the running subagent of task call id.
func (s *Session) sub(id string) *Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.subs[id]
}
