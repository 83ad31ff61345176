package tools

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/project"
)

//go:embed glob.md
var globDoc string

const (
	globDefaultLimit = 200
	globTimeLimit    = 20 * time.Second
)

// Glob is the glob tool: files whose path matches a pattern with **,
// newest first.
type Glob struct {
	toolInfo
	env       *Env
	timeLimit time.Duration
}

// NewGlob returns the glob tool working in env.
func NewGlob(env *Env) *Glob {
	env.ensureState()
	return &Glob{
		env:       env,
		timeLimit: globTimeLimit,
		toolInfo: toolInfo{
			name: "glob",
			desc: globDoc,
			params: map[string]*schema.ParameterInfo{
				"pattern": {Type: schema.String, Required: true, Desc: `Glob matched against paths below path, e.g. "**/*.go", "src/**/*_test.go", "*.{json,yaml}".`},
				"path":    {Type: schema.String, Desc: "Directory to search, relative to the project root; default: the project root."},
				"limit":   {Type: schema.Integer, Desc: "Show at most this many files (default 200)."},
			},
		},
	}
}

type globArgs struct {
	Pattern string  `json:"pattern"`
	Path    string  `json:"path"`
	Limit   flexInt `json:"limit"`
}

type globQuery struct {
	pattern  string // relative to abs, slash-separated
	abs, rel string
	limit    int
	maxDepth int
}

func (g *Glob) parse(argsJSON string) (*globQuery, error) {
	var a globArgs
	if err := decodeArgs(g.name, argsJSON, &a); err != nil {
		return nil, err
	}
	pat := strings.TrimSpace(a.Pattern)
	if pat == "" {
		return nil, errors.New(`glob needs a pattern, e.g. "**/*.go" (every .go file) or "cmd/*/main.go"`)
	}
	path := orRoot(a.Path)
	if filepath.IsAbs(pat) {
		// An absolute pattern: its fixed part becomes the path.
		base, rest := doublestar.SplitPattern(filepath.ToSlash(pat))
		path, pat = base, rest
	}
	pat = strings.TrimPrefix(filepath.ToSlash(pat), "./")
	if !doublestar.ValidatePattern(pat) {
		return nil, fmt.Errorf("pattern %q is not a valid glob: check its [ ] and { } pairs", a.Pattern)
	}
	// Search from the pattern's fixed prefix, which also keeps ".." honest.
	if base, rest := doublestar.SplitPattern(pat); base != "." {
		path, pat = filepath.Join(path, filepath.FromSlash(base)), rest
	}
	abs, err := g.env.Resolve(path)
	if err != nil {
		return nil, err
	}
	if err := g.env.checkReadable(abs); err != nil {
		return nil, err
	}
	q := &globQuery{pattern: pat, abs: abs, rel: g.env.Rel(abs), limit: globDefaultLimit}
	if a.Limit.Set && a.Limit.N > 0 {
		q.limit = min(a.Limit.N, 5000)
	}
	if !strings.Contains(pat, "**") {
		q.maxDepth = strings.Count(pat, "/") + 1
	}
	return q, nil
}

// Plan says what the glob is; glob only reads.
func (g *Glob) Plan(ctx context.Context, argsJSON string) (Action, error) {
	q, err := g.parse(argsJSON)
	if err != nil {
		return Action{}, err
	}
	sum := "Find " + q.pattern
	if q.rel != "." {
		sum = "Find " + filepath.ToSlash(filepath.Join(q.rel, q.pattern))
	}
	return Action{Kind: KindRead, Summary: sum, Path: q.abs}, nil
}

// InvokableRun lists the matching files.
func (g *Glob) InvokableRun(ctx context.Context, argsJSON string, _ ...tool.Option) (string, error) {
	q, err := g.parse(argsJSON)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(q.abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Sprintf("No files match %s: %s does not exist.", q.pattern, q.rel), nil
		}
		return "", pathError(q.rel, err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s is a file: glob searches a directory (give the directory as path)", q.rel)
	}
	ctx, cancel := context.WithTimeout(ctx, g.timeLimit)
	defer cancel()
	type match struct {
		rel string
		mod time.Time
	}
	var found []match
	deny := g.env.denyFilter()
	err = project.Walk(ctx, g.env.Root, q.abs, project.WalkOptions{MaxDepth: q.maxDepth, Hide: deny.hide()}, func(e project.Entry) error {
		if e.D.IsDir() {
			return nil
		}
		below := e.Rel
		if q.rel != "." {
			below = strings.TrimPrefix(e.Rel[len(q.rel):], string(filepath.Separator))
		}
		if !doublestar.MatchUnvalidated(q.pattern, filepath.ToSlash(below)) {
			return nil
		}
		var mod time.Time
		if info, err := e.D.Info(); err == nil {
			mod = info.ModTime()
		}
		found = append(found, match{e.Rel, mod})
		return nil
	})
	timedOut := errors.Is(ctx.Err(), context.DeadlineExceeded)
	if err != nil && !timedOut {
		return "", pathError(q.rel, err)
	}
	sort.SliceStable(found, func(i, j int) bool {
		if !found[i].mod.Equal(found[j].mod) {
			return found[i].mod.After(found[j].mod)
		}
		return found[i].rel < found[j].rel
	})
	var b strings.Builder
	if len(found) == 0 {
		fmt.Fprintf(&b, "No files match %s in %s.", q.pattern, q.rel)
		if !strings.Contains(q.pattern, "/") {
			fmt.Fprintf(&b, " A pattern without / matches only directly inside the directory: use **/%s to search every level.", q.pattern)
		}
	}
	shown := min(len(found), q.limit)
	for _, m := range found[:shown] {
		b.WriteString(filepath.ToSlash(m.rel))
		b.WriteByte('\n')
	}
	switch {
	case shown < len(found):
		fmt.Fprintf(&b, "[%d of %d files shown, newest first; narrow the pattern or set limit]", shown, len(found))
	case len(found) > 0:
		fmt.Fprintf(&b, "[%s, newest first]", plural(len(found), "file", "files"))
	}
	if n := deny.note(); n != "" {
		b.WriteString("\n" + n)
	}
	if timedOut {
		fmt.Fprintf(&b, "\n[the search stopped after %s: results are partial; narrow the pattern or path]", g.timeLimit)
	}
	return Truncate(b.String(), 0, maxResultBytes), nil
}
