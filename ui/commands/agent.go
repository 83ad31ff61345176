package commands

import (
	"fmt"
	"strings"

	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/internal/safetext"
	"github.com/fawn-ide/fawn/ui/picker"
)

// OwnAgent is fawn's own agent's name among the agents /agent offers.
const OwnAgent = "fawn"

// AgentControl is what /agent needs of the IDE: the agents to choose
// from and a task on each.
type AgentControl interface {
	// Names are the agents: OwnAgent first, then the configured ACP ones.
	Names() []string
	// Describe says what agent name runs, in a few words.
	Describe(name string) string
	// Open shows the task that runs agent name in the project, opening
	// one when none is open; it says in the chat why it cannot.
	Open(name string)
	// LogPath is the log of agent name ("" when it keeps none).
	LogPath(name string) string
	// Tail is the end of the log at path, at most max bytes.
	Tail(path string, max int) (string, error)
}

// What /agent log shows of the log: its last lines, each cut short (a
// protocol message may be long); the file has them whole.
const (
	logLinesShown = 20
	logLineShown  = 120
)

// AgentSwitch is /agent: pick the agent to talk to (each runs in a task of its
// own, so the conversation with the other goes on where it was), or
// /agent log: the end of the agent's log (its stderr and the protocol).
func AgentSwitch(ac AgentControl) Command {
	return Command{Name: "agent", Args: "[name|log|login]", Help: "Talk to another agent (fawn's own or a configured ACP agent), in a task of its own; /agent log shows its log, /agent login signs in to it", Run: func(h Host, args string) {
		cur := func() string { return CurrentAgent(h.Agent().ModelName()) }
		switch name, rest, _ := strings.Cut(strings.TrimSpace(args), " "); name {
		case "":
			var items []picker.Item
			for _, n := range ac.Names() {
				items = append(items, picker.Item{Label: n, Detail: ac.Describe(n), Current: n == cur(), Value: n})
			}
			h.Pick("Agent", items, func(it picker.Item) {
				if n, ok := it.Value.(string); ok {
					ac.Open(n)
				}
			})
		case "log":
			showLog(h, ac, cur(), strings.TrimSpace(rest))
		case "login":
			login(h, strings.TrimSpace(rest))
		default:
			for _, n := range ac.Names() {
				if n == name {
					ac.Open(n)
					return
				}
			}
			h.Error(fmt.Sprintf("/agent %s: no such agent; the agents are %s (add one under agents: in your config)", safetext.Line(name), strings.Join(ac.Names(), ", ")))
		}
	}}
}

// CurrentAgent is the agent a task runs, from its model name: "acp/NAME"
// for a hosted agent, OwnAgent otherwise.
func CurrentAgent(modelName string) string {
	if n, ok := strings.CutPrefix(modelName, "acp/"); ok {
		return n
	}
	return OwnAgent
}

func showLog(h Host, ac AgentControl, cur, name string) {
	if name == "" {
		name = cur
	}
	if name == OwnAgent {
		h.Info("fawn's own agent keeps no agent log: /agent log is for a hosted ACP agent (/agent log NAME)")
		return
	}
	path := ac.LogPath(name)
	if path == "" {
		h.Error("the agent " + safetext.Line(name) + " keeps no log (fawn has no data directory)")
		return
	}
	tail, err := ac.Tail(path, 64<<10)
	if err != nil {
		h.Error(fmt.Sprintf("the agent %s's log %s: %v (it is written once the agent has started)", safetext.Line(name), path, err))
		return
	}
	lines := strings.Split(strings.TrimRight(tail, "\n"), "\n")
	if len(lines) > logLinesShown {
		lines = lines[len(lines)-logLinesShown:]
	}
	for i, l := range lines {
		if r := []rune(l); len(r) > logLineShown {
			l = string(r[:logLineShown]) + "…"
		}
		lines[i] = safetext.Line(l)
	}
	h.Info(fmt.Sprintf("The end of the log of %s (its stderr, and the protocol: > to the agent, < from it):\n%s\nAll of it is in %s", safetext.Line(name), strings.Join(lines, "\n"), path))
}

// login signs in to the shown task's agent its way id, or offers its ways
// in a picker.
func login(h Host, id string) {
	auth := h.Services().Auth
	if auth == nil {
		h.Error("this task's agent has no sign-in: fawn's own agent uses the keys of your config")
		return
	}
	ms := auth.AuthMethods()
	if len(ms) == 0 {
		h.Error("the agent has not said how to sign in: it says so when it starts, with your first message")
		return
	}
	if id == "" {
		items := make([]picker.Item, 0, len(ms))
		for _, m := range ms {
			items = append(items, picker.Item{Label: safetext.Line(m.Name), Detail: safetext.Line(m.Description), Value: m})
		}
		h.Pick("Sign in to the agent", items, func(it picker.Item) {
			if m, ok := it.Value.(backend.AuthMethod); ok {
				signIn(h, auth, m)
			}
		})
		return
	}
	for _, m := range ms {
		if m.ID == id {
			signIn(h, auth, m)
			return
		}
	}
	var ids []string
	for _, m := range ms {
		ids = append(ids, m.ID)
	}
	h.Error(fmt.Sprintf("/agent login %s: the agent offers no such way; it offers %s", safetext.Line(id), safetext.Line(strings.Join(ids, ", "))))
}

// signIn runs way m: the agent's own off the UI goroutine; the user's
// (variables to set, a command to run) is said.
func signIn(h Host, auth backend.Authenticator, m backend.AuthMethod) {
	switch m.Kind {
	case backend.AuthEnv:
		h.Info(fmt.Sprintf("%s: set %s in the agent's environment (agents.NAME.env in your config), restart fawn, then send your message again", safetext.Line(m.Name), safetext.Line(strings.Join(m.Vars, ", "))))
		return
	case backend.AuthTerminal:
		h.Info(fmt.Sprintf("%s: run the agent's program with %s in the terminal pane and sign in there, then send your message again", safetext.Line(m.Name), safetext.Line(strings.Join(m.Command, " "))))
		return
	}
	h.Flash("signing in to the agent…")
	h.Go(func() {
		err := auth.Authenticate(h.Context(), m.ID)
		h.Post(func() {
			if err != nil {
				h.Error(safetext.Line(err.Error()))
				return
			}
			h.Info("Signed in (" + safetext.Line(m.Name) + "): send your message again")
		})
	})
}
