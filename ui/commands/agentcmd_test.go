package commands

import (
	"context"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/backend"
)

type agentCmds []backend.AgentCommand

func (a agentCmds) AgentCommands() []backend.AgentCommand { return a }

// submitHost is a Host that records what is submitted (nothing else of it
// is called).
type submitHost struct {
	Host
	sent []string
}

func (h *submitHost) Submit(text string) { h.sent = append(h.sent, text) }

// The agent's own slash commands complete beside fawn's and run by
// sending "/name input" to the agent; a command fawn offers under the same
// name is fawn's, one it does not offer is the agent's.
func TestAgentCommandsComplete(t *testing.T) {
	c := New()
	c.Add(Command{Name: "clear", Run: func(Host, string) {}})
	c.Add(Command{Name: "compact", Run: func(Host, string) {}, Needs: func(s backend.Services) bool { return s.Compact != nil }})
	svc := backend.Services{AgentCommands: agentCmds{
		{Name: "review", Description: "Review the changes", Hint: "what"},
		{Name: "clear", Description: "the agent's clear"},
		{Name: "compact", Description: "the agent's compact"},
	}}
	c.SetServices(func() backend.Services { return svc })

	m := c.Match("rev")
	if len(m) != 1 || m[0].Name != "review" || m[0].Args != "[what]" || m[0].Help != "Review the changes (the agent's)" {
		t.Fatalf("Match(rev) = %+v", m)
	}
	h := &submitHost{}
	c.Find("review").Run(h, "the diff")
	c.Find("compact").Run(h, "")
	if len(h.sent) != 2 || h.sent[0] != "//review the diff" || h.sent[1] != "//compact" {
		t.Errorf("sent %q", h.sent)
	}
	if cmd := c.Find("clear"); cmd == nil || cmd.Help != "" {
		t.Errorf("fawn's /clear is shadowed by the agent's: %+v", cmd)
	}
	n := 0
	for _, cmd := range c.All() {
		if cmd.Name == "clear" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("/clear listed %d times", n)
	}
}

type fakeAuth struct {
	methods []backend.AuthMethod
	got     chan string
}

func (f *fakeAuth) AuthMethods() []backend.AuthMethod { return f.methods }
func (f *fakeAuth) Authenticate(_ context.Context, id string) error {
	f.got <- id
	return nil
}

// loginHost is a Host whose shown task's agent signs in with auth.
type loginHost struct {
	Host
	auth  *fakeAuth
	infos chan string
	errs  []string
}

func (h *loginHost) Agent() Agent               { return nil }
func (h *loginHost) Services() backend.Services { return backend.Services{Auth: h.auth} }
func (h *loginHost) Info(s string)              { h.infos <- s }
func (h *loginHost) Error(s string)             { h.errs = append(h.errs, s) }
func (h *loginHost) Flash(string)               {}
func (h *loginHost) Go(f func())                { go f() }
func (h *loginHost) Post(f func())              { f() }
func (h *loginHost) Context() context.Context   { return context.Background() }

// /agent login ID runs the agent's own way to sign in and says so; a way
// of the user's says what to do; a way the agent does not offer says
// which it does.
func TestAgentLogin(t *testing.T) {
	h := &loginHost{infos: make(chan string, 4), auth: &fakeAuth{got: make(chan string, 1), methods: []backend.AuthMethod{
		{ID: "token", Name: "Sign in", Kind: backend.AuthAgent},
		{ID: "key", Name: "API key", Kind: backend.AuthEnv, Vars: []string{"SCRIPTED_API_KEY"}},
	}}}
	run := func(args string) {
		cmd := AgentSwitch(nil)
		cmd.Run(h, args)
	}
	run("login token")
	if id := <-h.auth.got; id != "token" {
		t.Errorf("signed in with %q", id)
	}
	if s := <-h.infos; !strings.Contains(s, "Signed in (Sign in)") {
		t.Errorf("info %q", s)
	}
	run("login key")
	if s := <-h.infos; !strings.Contains(s, "set SCRIPTED_API_KEY") {
		t.Errorf("info %q", s)
	}
	run("login nope")
	if len(h.errs) != 1 || !strings.Contains(h.errs[0], "it offers token, key") {
		t.Errorf("errors %q", h.errs)
	}
}
