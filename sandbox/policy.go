package sandbox

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Mode is what the shell may write.
type Mode string

const (
	// Off runs the shell as fawn runs: no sandbox.
	Off Mode = "off"
	// WorkspaceWrite lets the shell write the project (but its .git,
	// .fawn and .claude), the system temp directory and the build caches.
	WorkspaceWrite Mode = "workspace-write"
	// ReadOnly lets the shell write only the system temp directory.
	ReadOnly Mode = "read-only"
)

// Modes are the accepted sandbox.mode values.
func Modes() []string { return []string{string(Off), string(WorkspaceWrite), string(ReadOnly)} }

// ParseMode reads a sandbox.mode value.
func ParseMode(s string) (Mode, error) {
	m := Mode(strings.TrimSpace(s))
	if !slices.Contains(Modes(), string(m)) {
		return "", fmt.Errorf("sandbox.mode %q: expected one of %s", s, strings.Join(Modes(), ", "))
	}
	return m, nil
}

// Network is what the shell may reach.
type Network struct {
	// All: the network is open.
	All bool
	// Allow lists the host:port entries the shell may connect to when not
	// All. Landlock filters TCP by port only: the host is kept to be shown,
	// the kernel lets the port through to any host.
	Allow []HostPort
}

// HostPort is one sandbox.network entry.
type HostPort struct {
	Host string
	Port uint16
}

func (h HostPort) String() string { return net.JoinHostPort(h.Host, strconv.Itoa(int(h.Port))) }

// ParseNetwork reads a sandbox.network value: false, true, or a list of
// host:port entries (YAML gives a bool or a list; the environment and
// flags a string, "true", "false" or "host:port,host:port").
func ParseNetwork(v any) (Network, error) {
	switch x := v.(type) {
	case nil:
		return Network{}, nil
	case bool:
		return Network{All: x}, nil
	case string:
		s := strings.TrimSpace(x)
		switch strings.ToLower(s) {
		case "", "false", "off", "no":
			return Network{}, nil
		case "true", "on", "yes":
			return Network{All: true}, nil
		}
		return ParseNetwork(strings.Split(s, ","))
	case []string:
		var n Network
		for _, e := range x {
			hp, err := parseHostPort(e)
			if err != nil {
				return Network{}, err
			}
			n.Allow = append(n.Allow, hp)
		}
		return n, nil
	case []any:
		list := make([]string, 0, len(x))
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return Network{}, fmt.Errorf("sandbox.network entry %v: expected a host:port string such as proxy.golang.org:443", e)
			}
			list = append(list, s)
		}
		return ParseNetwork(list)
	}
	return Network{}, fmt.Errorf("sandbox.network %v: expected false, true or a list of host:port such as [proxy.golang.org:443]", v)
}

func parseHostPort(s string) (HostPort, error) {
	host, port, err := net.SplitHostPort(strings.TrimSpace(s))
	if err != nil || host == "" {
		return HostPort{}, fmt.Errorf("sandbox.network entry %q: expected host:port such as proxy.golang.org:443", s)
	}
	n, err := strconv.ParseUint(port, 10, 16)
	if err != nil || n == 0 {
		return HostPort{}, fmt.Errorf("sandbox.network entry %q: the port must be a number from 1 to 65535", s)
	}
	return HostPort{Host: host, Port: uint16(n)}, nil
}

// ports are the distinct ports of the allowed entries, in order.
func (n Network) ports() []uint16 {
	var out []uint16
	for _, hp := range n.Allow {
		if !slices.Contains(out, hp.Port) {
			out = append(out, hp.Port)
		}
	}
	return out
}

// Settings are the sandbox.* keys as the configuration holds them.
type Settings struct {
	Mode     string
	Network  any
	Writable []string
	DenyRead []string
}

// DefaultWritable are the caches builds write (sandbox.writable's
// default); New adds $GOCACHE and $GOMODCACHE when they are set.
func DefaultWritable() []string { return []string{"~/.cache", "~/.npm", "~/go/pkg/mod"} }

// DefaultDenyRead are the user's secrets (sandbox.deny_read's default);
// New adds fawn's own configuration and data directories.
func DefaultDenyRead() []string {
	return []string{"~/.ssh", "~/.aws", "~/.gnupg", "~/.config/fawn", "~/.local/share/fawn", "~/.netrc",
		"~/.git-credentials", "~/.docker/config.json", "~/.kube", "~/.config/gcloud", "~/.azure",
		"~/.config/gh", "~/.pypirc"}
}

// CheckPaths checks a list of sandbox.writable or sandbox.deny_read
// entries: each absolute or under ~/.
func CheckPaths(key string, list []string) error {
	for _, p := range list {
		if p == "~" || strings.HasPrefix(p, "~/") || filepath.IsAbs(p) {
			continue
		}
		return fmt.Errorf("%s entry %q: expected an absolute path or one under ~/ (such as ~/.cache)", key, p)
	}
	return nil
}

// Policy is the sandbox of one project's shells.
type Policy struct {
	Mode    Mode
	Network Network
	// Project is the project's root; Writable what else the shell may
	// write (absolute); ReadOnly what inside the project stays read-only;
	// DenyRead what the shell may not read at all.
	Project  string
	Temp     string
	Writable []string
	ReadOnly []string
	DenyRead []string

	home string // for Explain, which says ~ for it
}

// New builds the policy of the project at project from the settings;
// home is the user's home directory (for ~), env the environment the
// shell starts from (for GOCACHE and GOMODCACHE), extraDeny more paths
// to keep unreadable (fawn's configuration and data directories).
func New(s Settings, project, home string, env []string, extraDeny ...string) (Policy, error) {
	mode, err := ParseMode(s.Mode)
	if err != nil {
		return Policy{}, err
	}
	netw, err := ParseNetwork(s.Network)
	if err != nil {
		return Policy{}, err
	}
	if err := CheckPaths("sandbox.writable", s.Writable); err != nil {
		return Policy{}, err
	}
	if err := CheckPaths("sandbox.deny_read", s.DenyRead); err != nil {
		return Policy{}, err
	}
	p := Policy{Mode: mode, Network: netw, Project: filepath.Clean(project), home: home}
	expand := func(list []string) []string {
		var out []string
		for _, e := range list {
			if e == "~" || strings.HasPrefix(e, "~/") {
				if home == "" {
					continue
				}
				e = filepath.Join(home, e[1:])
			}
			e = filepath.Clean(e)
			if !slices.Contains(out, e) {
				out = append(out, e)
			}
		}
		return out
	}
	writable := slices.Clone(s.Writable)
	p.Temp = os.TempDir()
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		switch {
		case !filepath.IsAbs(v):
		case k == "GOCACHE" || k == "GOMODCACHE":
			writable = append(writable, v)
		case k == "TMPDIR":
			p.Temp = filepath.Clean(v) // the shell's programs write there
		}
	}
	// The shell's history is written back when the shell exits: what the
	// user typed is kept as outside the sandbox (only an existing file:
	// the home takes no new entries).
	hist := filepath.Join(home, ".bash_history")
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "HISTFILE="); ok && filepath.IsAbs(v) {
			hist = v
		}
	}
	if st, err := os.Stat(hist); home != "" && err == nil && st.Mode().IsRegular() {
		writable = append(writable, hist)
	}
	p.Writable = expand(writable)
	// An entry that holds the project (fawn's directories set to the
	// home, say) is left out: the shell must read the project.
	p.DenyRead = slices.DeleteFunc(expand(append(slices.Clone(s.DenyRead), extraDeny...)), func(d string) bool {
		return within(d, p.Project)
	})
	for _, name := range []string{".git", ".fawn", ".claude"} {
		p.ReadOnly = append(p.ReadOnly, filepath.Join(p.Project, name))
	}
	return p, nil
}

// Describe says the policy in a few words, as the terminal pane's title
// shows it: "sandboxed: project, no network".
func (p Policy) Describe() string {
	var what string
	switch p.Mode {
	case Off, "":
		return "not sandboxed"
	case ReadOnly:
		what = "read-only"
	default:
		what = "project"
	}
	return "sandboxed: " + what + ", " + p.Network.describe()
}

func (n Network) describe() string {
	switch {
	case n.All:
		return "network"
	case len(n.Allow) == 0:
		return "no network"
	}
	var ports []string
	for _, port := range n.ports() {
		ports = append(ports, strconv.Itoa(int(port)))
	}
	return "network: port " + strings.Join(ports, ", ")
}

// Explain says the policy in full, for /sandbox.
func (p Policy) Explain() string {
	if p.Mode == Off {
		return "The shell is not sandboxed (sandbox.mode: off): commands the agent runs there ask first, as the permission mode says."
	}
	var b strings.Builder
	switch p.Mode {
	case ReadOnly:
		b.WriteString("Writes: the system temp directory only (sandbox.mode: read-only).\n")
	default:
		fmt.Fprintf(&b, "Writes: the project (%s), the system temp directory, and %s.\n", p.short(p.Project), p.shortList(p.Writable))
		b.WriteString("Read-only inside the project: .git, .fawn, .claude; the project's top directory takes no new entries.\n")
	}
	fmt.Fprintf(&b, "Not readable: %s.\n", p.shortList(p.DenyRead))
	switch {
	case p.Network.All:
		b.WriteString("Network: open (sandbox.network: true).\n")
	case len(p.Network.Allow) == 0:
		b.WriteString("Network: closed (sandbox.network: false), localhost too (a test server cannot listen); Unix sockets work.\n")
	default:
		var hs []string
		for _, hp := range p.Network.Allow {
			hs = append(hs, hp.String())
		}
		fmt.Fprintf(&b, "Network: TCP to and listening on %s (the kernel filters by port: any host on those ports), and DNS.\n", strings.Join(hs, ", "))
	}
	b.WriteString("Not sandboxed: hooks, MCP servers, language servers, and fawn itself (its edits follow the permission mode).")
	return b.String()
}

// short says path with ~ for the home directory.
func (p Policy) short(path string) string {
	if p.home != "" {
		if rel, err := filepath.Rel(p.home, path); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			return filepath.Join("~", rel)
		}
	}
	return path
}

func (p Policy) shortList(paths []string) string {
	out := make([]string, len(paths))
	for i, path := range paths {
		out[i] = p.short(path)
	}
	return strings.Join(out, ", ")
}
