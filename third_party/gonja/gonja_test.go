package gonja

import (
	"errors"
	"fmt"
	"testing"

	"github.com/nikolalohinski/gonja/config"
	"github.com/nikolalohinski/gonja/exec"
	"github.com/nikolalohinski/gonja/nodes"
	"github.com/nikolalohinski/gonja/parser"
)

// The calls eino's schema package makes (getJinjaEnv and formatContent),
// in its order: the environment builds, nothing is left to disable, and a
// template is refused with a message that says why.
func TestEinoUseIsRefusedClearly(t *testing.T) {
	env := NewEnvironment(config.DefaultConfig, DefaultLoader)
	for _, name := range []string{"include", "extends", "from", "import"} {
		if env.Statements.Exists(name) {
			t.Fatalf("statement %s exists", name)
		}
		err := env.Statements.Replace(name, func(*parser.Parser, *parser.Parser) (nodes.Statement, error) {
			return nil, fmt.Errorf("disabled")
		})
		if err == nil {
			t.Fatalf("replacing the missing statement %s: want an error", name)
		}
	}
	for _, name := range []string{"file", "fileset"} {
		if env.Filters.Exists(name) {
			t.Fatalf("filter %s exists", name)
		}
		if env.Filters.Replace(name, func(*exec.Evaluator, *exec.Value, *exec.VarArgs) *exec.Value { return exec.AsValue(nil) }) == nil {
			t.Fatalf("replacing the missing filter %s: want an error", name)
		}
	}
	tpl, err := env.FromString("hello {{ name }}")
	if tpl != nil || !errors.Is(err, ErrNotBuiltIn) {
		t.Fatalf("FromString = %v, %v; want ErrNotBuiltIn", tpl, err)
	}
	if _, err := (&exec.Template{}).Execute(map[string]any{"name": "x"}); !errors.Is(err, ErrNotBuiltIn) {
		t.Fatalf("Execute: %v", err)
	}
}
