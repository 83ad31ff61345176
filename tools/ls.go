package tools

import (
	"context"
	_ "embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/project"
)

//go:embed ls.md
var lsDoc string

const lsMaxEntries = 1000

// Ls is the ls tool: the entries of one directory, directories first.
type Ls struct {
	toolInfo
	env *Env
}

// NewLs returns the ls tool working in env.
func NewLs(env *Env) *Ls {
	env.ensureState()
	return &Ls{
		env: env,
		toolInfo: toolInfo{
			name: "ls",
			desc: lsDoc,
			params: map[string]*schema.ParameterInfo{
				"path":   {Type: schema.String, Desc: "Directory to list, relative to the project root; default: the project root."},
				"match":  {Type: schema.Array, ElemInfo: &schema.ParameterInfo{Type: schema.String}, Desc: `Only entries whose name matches one of these globs, e.g. ["*.go"].`},
				"ignore": {Type: schema.Array, ElemInfo: &schema.ParameterInfo{Type: schema.String}, Desc: `Leave out entries whose name matches one of these globs, e.g. ["*_test.go"].`},
				"all":    {Type: schema.Boolean, Desc: "Also show entries hidden by .gitignore/.ignore, and .git."},
			},
		},
	}
}

type lsArgs struct {
	Path   string      `json:"path"`
	Match  flexStrings `json:"match"`
	Ignore flexStrings `json:"ignore"`
	All    flexBool    `json:"all"`
}

type lsQuery struct {
	abs, rel      string
	match, ignore []string
	all           bool
}

func (l *Ls) parse(argsJSON string) (*lsQuery, error) {
	var a lsArgs
	if err := decodeArgs(l.name, argsJSON, &a); err != nil {
		return nil, err
	}
	abs, err := l.env.Resolve(orRoot(a.Path))
	if err != nil {
		return nil, err
	}
	if err := l.env.checkReadable(abs); err != nil {
		return nil, err
	}
	q := &lsQuery{abs: abs, rel: l.env.Rel(abs), all: bool(a.All)}
	for _, set := range []struct {
		in  []string
		out *[]string
	}{{a.Match, &q.match}, {a.Ignore, &q.ignore}} {
		for _, g := range set.in {
			g = strings.TrimSpace(g)
			if g == "" {
				continue
			}
			if !doublestar.ValidatePattern(g) {
				return nil, fmt.Errorf("%q is not a valid glob: check its [ ] and { } pairs", g)
			}
			*set.out = append(*set.out, g)
		}
	}
	return q, nil
}

// Plan says which directory is listed; ls only reads.
func (l *Ls) Plan(ctx context.Context, argsJSON string) (Action, error) {
	q, err := l.parse(argsJSON)
	if err != nil {
		return Action{}, err
	}
	return Action{Kind: KindRead, Summary: "List " + q.rel, Path: q.abs}, nil
}

type lsEntry struct {
	name    string
	dir     bool
	size    int64
	link    string
	ignored bool
}

// InvokableRun lists the directory.
func (l *Ls) InvokableRun(ctx context.Context, argsJSON string, _ ...tool.Option) (string, error) {
	q, err := l.parse(argsJSON)
	if err != nil {
		return "", err
	}
	if err := l.env.requireDir(q.abs, q.rel); err != nil {
		return "", err
	}
	var entries []lsEntry
	hidden := 0
	deny := l.env.denyFilter()
	err = project.Walk(ctx, l.env.Root, q.abs, project.WalkOptions{WithIgnored: true, MaxDepth: 1, Hide: deny.hide()}, func(e project.Entry) error {
		name := e.D.Name()
		if len(q.match) > 0 && !matchesAny(q.match, name) || matchesAny(q.ignore, name) {
			return nil
		}
		if e.Ignored && !q.all {
			hidden++
			return nil
		}
		en := lsEntry{name: name, dir: e.D.IsDir(), ignored: e.Ignored}
		if e.D.Type()&fs.ModeSymlink != 0 {
			en.link, _ = os.Readlink(e.Abs)
			if st, err := os.Stat(e.Abs); err == nil && st.IsDir() {
				en.link += "/"
			}
		} else if !en.dir {
			if info, err := e.D.Info(); err == nil {
				en.size = info.Size()
			}
		}
		entries = append(entries, en)
		return nil
	})
	if err != nil {
		return "", pathError(q.rel, err)
	}
	if q.all {
		// The walk never reports .git; all means everything.
		if st, err := os.Lstat(filepath.Join(q.abs, ".git")); err == nil && (len(q.match) == 0 || matchesAny(q.match, ".git")) && !matchesAny(q.ignore, ".git") {
			entries = append(entries, lsEntry{name: ".git", dir: st.IsDir(), size: st.Size(), ignored: true})
		}
	}
	sort.SliceStable(entries, func(i, j int) bool {
		if entries[i].dir != entries[j].dir {
			return entries[i].dir
		}
		return entries[i].name < entries[j].name
	})
	var b strings.Builder
	dirs, files := 0, 0
	for _, e := range entries {
		if e.dir {
			dirs++
		} else {
			files++
		}
	}
	fmt.Fprintf(&b, "%s/ — %s, %s\n", q.rel, plural(dirs, "directory", "directories"), plural(files, "file", "files"))
	for i, e := range entries {
		if i == lsMaxEntries {
			fmt.Fprintf(&b, "… %d more (use match or glob to narrow)\n", len(entries)-i)
			break
		}
		b.WriteString(e.name)
		switch {
		case e.link != "":
			b.WriteString(" -> " + e.link)
		case e.dir:
			b.WriteString("/")
		default:
			b.WriteString("  " + humanSize(e.size))
		}
		if e.ignored {
			b.WriteString("  (ignored)")
		}
		b.WriteByte('\n')
	}
	if hidden > 0 {
		fmt.Fprintf(&b, "[%s hidden by ignore rules; all: true shows them]\n", plural(hidden, "entry", "entries"))
	}
	if n := deny.note(); n != "" {
		b.WriteString(n + "\n")
	}
	return Truncate(strings.TrimSuffix(b.String(), "\n"), 0, maxResultBytes), nil
}
