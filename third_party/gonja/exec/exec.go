// Package exec is fawn's stand-in for gonja's exec package: the statement
// and filter sets are empty and every template is refused (see ../FAWN.md).
package exec

import (
	"errors"
	"fmt"

	"github.com/nikolalohinski/gonja/config"
	"github.com/nikolalohinski/gonja/nodes"
	"github.com/nikolalohinski/gonja/parser"
)

// ErrNotBuiltIn is the error for any use of a template.
var ErrNotBuiltIn = errors.New("jinja2 templates are not built into fawn (use schema.FString or schema.GoTemplate)")

// Evaluator would evaluate a template.
type Evaluator struct{}

// Value is a value a filter takes or gives.
type Value struct{ Val any }

// AsValue wraps v.
func AsValue(v any) *Value { return &Value{Val: v} }

// VarArgs are a filter's parameters.
type VarArgs struct{ Args []*Value }

// StatementParser parses a statement.
type StatementParser func(parser *parser.Parser, args *parser.Parser) (nodes.Statement, error)

// FilterFunction is a filter.
type FilterFunction func(e *Evaluator, in *Value, params *VarArgs) *Value

// StatementSet is the set of statements an environment knows: empty.
type StatementSet map[string]StatementParser

// Exists reports whether the statement is known.
func (s StatementSet) Exists(name string) bool { _, ok := s[name]; return ok }

// Replace replaces a known statement.
func (s StatementSet) Replace(name string, p StatementParser) error {
	if !s.Exists(name) {
		return fmt.Errorf("statement %q does not exist", name)
	}
	s[name] = p
	return nil
}

// FilterSet is the set of filters an environment knows: empty.
type FilterSet map[string]FilterFunction

// Exists reports whether the filter is known.
func (f FilterSet) Exists(name string) bool { _, ok := f[name]; return ok }

// Replace replaces a known filter.
func (f FilterSet) Replace(name string, fn FilterFunction) error {
	if !f.Exists(name) {
		return fmt.Errorf("filter %q does not exist", name)
	}
	f[name] = fn
	return nil
}

// EvalConfig is an environment's configuration, statements and filters.
type EvalConfig struct {
	Config     *config.Config
	Statements StatementSet
	Filters    FilterSet
}

// NewEvalConfig returns a configuration with no statements and no filters.
func NewEvalConfig(cfg *config.Config) *EvalConfig {
	return &EvalConfig{Config: cfg, Statements: StatementSet{}, Filters: FilterSet{}}
}

// Template is a parsed template; none is ever made.
type Template struct{}

// Execute refuses: no template is built in.
func (tpl *Template) Execute(ctx map[string]any) (string, error) {
	return "", ErrNotBuiltIn
}
