package mcptest

import (
	"context"
	"fmt"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// BigSize is the length of the text of the library's resource big.
const BigSize = 300_000

type titleIn struct {
	Title string `json:"title" jsonschema:"the book's title"`
}

// Library is a server with more than tools: a tool marked read-only
// (lookup) beside one that is not (shelve), and one (late) added once the
// client is initialized; the prompts review (the
// arguments file, required, and focus) and greet (no arguments; a user
// and an assistant message and an embedded resource); and the resources
// notes (text), logo (binary), big ([BigSize] characters) and hostile
// (control characters in its name and text, a bidi override in its URI).
func Library() *sdk.Server {
	var s *sdk.Server
	s = sdk.NewServer(&sdk.Implementation{Name: "library", Version: "1"}, &sdk.ServerOptions{
		// As the everything server does: a tool added once the client
		// is initialized, whose list_changed notification arrives while
		// the client lists what the server has.
		InitializedHandler: func(context.Context, *sdk.InitializedRequest) {
			sdk.AddTool(s, &sdk.Tool{Name: "late", Description: "Added once the client is initialized."},
				func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
					return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "late"}}}, nil, nil
				})
		},
	})
	// Its prompts are slow to list, so that the notification of the late
	// tool arrives while the client lists them.
	s.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method == "prompts/list" {
				time.Sleep(200 * time.Millisecond)
			}
			return next(ctx, method, req)
		}
	})
	sdk.AddTool(s, &sdk.Tool{Name: "lookup", Description: "Looks a book up.", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *sdk.CallToolRequest, in titleIn) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "found " + in.Title}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "shelve", Description: "Puts a book on a shelf."},
		func(_ context.Context, _ *sdk.CallToolRequest, in titleIn) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "shelved " + in.Title}}}, nil, nil
		})
	s.AddPrompt(&sdk.Prompt{Name: "review", Title: "Review", Description: "Review a file.", Arguments: []*sdk.PromptArgument{
		{Name: "file", Description: "the file to review", Required: true},
		{Name: "focus", Description: "what to look at"},
	}}, func(_ context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
		text := "Review " + req.Params.Arguments["file"] + "."
		if f := req.Params.Arguments["focus"]; f != "" {
			text += " Look at " + f + "."
		}
		return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{{Role: "user", Content: &sdk.TextContent{Text: text}}}}, nil
	})
	s.AddPrompt(&sdk.Prompt{Name: "greet", Description: "Greet the library."}, func(context.Context, *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
		return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{
			{Role: "user", Content: &sdk.TextContent{Text: "Say hello."}},
			{Role: "assistant", Content: &sdk.TextContent{Text: "Hello!"}},
			{Role: "user", Content: &sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "library://notes", MIMEType: "text/plain", Text: "The notes of the library."}}},
		}}, nil
	})
	text := func(uri, mime, body string) sdk.ResourceHandler {
		return func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: mime, Text: body}}}, nil
		}
	}
	s.AddResource(&sdk.Resource{Name: "notes", URI: "library://notes", MIMEType: "text/plain", Description: "The library's notes."},
		text("library://notes", "text/plain", "The notes of the library."))
	s.AddResource(&sdk.Resource{Name: "logo", URI: "library://logo.bin", MIMEType: "application/octet-stream"},
		func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: "library://logo.bin", MIMEType: "application/octet-stream", Blob: make([]byte, 1024)}}}, nil
		})
	s.AddResource(&sdk.Resource{Name: "big", URI: "library://big", MIMEType: "text/plain"},
		text("library://big", "text/plain", strings.Repeat("x", BigSize)))
	s.AddResource(&sdk.Resource{Name: "hostile\x1b]52;c;aGk=\x07", URI: "library://hostile/\u202egnp.exe", MIMEType: "text/plain"},
		text("library://hostile/\u202egnp.exe", "text/plain", fmt.Sprintf("a title\x1b[2J%s", "\x1b]0;owned\x07")))
	return s
}
