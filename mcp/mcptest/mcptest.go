// Package mcptest owns the MCP servers fawn's tests talk to: a calculator
// with a tool that fails, one that returns a picture and one that ends its
// own process; and a library with prompts, resources and a tool marked
// read-only. Each is served over streamable HTTP or, by a test binary that
// runs itself as a child, over stdio.
//
// Only tests import it.
package mcptest

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// StdioEnv, set in a test binary's environment, makes [ServeStdioIfAsked]
// serve the calculator (or, set to "library", the library) over stdin and
// stdout instead of running the tests.
const StdioEnv = "FAWN_TEST_MCP_STDIO"

// PNG is the 4×4 picture the picture tool returns.
func PNG() []byte {
	var b bytes.Buffer
	_ = png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 4, 4)))
	return b.Bytes()
}

type addIn struct {
	A int `json:"a" jsonschema:"the first number"`
	B int `json:"b" jsonschema:"the second number"`
}

// Calc is a server with the tools add, die, fail and picture.
func Calc() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "calc", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "add", Description: "Adds two numbers."},
		func(_ context.Context, _ *sdk.CallToolRequest, in addIn) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: fmt.Sprint(in.A + in.B)}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "fail", Description: "Always fails."},
		func(_ context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
			return nil, nil, fmt.Errorf("this tool always fails")
		})
	sdk.AddTool(s, &sdk.Tool{Name: "picture", Description: "Returns a picture."},
		func(_ context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "Here it is:"},
				&sdk.ImageContent{Data: PNG(), MIMEType: "image/png"}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "die", Description: "Ends the server's process."},
		func(_ context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
			fmt.Fprintln(os.Stderr, "calc: dying as asked")
			os.Exit(3)
			return nil, nil, nil
		})
	return s
}

// ServeStdioIfAsked serves [Calc] (or [Library]) over stdio and exits when
// [StdioEnv] is set; a TestMain calls it first, so that the test binary can
// be started as a stdio server.
func ServeStdioIfAsked() {
	which := os.Getenv(StdioEnv)
	if which == "" {
		return
	}
	srv := Calc()
	if which == "library" {
		srv = Library()
	}
	if err := srv.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}
