package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/tools"
)

// askTool is ask_user: the model asks the user a question with 2–6
// options, in the IDE's dialog (a number picks; "other…" takes the user's
// own words). Headless nobody can answer, so the call returns at once and
// says so, whatever the mode: it never blocks.
type askTool struct{ s *Session }

func (t *askTool) Name() string { return "ask_user" }

func (t *askTool) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{
		Name: "ask_user",
		Desc: "Ask the user a question and wait for the answer: when a decision is theirs to make (a design choice, which of several ways, whether to go on) and you cannot find the answer in the project. " +
			"Give 2 to 6 short options; the user picks one or answers in their own words. Do not ask for permission to run a tool: the tools ask for themselves.",
		ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{
			"question": {Type: schema.String, Required: true, Desc: "The question, complete and on its own."},
			"options": {Type: schema.Array, Required: true, Desc: "2 to 6 possible answers, each short.",
				ElemInfo: &schema.ParameterInfo{Type: schema.String}},
		}),
	}, nil
}

type askArgs struct {
	Question string   `json:"question"`
	Options  []string `json:"options"`
}

func decodeAsk(argsJSON string) (askArgs, error) {
	var a askArgs
	if err := json.Unmarshal([]byte(argsJSON), &a); err != nil {
		return a, fmt.Errorf("the arguments of ask_user do not decode: %v (want question, a string, and options, a list of 2 to 6 strings)", err)
	}
	a.Question = strings.TrimSpace(a.Question)
	var opts []string
	for _, o := range a.Options {
		if o = strings.TrimSpace(o); o != "" {
			opts = append(opts, o)
		}
	}
	a.Options = opts
	switch {
	case a.Question == "":
		return a, fmt.Errorf("ask_user needs a question")
	case len(a.Options) < 2 || len(a.Options) > 6:
		return a, fmt.Errorf("ask_user takes 2 to 6 options; it got %d", len(a.Options))
	}
	return a, nil
}

// Plan reads: asking changes nothing.
func (t *askTool) Plan(_ context.Context, argsJSON string) (tools.Action, error) {
	a, err := decodeAsk(argsJSON)
	if err != nil {
		return tools.Action{}, err
	}
	return tools.Action{Kind: tools.KindRead, Summary: "Ask: " + a.Question}, nil
}

func (t *askTool) InvokableRun(ctx context.Context, argsJSON string, _ ...tool.Option) (string, error) {
	a, err := decodeAsk(argsJSON)
	if err != nil {
		return "", err
	}
	s := t.s
	if !s.interactive {
		return "", fmt.Errorf("no user can answer: fawn is running headless (fawn -p), in %s mode. Do not ask again: choose the most reasonable option yourself, say which and why in your answer, or stop and put the question in your final answer", s.Mode())
	}
	tr := turnOf(ctx)
	id := compose.GetToolCallID(ctx)
	req := PermissionRequest{ID: id, Tool: "ask_user", Action: tools.Action{Kind: tools.KindRead, Summary: a.Question}, Reason: "the agent asks you", Question: &Question{Text: a.Question, Options: a.Options}}
	ans, err := s.ap.ask(ctx, req, func() {
		tr.emit(Event{Type: EventPermissionAsked, ID: id, Name: "ask_user", Action: &req.Action, Permission: &req})
	})
	if err != nil {
		return cancelledResult, nil
	}
	s.answered(tr, id, "ask_user", ans)
	if ans.Decision == Deny || strings.TrimSpace(ans.Note) == "" {
		return "The user did not answer the question. Do not ask it again unchanged: go on with what is clear, or stop and say what you need.", nil
	}
	return "The user answered: " + strings.TrimSpace(ans.Note), nil
}
