package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/fawn-ide/fawn/tools"
)

// at opens abs on its server when needed and converts a one-based line and
// column (in characters) into the server's position.
func (m *Manager) at(ctx context.Context, abs string, line, col int) (*client, docPosition, error) {
	c, _, err := m.clientFor(ctx, abs)
	if err != nil {
		return nil, docPosition{}, err
	}
	if !c.isOpen(abs) {
		b, err := os.ReadFile(abs)
		if err != nil {
			return nil, docPosition{}, err
		}
		if _, _, err := c.sync(abs, string(b)); err != nil {
			return nil, docPosition{}, err
		}
	}
	text := c.text(abs)
	if n := strings.Count(text, "\n") + 1; line < 1 || line > n {
		return nil, docPosition{}, fmt.Errorf("line %d is outside %s (1 to %d)", line, m.rel(abs), n)
	}
	l := lineAt(text, line-1)
	return c, docPosition{TextDocument: docID{URI: URI(abs)}, Position: Position{Line: line - 1, Character: offset(l, col, c.utf8)}}, nil
}

func (m *Manager) location(c *client, uri string, r Range) tools.CodeLocation {
	path := PathOf(uri)
	text := c.text(path)
	l := lineAt(text, r.Start.Line)
	return tools.CodeLocation{Path: path, Line: r.Start.Line + 1, Col: column(l, r.Start.Character, c.utf8), Text: strings.TrimSpace(l)}
}

// Locate implements tools.CodeIntel.
func (m *Manager) Locate(ctx context.Context, what, abs string, line, col int) ([]tools.CodeLocation, error) {
	c, pos, err := m.at(ctx, abs, line, col)
	if err != nil {
		return nil, err
	}
	var raw json.RawMessage
	switch what {
	case "definition":
		err = c.call(ctx, "textDocument/definition", pos, &raw)
	case "references":
		err = c.call(ctx, "textDocument/references", map[string]any{
			"textDocument": pos.TextDocument, "position": pos.Position, "context": map[string]bool{"includeDeclaration": true},
		}, &raw)
	default:
		return nil, fmt.Errorf("unknown query %q", what)
	}
	if err != nil {
		return nil, err
	}
	var locs []Location
	var one Location
	var links []locationLink
	switch {
	case len(raw) == 0 || string(raw) == "null":
	case json.Unmarshal(raw, &one) == nil && one.URI != "":
		locs = []Location{one}
	case json.Unmarshal(raw, &links) == nil && len(links) > 0 && links[0].TargetURI != "":
		for _, l := range links {
			locs = append(locs, Location{URI: l.TargetURI, Range: l.TargetSelectionRange})
		}
	default:
		_ = json.Unmarshal(raw, &locs)
	}
	out := make([]tools.CodeLocation, 0, len(locs))
	for _, l := range locs {
		if PathOf(l.URI) == "" {
			continue
		}
		out = append(out, m.location(c, l.URI, l.Range))
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Line < out[j].Line
	})
	return out, nil
}

// Hover implements tools.CodeIntel.
func (m *Manager) Hover(ctx context.Context, abs string, line, col int) (string, error) {
	c, pos, err := m.at(ctx, abs, line, col)
	if err != nil {
		return "", err
	}
	var res struct {
		Contents json.RawMessage `json:"contents"`
	}
	if err := c.call(ctx, "textDocument/hover", pos, &res); err != nil {
		return "", err
	}
	return strings.TrimSpace(hoverText(res.Contents)), nil
}

// hoverText flattens MarkupContent, a MarkedString or a list of them.
func hoverText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var mk struct {
		Kind, Value, Language string
	}
	if json.Unmarshal(raw, &mk) == nil && mk.Value != "" {
		if mk.Language != "" {
			return "```" + mk.Language + "\n" + mk.Value + "\n```"
		}
		return mk.Value
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil {
		parts := make([]string, 0, len(list))
		for _, r := range list {
			if t := hoverText(r); t != "" {
				parts = append(parts, t)
			}
		}
		return strings.Join(parts, "\n\n")
	}
	return ""
}

// Symbols implements tools.CodeIntel.
func (m *Manager) Symbols(ctx context.Context, abs, query string) ([]tools.CodeSymbol, error) {
	if abs != "" {
		c, pos, err := m.at(ctx, abs, 1, 1)
		if err != nil {
			return nil, err
		}
		var raw json.RawMessage
		if err := c.call(ctx, "textDocument/documentSymbol", map[string]any{"textDocument": pos.TextDocument}, &raw); err != nil {
			return nil, err
		}
		var out []tools.CodeSymbol
		var tree []documentSymbol
		if json.Unmarshal(raw, &tree) == nil && len(tree) > 0 && (tree[0].SelectionRange != Range{} || tree[0].Range != Range{}) {
			var walk func([]documentSymbol, int)
			walk = func(ds []documentSymbol, depth int) {
				for _, d := range ds {
					out = append(out, tools.CodeSymbol{Name: d.Name, Kind: symbolKind(d.Kind), Detail: d.Detail, Depth: depth,
						CodeLocation: m.location(c, pos.TextDocument.URI, d.SelectionRange)})
					walk(d.Children, depth+1)
				}
			}
			walk(tree, 0)
			return out, nil
		}
		var flat []symbolInformation
		_ = json.Unmarshal(raw, &flat)
		for _, s := range flat {
			out = append(out, tools.CodeSymbol{Name: s.Name, Kind: symbolKind(s.Kind), Detail: s.ContainerName, CodeLocation: m.location(c, s.Location.URI, s.Location.Range)})
		}
		return out, nil
	}
	var out []tools.CodeSymbol
	var errs []string
	for _, in := range m.instances() {
		if in.client == nil {
			continue
		}
		var flat []symbolInformation
		if err := in.client.call(ctx, "workspace/symbol", map[string]string{"query": query}, &flat); err != nil {
			errs = append(errs, err.Error())
			continue
		}
		for _, s := range flat {
			if PathOf(s.Location.URI) == "" {
				continue
			}
			out = append(out, tools.CodeSymbol{Name: s.Name, Kind: symbolKind(s.Kind), Detail: s.ContainerName, CodeLocation: m.location(in.client, s.Location.URI, s.Location.Range)})
		}
	}
	if len(out) == 0 && len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	if len(m.instances()) == 0 {
		return nil, fmt.Errorf("no language server is running yet: give a path to start the file's server")
	}
	return out, nil
}
