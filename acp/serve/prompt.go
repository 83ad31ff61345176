package serve

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"sync"

	acp "github.com/coder/acp-go-sdk"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/commands"
)

// Prompt runs one turn and streams it as session updates; it answers when
// the turn has ended, with "cancelled" when session/cancel ended it.
func (s *Server) Prompt(ctx context.Context, req acp.PromptRequest) (acp.PromptResponse, error) {
	ss, err := s.session(req.SessionId)
	if err != nil {
		return acp.PromptResponse{}, err
	}
	ss.turn.Lock()
	defer ss.turn.Unlock()
	if ctx.Err() != nil {
		return acp.PromptResponse{StopReason: acp.StopReasonCancelled}, nil
	}
	in, err := inputOf(req.Prompt)
	if err != nil {
		return acp.PromptResponse{}, acp.NewInvalidParams(map[string]any{"error": err.Error()})
	}
	if !ss.noticed {
		ss.noticed = true
		for _, n := range ss.p.Notices {
			s.send(ss.id, acp.UpdateAgentMessageText("fawn: "+n+"\n\n"))
		}
	}
	events, err := s.start(ctx, ss, in)
	if err != nil {
		return acp.PromptResponse{}, acp.NewInvalidParams(map[string]any{"error": err.Error()})
	}
	end := s.stream(ctx, ss, events)
	switch {
	case end == nil:
		// The agent closed its stream without ending the turn: said as
		// a failure rather than an end.
		return acp.PromptResponse{}, acp.NewInternalError(map[string]any{"error": "the turn ended without a result"})
	case errors.Is(end.Err, agent.ErrCancelled) || ctx.Err() != nil:
		return acp.PromptResponse{StopReason: acp.StopReasonCancelled}, nil
	case end.CutOff == "max_tokens":
		return acp.PromptResponse{StopReason: acp.StopReasonMaxTokens}, nil
	}
	// A turn that failed has said why in the answer (EventError); the
	// client is told the turn is over.
	return acp.PromptResponse{StopReason: acp.StopReasonEndTurn}, nil
}

// start begins the turn: a slash command fawn offers, or the prompt
// (with its images, when there are any).
func (s *Server) start(ctx context.Context, ss *sessionState, in agent.Input) (<-chan agent.Event, error) {
	p := ss.p
	if name, args, ok := slashCommand(in.Text); ok {
		if name == "compact" && p.Services.Compact != nil {
			return p.Services.Compact.Compact(ctx, args), nil
		}
		for _, c := range p.Commands {
			if c.Name == name && c.Err == nil {
				text, err := commands.Expand(c, args, p.Root)
				if err != nil {
					return nil, fmt.Errorf("/%s: %v", name, err)
				}
				in.Text = text
				break
			}
		}
		if p.MCP != nil {
			text, ok, err := p.MCP.Expand(ctx, name, args)
			if err != nil {
				return nil, fmt.Errorf("/%s: %v", name, err)
			}
			if ok {
				in.Text = text
			}
		}
	} else if p.MCP != nil {
		// Only the user's own words name resources: a command's text
		// or an MCP prompt attaches nothing.
		var err error
		if in, err = withResources(ctx, p.MCP, p.Root, in); err != nil {
			return nil, err
		}
	}
	if len(in.Images) > 0 || len(in.Attached) > 0 {
		if p.Services.Attach == nil {
			if len(in.Images) > 0 {
				return nil, errors.New("this agent takes no images")
			}
			return p.Agent.Run(ctx, in.Text), nil
		}
		return p.Services.Attach.RunInput(ctx, in), nil
	}
	return p.Agent.Run(ctx, in.Text), nil
}

// stream sends the turn's events as updates until the turn ends, and
// returns its last event. Consecutive text chunks and a command's output
// are sent together when events come faster than they are sent.
// Permission asks become session/request_permission, answered into
// Approve while the turn goes on.
func (s *Server) stream(ctx context.Context, ss *sessionState, events <-chan agent.Event) *agent.Event {
	m := newMapper(ss.p.Root)
	var pending []acp.SessionUpdate
	sendAll := func() {
		pending = append(pending, m.flush()...)
		for _, u := range merge(pending) {
			s.send(ss.id, u)
		}
		pending = pending[:0]
	}
	var asks sync.WaitGroup
	var end *agent.Event
	for ev := range events {
		switch ev.Type {
		case agent.EventTurnEnded:
			e := ev
			end = &e
		case agent.EventPermissionAsked:
			if ev.Permission == nil {
				continue
			}
			c, ups := m.ensure(ev.ID, ev.Name, ev.Agent)
			pending = append(pending, ups...)
			sendAll()
			req := permissionRequest(ss.id, ev, c.kind)
			asks.Add(1)
			go func(ev agent.Event) {
				defer asks.Done()
				resp, err := s.peer().RequestPermission(ctx, req)
				if err != nil {
					resp.Outcome = acp.NewRequestPermissionOutcomeCancelled()
				}
				ss.p.Agent.Approve(ev.ID, answerOf(ev.Permission, resp.Outcome))
			}(ev)
		default:
			pending = append(pending, m.event(ev)...)
		}
		if len(events) == 0 {
			sendAll()
		}
	}
	sendAll()
	asks.Wait()
	return end
}

// merge joins consecutive message or thought chunks into one.
func merge(ups []acp.SessionUpdate) []acp.SessionUpdate {
	var out []acp.SessionUpdate
	for _, u := range ups {
		if n := len(out); n > 0 {
			last := &out[n-1]
			if t, ok := textOf(u.AgentMessageChunk); ok {
				if lt, lok := textOf(last.AgentMessageChunk); lok {
					*last = acp.UpdateAgentMessageText(lt + t)
					continue
				}
			}
			if t, ok := thoughtOf(u.AgentThoughtChunk); ok {
				if lt, lok := thoughtOf(last.AgentThoughtChunk); lok {
					*last = acp.UpdateAgentThoughtText(lt + t)
					continue
				}
			}
		}
		out = append(out, u)
	}
	return out
}

func textOf(c *acp.SessionUpdateAgentMessageChunk) (string, bool) {
	if c == nil || c.Content.Text == nil {
		return "", false
	}
	return c.Content.Text.Text, true
}

func thoughtOf(c *acp.SessionUpdateAgentThoughtChunk) (string, bool) {
	if c == nil || c.Content.Text == nil {
		return "", false
	}
	return c.Content.Text.Text, true
}

// inputOf is the user's message from the prompt's content blocks: text as
// it is; an image as an image; an embedded text resource (a file the
// editor attached, perhaps unsaved) as the file's text in the message; a
// link to a resource as its path, for the agent to read.
func inputOf(blocks []acp.ContentBlock) (agent.Input, error) {
	var in agent.Input
	var text strings.Builder
	add := func(s string) {
		if text.Len() > 0 && !strings.HasSuffix(text.String(), "\n") && !strings.HasPrefix(s, "\n") {
			text.WriteString("\n")
		}
		text.WriteString(s)
	}
	for _, b := range blocks {
		switch {
		case b.Text != nil:
			text.WriteString(b.Text.Text)
		case b.Image != nil:
			data, err := base64.StdEncoding.DecodeString(b.Image.Data)
			if err != nil {
				return in, fmt.Errorf("an image's data is not base64: %v", err)
			}
			im, ok := agent.ImageOf("image", data)
			if !ok {
				return in, fmt.Errorf("an image of type %s is not one fawn can send (PNG, JPEG, GIF or WebP, up to a few MiB)", b.Image.MimeType)
			}
			in.Images = append(in.Images, im)
		case b.Resource != nil:
			r := b.Resource.Resource
			switch {
			case r.TextResourceContents != nil:
				add(fmt.Sprintf("\n<file path=%q>\n%s\n</file>\n", pathOf(r.TextResourceContents.Uri), r.TextResourceContents.Text))
			case r.BlobResourceContents != nil:
				data, err := base64.StdEncoding.DecodeString(r.BlobResourceContents.Blob)
				if err != nil {
					return in, fmt.Errorf("resource %s: not base64: %v", r.BlobResourceContents.Uri, err)
				}
				if im, ok := agent.ImageOf(filepath.Base(pathOf(r.BlobResourceContents.Uri)), data); ok {
					in.Images = append(in.Images, im)
				} else {
					add(fmt.Sprintf("(attached: %s, a binary file fawn cannot show the model)", pathOf(r.BlobResourceContents.Uri)))
				}
			}
		case b.ResourceLink != nil:
			// A mention: the path stands where the editor put it.
			link := "@" + pathOf(b.ResourceLink.Uri)
			if text.Len() > 0 && !strings.HasSuffix(text.String(), " ") && !strings.HasSuffix(text.String(), "\n") {
				link = " " + link
			}
			text.WriteString(link + " ")
		case b.Audio != nil:
			return in, errors.New("fawn takes no audio")
		}
	}
	in.Text = text.String()
	return in, nil
}

// pathOf is a file URI's path; any other URI as it is.
func pathOf(uri string) string {
	if u, err := url.Parse(uri); err == nil && u.Scheme == "file" {
		return u.Path
	}
	return uri
}

// slashCommand splits "/name args".
func slashCommand(text string) (name, args string, ok bool) {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "/") || strings.HasPrefix(t, "//") {
		return "", "", false
	}
	name, args, _ = strings.Cut(t[1:], " ")
	return name, strings.TrimSpace(args), name != ""
}

// availableCommands are the slash commands that make sense without fawn's
// screen: /compact, the custom commands and the MCP servers' prompts
// (prompts the agent is sent).
// The rest of fawn's commands are the editor's business (/new, /resume,
// /mode: its session list and mode picker), need fawn's panes (/rewind,
// /diff, /help) or change what fawn runs (/model, /mcp restart).
func availableCommands(p *Project) []acp.AvailableCommand {
	var out []acp.AvailableCommand
	if p.Services.Compact != nil {
		out = append(out, acp.AvailableCommand{Name: "compact", Description: "Replace the conversation by a summary of it, keeping what you name in particular",
			Input: &acp.AvailableCommandInput{Unstructured: &acp.UnstructuredCommandInput{Hint: "focus (optional)"}}})
	}
	for _, c := range p.Commands {
		if c.Err != nil || c.Name == "compact" {
			continue
		}
		desc := c.Description
		if desc == "" {
			desc = "custom command (" + c.Scope + ")"
		}
		out = append(out, Command{Name: c.Name, Description: desc, Hint: c.ArgumentHint}.available())
	}
	if p.MCP != nil {
		for _, c := range p.MCP.Prompts() {
			out = append(out, c.available())
		}
	}
	return out
}
