package serve

import (
	"context"
	"fmt"
	"slices"

	acp "github.com/coder/acp-go-sdk"

	"github.com/fawn-ide/fawn/agent"
)

// MCP is what the project's MCP servers offer beside their tools: their
// prompts, offered as the session's slash commands (/mcp__SERVER__PROMPT
// args), and their resources, attached when the prompt's text names one
// as @SERVER:URI (an editor's own mentions are files; it knows nothing of
// MCP resources, so the user types them).
type MCP interface {
	// Prompts are the prompts of the servers ready now.
	Prompts() []Command
	// Expand is the prompt "/name args" stands for; ok is false when
	// name is no server's prompt.
	Expand(ctx context.Context, name, args string) (text string, ok bool, err error)
	// Resource reads the resource ref ("SERVER:URI") names; ok is false
	// when ref names no configured server.
	Resource(ctx context.Context, ref string) (att agent.Attachment, ok bool, err error)
	// Watch calls f whenever the servers' prompts may have changed (a
	// server became ready, listed them again, or stopped).
	Watch(f func())
}

// Command is a slash command offered to the client.
type Command struct {
	Name, Description string
	// Hint names the arguments ("" for none).
	Hint string
}

func (c Command) available() acp.AvailableCommand {
	ac := acp.AvailableCommand{Name: c.Name, Description: c.Description}
	if c.Hint != "" {
		ac.Input = &acp.AvailableCommandInput{Unstructured: &acp.UnstructuredCommandInput{Hint: c.Hint}}
	}
	return ac
}

// withResources attaches the MCP resources the text of in names as
// @SERVER:URI, as the chat's @-mentions do; a mention that names no
// server is left as it is (a file the agent may read). A resource that
// cannot be read fails the prompt with the reason, rather than the agent
// answering without what the user pointed at.
func withResources(ctx context.Context, m MCP, root string, in agent.Input) (agent.Input, error) {
	var res []agent.Mentioned
	for _, mn := range agent.MentionsIn(in.Text) {
		att, ok, err := m.Resource(ctx, mn.Path)
		if !ok {
			continue
		}
		if err != nil {
			return in, fmt.Errorf("@%s: %v", mn.Path, err)
		}
		res = append(res, agent.Mentioned{Mention: mn, Att: att})
	}
	if len(res) == 0 {
		return in, nil
	}
	return in.WithMentions(root, res), nil
}

// sendCommands tells the client the session's slash commands when they
// differ from what it was last told.
func (s *Server) sendCommands(ss *sessionState) {
	// Held while sending: the client is told the lists in order.
	ss.cmdMu.Lock()
	defer ss.cmdMu.Unlock()
	cmds := availableCommands(ss.p)
	same := slices.EqualFunc(cmds, ss.cmdsSent, func(a, b acp.AvailableCommand) bool {
		return a.Name == b.Name && a.Description == b.Description
	})
	ss.cmdsSent = cmds
	if same { // none at first, or no change since
		return
	}
	s.send(ss.id, acp.SessionUpdate{AvailableCommandsUpdate: &acp.SessionAvailableCommandsUpdate{AvailableCommands: cmds}})
}
