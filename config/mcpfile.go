package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/fawn-ide/fawn/trust"
)

// The MCP servers of a configuration file, edited in place for `fawn mcp
// add|remove`: the file is read as a YAML node tree, so its comments and
// its other keys stay (the library writes the tree back with two-space
// indents and without blank lines between keys: the layout may change,
// what the file says does not), and written atomically (a temporary file
// beside it, renamed over it; a symlinked config.yaml is written where the
// link points).

// ErrMCPExists and ErrMCPUnknown are what AddMCPServer and
// RemoveMCPServer return (wrapped, with the file and the names) for a
// name that is there already and one that is not.
var (
	ErrMCPExists  = errors.New("an MCP server of that name is configured already")
	ErrMCPUnknown = errors.New("no MCP server of that name is configured")
)

// NamedMCPServer is one entry of tools.mcp_servers as its file has it.
type NamedMCPServer struct {
	Name string
	MCPServer
	Line int
}

var (
	mcpNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]+$`) })
	envNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })
)

// UserFile is the user's configuration file ($FAWN_HOME/config.yaml or
// $XDG_CONFIG_HOME/fawn/config.yaml), whether or not it exists.
func UserFile(lookup func(string) (string, bool)) string {
	dir, _ := Dirs(lookup)
	return filepath.Join(dir, "config.yaml")
}

// CheckMCPServer says what is wrong with an entry `fawn mcp add` would
// write, or returns nil.
func CheckMCPServer(name string, s MCPServer) error {
	if !mcpNameRE().MatchString(name) {
		return fmt.Errorf("the name %q may have only letters, digits, _ and - (it is in the tools' names: mcp__%s__TOOL)", name, name)
	}
	if (s.Command == "") == (s.URL == "") {
		return errors.New("give either a command (after --) or --url, not both")
	}
	if s.URL != "" {
		if msg := httpURL(s.URL); msg != "" {
			return fmt.Errorf("--url %q: expected %s", s.URL, msg)
		}
	}
	for k := range s.Env {
		if !envNameRE().MatchString(k) {
			return fmt.Errorf("--env %s=…: %q is not an environment variable's name", k, k)
		}
	}
	return nil
}

// MCPServersIn lists the MCP servers of the configuration file at path,
// in the file's order; none when it does not exist.
func MCPServersIn(path string) ([]NamedMCPServer, error) {
	doc, err := readDoc(path)
	if err != nil {
		return nil, err
	}
	servers, err := mcpNode(doc, path, false)
	if err != nil || servers == nil {
		return nil, err
	}
	var out []NamedMCPServer
	for i := 0; i+1 < len(servers.Content); i += 2 {
		k, v := servers.Content[i], servers.Content[i+1]
		var s MCPServer
		if err := v.Decode(&s); err != nil {
			return nil, fmt.Errorf("%s:%d: the MCP server %s: %v", path, v.Line, k.Value, err)
		}
		out = append(out, NamedMCPServer{Name: k.Value, MCPServer: s, Line: k.Line})
	}
	return out, nil
}

// AddMCPServer adds the server name to tools.mcp_servers of the file at
// path (made if need be). A name there already (in any case: fawn reads
// names without regard to case) is ErrMCPExists. The warnings say what the
// user may want to change: a secret written as a value rather than read
// from the environment.
func AddMCPServer(path, name string, s MCPServer) (warnings []string, err error) {
	if err := CheckMCPServer(name, s); err != nil {
		return nil, err
	}
	doc, err := readDoc(path)
	if err != nil {
		return nil, err
	}
	servers, err := mcpNode(doc, path, true)
	if err != nil {
		return nil, err
	}
	for i := 0; i+1 < len(servers.Content); i += 2 {
		if k := servers.Content[i]; strings.EqualFold(k.Value, name) {
			return nil, fmt.Errorf("%w: %s is in %s (line %d); `fawn mcp remove %s` first to replace it", ErrMCPExists, k.Value, path, k.Line, k.Value)
		}
	}
	entry := &yaml.Node{}
	if err := entry.Encode(s); err != nil {
		return nil, err
	}
	for i := 0; i+1 < len(entry.Content); i += 2 {
		if entry.Content[i].Value == "args" {
			entry.Content[i+1].Style = yaml.FlowStyle // args: [-y, pkg], as a command line reads
		}
	}
	servers.Content = append(servers.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: name}, entry)
	var names []string
	for k, v := range s.Env {
		if secretVar(k) && !strings.Contains(v, "${") {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	for _, k := range names {
		warnings = append(warnings, fmt.Sprintf("the value of %s is written into %s; --env %s='${%s}' would read it from fawn's environment instead", k, path, k, k))
	}
	return warnings, writeDoc(path, doc)
}

// RemoveMCPServer takes the server name out of tools.mcp_servers of the
// file at path. A name not there is ErrMCPUnknown, with the names that are.
func RemoveMCPServer(path, name string) error {
	doc, err := readDoc(path)
	if err != nil {
		return err
	}
	servers, err := mcpNode(doc, path, false)
	if err != nil {
		return err
	}
	var names []string
	if servers != nil {
		at := -1
		for i := 0; i+1 < len(servers.Content); i += 2 {
			k := servers.Content[i]
			names = append(names, k.Value)
			if k.Value == name || (at < 0 && strings.EqualFold(k.Value, name)) {
				at = i
			}
		}
		if at >= 0 {
			servers.Content = append(servers.Content[:at], servers.Content[at+2:]...)
			return writeDoc(path, doc)
		}
	}
	if len(names) == 0 {
		return fmt.Errorf("%w: %s has no MCP servers", ErrMCPUnknown, path)
	}
	return fmt.Errorf("%w: %q is not one of %s's: %s", ErrMCPUnknown, name, path, strings.Join(names, ", "))
}

// readDoc reads the YAML document at path; a file that does not exist is
// an empty one.
func readDoc(path string) (*yaml.Node, error) {
	b, err := trust.ReadFile(path, MaxFileSize)
	if errors.Is(err, os.ErrNotExist) {
		b, err = nil, nil
	}
	if err != nil {
		return nil, err
	}
	doc := &yaml.Node{}
	if err := yaml.Unmarshal(b, doc); err != nil {
		return nil, fmt.Errorf("%s: %v (fix it, then try again)", path, err)
	}
	if doc.Kind == 0 {
		doc = &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map"}}}
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		if len(doc.Content) == 1 && doc.Content[0].Tag == "!!null" {
			doc.Content[0] = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		} else {
			return nil, fmt.Errorf("%s is not a mapping of keys (fix it, then try again)", path)
		}
	}
	return doc, nil
}

// mcpNode finds the tools.mcp_servers mapping of doc, making it (and
// tools) when create is set; nil when it is not there and create is not.
func mcpNode(doc *yaml.Node, path string, create bool) (*yaml.Node, error) {
	cur := doc.Content[0]
	for _, key := range []string{"tools", "mcp_servers"} {
		var next *yaml.Node
		for i := 0; i+1 < len(cur.Content); i += 2 {
			if cur.Content[i].Value == key {
				next = cur.Content[i+1]
				if next.Kind != yaml.MappingNode {
					if next.Tag != "!!null" {
						return nil, fmt.Errorf("%s:%d: %s is not a mapping (fix it, then try again)", path, next.Line, key)
					}
					if !create {
						return nil, nil
					}
					*next = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
				}
				break
			}
		}
		if next == nil {
			if !create {
				return nil, nil
			}
			next = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			cur.Content = append(cur.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, next)
		}
		cur = next
	}
	return cur, nil
}

// writeDoc writes doc to path atomically, keeping the file's permissions
// (0600 for a new one: it may hold keys).
func writeDoc(path string, doc *yaml.Node) error {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	target := path
	if real, err := filepath.EvalSymlinks(path); err == nil {
		target = real
	}
	mode := os.FileMode(0o600)
	if st, err := os.Stat(target); err == nil {
		mode = st.Mode().Perm()
	}
	dir := filepath.Dir(target)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(target)+".*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(b.Bytes())
	if err == nil {
		err = f.Sync()
	}
	if err == nil {
		err = f.Chmod(mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, target)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", target, err)
	}
	return nil
}
