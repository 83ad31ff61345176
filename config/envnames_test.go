package config

import (
	"reflect"
	"testing"
)

// The environment variable names of MCP and language servers reach them as
// written, upper case included (viper lower-cases map keys); the servers'
// names are read in lower case, as before.
func TestServerEnvNamesKeepTheirCase(t *testing.T) {
	f := newFixture(t, `
tools:
  mcp_servers:
    GitHub:
      command: github-mcp
      env: {GITHUB_TOKEN: "${TOKEN_FOR_TEST}", Mixed_Case: "2"}
lsp:
  gopls:
    env: {GOFLAGS: -mod=mod}
  MyLS:
    command: my-ls
    extensions: [.my]
    env: {MY_LS_HOME: /opt/my}
`, "")
	cfg, _, err := f.load(t, Options{Env: []string{"TOKEN_FOR_TEST=ghp-123"}})
	if err != nil {
		t.Fatal(err)
	}
	srv, ok := cfg.Tools.MCPServers["github"]
	if !ok {
		t.Fatalf("no MCP server github in %v", cfg.Tools.MCPServers)
	}
	if want := map[string]string{"GITHUB_TOKEN": "ghp-123", "Mixed_Case": "2"}; !reflect.DeepEqual(srv.Env, want) || srv.Command != "github-mcp" {
		t.Errorf("github = %+v, want env %v", srv, want)
	}
	if got := cfg.LSP["gopls"].Env; !reflect.DeepEqual(got, map[string]string{"GOFLAGS": "-mod=mod"}) {
		t.Errorf("gopls env = %v", got)
	}
	if got := cfg.LSP["myls"]; got.Command != "my-ls" || !reflect.DeepEqual(got.Env, map[string]string{"MY_LS_HOME": "/opt/my"}) {
		t.Errorf("myls = %+v", got)
	}
}
