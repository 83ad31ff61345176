package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fawn mcp add, list and remove edit the user's config file, which fawn
// config then reads; a duplicate, an unknown name and a bad command line
// say what is wrong and exit 2.
func TestMCPSubcommand(t *testing.T) {
	home := t.TempDir()
	user := filepath.Join(home, "config.yaml")
	if err := os.WriteFile(user, []byte("# mine\nui:\n  theme: light\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, home, "mcp", "add", "files", "--env", "LOG_LEVEL=debug", "--", "npx", "-y", "@modelcontextprotocol/server-filesystem", ".")
	if code != 0 || !strings.Contains(out, "added the MCP server files to "+user+": npx -y @modelcontextprotocol/server-filesystem .") {
		t.Fatalf("add: %d %q %q", code, out, errs)
	}
	if code, out, errs := runCLI(t, home, "mcp", "add", "Docs", "--url=https://u:pw@docs.example/mcp"); code != 0 || !strings.Contains(out, "its tools are mcp__docs__TOOL") {
		t.Fatalf("add --url: %d %q %q", code, out, errs)
	}
	code, out, _ = runCLI(t, home, "mcp", "list")
	for _, want := range []string{"your MCP servers (" + user + "):", "files — npx -y @modelcontextprotocol/server-filesystem . · env LOG_LEVEL · line", "Docs — https://u:redacted@docs.example/mcp"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("list lacks %q: %d\n%s", want, code, out)
		}
	}
	if strings.Contains(out, "debug") || strings.Contains(out, ":pw@") {
		t.Errorf("list shows a value that may be a secret:\n%s", out)
	}
	code, out, _ = runCLI(t, home, "config", t.TempDir())
	if code != 0 || !strings.Contains(out, "server-filesystem") || !strings.Contains(out, "docs.example") {
		t.Errorf("fawn config does not read what fawn mcp add wrote: %d\n%s", code, out)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"mcp", "add", "FILES", "--", "other"}, "files is in " + user},
		{[]string{"mcp", "remove", "nope"}, `"nope" is not one of`},
		{[]string{"mcp", "add", "x"}, "add needs the server's command (after --) or --url"},
		{[]string{"mcp", "add", "x", "--url", "https://h/mcp", "--", "cmd"}, "not both"},
		{[]string{"mcp", "add", "x", "--port", "1", "--", "cmd"}, "unknown flag --port"},
		{[]string{"mcp", "add", "x", "--env", "NOVALUE", "--", "cmd"}, "expected KEY=VALUE"},
		{[]string{"mcp", "frob"}, `unknown subcommand "frob"`},
		{[]string{"mcp"}, "add, list or remove?"},
	} {
		code, _, errs := runCLI(t, home, c.args...)
		if code != exitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("%v: %d %q, want exit 2 and %q", c.args, code, errs, c.want)
		}
	}

	if code, out, errs := runCLI(t, home, "mcp", "remove", "files"); code != 0 || !strings.Contains(out, "removed the MCP server files") {
		t.Errorf("remove: %d %q %q", code, out, errs)
	}
	b, _ := os.ReadFile(user)
	if strings.Contains(string(b), "server-filesystem") || !strings.Contains(string(b), "# mine") || !strings.Contains(string(b), "theme: light") || !strings.Contains(string(b), "Docs:") {
		t.Errorf("after remove:\n%s", b)
	}
}
