package host

import (
	"context"
	"errors"
	"fmt"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/fawn-ide/fawn/backend"
)

// ErrAuthRequired: the agent answered that the user must sign in first.
var ErrAuthRequired = errors.New("the agent needs you to sign in")

// authRequired reports whether err is the agent's "authentication
// required" (ACP's error -32000).
func authRequired(err error) bool {
	var re *acp.RequestError
	return errors.As(err, &re) && re.Code == -32000
}

// authMethods are the ways to sign in the agent's initialize offered.
func authMethods(ms []acp.AuthMethod) []backend.AuthMethod {
	out := make([]backend.AuthMethod, 0, len(ms))
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	for _, m := range ms {
		switch {
		case m.Agent != nil:
			out = append(out, backend.AuthMethod{ID: m.Agent.Id, Name: m.Agent.Name, Description: str(m.Agent.Description), Kind: backend.AuthAgent})
		case m.EnvVar != nil:
			var vars []string
			for _, v := range m.EnvVar.Vars {
				vars = append(vars, v.Name)
			}
			out = append(out, backend.AuthMethod{ID: m.EnvVar.Id, Name: m.EnvVar.Name, Description: str(m.EnvVar.Description), Kind: backend.AuthEnv, Vars: vars})
		case m.Terminal != nil:
			out = append(out, backend.AuthMethod{ID: m.Terminal.Id, Name: m.Terminal.Name, Description: str(m.Terminal.Description), Kind: backend.AuthTerminal, Command: m.Terminal.Args})
		}
	}
	return out
}

// AuthMethods are the ways to sign in the agent offered when it started
// (none before its first turn).
func (h *Host) AuthMethods() []backend.AuthMethod {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]backend.AuthMethod(nil), h.auth...)
}

// Authenticate asks the agent to sign in its way id, starting it if it is
// not running; the next message opens its session.
func (h *Host) Authenticate(ctx context.Context, id string) error {
	h.mu.Lock()
	p := h.proc
	busy := h.running
	h.mu.Unlock()
	if busy {
		return ErrBusy
	}
	if p == nil || !p.alive() {
		var err error
		if p, err = h.start(ctx); err != nil {
			return err
		}
		h.mu.Lock()
		old := h.proc
		h.proc, h.session = p, ""
		h.mu.Unlock()
		if old != nil {
			old.stop()
		}
	}
	actx, cancel := context.WithTimeout(ctx, h.opts.StartTimeout)
	defer cancel()
	if _, err := p.conn.Authenticate(actx, acp.AuthenticateRequest{MethodId: id}); err != nil {
		return fmt.Errorf("the agent %s did not sign in: %s", h.opts.Name, h.opts.Redactor.String(p.failure(err, actx)))
	}
	return nil
}

// authError says the agent wants the user to sign in, and how.
func (h *Host) authError() error {
	ms := h.AuthMethods()
	if len(ms) == 0 {
		return fmt.Errorf("the agent %s: %w, and offers no way to do it here: sign in with its own program, then send your message again", h.opts.Name, ErrAuthRequired)
	}
	var ways []string
	for _, m := range ms {
		w := m.Name
		switch m.Kind {
		case backend.AuthEnv:
			w += " (set " + strings.Join(m.Vars, ", ") + " under agents." + h.opts.Name + ".env in your config)"
		case backend.AuthTerminal:
			w += " (run " + h.opts.Agent.Command + " " + strings.Join(m.Command, " ") + " in the terminal)"
		}
		ways = append(ways, w)
	}
	how := "Type /agent login to pick one, then send your message again"
	if !h.opts.Interactive {
		how = "Set what one names, or sign in with the agent's own program, and run again"
	}
	return fmt.Errorf("the agent %s: %w. It offers: %s. %s", h.opts.Name, ErrAuthRequired, strings.Join(ways, "; "), how)
}

// envSignIn signs in the way of the first of the agent's env_var methods
// whose variables its environment sets (agents.NAME.env, or fawn's own
// environment passed on): the user has given the agent that key, and
// Codex asks to be told to use it. It reports whether one did.
func (h *Host) envSignIn(ctx context.Context, p *agentProc) bool {
	env := map[string]bool{}
	for _, kv := range agentEnv(h.opts.Environ, h.opts.Agent.Env) {
		if k, v, ok := strings.Cut(kv, "="); ok && v != "" {
			env[k] = true
		}
	}
	for _, m := range h.AuthMethods() {
		if m.Kind != backend.AuthEnv || len(m.Vars) == 0 {
			continue
		}
		all := true
		for _, v := range m.Vars {
			all = all && env[v]
		}
		if !all {
			continue
		}
		actx, cancel := context.WithTimeout(ctx, h.opts.StartTimeout)
		_, err := p.conn.Authenticate(actx, acp.AuthenticateRequest{MethodId: m.ID})
		cancel()
		if err == nil {
			return true
		}
	}
	return false
}
