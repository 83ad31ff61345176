package commands

import (
	"context"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/agent/background"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/tools"
)

// /context says where background work goes: with no entry in
// models.background it shares chat_model's slot and cache; with one, it
// goes there.
func TestContextSaysWhereBackgroundWorkGoes(t *testing.T) {
	line := func(bg []string) string {
		t.Helper()
		cfg := &config.Config{ConfigDir: t.TempDir(), Models: config.Models{
			Chat:       config.Model{Type: "openai", Model: "m", BaseURL: "http://127.0.0.1:9/v1"},
			Named:      map[string]config.Model{"spare": {Type: "openai", Model: "s", BaseURL: "http://127.0.0.1:9/v1"}},
			Background: bg,
		}}
		s, err := agent.NewSession(context.Background(), agent.Options{Config: cfg, Env: &tools.Env{Root: t.TempDir()}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		return backgroundLine(background.For(s.Background()))
	}
	if got := line(nil); !strings.Contains(got, "shares chat_model's slot and prompt cache") {
		t.Errorf("with no background entry /context says %q", got)
	}
	if got := line([]string{"spare"}); !strings.Contains(got, "goes to spare (models.background)") {
		t.Errorf("with a background entry /context says %q", got)
	}
}
