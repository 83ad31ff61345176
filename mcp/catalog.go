package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fawn-ide/fawn/tools"
)

// What a server offers beside tools: its prompts (slash commands in the
// chat) and its resources (@-mentions). Both are listed when the server
// is connected and again when it says its list changed; both are offered
// only while the server is ready.

// maxResource is how many bytes of a resource's text are attached.
const maxResource = 100_000

// Prompt is one prompt of a server.
type Prompt struct {
	Server string
	// Name is the server's own name of it.
	Name               string
	Title, Description string
	Args               []PromptArg
}

// PromptArg is one argument a prompt declares.
type PromptArg struct {
	Name, Description string
	Required          bool
}

// Command is the slash command's name, without the slash:
// mcp__SERVER__PROMPT, in the characters a tool's name has.
func (p Prompt) Command() string { return toolName(p.Server, p.Name) }

// Synopsis is the arguments as help shows them: "<file> [focus]".
func (p Prompt) Synopsis() string {
	var parts []string
	for _, a := range p.Args {
		if a.Required {
			parts = append(parts, "<"+a.Name+">")
		} else {
			parts = append(parts, "["+a.Name+"]")
		}
	}
	return strings.Join(parts, " ")
}

// Bind maps what was typed after the command to the prompt's arguments.
// A word NAME=VALUE sets the argument NAME (one the prompt declares); the
// other words fill the arguments not set that way, in the order the
// prompt declares them, and the last argument takes every word left over.
// Quotes ("two words" or 'two words') keep spaces in one word. A required
// argument left without a value is an error that shows the synopsis.
func (p Prompt) Bind(text string) (map[string]string, error) {
	words, err := splitWords(text)
	if err != nil {
		return nil, err
	}
	usage := "/" + p.Command()
	if s := p.Synopsis(); s != "" {
		usage += " " + s
	}
	out := map[string]string{}
	declared := map[string]bool{}
	for _, a := range p.Args {
		declared[a.Name] = true
	}
	var positional []string
	for _, w := range words {
		if k, v, ok := strings.Cut(w.text, "="); ok && !w.quoted && declared[k] {
			out[k] = v
			continue
		}
		positional = append(positional, w.text)
	}
	if len(positional) > 0 && len(p.Args) == 0 {
		return nil, fmt.Errorf("%s takes no arguments", usage)
	}
	var open []string
	for _, a := range p.Args {
		if _, set := out[a.Name]; !set {
			open = append(open, a.Name)
		}
	}
	if len(positional) > len(open) && len(open) == 0 {
		return nil, fmt.Errorf("too many arguments: %s", usage)
	}
	for i, v := range positional {
		if i == len(open)-1 {
			out[open[i]] = strings.Join(positional[i:], " ")
			break
		}
		out[open[i]] = v
	}
	var missing []string
	for _, a := range p.Args {
		if a.Required && out[a.Name] == "" {
			missing = append(missing, a.Name)
		}
	}
	if len(missing) > 0 {
		var help []string
		for _, a := range p.Args {
			if a.Description != "" {
				help = append(help, a.Name+": "+a.Description)
			}
		}
		msg := fmt.Sprintf("%s needs %s: %s", usage, strings.Join(missing, " and "), usage)
		if len(help) > 0 {
			msg += " (" + strings.Join(help, "; ") + ")"
		}
		return nil, errors.New(msg)
	}
	return out, nil
}

// word is one word of a prompt's arguments.
type word struct {
	text   string
	quoted bool // it had quotes: never NAME=VALUE
}

// splitWords splits text at spaces, keeping what quotes enclose together.
func splitWords(text string) ([]word, error) {
	var out []word
	var cur strings.Builder
	in, quote, quoted := false, rune(0), false
	flush := func() {
		if in {
			out = append(out, word{text: cur.String(), quoted: quoted})
		}
		cur.Reset()
		in, quoted = false, false
	}
	for _, r := range text {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote, in, quoted = r, true, true
		case r == ' ' || r == '\t' || r == '\n':
			flush()
		default:
			in = true
			cur.WriteRune(r)
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("a quote (%c) is not closed", quote)
	}
	flush()
	return out, nil
}

// Resource is one resource of a server.
type Resource struct {
	Server                                  string
	URI, Name, Title, Description, MIMEType string
	Size                                    int64
}

// Mention is how the chat names it: @SERVER:URI.
func (r Resource) Mention() string { return r.Server + ":" + r.URI }

// Attached is a resource's content as a message attaches it.
type Attached struct {
	// Text is what the model reads: the text contents, cut at about
	// 100 kB, and a line for each binary one, which is not attached.
	Text string
	// About says what was attached, for the chip under the message:
	// "text, 1.2 KiB", "binary (image/png, 3 KiB): not attached".
	About string
}

// catalog is what a server's session offers beside tools.
type catalog struct {
	prompts   []*sdk.Prompt
	resources []*sdk.Resource
}

// listCatalog lists the prompts and resources of a session whose server
// says it has them. A list that fails leaves that part empty: the tools
// are what a server is for.
func listCatalog(ctx context.Context, sess *sdk.ClientSession) catalog {
	var c catalog
	caps := &sdk.ServerCapabilities{}
	if init := sess.InitializeResult(); init != nil && init.Capabilities != nil {
		caps = init.Capabilities
	}
	if caps.Prompts != nil {
		for p, err := range sess.Prompts(ctx, nil) {
			if err != nil {
				c.prompts = nil
				break
			}
			c.prompts = append(c.prompts, p)
		}
	}
	if caps.Resources != nil {
		for r, err := range sess.Resources(ctx, nil) {
			if err != nil {
				c.resources = nil
				break
			}
			c.resources = append(c.resources, r)
		}
	}
	return c
}

// relistCatalog lists a session's prompts and resources again, after the
// server said one of the lists changed.
func (s *server) relistCatalog(sess *sdk.ClientSession) {
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	defer cancel()
	c := listCatalog(ctx, sess)
	s.mu.Lock()
	adopted := s.sess == sess || s.catalogOf == sess
	if adopted {
		s.catalog, s.catalogOf = c, sess
	}
	state := s.state
	s.mu.Unlock()
	if adopted && s.m.onChange != nil {
		s.m.onChange(Change{Server: s.name, State: state, Catalog: true})
	}
}

// offering is the catalog of the running session, if there is one; s.mu
// is held.
func (s *server) offering() (catalog, bool) {
	if s.sess == nil || s.catalogOf != s.sess {
		return catalog{}, false
	}
	return s.catalog, true
}

// Prompts returns the prompts of the servers that are ready, by server
// name and then in each server's order.
func (m *Manager) Prompts() []Prompt {
	var out []Prompt
	for _, s := range m.servers {
		s.mu.Lock()
		if cat, ok := s.offering(); ok {
			for _, p := range cat.prompts {
				pr := Prompt{Server: s.name, Name: p.Name, Title: p.Title, Description: p.Description}
				for _, a := range p.Arguments {
					if a != nil {
						pr.Args = append(pr.Args, PromptArg{Name: a.Name, Description: a.Description, Required: a.Required})
					}
				}
				out = append(out, pr)
			}
		}
		s.mu.Unlock()
	}
	return out
}

// Resources returns the resources of the servers that are ready.
func (m *Manager) Resources() []Resource {
	var out []Resource
	for _, s := range m.servers {
		s.mu.Lock()
		if cat, ok := s.offering(); ok {
			for _, r := range cat.resources {
				out = append(out, Resource{Server: s.name, URI: r.URI, Name: r.Name, Title: r.Title,
					Description: r.Description, MIMEType: r.MIMEType, Size: r.Size})
			}
		}
		s.mu.Unlock()
	}
	return out
}

// ready returns server name's session, or an error saying why there is
// none.
func (m *Manager) ready(name string) (*sdk.ClientSession, error) {
	for _, s := range m.servers {
		if s.name != name {
			continue
		}
		s.mu.Lock()
		sess, state, lastErr := s.sess, s.state, s.lastErr
		s.mu.Unlock()
		if sess == nil {
			why := ""
			if lastErr != "" {
				why = " (" + clip(lastErr, 200) + ")"
			}
			return nil, fmt.Errorf("the MCP server %s is %s%s; try again once it is ready (/mcp shows it)", name, state, why)
		}
		return sess, nil
	}
	return nil, fmt.Errorf("no MCP server is called %q", name)
}

// GetPrompt asks server for its prompt name with args, and returns its
// messages as the text of one user message: each message's text, an
// assistant's marked "Assistant:", an embedded resource's text in a
// <resource> block, and a line for what is not text.
func (m *Manager) GetPrompt(ctx context.Context, server, name string, args map[string]string) (string, error) {
	sess, err := m.ready(server)
	if err != nil {
		return "", err
	}
	res, err := sess.GetPrompt(ctx, &sdk.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		return "", fmt.Errorf("the MCP server %s did not give its prompt %s: %v", server, name, err)
	}
	var parts []string
	for _, msg := range res.Messages {
		if msg == nil || msg.Content == nil {
			continue
		}
		text := contentText(msg.Content)
		if msg.Role == "assistant" {
			text = "Assistant: " + text
		}
		parts = append(parts, text)
	}
	text := strings.TrimSpace(strings.Join(parts, "\n\n"))
	if text == "" {
		return "", fmt.Errorf("the MCP server %s's prompt %s has no text", server, name)
	}
	return tools.Truncate(text, 0, maxResult), nil
}

// contentText is one prompt message's content as text.
func contentText(c sdk.Content) string {
	switch c := c.(type) {
	case *sdk.TextContent:
		return c.Text
	case *sdk.ImageContent:
		return fmt.Sprintf("[an image, %s, %s: not included]", c.MIMEType, tools.ByteSize(len(c.Data)))
	case *sdk.AudioContent:
		return fmt.Sprintf("[audio, %s, %s: not included]", c.MIMEType, tools.ByteSize(len(c.Data)))
	case *sdk.ResourceLink:
		return fmt.Sprintf("[resource %s: %s]", c.Name, c.URI)
	case *sdk.EmbeddedResource:
		if r := c.Resource; r != nil {
			if r.Blob != nil || r.Text == "" {
				return fmt.Sprintf("[resource %s, %s, %s: binary, not included]", r.URI, r.MIMEType, tools.ByteSize(len(r.Blob)))
			}
			return fmt.Sprintf("<resource uri=%q>\n%s\n</resource>", r.URI, strings.TrimRight(r.Text, "\n"))
		}
	}
	return ""
}

// ResourceRef reads a mention as SERVER:URI and reports whether SERVER is
// one of the servers (whatever its state: reading it says why it cannot).
func (m *Manager) ResourceRef(ref string) (server, uri string, ok bool) {
	server, uri, ok = strings.Cut(ref, ":")
	if !ok || uri == "" {
		return "", "", false
	}
	for _, s := range m.servers {
		if s.name == server {
			return server, uri, true
		}
	}
	return "", "", false
}

// ReadResource reads the resource a mention names (SERVER:URI; a name the
// server lists is taken for its URI too). Text is attached, cut at about
// 100 kB; binary content is not, and says so.
func (m *Manager) ReadResource(ctx context.Context, ref string) (Attached, error) {
	server, uri, ok := m.ResourceRef(ref)
	if !ok {
		return Attached{}, fmt.Errorf("%s names no MCP server's resource (write @SERVER:URI)", ref)
	}
	for _, r := range m.Resources() {
		if r.Server == server && r.Name == uri && r.URI != uri {
			uri = r.URI
			break
		}
	}
	sess, err := m.ready(server)
	if err != nil {
		return Attached{}, err
	}
	res, err := sess.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
	if err != nil {
		return Attached{}, fmt.Errorf("the MCP server %s could not read %s: %v", server, uri, err)
	}
	var texts, notes []string
	size := 0
	for _, c := range res.Contents {
		if c == nil {
			continue
		}
		if c.Blob != nil {
			note := fmt.Sprintf("binary (%s, %s): not attached", orUnknown(c.MIMEType), tools.ByteSize(len(c.Blob)))
			notes = append(notes, note)
			texts = append(texts, fmt.Sprintf("[%s is %s]", c.URI, note))
			continue
		}
		size += len(c.Text)
		texts = append(texts, c.Text)
	}
	if len(texts) == 0 {
		return Attached{}, fmt.Errorf("the MCP server %s gave nothing for %s", server, uri)
	}
	text := strings.Join(texts, "\n")
	about := "text, " + tools.ByteSize(size)
	if len(text) > maxResource {
		text = tools.Truncate(text, 0, maxResource)
		about += fmt.Sprintf(", cut to %s", tools.ByteSize(maxResource))
	}
	if size == 0 {
		about = strings.Join(notes, "; ")
	} else if len(notes) > 0 {
		about += "; " + strings.Join(notes, "; ")
	}
	return Attached{Text: text, About: about}, nil
}

func orUnknown(mime string) string {
	if mime == "" {
		return "type unknown"
	}
	return mime
}
