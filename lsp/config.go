package lsp

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/fawn-ide/fawn/trust"
)

// Server configures one language server.
type Server struct {
	Name    string
	Command string
	Args    []string
	// Extensions are the files it serves, with the dot: ".go".
	Extensions []string
	// RootMarkers are the files whose directory is the server's root
	// ("go.mod"); the nearest one above a file, up to the project, wins.
	RootMarkers []string
	Env         map[string]string
	InitOptions map[string]any
	Disabled    bool
}

// Defaults are the built-in servers. Each starts only when its binary is
// on PATH and the project has one of its root markers; for one extension
// the first available server wins (pyright before pylsp).
func Defaults() []Server {
	return []Server{
		// gopls checks the packages that import an edited one after
		// diagnosticsDelay (1 s by default); fawn asks only after a save or
		// an agent edit, so it can ask for them at once.
		{Name: "gopls", Command: "gopls", Extensions: []string{".go"}, RootMarkers: []string{"go.work", "go.mod"},
			InitOptions: map[string]any{"diagnosticsDelay": "0s"}},
		{Name: "typescript", Command: "typescript-language-server", Args: []string{"--stdio"},
			Extensions:  []string{".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"},
			RootMarkers: []string{"tsconfig.json", "jsconfig.json", "package.json"}},
		{Name: "pyright", Command: "pyright-langserver", Args: []string{"--stdio"}, Extensions: []string{".py", ".pyi"},
			RootMarkers: []string{"pyproject.toml", "setup.py", "setup.cfg", "pyrightconfig.json", "requirements.txt", "*.py"}},
		{Name: "pylsp", Command: "pylsp", Extensions: []string{".py"},
			RootMarkers: []string{"pyproject.toml", "setup.py", "setup.cfg", "requirements.txt", "*.py"}},
		{Name: "rust-analyzer", Command: "rust-analyzer", Extensions: []string{".rs"}, RootMarkers: []string{"Cargo.toml"}},
		{Name: "clangd", Command: "clangd", Extensions: []string{".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx"},
			RootMarkers: []string{"compile_commands.json", "compile_flags.txt", "CMakeLists.txt", ".clangd"}},
	}
}

// Merge applies the configured servers to the defaults: an entry named as
// a default changes the fields it sets (disabled: true turns it off); any
// other name adds a server. The result is in the defaults' order, then the
// added ones by name.
func Merge(defaults []Server, configured map[string]Server) []Server {
	out := slices.Clone(defaults)
	var added []string
	for name := range configured {
		added = append(added, name)
	}
	sort.Strings(added)
	for _, name := range added {
		c := configured[name]
		i := slices.IndexFunc(out, func(s Server) bool { return s.Name == name })
		if i < 0 {
			c.Name = name
			out = append(out, c)
			continue
		}
		d := &out[i]
		if c.Command != "" {
			d.Command, d.Args = c.Command, c.Args
		} else if c.Args != nil {
			d.Args = c.Args
		}
		if len(c.Extensions) > 0 {
			d.Extensions = c.Extensions
		}
		if len(c.RootMarkers) > 0 {
			d.RootMarkers = c.RootMarkers
		}
		if c.Env != nil {
			d.Env = c.Env
		}
		if c.InitOptions != nil {
			d.InitOptions = c.InitOptions
		}
		d.Disabled = c.Disabled
	}
	return out
}

// serves says whether s serves the file at path.
func (s Server) serves(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return ext != "" && slices.Contains(s.Extensions, ext)
}

// lookPath finds the server's binary; "" when it is not installed.
func (s Server) lookPath() string {
	p, err := exec.LookPath(s.Command)
	if err != nil {
		return ""
	}
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// CommandLine is the server's whole command line, with the binary as
// found on PATH.
func (s Server) commandLine(bin string) string {
	parts := append([]string{bin}, s.Args...)
	return strings.Join(parts, " ")
}

// hasMarker says whether dir holds one of the root markers (a marker may
// be a glob, such as *.py).
func (s Server) hasMarker(dir string) string {
	for _, m := range s.RootMarkers {
		if strings.ContainsAny(m, "*?[") {
			if got, _ := filepath.Glob(filepath.Join(dir, m)); len(got) > 0 {
				return filepath.Base(got[0])
			}
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, m)); err == nil {
			return m
		}
	}
	return ""
}

// maxMarkerDirs bounds the subdirectories looked into for root markers
// (only for a project without one at its root; globs only at the root):
// this runs before the first frame.
const maxMarkerDirs = 50

// rootDir is the project's root directory as the survey reads it: once
// for every server, not once per server and marker.
type rootDir struct {
	path    string
	read    bool
	entries []os.DirEntry // sorted by name
	names   map[string]bool
}

func (d *rootDir) list() []os.DirEntry {
	if !d.read {
		d.read = true
		d.entries, _ = os.ReadDir(d.path)
		d.names = make(map[string]bool, len(d.entries))
		for _, e := range d.entries {
			d.names[e.Name()] = true
		}
	}
	return d.entries
}

// marker finds one of s's root markers at the root, as hasMarker does.
func (d *rootDir) marker(s Server) string {
	d.list()
	for _, m := range s.RootMarkers {
		switch {
		case strings.ContainsAny(m, "*?["):
			for _, e := range d.entries {
				if ok, _ := filepath.Match(m, e.Name()); ok {
					return e.Name()
				}
			}
		case strings.ContainsRune(m, filepath.Separator):
			if _, err := os.Stat(filepath.Join(d.path, m)); err == nil {
				return m
			}
		case d.names[m]:
			if _, err := os.Stat(filepath.Join(d.path, m)); err == nil {
				return m // (not a dangling link)
			}
		}
	}
	return ""
}

// markerBelow finds one of s's root markers in a directory just below the
// project's root (a monorepo's services). It returns the marker's path
// relative to the root, or "".
func (s Server) markerBelow(root *rootDir) string {
	n := 0
	for _, e := range root.list() {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") || e.Name() == "node_modules" || e.Name() == "vendor" {
			continue
		}
		if n++; n > maxMarkerDirs {
			break
		}
		for _, m := range s.RootMarkers {
			if strings.ContainsAny(m, "*?[") {
				continue
			}
			if _, err := os.Stat(filepath.Join(root.path, e.Name(), m)); err == nil {
				return filepath.Join(e.Name(), m)
			}
		}
	}
	return ""
}

// Item is what starting s means, for the trust prompt: its whole command
// line. The same server is the same item whatever the file or root.
func Item(s Server, bin, marker string) trust.Item {
	return trust.Item{
		Kind:   trust.KindLSP,
		Name:   s.Name,
		Source: marker,
		Detail: s.commandLine(bin) + " (it loads the project's code; some servers run its build scripts or plugins)",
	}
}

// Items lists the language servers the project at root would start: the
// enabled ones whose binary is installed and whose root marker is there.
// It only reads. For one extension only the first available server
// counts, as when fawn picks one.
func Items(root string, servers []Server) []trust.Item {
	var items []trust.Item
	for _, s := range available(root, servers) {
		items = append(items, Item(s.Server, s.bin, filepath.Join(root, s.marker)))
	}
	return items
}

// candidate is a server that can start for the project.
type candidate struct {
	Server
	bin    string
	marker string // relative to the project root
	// why, when bin or marker is empty or the server is disabled or
	// shadowed, says why it does not start.
	why string
}

// survey looks at every configured server for the project at root. The
// root markers are looked for first: a project has one or two languages,
// and looking for a server's binary means a look into every directory on
// PATH.
func survey(root string, servers []Server) []candidate {
	var out []candidate
	dir := &rootDir{path: root}
	taken := map[string]string{} // extension → server that serves it
	for _, s := range servers {
		c := candidate{Server: s}
		switch {
		case s.Disabled:
			c.why = "disabled in the configuration"
		case s.Command == "":
			c.why = "no command configured"
		default:
			// A marker at the root comes from the one listing; the
			// directories below cost a stat per marker each (a thousand in
			// Go's source), so they are looked into only for a server that
			// is installed.
			c.marker = dir.marker(s)
			if c.marker != "" {
				c.bin = s.lookPath()
			} else if c.bin = s.lookPath(); c.bin != "" {
				c.marker = s.markerBelow(dir)
			}
			switch {
			case c.bin == "" && c.marker == "":
				c.why = "no " + strings.Join(s.RootMarkers, ", ") + " at the project's root, and " + s.Command + " is not installed (not found on PATH)"
			case c.marker == "":
				c.why = "no " + strings.Join(s.RootMarkers, ", ") + " in the project"
			case c.bin == "":
				c.why = s.Command + " is not installed (not found on PATH)"
			}
			if c.why != "" {
				break
			}
			for _, ext := range s.Extensions {
				if other, ok := taken[ext]; ok {
					c.why = other + " serves " + ext
					break
				}
			}
			if c.why == "" {
				for _, ext := range s.Extensions {
					taken[ext] = s.Name
				}
			}
		}
		out = append(out, c)
	}
	return out
}

// available is survey's servers that would start.
func available(root string, servers []Server) []candidate {
	var out []candidate
	for _, c := range survey(root, servers) {
		if c.why == "" {
			out = append(out, c)
		}
	}
	return out
}
