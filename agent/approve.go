package agent

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/rules"
	"github.com/fawn-ide/fawn/tools"
)

// approver asks the user about tool calls: one question at a time, keyed by
// tool-call ID, cancelled with the turn, and the first answer wins. It also
// remembers the session's grants.
type approver struct {
	turnSlot chan struct{} // one question at a time

	mu      sync.Mutex
	pending map[string]chan Answer // call ID → where its answer goes
	grants  map[grant]bool
	// root, for a subagent's approver, is the main agent's: the grants are
	// one for the whole tree.
	root *approver
}

// child is the approver of a subagent: its own pending questions, the
// main agent's grants, and the same one-question-at-a-time slot.
func (ap *approver) child() *approver {
	root := ap
	if ap.root != nil {
		root = ap.root
	}
	return &approver{turnSlot: ap.turnSlot, pending: map[string]chan Answer{}, root: root}
}

// grant is what "allow for the session" allowed: for bash an exact command,
// for an edit one file, for a fetch one domain, for any other tool the
// tool itself.
type grant struct {
	tool, command, path, domain string
}

func newApprover() *approver {
	return &approver{
		turnSlot: make(chan struct{}, 1),
		pending:  map[string]chan Answer{},
		grants:   map[grant]bool{},
	}
}

func grantFor(tool string, a tools.Action) grant {
	switch a.Kind {
	case tools.KindEdit:
		return grant{tool: tool, path: a.Path}
	case tools.KindExec:
		return grant{tool: tool, command: a.Command}
	case tools.KindFetch:
		// web_fetch: one domain; web_search (no domain): its backend.
		return grant{tool: tool, domain: a.Domain}
	}
	return grant{tool: tool}
}

func (ap *approver) granted(g grant) bool {
	if ap.root != nil {
		return ap.root.granted(g)
	}
	ap.mu.Lock()
	defer ap.mu.Unlock()
	return ap.grants[g]
}

func (ap *approver) allow(g grant) {
	if ap.root != nil {
		ap.root.allow(g)
		return
	}
	ap.mu.Lock()
	defer ap.mu.Unlock()
	ap.grants[g] = true
}

// ask publishes the request through asked (once it can be answered) and
// waits for the answer or the end of ctx.
func (ap *approver) ask(ctx context.Context, req PermissionRequest, asked func()) (Answer, error) {
	select {
	case ap.turnSlot <- struct{}{}:
	case <-ctx.Done():
		return Answer{}, ctx.Err()
	}
	defer func() { <-ap.turnSlot }()

	ch := make(chan Answer, 1)
	ap.mu.Lock()
	ap.pending[req.ID] = ch
	ap.mu.Unlock()
	defer func() {
		ap.mu.Lock()
		delete(ap.pending, req.ID)
		ap.mu.Unlock()
	}()

	asked()
	select {
	case a := <-ch:
		return a, nil
	case <-ctx.Done():
		return Answer{}, ctx.Err()
	}
}

// answer delivers a to the request of call id; it reports whether a request
// was waiting for it (a second answer, or one for an unknown call, is ignored).
func (ap *approver) answer(id string, a Answer) bool {
	ap.mu.Lock()
	defer ap.mu.Unlock()
	ch, ok := ap.pending[id]
	if !ok {
		return false
	}
	delete(ap.pending, id)
	ch <- a // buffered, and only ever sent once: the entry is gone now
	return true
}

// askReason says why a call asks, for the dialog.
func askReason(v rules.Verdict, act tools.Action, what string, mode Mode) string {
	switch {
	case act.Outside:
		return "the sandbox refused it: run it once outside the sandbox, in a shell of its own?"
	case act.Kind == tools.KindEdit && act.Protected != "":
		return fmt.Sprintf("this edit always asks: %s", act.Protected)
	case v.Effect == rules.Ask:
		return "the rule ask " + v.Rule.Raw + ruleFrom(v.Rule) + " asks for it"
	case v.Caution != "":
		// No allow rule lets it through: say why it asks.
		return "this command always asks: " + v.Caution
	}
	return fmt.Sprintf("%s ask in %s mode", what, mode)
}

// runsSandboxed says whether a call is a command the bash tool types into
// the shared shell while the sandbox confines it.
func (s *Session) runsSandboxed(name string, act tools.Action) bool {
	return act.Kind == tools.KindExec && name == tools.BashName && !act.Outside && s.shellSandboxed()
}

// shellSandboxed says whether the shared shell, where the bash tool's
// commands run, is confined now (a subagent's runs in its parent's).
func (s *Session) shellSandboxed() bool {
	if s.parent != nil {
		return s.parent.shellSandboxed()
	}
	return s.sandboxed != nil && s.sandboxed()
}

// verdict is what the permission check decided for one call.
type verdict struct {
	allow  bool
	answer *Answer // the answer to report, when permission was involved
	result string  // the tool result for the model when refused
}

// refuseHeadless refuses a call that would ask: headless, nobody can
// answer. The refusal says how the call could be allowed.
func (s *Session) refuseHeadless(t *turn, id, name string, call rules.Call, v rules.Verdict, act tools.Action, reason, what string, mode Mode, protected bool) verdict {
	eff := v.Effect
	how := fmt.Sprintf("allow it with the rule %q in permissions.allow of your config, or with --permission-mode (accept-edits, yolo)", rules.Suggest(call))
	switch {
	case eff == rules.Ask:
		how = "remove that rule or allow the call with --permission-mode yolo"
	case v.Caution == rules.UntrustedGit:
		how = "trust the directory (--trust, or in the IDE) if its .git/config is yours, or allow the call with --permission-mode yolo"
	case v.Caution != "":
		how = "no allow rule allows it; only --permission-mode yolo or an answer in the IDE does"
	}
	if protected {
		how = "only --permission-mode yolo allows it"
	}
	a := Answer{Decision: Deny, Auto: true, Note: fmt.Sprintf("%s, and nobody can answer in headless mode; %s", reason, how)}
	s.answered(t, id, name, a)
	why := ""
	if v.Caution != "" && eff != rules.Ask {
		why = " This one asks whatever the rules allow: " + v.Caution + "."
	}
	return verdict{answer: &a, result: fmt.Sprintf("error: denied: %s need the user's permission, and fawn is running headless in %s mode where nobody can give it.%s "+
		"Do not retry this call; finish what you can without it and say what was not done.", what, mode, why)}
}

// permit decides whether the call may run, asking the user when the mode
// says so. It emits the permission events.
func (s *Session) permit(ctx context.Context, t *turn, id, name string, act tools.Action) verdict {
	call := s.ruleCall(name, act)
	v := s.ruleSet().Check(call)
	eff, rule := v.Effect, v.Rule
	if eff == rules.Deny {
		// Deny rules hold in every mode, yolo included.
		a := Answer{Decision: Deny, Auto: true, Note: "denied by the rule deny " + rule.Raw + ruleFrom(rule)}
		s.answered(t, id, name, a)
		return verdict{answer: &a, result: fmt.Sprintf("error: denied by the user's permission rule %q. Do not retry this call or work around it; do what you can without it and say what was not done.", rule.Raw)}
	}
	// Reads run without asking (fawn's own and an MCP tool's marked
	// readOnlyHint), unless the user's ask rule names them.
	if act.Kind == tools.KindRead && eff != rules.Ask {
		return verdict{allow: true}
	}
	mode := s.Mode()
	what := "commands"
	switch act.Kind {
	case tools.KindEdit:
		what = "edits"
	case tools.KindFetch:
		what = "web requests"
	case tools.KindRead:
		what = "reads"
	}
	// Reading the web changes nothing here: plan mode asks for it as ask
	// mode does, rather than refusing it; so for a read an ask rule names.
	plan := mode == ModePlan && act.Kind != tools.KindFetch && act.Kind != tools.KindRead
	// A protected path asks in every mode but yolo, session grants and
	// accept-edits notwithstanding; so does a command to run once outside
	// the shell's sandbox, allow rules notwithstanding.
	protected := (act.Kind == tools.KindEdit && act.Protected != "") || act.Outside
	switch {
	case mode == ModeYolo:
		return verdict{allow: true}
	case plan:
		// A rule never widens plan mode: handled below.
	case eff == rules.Allow && !protected:
		a := Answer{Decision: AllowOnce, Auto: true, Note: "allowed by the rule allow " + rule.Raw + ruleFrom(rule)}
		s.answered(t, id, name, a)
		return verdict{allow: true, answer: &a}
	case eff == rules.Ask:
		// Asks whatever the mode (but yolo) and the session's grants say.
	case s.runsSandboxed(name, act):
		a := Answer{Decision: AllowOnce, Auto: true, Note: "runs in the sandbox"}
		s.answered(t, id, name, a)
		return verdict{allow: true, answer: &a}
	case mode == ModeAcceptEdits && act.Kind == tools.KindEdit && !protected:
		return verdict{allow: true}
	}
	switch {
	case plan:
		a := Answer{Decision: Deny, Auto: true, Note: "plan mode: " + what + " are refused"}
		s.answered(t, id, name, a)
		return verdict{answer: &a, result: "error: fawn is in plan mode, where edits and commands are refused. " +
			"Explore with the read-only tools, then call exit_plan with your plan: when the user approves it, fawn leaves plan mode and you carry it out."}
	}
	g := grantFor(name, act)
	if !protected && eff != rules.Ask && s.ap.granted(g) {
		a := Answer{Decision: AllowSession, Auto: true}
		s.answered(t, id, name, a)
		return verdict{allow: true, answer: &a}
	}
	reason := askReason(v, act, what, mode)
	if !s.interactive {
		return s.refuseHeadless(t, id, name, call, v, act, reason, what, mode, protected)
	}

	req := PermissionRequest{ID: id, Tool: name, Action: act, Reason: reason}
	a, err := s.ap.ask(ctx, req, func() {
		t.emit(Event{Type: EventPermissionAsked, ID: id, Name: name, Action: &req.Action, Permission: &req})
	})
	if err != nil {
		a = Answer{Decision: Deny, Auto: true, Note: "cancelled by the user"}
		s.answered(t, id, name, a)
		return verdict{answer: &a, result: "error: cancelled by the user"}
	}
	s.answered(t, id, name, a)
	switch a.Decision {
	case AllowAlways:
		if protected {
			return verdict{allow: true, answer: &a}
		}
		rule := rules.Suggest(call)
		where := "this session"
		if s.saveRule != nil {
			w, err := s.saveRule("allow", rule)
			if err != nil {
				t.emit(Event{Type: EventError, Err: fmt.Errorf("the rule allow %s holds for this session only: it could not be saved: %w", rule, err)})
			} else {
				where = w
			}
		}
		if err := s.AddRule(rules.Allow, rule, where); err == nil {
			t.emit(Event{Type: EventInfo, Text: fmt.Sprintf("rule added: allow %s (%s) — /permissions lists and removes rules", rule, where)})
		}
		return verdict{allow: true, answer: &a}
	case AllowSession:
		if !protected {
			s.ap.allow(g)
		}
		return verdict{allow: true, answer: &a}
	case AllowOnce:
		return verdict{allow: true, answer: &a}
	}
	res := "error: the user denied this call."
	if a.Note != "" {
		res += " They said: " + a.Note
	} else {
		res += " Do not retry it unchanged; ask the user if you are unsure what they want."
	}
	return verdict{answer: &a, result: res}
}

// ruleCall is what the permission rules see of a call.
func (s *Session) ruleCall(name string, act tools.Action) rules.Call {
	c := rules.Call{Tool: name, Edit: act.Kind == tools.KindEdit, Read: act.Kind == tools.KindRead, Exec: act.Kind == tools.KindExec, Command: act.Command,
		Domain: act.Domain, Untrusted: !s.trusted}
	if act.Path != "" && s.env != nil {
		if rel, err := filepath.Rel(s.env.Root, act.Path); err == nil && !strings.HasPrefix(rel, "..") {
			c.Path = filepath.ToSlash(rel)
		}
	}
	return c
}

// readDenied names the deny rule that forbids reading rel, or "": the
// tools' check (tools.Env.ReadDenied).
func (s *Session) readDenied(rel string) string {
	if r := s.ruleSet().ReadDenied(rel); r != nil {
		return r.Raw + ruleFrom(r)
	}
	return ""
}

// ruleFrom says where a rule was set, for a message.
func ruleFrom(r *rules.Rule) string {
	if r.Source == "" {
		return ""
	}
	return " (" + r.Source + ")"
}

// newRules reads the configured permission rules.
func newRules(p config.Permissions) (*rules.Set, error) {
	set := &rules.Set{}
	var errs []error
	for _, l := range []struct {
		raw    []string
		effect rules.Effect
		name   string
	}{{p.Allow, rules.Allow, "allow"}, {p.Ask, rules.Ask, "ask"}, {p.Deny, rules.Deny, "deny"}} {
		errs = append(errs, set.Add(l.raw, l.effect, func(r string) string { return p.RuleSources[l.name+" "+r] })...)
	}
	return set, errors.Join(errs...)
}

// Rules are the permission rules in force (/permissions).
func (s *Session) Rules() []rules.Rule { return append([]rules.Rule(nil), s.ruleSet().Rules...) }

// ruleSet is the rules in force; they are replaced whole, never changed in
// place, so a turn reads a consistent set.
func (s *Session) ruleSet() *rules.Set {
	if s.parent != nil {
		return s.parent.ruleSet()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rules
}

// AddRule puts a rule in force for the rest of the session (source says
// where it is kept).
func (s *Session) AddRule(effect rules.Effect, raw, source string) error {
	if s.parent != nil {
		return s.parent.AddRule(effect, raw, source)
	}
	r, err := rules.Parse(raw, effect, source)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rules = &rules.Set{Rules: append(append([]rules.Rule(nil), s.rules.Rules...), r)}
	return nil
}

// RemoveRule takes a rule out of force for the rest of the session; it
// reports whether one was.
func (s *Session) RemoveRule(effect rules.Effect, raw string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	var keep []rules.Rule
	for _, r := range s.rules.Rules {
		if r.Effect != effect || r.Raw != raw {
			keep = append(keep, r)
		}
	}
	removed := len(keep) != len(s.rules.Rules)
	s.rules = &rules.Set{Rules: keep}
	return removed
}

func (s *Session) answered(t *turn, id, name string, a Answer) {
	t.emit(Event{Type: EventPermissionAnswered, ID: id, Name: name, Answer: &a})
}
