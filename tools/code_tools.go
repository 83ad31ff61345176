package tools

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"
)

var (
	//go:embed diagnostics.md
	diagnosticsDoc string
	//go:embed definition.md
	definitionDoc string
	//go:embed references.md
	referencesDoc string
	//go:embed hover.md
	hoverDoc string
	//go:embed symbols.md
	symbolsDoc string
)

// Code tools: diagnostics, definition, references, hover and symbols, which
// ask the project's language servers (Env.Code). They only read.
type CodeTool struct {
	toolInfo
	env *Env
}

// maxRefs bounds the references listed.
const maxRefs = 100

// CodeTools returns the code tools working in env, or nil when env has no
// language servers.
func CodeTools(env *Env) []Tool {
	if env.Code == nil {
		return nil
	}
	env.ensureState()
	path := &schema.ParameterInfo{Type: schema.String, Desc: "File, relative to the project root."}
	at := func() map[string]*schema.ParameterInfo {
		return map[string]*schema.ParameterInfo{
			"path":   {Type: schema.String, Desc: "File, relative to the project root.", Required: true},
			"line":   {Type: schema.Integer, Desc: "Line number (1-based), as text_editor view shows it.", Required: true},
			"symbol": {Type: schema.String, Desc: "The identifier on that line to ask about (its first occurrence is used)."},
			"column": {Type: schema.Integer, Desc: "Column (1-based, in characters) instead of symbol."},
		}
	}
	mk := func(name, desc string, params map[string]*schema.ParameterInfo) Tool {
		return &CodeTool{env: env, toolInfo: toolInfo{name: name, desc: desc, params: params}}
	}
	return []Tool{
		mk("diagnostics", diagnosticsDoc, map[string]*schema.ParameterInfo{"path": {Type: schema.String, Desc: "File, relative to the project root; omit for every problem the servers know in the project."}}),
		mk("definition", definitionDoc, at()),
		mk("references", referencesDoc, at()),
		mk("hover", hoverDoc, at()),
		mk("symbols", symbolsDoc, map[string]*schema.ParameterInfo{
			"path":  path,
			"query": {Type: schema.String, Desc: "Without path: find symbols of the whole project whose name matches this."},
		}),
	}
}

type codeArgs struct {
	Path   string  `json:"path"`
	Line   flexInt `json:"line"`
	Column flexInt `json:"column"`
	Symbol string  `json:"symbol"`
	Query  string  `json:"query"`
}

type codeQuery struct {
	abs, rel  string
	line, col int
	query     string
}

func (c *CodeTool) parse(argsJSON string) (*codeQuery, error) {
	var a codeArgs
	if err := decodeArgs(c.name, argsJSON, &a); err != nil {
		return nil, err
	}
	q := &codeQuery{query: strings.TrimSpace(a.Query)}
	if strings.TrimSpace(a.Path) != "" {
		abs, err := c.env.Resolve(a.Path)
		if err != nil {
			return nil, err
		}
		if err := c.env.checkReadable(abs); err != nil {
			return nil, err
		}
		q.abs, q.rel = abs, c.env.Rel(abs)
	}
	switch c.name {
	case "diagnostics":
		return q, nil
	case "symbols":
		if q.abs == "" && q.query == "" {
			return nil, errors.New("symbols needs a path (a file's outline) or a query (symbols of the whole project)")
		}
		return q, nil
	}
	if q.abs == "" {
		return nil, fmt.Errorf("%s needs a path", c.name)
	}
	if !a.Line.Set || a.Line.N < 1 {
		return nil, fmt.Errorf("%s needs a line (1-based)", c.name)
	}
	q.line = a.Line.N
	switch {
	case a.Column.Set && a.Column.N >= 1:
		q.col = a.Column.N
	default:
		col, err := findColumn(q.abs, q.rel, q.line, strings.TrimSpace(a.Symbol))
		if err != nil {
			return nil, err
		}
		q.col = col
	}
	return q, nil
}

// findColumn finds symbol on line of the file (its first non-blank
// character when symbol is "").
func findColumn(abs, rel string, line int, symbol string) (int, error) {
	b, err := os.ReadFile(abs)
	if err != nil {
		return 0, pathError(rel, err)
	}
	lines := strings.Split(string(b), "\n")
	if line > len(lines) {
		return 0, fmt.Errorf("%s has %d lines; line %d is past its end", rel, len(lines), line)
	}
	text := strings.TrimSuffix(lines[line-1], "\r")
	i := len(text) - len(strings.TrimLeft(text, " \t"))
	if symbol != "" {
		i = strings.Index(text, symbol)
		if i < 0 {
			return 0, fmt.Errorf("%q is not on line %d of %s, which reads: %s", symbol, line, rel, clip(strings.TrimSpace(text), 200))
		}
	}
	return utf8.RuneCountInString(text[:i]) + 1, nil
}

// Plan says what is asked; the code tools only read.
func (c *CodeTool) Plan(ctx context.Context, argsJSON string) (Action, error) {
	q, err := c.parse(argsJSON)
	if err != nil {
		return Action{}, err
	}
	s := c.name
	switch {
	case q.line > 0:
		s += fmt.Sprintf(" %s:%d:%d", q.rel, q.line, q.col)
	case q.rel != "":
		s += " " + q.rel
	case q.query != "":
		s += " " + q.query
	default:
		s += " (project)"
	}
	return Action{Kind: KindRead, Summary: s, Path: q.abs}, nil
}

// InvokableRun asks the language server.
func (c *CodeTool) InvokableRun(ctx context.Context, argsJSON string, _ ...tool.Option) (string, error) {
	q, err := c.parse(argsJSON)
	if err != nil {
		return "", err
	}
	code := c.env.Code
	ctx = c.env.codeContext(ctx)
	switch c.name {
	case "diagnostics":
		return code.Diagnostics(ctx, q.abs)
	case "hover":
		h, err := code.Hover(ctx, q.abs, q.line, q.col)
		if err != nil {
			return "", err
		}
		if h == "" {
			return fmt.Sprintf("The language server has nothing to say about %s:%d:%d.", q.rel, q.line, q.col), nil
		}
		return Truncate(h, 200, 8000), nil
	case "symbols":
		syms, err := code.Symbols(ctx, q.abs, q.query)
		if err != nil {
			return "", err
		}
		return c.symbols(q, syms), nil
	}
	locs, err := code.Locate(ctx, c.name, q.abs, q.line, q.col)
	if err != nil {
		return "", err
	}
	// A place in a file the user's rules forbid reading is left out: its
	// line would show the file's content.
	deny := c.env.denyFilter()
	kept := locs[:0:0]
	for _, l := range locs {
		if !deny.hides(c.env.Rel(l.Path)) {
			kept = append(kept, l)
		}
	}
	locs = kept
	if len(locs) == 0 && deny.note() != "" {
		return fmt.Sprintf("No %s to show for %s:%d:%d.\n%s", c.name, q.rel, q.line, q.col, deny.note()), nil
	}
	if len(locs) == 0 {
		return fmt.Sprintf("No %s found for %s:%d:%d (is there an identifier there?).", c.name, q.rel, q.line, q.col), nil
	}
	// The editor opens the (first) place found.
	Emit(ctx, FileViewed{Path: locs[0].Path, Start: locs[0].Line, End: locs[0].Line})
	var b strings.Builder
	if c.name == "definition" {
		b.WriteString("Defined at:\n")
	} else {
		fmt.Fprintf(&b, "%d references:\n", len(locs))
	}
	for i, l := range locs {
		if i == maxRefs {
			fmt.Fprintf(&b, "… and %d more\n", len(locs)-maxRefs)
			break
		}
		fmt.Fprintf(&b, "%s:%d:%d: %s\n", c.env.Rel(l.Path), l.Line, l.Col, clip(l.Text, 200))
	}
	if n := deny.note(); n != "" {
		b.WriteString(n)
	}
	return strings.TrimRight(b.String(), "\n"), nil
}

func (c *CodeTool) symbols(q *codeQuery, syms []CodeSymbol) string {
	deny := c.env.denyFilter()
	kept := syms[:0:0]
	for _, s := range syms {
		if s.Path == "" || !deny.hides(c.env.Rel(s.Path)) {
			kept = append(kept, s)
		}
	}
	syms = kept
	if len(syms) == 0 && deny.note() != "" {
		return fmt.Sprintf("No symbol of the project to show for %q.\n%s", q.query, deny.note())
	}
	if len(syms) == 0 {
		if q.abs != "" {
			return "No symbols in " + q.rel + "."
		}
		return fmt.Sprintf("No symbol of the project matches %q.", q.query)
	}
	var b strings.Builder
	for i, s := range syms {
		if i == 500 {
			fmt.Fprintf(&b, "… and %d more\n", len(syms)-500)
			break
		}
		detail := ""
		if s.Detail != "" {
			detail = " " + clip(s.Detail, 100)
		}
		if q.abs != "" {
			fmt.Fprintf(&b, "%s%s %s%s (line %d)\n", strings.Repeat("  ", s.Depth), s.Kind, s.Name, detail, s.Line)
		} else {
			fmt.Fprintf(&b, "%s %s%s: %s:%d\n", s.Kind, s.Name, detail, c.env.Rel(s.Path), s.Line)
		}
	}
	b.WriteString(deny.note())
	return strings.TrimRight(b.String(), "\n")
}
