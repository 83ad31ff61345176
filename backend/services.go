package backend

import (
	"context"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/agent/background"
	"github.com/fawn-ide/fawn/checkpoint"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/hooks"
	"github.com/fawn-ide/fawn/rules"
	"github.com/fawn-ide/fawn/session"
	"github.com/fawn-ide/fawn/skills"
	"github.com/fawn-ide/fawn/subagent"
)

// Services are what the UI does with an agent beyond running turns (the
// Agent interface). Each is a typed field rather than a method set looked
// for on the Agent, so a signature that drifts breaks the build instead of
// making its command vanish. A nil service leaves its commands and panes
// out, as for an agent that has no such thing.
type Services struct {
	// Compact is /compact.
	Compact Compacter
	// Context is /context and the status bar's window size.
	Context ContextReporter
	// Rewind is /rewind, /undo, /changes, Esc Esc and the Changes tab.
	Rewind Rewinder
	// Sessions is /resume, /new, /export and what a session keeps of the
	// workspace; its Store may be nil (no data directory).
	Sessions SessionKeeper
	// Skills is /skills.
	Skills SkillKeeper
	// Subagents is /agents.
	Subagents SubagentKeeper
	// Rules is /permissions.
	Rules RuleKeeper
	// Hooks is /hooks.
	Hooks HookKeeper
	// Models is /model's picker and switch.
	Models ModelSwitcher
	// Attach is @-mentions: attachments, images and the file index.
	Attach Attacher
	// AgentCommands are the slash commands the agent itself offers (an
	// ACP agent's available commands): completed as fawn's are, and sent
	// to the agent as a prompt.
	AgentCommands AgentCommander
	// Auth is signing in to an agent that asks for it (/agent login).
	Auth Authenticator
	// Background is the work beside the turns: /goal and its judge,
	// /commit's drafted message, the turn notes, the status bar's word
	// on them.
	Background BackgroundWorker
}

// SessionServices are the services of fawn's own agent: all of them. The
// one place both fawn and the tests take them from, so a service left out
// here is caught by a test rather than by a user missing a command.
func SessionServices(s *agent.Session) Services {
	return Services{
		Compact:   s,
		Context:   s,
		Rewind:    s,
		Sessions:  s,
		Skills:    s,
		Subagents: s,
		Rules:     s,
		Hooks:     s,
		Models:    s,
		Attach:    s,

		Background: background.For(s.Background()),
	}
}

// *agent.Session is every service; these say so to the compiler.
var (
	_ Compacter       = (*agent.Session)(nil)
	_ ContextReporter = (*agent.Session)(nil)
	_ Rewinder        = (*agent.Session)(nil)
	_ SessionKeeper   = (*agent.Session)(nil)
	_ SkillKeeper     = (*agent.Session)(nil)
	_ SubagentKeeper  = (*agent.Session)(nil)
	_ RuleKeeper      = (*agent.Session)(nil)
	_ HookKeeper      = (*agent.Session)(nil)
	_ ModelSwitcher   = (*agent.Session)(nil)
	_ Attacher        = (*agent.Session)(nil)

	_ BackgroundWorker = (*background.Work)(nil)
)

// BackgroundWorker is the work done beside the turns, on the background
// entries of models (package agent/background).
type BackgroundWorker interface {
	// Goal is the goal set ("" for none); SetGoal sets it ("" drops it)
	// and returns its card; MaxTurns is goal.max_turns.
	Goal() string
	SetGoal(goal string) background.Verdict
	MaxTurns() int
	// Follow returns the events of a turn started with prompt, judged
	// and followed by more turns (run) while a goal is set and not met.
	Follow(ctx context.Context, events <-chan agent.Event, prompt string, run background.RunFunc) <-chan agent.Event
	// Drafter keeps the draft commit message (/commit).
	Drafter() *background.Drafter
	// Status is the work under way and where it goes; Watch makes f run
	// when that changes.
	Status() background.Status
	Watch(f func())
}

// Compacter compacts the conversation (/compact).
type Compacter interface {
	// Compact replaces the conversation by a summary of it, keeping focus
	// in particular. Its events arrive as a turn's do.
	Compact(ctx context.Context, focus string) <-chan agent.Event
}

// ContextReporter says how the context window is used.
type ContextReporter interface {
	Context() agent.ContextInfo
	// ContextWindow is the window's size and where that number comes from.
	ContextWindow() (int, string)
}

// Rewinder keeps checkpoints of what the agent changes.
type Rewinder interface {
	// Checkpoints is nil when sessions are not kept.
	Checkpoints() *checkpoint.Book
	// RewindConversation keeps the first keep messages; prompt is the
	// user message the rewind goes back before.
	RewindConversation(keep int, prompt string) error
}

// SessionKeeper keeps the conversation as a session on disk.
type SessionKeeper interface {
	ID() string
	Sessions() ([]session.Info, error)
	Resume(id string) (*agent.Resumed, error)
	NewConversation(keepUsage bool)
	// Store is nil when fawn has no data directory.
	Store() *session.Store
	RecordWorkspace(ws session.Workspace)
}

// SkillKeeper has skills the agent can load.
type SkillKeeper interface {
	Skills() []skills.Skill
}

// SubagentKeeper has subagents the agent can hand a task to.
type SubagentKeeper interface {
	Subagents() []subagent.Def
}

// RuleKeeper has the permission rules in force.
type RuleKeeper interface {
	Rules() []rules.Rule
	RemoveRule(effect rules.Effect, raw string) bool
}

// HookKeeper has the hooks configured.
type HookKeeper interface {
	Hooks() hooks.Config
}

// ModelSwitcher changes the model within the session.
type ModelSwitcher interface {
	ConfiguredModels() []agent.ModelChoice
	ListModels(ctx context.Context) ([]agent.ModelChoice, []error)
	SetModel(ctx context.Context, mc config.Model) error
	ModelConfig() config.Model
}

// Attacher takes attachments and images with a prompt.
type Attacher interface {
	Attach(ctx context.Context, path string) (agent.Attachment, error)
	RunInput(ctx context.Context, in agent.Input) <-chan agent.Event
	AcceptsImages() bool
}

// AgentCommander has slash commands of its own, which it runs when a
// prompt starts with one ("/review the diff").
type AgentCommander interface {
	AgentCommands() []AgentCommand
}

// AgentCommand is one of the agent's own slash commands.
type AgentCommand struct {
	Name        string // without the slash
	Description string
	// Hint says what the command takes, "" when it takes nothing.
	Hint string
}

// Authenticator is an agent the user may have to sign in to first.
type Authenticator interface {
	// AuthMethods are the ways the agent offers; none before it started.
	AuthMethods() []AuthMethod
	// Authenticate signs in the agent's way id (an AuthAgent method).
	Authenticate(ctx context.Context, id string) error
}

// AuthMethod is one way to sign in to an agent.
type AuthMethod struct {
	ID, Name, Description string
	// Kind says who does it: AuthAgent (the agent, on Authenticate),
	// AuthEnv (the user sets Vars in the agent's environment), AuthTerminal
	// (the user runs Command in a terminal).
	Kind    string
	Vars    []string
	Command []string
}

// The kinds of AuthMethod.
const (
	AuthAgent    = "agent"
	AuthEnv      = "env_var"
	AuthTerminal = "terminal"
)
