// Package gonja is fawn's stand-in for github.com/nikolalohinski/gonja, the
// Jinja2 engine eino's schema package links for Message.Format with
// schema.Jinja2, which fawn never uses. It keeps the API eino calls and
// refuses every template with ErrNotBuiltIn. See FAWN.md.
package gonja

import (
	"github.com/nikolalohinski/gonja/config"
	"github.com/nikolalohinski/gonja/exec"
)

// ErrNotBuiltIn is what FromString returns for every template.
var ErrNotBuiltIn = exec.ErrNotBuiltIn

// Loader would find templates by name; nothing is loaded here.
type Loader interface{}

// DefaultLoader is the loader eino passes to NewEnvironment.
var DefaultLoader Loader

// Environment holds the statements and filters a template may use: none.
type Environment struct {
	*exec.EvalConfig
	Loader Loader
}

// NewEnvironment returns an environment with no statements and no filters.
func NewEnvironment(cfg *config.Config, loader Loader) *Environment {
	return &Environment{EvalConfig: exec.NewEvalConfig(cfg), Loader: loader}
}

// FromString refuses the template: Jinja2 is not built into fawn.
func (env *Environment) FromString(tpl string) (*exec.Template, error) {
	return nil, ErrNotBuiltIn
}
