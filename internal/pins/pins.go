//go:build pins

// Package pins keeps every library fawn is pinned to in go.mod, including
// those not imported yet, so `go mod tidy` cannot drift them off the versions
// DESIGN.md fixes. It is never built.
package pins

import (
	_ "github.com/alecthomas/chroma/v2"
	_ "github.com/cloudwego/eino-ext/components/model/openai"
	_ "github.com/cloudwego/eino-ext/components/tool/mcp/officialmcp"
	_ "github.com/cloudwego/eino/compose"
	_ "github.com/creack/pty"
	_ "github.com/gdamore/tcell/v2"
	_ "github.com/modelcontextprotocol/go-sdk/mcp"
	_ "github.com/rivo/tview"
	_ "github.com/spf13/viper"
	_ "golang.org/x/sys/unix"
)
