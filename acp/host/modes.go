package host

import (
	"context"
	"fmt"
	"strings"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/backend"
)

// modeNames are, for each of fawn's permission modes, the session modes
// agents offer for it, by id or name with case, "-" and "_" left out:
// Claude Code's default, acceptEdits, plan and bypassPermissions, and
// other agents' words for the same.
var modeNames = map[agent.Mode][]string{
	agent.ModeAsk:         {"default", "ask", "normal"},
	agent.ModeAcceptEdits: {"acceptedits", "autoedit", "autoedits"},
	agent.ModePlan:        {"plan", "readonly"},
	agent.ModeYolo:        {"bypasspermissions", "yolo", "fullaccess"},
}

func squash(s string) string {
	return strings.NewReplacer("-", "", "_", "", " ", "").Replace(strings.ToLower(s))
}

// agentModeFor is the agent's session mode for fawn's mode m, or "" when
// it offers none.
func agentModeFor(m agent.Mode, modes []acp.SessionMode) acp.SessionModeId {
	for _, want := range modeNames[m] {
		for _, sm := range modes {
			if squash(string(sm.Id)) == want || squash(sm.Name) == want {
				return sm.Id
			}
		}
	}
	return ""
}

// syncMode puts the agent's session in the mode that matches fawn's, when
// it offers one: in plan mode it then plans rather than trying edits fawn
// refuses. A failure is written to the agent's log; fawn's own mode still
// answers the agent's requests.
func (h *Host) syncMode(p *agentProc, sid string) {
	h.mu.Lock()
	want := agentModeFor(h.mode, h.modes)
	have := h.agentMode
	h.mu.Unlock()
	if want == "" || want == have {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := p.conn.SetSessionMode(ctx, acp.SetSessionModeRequest{SessionId: acp.SessionId(sid), ModeId: want}); err != nil {
		p.logf("fawn: session/set_mode %s: %v", want, err)
		return
	}
	h.mu.Lock()
	h.agentMode = want
	h.mu.Unlock()
}

// logf writes a line of fawn's own to the agent's log.
func (p *agentProc) logf(format string, args ...any) {
	if p.loglock != nil {
		fmt.Fprintf(p.loglock, format+"\n", args...)
	}
}

// setCommands keeps the slash commands the agent says it offers now.
func (h *Host) setCommands(cs []acp.AvailableCommand) {
	out := make([]backend.AgentCommand, 0, len(cs))
	for _, c := range cs {
		name := strings.TrimPrefix(strings.TrimSpace(c.Name), "/")
		if name == "" || strings.ContainsAny(name, " /\t\n") {
			continue // not something a slash and a word can name
		}
		ac := backend.AgentCommand{Name: name, Description: c.Description}
		if c.Input != nil && c.Input.Unstructured != nil {
			ac.Hint = c.Input.Unstructured.Hint
		}
		out = append(out, ac)
	}
	h.mu.Lock()
	h.commands = out
	h.mu.Unlock()
}

// AgentCommands are the slash commands the agent offers (its
// available_commands_update), sent to it as a prompt ("/name input").
func (h *Host) AgentCommands() []backend.AgentCommand {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]backend.AgentCommand(nil), h.commands...)
}
