package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const userConfig = `# my fawn settings
models:
  chat_model:
    model: gpt-4o # the one I pay for

tools:
  # servers I use everywhere
  mcp_servers:
    files: {command: npx, args: [-y, "@modelcontextprotocol/server-filesystem", "."]}
ui:
  theme: light
`

// fawn mcp add writes an entry into the user's file that fawn then reads,
// keeping the file's comments, other keys and permissions; a name there
// already (in any case) is refused and leaves the file as it was.
func TestAddMCPServer(t *testing.T) {
	f := newFixture(t, userConfig, "")
	path := filepath.Join(f.home, "config.yaml")
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	warn, err := AddMCPServer(path, "GitHub", MCPServer{Command: "github-mcp-server", Args: []string{"stdio"},
		Env: map[string]string{"GITHUB_TOKEN": "${GH_TOKEN}", "GITHUB_HOST": "github.com"}})
	if err != nil || len(warn) != 0 {
		t.Fatalf("add: %v %v", warn, err)
	}
	if _, err := AddMCPServer(path, "web", MCPServer{URL: "http://localhost:8931/mcp"}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	for _, want := range []string{"# my fawn settings", "# the one I pay for", "# servers I use everywhere", "theme: light", "GitHub:", "GITHUB_TOKEN: ${GH_TOKEN}", "args: [stdio]", "url: http://localhost:8931/mcp"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the file lacks %q:\n%s", want, b)
		}
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v", st.Mode())
	}
	cfg, _, err := f.load(t, Options{Env: []string{"GH_TOKEN=ghp-1"}})
	if err != nil {
		t.Fatalf("fawn cannot read what it wrote: %v\n%s", err, b)
	}
	gh := cfg.Tools.MCPServers["github"] // read in lower case, as every server name
	if gh.Command != "github-mcp-server" || !reflect.DeepEqual(gh.Args, []string{"stdio"}) || gh.Env["GITHUB_TOKEN"] != "ghp-1" {
		t.Errorf("github = %+v", gh)
	}
	if cfg.Tools.MCPServers["web"].URL != "http://localhost:8931/mcp" || cfg.Tools.MCPServers["files"].Command != "npx" || cfg.Models.Chat.Model != "gpt-4o" {
		t.Errorf("servers %+v, model %q", cfg.Tools.MCPServers, cfg.Models.Chat.Model)
	}
	list, err := MCPServersIn(path)
	if err != nil || len(list) != 3 || list[0].Name != "files" || list[1].Name != "GitHub" || list[2].Name != "web" || list[0].Line != 8 {
		t.Errorf("list %+v, %v", list, err)
	}

	_, err = AddMCPServer(path, "github", MCPServer{Command: "other"})
	if !errors.Is(err, ErrMCPExists) || !strings.Contains(err.Error(), "GitHub is in "+path) || !strings.Contains(err.Error(), "fawn mcp remove GitHub") {
		t.Errorf("a second github: %v", err)
	}
	if b2, _ := os.ReadFile(path); string(b2) != string(b) {
		t.Error("a refused add changed the file")
	}
	for _, c := range []struct {
		name string
		s    MCPServer
		want string
	}{
		{"my server", MCPServer{Command: "x"}, "only letters, digits"},
		{"x", MCPServer{}, "either a command"},
		{"x", MCPServer{Command: "x", URL: "http://h/"}, "either a command"},
		{"x", MCPServer{URL: "ftp://h/"}, "http:// or https://"},
		{"x", MCPServer{Command: "x", Env: map[string]string{"A-B": "1"}}, "not an environment variable's name"},
	} {
		if _, err := AddMCPServer(path, c.name, c.s); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("add %q %+v: %v, want %q", c.name, c.s, err, c.want)
		}
	}
}

// fawn mcp remove takes one entry out, keeping the rest; a name not there
// says which are.
func TestRemoveMCPServer(t *testing.T) {
	f := newFixture(t, userConfig, "")
	path := filepath.Join(f.home, "config.yaml")
	if _, err := AddMCPServer(path, "web", MCPServer{URL: "http://localhost:8931/mcp"}); err != nil {
		t.Fatal(err)
	}
	err := RemoveMCPServer(path, "nope")
	if !errors.Is(err, ErrMCPUnknown) || !strings.Contains(err.Error(), `"nope" is not one of`) || !strings.Contains(err.Error(), "files, web") {
		t.Errorf("remove nope: %v", err)
	}
	if err := RemoveMCPServer(path, "files"); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if strings.Contains(string(b), "server-filesystem") || !strings.Contains(string(b), "web:") || !strings.Contains(string(b), "# my fawn settings") {
		t.Errorf("after remove:\n%s", b)
	}
	if err := RemoveMCPServer(path, "WEB"); err != nil {
		t.Errorf("remove in another case: %v", err)
	}
	if err := RemoveMCPServer(path, "web"); !errors.Is(err, ErrMCPUnknown) || !strings.Contains(err.Error(), "has no MCP servers") {
		t.Errorf("remove from none: %v", err)
	}
}

// A user with no config file gets one, readable by them alone; a
// config.yaml that is a symlink (a dotfiles repository) stays one, and
// the file it points to is written. A secret written as a value warns.
func TestAddMCPServerNewFileAndSymlink(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "fawn", "config.yaml")
	warn, err := AddMCPServer(path, "gh", MCPServer{Command: "gh-mcp", Env: map[string]string{"GITHUB_TOKEN": "ghp-literal"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(warn) != 1 || !strings.Contains(warn[0], "GITHUB_TOKEN='${GITHUB_TOKEN}'") {
		t.Errorf("warnings %q", warn)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("new file: %v %v", st, err)
	}

	real := filepath.Join(dir, "dotfiles", "fawn.yaml")
	if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(real, []byte("ui:\n  theme: dark\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "home", "config.yaml")
	os.MkdirAll(filepath.Dir(link), 0o755)
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if _, err := AddMCPServer(link, "web", MCPServer{URL: "https://example.com/mcp"}); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symlink was replaced: %v %v", st, err)
	}
	if b, _ := os.ReadFile(real); !strings.Contains(string(b), "url: https://example.com/mcp") || !strings.Contains(string(b), "theme: dark") {
		t.Errorf("the link's file:\n%s", b)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*", ".*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
