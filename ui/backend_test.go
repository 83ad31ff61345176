package ui

import (
	"context"
	"reflect"
	"testing"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/tools"
)

// demoSession is fawn's own agent on the demo model, in a fresh project.
func demoSession(t *testing.T) (*agent.Session, *config.Config, string) {
	t.Helper()
	root := t.TempDir()
	env, err := tools.NewEnv(root)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &config.Config{DataDir: t.TempDir(), ConfigDir: t.TempDir()}
	cfg.Models.Chat = config.Model{Type: "demo"}
	sess, err := agent.NewSession(context.Background(), agent.Options{Config: cfg, Env: env, Interactive: true, DemoChunkDelay: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sess.Close)
	return sess, cfg, root
}

// fawn's own agent offers every service: one added to Services but left
// out of SessionServices would make its commands vanish from fawn.
func TestSessionServicesAreComplete(t *testing.T) {
	sess, _, _ := demoSession(t)
	v := reflect.ValueOf(backend.SessionServices(sess))
	for i := range v.NumField() {
		if n := v.Type().Field(i).Name; n == "AgentCommands" || n == "Auth" {
			continue // a hosted agent's own slash commands and sign-in
		}
		if v.Field(i).IsNil() {
			t.Errorf("SessionServices leaves %s out", v.Type().Field(i).Name)
		}
	}
}

// The commands a service brings are offered with fawn's agent, and are
// not offered by an App given no services.
func TestServicesBringTheirCommands(t *testing.T) {
	byService := []string{"compact", "context", "rewind", "diff", "revert", "skills", "agents", "permissions", "hooks"}
	sess, cfg, root := demoSession(t)

	a, _ := newDrawnApp(t, Options{Agent: sess, Services: backend.SessionServices(sess), Config: cfg, Root: root}, 100, 30)
	for _, name := range byService {
		if a.commands.Find(name) == nil {
			t.Errorf("/%s is not offered with fawn's agent", name)
		}
	}
	if a.task.files == nil {
		t.Error("@-mentions are not offered with fawn's agent")
	}

	bare, _ := newDrawnApp(t, Options{Agent: sess, Config: cfg, Root: root}, 100, 30)
	for _, name := range byService {
		if bare.commands.Find(name) != nil {
			t.Errorf("/%s is offered without the service that runs it", name)
		}
	}
	if bare.task.files != nil {
		t.Error("@-mentions are offered without an attacher")
	}
}
