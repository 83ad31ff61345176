// Package trust owns workspace trust: whether the files of a project
// directory may make fawn act on their behalf. fawn opens repositories
// other people wrote, so every project file is untrusted input until the
// user trusted its directory. Nothing in a project file may start a
// program, raise the permission mode, or choose where the conversation or
// the user's keys are sent before that.
//
// The package knows no file format. Whoever reads a kind of project file
// turns what it would make fawn do into [Item]s; fawn gathers the Items of
// every kind at start ([Gather]), checks them against what the user trusted
// before ([Store.Check]), asks once when something is new ([Store.Grant]
// remembers a yes), and hands every reader the resulting [Decision].
//
// It imports nothing of fawn, so that every package that reads project files
// may import it.
//
// # Adding a kind of project file that can make fawn act
//
// A feature whose project files start programs or widen permissions (hooks,
// custom commands, subagents, skills, language servers, permission rules)
// goes through this package in three steps:
//
//  1. Describe. Write a [Source] (or a [SourceFunc]) that reads the files
//     without acting on anything and returns one Item per thing they would
//     make fawn do: Kind (one of the Kind constants, or a new one added
//     there with its label), Name (the entry: "pre-commit hook", "/deploy"),
//     Source ("/p/.fawn/hooks.yaml:12") and Detail (exactly what would run
//     or be sent: the full command line, the URL; never cut, never
//     summarised; the prompt shows it as it is).
//  2. Register. Add the Source to the list cmd/fawn gathers from
//     (trustSources in cmd/fawn/trust.go). The user then sees its Items in
//     the same, single prompt as every other kind.
//  3. Obey. Give the feature the [Decision] and, before acting on an entry,
//     ask [Decision.Allows] with the Item built for it. Items the user has
//     not allowed — because they said no, because fawn runs headless without
//     --trust, or because the file changed after the prompt (the agent may
//     write project files while fawn runs) — are ignored, with a notice
//     that names them. Never act on project-defined programs without
//     asking Allows; never cache an answer across a reload of the files.
//
// Items are compared by Kind, Name and Detail (not Source: moving an entry
// within its file does not ask again), so the Detail must hold everything
// that decides what happens.
//
// User configuration and flags are trusted and never produce Items.
//
// # Reading the files
//
// Every file fawn is configured or instructed by — the user's and the
// project's config.yaml, AGENTS.md, commands, skills, subagents, the trust
// store — is read with [ReadFile] or, for a project's, [ReadProjectFile]:
// a regular file only (never a FIFO or a device), never blocking, at most
// a given size, and for a project's, only inside the project.
package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
)

// The kinds of things a project file can make fawn do. A new kind gets a
// constant and a label here.
const (
	// KindMCPServer starts a program (command) or connects to a server (url)
	// whose tools the agent may call.
	KindMCPServer = "mcp-server"
	// KindModelEndpoint chooses where the conversation (the project's code)
	// and a key are sent: a model server, its key, its provider.
	KindModelEndpoint = "model-endpoint"
	// KindModel chooses the model and its settings (name, max_tokens,
	// temperature): what the user pays for and what answers them.
	KindModel = "model"
	// KindPermission widens what the agent may do without asking.
	KindPermission = "permission"
	// KindHook runs a program on an event.
	KindHook = "hook"
	// KindCommand is a custom command (a prompt or a program).
	KindCommand = "command"
	// KindAgent is a subagent definition.
	KindAgent = "agent"
	// KindSkill is a skill (instructions, and perhaps scripts).
	KindSkill = "skill"
	// KindLSP starts a language server.
	KindLSP = "lsp"
	// KindShellEnv changes the environment the agent's shell, the
	// terminal pane, hooks and MCP servers start with.
	KindShellEnv = "shell-env"
	// KindGitConfig is a key of the repository's own git configuration
	// (.git/config and what it includes) whose value git runs as a
	// program: core.fsmonitor, a filter, an alias starting with "!".
	KindGitConfig = "git-config"
	// KindGitHook is an executable hook in the repository's .git/hooks
	// that is not one of git's samples.
	KindGitHook = "git-hook"
	// KindACPAgent starts an agent fawn hosts over ACP (fawn --agent).
	KindACPAgent = "acp-agent"
)

var labels = map[string]string{
	KindMCPServer:     "start an MCP server",
	KindModelEndpoint: "choose where the conversation and your key go:",
	KindModel:         "choose the model:",
	KindPermission:    "allow without asking:",
	KindHook:          "run a hook",
	KindCommand:       "add a command",
	KindAgent:         "add a subagent",
	KindSkill:         "add a skill",
	KindLSP:           "start a language server",
	KindShellEnv:      "remove from the shell's environment:",
	KindGitConfig:     "let git run the program its configuration names in",
	KindGitHook:       "let git run the hook",
	KindACPAgent:      "start an agent (fawn --agent)",
}

// Label says in a few words what an Item of kind makes fawn do, for the
// prompt: "start an MCP server".
func Label(kind string) string {
	if l, ok := labels[kind]; ok {
		return l
	}
	return kind
}

// Item is one thing a project file would make fawn do.
type Item struct {
	// Kind is one of the Kind constants.
	Kind string `json:"kind"`
	// Name names the entry within its kind: the MCP server's name, the
	// configuration key, the hook's event.
	Name string `json:"name"`
	// Source is where it is written: "/p/.fawn/config.yaml:12".
	Source string `json:"source"`
	// Detail is exactly what fawn would do: the whole command line, the
	// URL, the mode. It is shown to the user as it is and decides, with
	// Kind and Name, whether the item is still the one they trusted.
	Detail string `json:"detail"`
}

// String is the item on one line, for notices and logs.
func (it Item) String() string {
	s := Label(it.Kind)
	if it.Name != "" {
		s += " " + it.Name
	}
	if it.Detail != "" {
		s += ": " + it.Detail
	}
	return s
}

// Key is the item's identity: a hash of its Kind, Name and Detail.
func (it Item) Key() string {
	h := sha256.New()
	for _, s := range []string{it.Kind, it.Name, it.Detail} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// A Source finds the Items of one kind of project file in the project at
// dir. It must only read: it runs before the user has trusted anything.
type Source interface {
	Items(dir string) ([]Item, error)
}

// SourceFunc is a function that is a Source.
type SourceFunc func(dir string) ([]Item, error)

// Items calls f.
func (f SourceFunc) Items(dir string) ([]Item, error) { return f(dir) }

// Fixed is a Source of items found already (the configuration loader reads
// its files anyway and reports them).
func Fixed(items ...Item) Source {
	return SourceFunc(func(string) ([]Item, error) { return items, nil })
}

// Gather collects the Items of every source for the project at dir, in the
// sources' order. A source that fails is reported in errs and the others
// still count; its files are then simply not trusted.
func Gather(dir string, sources ...Source) (items []Item, errs []error) {
	seen := map[string]bool{}
	for _, s := range sources {
		got, err := s.Items(dir)
		if err != nil {
			errs = append(errs, err)
		}
		for _, it := range got {
			if k := it.Key(); !seen[k] {
				seen[k] = true
				items = append(items, it)
			}
		}
	}
	return items, errs
}

// State is what the store knows of a directory's items.
type State int

const (
	// NothingToTrust: the project's files ask for nothing that needs trust.
	NothingToTrust State = iota
	// Untrusted: the user never trusted this directory.
	Untrusted
	// Changed: the user trusted this directory, but its files now ask for
	// things they did not see (Verdict.New lists them).
	Changed
	// Trusted: every item is one the user trusted.
	Trusted
)

// Verdict is what Check found.
type Verdict struct {
	State State
	// New are the items the user has not trusted yet (all of them when
	// Untrusted, the changed or added ones when Changed).
	New []Item
}

// Decision is the answer for one run of fawn: which of the project's items
// may be acted on. Every feature that reads project files gets it and asks
// Allows before acting on an entry. The zero Decision allows nothing.
type Decision struct {
	// Dir is the project directory, resolved.
	Dir string
	// Items are every item gathered at start.
	Items []Item
	// State is what the store said before anyone was asked.
	State State
	// By says how the decision was reached, for notices: "remembered",
	// "--trust", "the user", "" when nothing was allowed.
	By      string
	allowed map[string]bool
}

// Allow is the Decision that allows items (the user said yes, --trust, or
// the store already trusted them).
func Allow(dir string, items []Item, state State, by string) *Decision {
	d := &Decision{Dir: dir, Items: items, State: state, By: by, allowed: map[string]bool{}}
	for _, it := range items {
		d.allowed[it.Key()] = true
	}
	return d
}

// Deny is the Decision that allows none of items.
func Deny(dir string, items []Item, state State) *Decision {
	return &Decision{Dir: dir, Items: items, State: state}
}

// Allows reports whether fawn may act on it: it was gathered at start and
// allowed. An item that appeared or changed since (a file written while
// fawn runs) is not allowed.
func (d *Decision) Allows(it Item) bool {
	return d != nil && d.allowed[it.Key()]
}

// Trusted reports whether every gathered item is allowed (true when there
// were none).
func (d *Decision) Trusted() bool {
	if d == nil {
		return false
	}
	for _, it := range d.Items {
		if !d.allowed[it.Key()] {
			return false
		}
	}
	return true
}

// Ignored are the gathered items that are not allowed.
func (d *Decision) Ignored() []Item {
	if d == nil {
		return nil
	}
	var out []Item
	for _, it := range d.Items {
		if !d.allowed[it.Key()] {
			out = append(out, it)
		}
	}
	return out
}

// Summary lists items briefly for a notice: "MCP server x, models.chat_model.base_url".
func Summary(items []Item) string {
	parts := make([]string, 0, len(items))
	for _, it := range items {
		switch it.Kind {
		case KindMCPServer:
			parts = append(parts, "MCP server "+it.Name)
		case KindGitConfig:
			parts = append(parts, "git config "+it.Name)
		case KindGitHook:
			parts = append(parts, "git hook "+it.Name)
		default:
			if it.Name != "" {
				parts = append(parts, it.Name)
			} else {
				parts = append(parts, it.Kind)
			}
		}
	}
	return strings.Join(parts, ", ")
}

// Files lists the distinct files the items come from (the part of Source
// before the line number), for notices.
func Files(items []Item) []string {
	seen := map[string]bool{}
	var out []string
	for _, it := range items {
		f := it.Source
		if i := strings.LastIndexByte(f, ':'); i > 0 && isDigits(f[i+1:]) {
			f = f[:i]
		}
		if f != "" && !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// Resolve gives dir the one spelling the store keys it by: absolute, clean,
// symlinks resolved.
func Resolve(dir string) (string, error) {
	if dir == "" {
		return "", errors.New("trust: no directory")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("trust: %s: %w", dir, err)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	return filepath.Clean(abs), nil
}
