package tools

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"
)

//go:embed view_output.md
var viewOutputDoc string

// viewOutputMaxBytes caps one page of output, as a command's result is.
const viewOutputMaxBytes = 32 << 10

// ViewOutput is the view_output tool: pages through the whole output of
// an earlier command, kept by Outputs.
type ViewOutput struct {
	toolInfo
	out *Outputs
}

// NewViewOutput returns the view_output tool reading out.
func NewViewOutput(out *Outputs) *ViewOutput {
	return &ViewOutput{
		out: out,
		toolInfo: toolInfo{
			name: "view_output",
			desc: viewOutputDoc,
			params: map[string]*schema.ParameterInfo{
				"id":     {Type: schema.String, Desc: "The id the bash result names.", Required: true},
				"offset": {Type: schema.Integer, Desc: "First line, 1-based (default 1)."},
				"limit":  {Type: schema.Integer, Desc: "How many lines (default 200, at most 2000)."},
			},
		},
	}
}

type viewOutputArgs struct {
	ID     string  `json:"id"`
	Offset flexInt `json:"offset"`
	Limit  flexInt `json:"limit"`
}

type viewOutputQuery struct {
	ID            string
	Offset, Limit int
}

func (v *ViewOutput) parse(argsJSON string) (viewOutputQuery, error) {
	var a viewOutputArgs
	if err := decodeArgs(v.name, argsJSON, &a); err != nil {
		return viewOutputQuery{}, err
	}
	if _, err := v.out.Path(a.ID); err != nil {
		return viewOutputQuery{}, err
	}
	q := viewOutputQuery{ID: a.ID, Offset: max(a.Offset.N, 1), Limit: 200}
	if a.Limit.Set && a.Limit.N > 0 {
		q.Limit = min(a.Limit.N, 2000)
	}
	return q, nil
}

// Plan says which output is read; it reads fawn's own files only.
func (v *ViewOutput) Plan(ctx context.Context, argsJSON string) (Action, error) {
	a, err := v.parse(argsJSON)
	if err != nil {
		return Action{}, err
	}
	return Action{Kind: KindRead, Summary: fmt.Sprintf("Read the output of %s from line %d", a.ID, a.Offset)}, nil
}

// InvokableRun returns the lines asked for, numbered.
func (v *ViewOutput) InvokableRun(ctx context.Context, argsJSON string, _ ...tool.Option) (string, error) {
	a, err := v.parse(argsJSON)
	if err != nil {
		return "", err
	}
	lines, total, err := v.out.readLines(a.ID, a.Offset, a.Limit, viewOutputMaxBytes)
	if err != nil {
		return "", err
	}
	if a.Offset > total {
		return fmt.Sprintf("[the output has %s; offset %d is past its end]", plural(total, "line", "lines"), a.Offset), nil
	}
	var sb strings.Builder
	for i, l := range lines {
		fmt.Fprintf(&sb, "%6d\t%s\n", a.Offset+i, l)
	}
	last := a.Offset + len(lines) - 1
	note := fmt.Sprintf("[lines %d–%d of %d", a.Offset, last, total)
	if last < total {
		note += fmt.Sprintf("; the next page starts at offset %d", last+1)
	}
	sb.WriteString(note + "]")
	return sb.String(), nil
}
