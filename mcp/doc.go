// Package mcp owns fawn's MCP client: the servers of tools.mcp_servers,
// started (a command, over stdio) or reached (a URL, over streamable HTTP)
// in the background, all at once, so the IDE never waits for them; each
// one's tools are offered as soon as it is ready. A server that dies is
// started again with a growing pause between attempts (1 s, 2 s, 4 s … up
// to a minute), an HTTP server that stops answering is reconnected the
// same way, and each change is reported ([Change]) and kept ([Status]).
//
// A stdio server runs in a process group of its own (internal/proc):
// closing it ends what it started too. What a server says of itself on
// stderr reaches messages with the values of its env entries redacted
// (package secret), and a URL is shown without its password.
//
// Each server tool is a [tools.Tool] named mcp__SERVER__TOOL. Tools keep
// their names across restarts: a call made while its server is down says
// so. Images a tool returns go out as [tools.Images]. A tool the server
// marks readOnlyHint plans as a read (it asks no permission): the server
// runs from the user's config or a trusted project's, so its word is
// trusted as its program is. The package knows nothing of the agent:
// whoever starts the servers adds their tools to a session
// (agent.Session.AddTools) and shows the changes.
//
// A server's prompts ([Prompt]; the chat's /mcp__SERVER__PROMPT, its
// arguments bound by [Prompt.Bind]) and resources ([Resource]; the chat's
// @SERVER:URI) are listed with its tools and again when it says they
// changed; [Manager.GetPrompt] gives a prompt as the text of one user
// message and [Manager.ReadResource] a resource as an attachment (text
// cut at about 100 kB, binary named, not attached).
//
// It imports config, secret, tools and internal/proc; ui and cmd/fawn import
// it.
package mcp
