package agent

import (
	"context"
	"fmt"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
)

// The graph's nodes.
const (
	nodeModel = "model"
	nodeTools = "tools"
	// nodeTasks runs a response's calls in parallel: used when every call
	// is a task (subagents work at once; nothing else is ordered by them).
	nodeTasks = "tasks"
	nodeLimit = "step_limit"
)

// buildGraph compiles the agent loop:
//
//	START → model ─┬─ tool calls ──→ tools ──→ model …
//	               ├─ only tasks ──→ tasks ──→ model … (in parallel)
//	               ├─ step limit ──→ step_limit → END
//	               └─ no calls ────→ END
//
// The graph's state is the session's conversation: every run gets the same
// object, so history persists across turns. The model node appends the
// user's message, the tools node its results, and each node's output is
// appended as it completes, so a cancelled run leaves whole messages only.
func (s *Session) buildGraph(ctx context.Context) (compose.Runnable[[]*schema.Message, *schema.Message], error) {
	g := compose.NewGraph[[]*schema.Message, *schema.Message](
		compose.WithGenLocalState(func(context.Context) *conversation { return s.conv }))

	modelPre := func(ctx context.Context, in []*schema.Message, c *conversation) ([]*schema.Message, error) {
		t := turnOf(ctx)
		// Tool results were appended by the tools node; only the user's
		// message (the graph's input) is new here.
		var fresh []*schema.Message
		for _, m := range in {
			if m.Role != schema.Tool {
				fresh = append(fresh, m)
			}
		}
		c.append(t.gen, fresh...)
		return s.requestNow(c), nil
	}
	modelPost := func(ctx context.Context, out *schema.Message, c *conversation) (*schema.Message, error) {
		t := turnOf(ctx)
		c.append(t.gen, out)
		t.batch = out.ToolCalls
		return out, nil
	}
	if err := g.AddLambdaNode(nodeModel, compose.InvokableLambda(s.modelStep),
		compose.WithStatePreHandler(modelPre), compose.WithStatePostHandler(modelPost), compose.WithNodeName(nodeModel)); err != nil {
		return nil, err
	}

	base := make([]tool.BaseTool, len(s.tools))
	for i, tl := range s.tools {
		base[i] = tl
	}
	toolNode := func(sequential bool) (*compose.ToolsNode, error) {
		return compose.NewToolNode(ctx, &compose.ToolsNodeConfig{
			Tools:               base,
			ExecuteSequentially: sequential, // in the order the model gave them: a read must see the write before it
			UnknownToolsHandler: s.unknownTool,
			ToolCallMiddlewares: []compose.ToolMiddleware{{Invokable: s.toolMiddleware}},
		})
	}
	tn, err := toolNode(true)
	if err != nil {
		return nil, err
	}
	parallel, err := toolNode(false)
	if err != nil {
		return nil, err
	}
	toolsPost := func(ctx context.Context, out []*schema.Message, c *conversation) ([]*schema.Message, error) {
		// Each result joined the conversation as its call ended (toolDone);
		// only one that did not (none should) is added here.
		t := turnOf(ctx)
		c.appendMissing(t.gen, out)
		// Images from the tools go to the model after the results, in a
		// message of their own: tool messages carry text only.
		if imgs := t.takeImages(); len(imgs) > 0 && s.AcceptsImages() {
			c.append(t.gen, toolImagesMessage(imgs))
		}
		return out, nil
	}
	if err := g.AddToolsNode(nodeTools, tn, compose.WithStatePostHandler(toolsPost), compose.WithNodeName(nodeTools)); err != nil {
		return nil, err
	}
	if err := g.AddToolsNode(nodeTasks, parallel, compose.WithStatePostHandler(toolsPost), compose.WithNodeName(nodeTasks)); err != nil {
		return nil, err
	}

	if err := g.AddLambdaNode(nodeLimit, compose.InvokableLambda(s.stepLimit), compose.WithNodeName(nodeLimit)); err != nil {
		return nil, err
	}

	route := func(ctx context.Context, msg *schema.Message) (string, error) {
		switch {
		case len(msg.ToolCalls) == 0:
			return compose.END, nil
		case turnOf(ctx).steps >= s.maxSteps:
			return nodeLimit, nil
		case onlyTasks(msg.ToolCalls):
			return nodeTasks, nil
		}
		return nodeTools, nil
	}
	for _, err := range []error{
		g.AddEdge(compose.START, nodeModel),
		g.AddBranch(nodeModel, compose.NewGraphBranch(route, map[string]bool{nodeTools: true, nodeTasks: true, nodeLimit: true, compose.END: true})),
		g.AddEdge(nodeTools, nodeModel),
		g.AddEdge(nodeTasks, nodeModel),
		g.AddEdge(nodeLimit, compose.END),
	} {
		if err != nil {
			return nil, err
		}
	}
	return g.Compile(ctx, compose.WithGraphName("fawn"), compose.WithNodeTriggerMode(compose.AnyPredecessor))
}

// requestNow is the next model request: the system prompt and the
// conversation.
func (s *Session) requestNow(c *conversation) []*schema.Message {
	msgs := request(s.systemPrompt(), c.snapshot())
	if !s.AcceptsImages() {
		msgs = withoutImages(msgs) // a model switched to since cannot take them
	}
	return msgs
}

// stepLimit answers the calls of the last response without running them and
// ends the turn: the model asked for more steps than agent.max_steps allows.
func (s *Session) stepLimit(ctx context.Context, msg *schema.Message) (*schema.Message, error) {
	t := turnOf(ctx)
	t.limitHit = true
	res := fmt.Sprintf("error: not run: fawn stopped the turn after %d model steps (agent.max_steps). Summarise where you are; the user can tell you to continue.", s.maxSteps)
	t.batch = nil // no reminder: the turn ends here
	for _, tc := range msg.ToolCalls {
		t.toolCalls++
		t.emit(Event{Type: EventToolRunEnded, ID: tc.ID, Name: tc.Function.Name, Result: res, IsError: true})
		s.toolDone(t, tc.ID, tc.Function.Name, res)
	}
	return msg, nil
}

// onlyTasks reports whether a response's calls are several task calls.
func onlyTasks(calls []schema.ToolCall) bool {
	if len(calls) < 2 {
		return false
	}
	for _, c := range calls {
		if c.Function.Name != "task" {
			return false
		}
	}
	return true
}
