package tools

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/project"
)

//go:embed tree.md
var treeDoc string

const (
	treeDefaultDepth = 3
	treeMaxDepth     = 12
	treeMaxLines     = 500
	treeMaxPerDir    = 100
	treeMaxWalk      = 200_000
	treeTimeLimit    = 20 * time.Second
)

// Tree is the tree tool: a directory's layout a few levels deep.
type Tree struct {
	toolInfo
	env       *Env
	timeLimit time.Duration
	maxLines  int
}

// NewTree returns the tree tool working in env.
func NewTree(env *Env) *Tree {
	env.ensureState()
	return &Tree{
		env:       env,
		timeLimit: treeTimeLimit,
		maxLines:  treeMaxLines,
		toolInfo: toolInfo{
			name: "tree",
			desc: treeDoc,
			params: map[string]*schema.ParameterInfo{
				"path":      {Type: schema.String, Desc: "Directory to show, relative to the project root; default: the project root."},
				"max_depth": {Type: schema.Integer, Desc: "Levels to show (default 3)."},
			},
		},
	}
}

type treeArgs struct {
	Path     string  `json:"path"`
	MaxDepth flexInt `json:"max_depth"`
	Depth    flexInt `json:"depth"`
}

type treeQuery struct {
	abs, rel string
	depth    int
}

func (t *Tree) parse(argsJSON string) (*treeQuery, error) {
	var a treeArgs
	if err := decodeArgs(t.name, argsJSON, &a); err != nil {
		return nil, err
	}
	abs, err := t.env.Resolve(orRoot(a.Path))
	if err != nil {
		return nil, err
	}
	if err := t.env.checkReadable(abs); err != nil {
		return nil, err
	}
	q := &treeQuery{abs: abs, rel: t.env.Rel(abs), depth: treeDefaultDepth}
	d := a.MaxDepth
	if !d.Set {
		d = a.Depth
	}
	if d.Set {
		if d.N < 1 {
			return nil, fmt.Errorf("max_depth %d is invalid: use 1 (only the directory's entries) or more", d.N)
		}
		q.depth = min(d.N, treeMaxDepth)
	}
	return q, nil
}

// Plan says which directory is shown; tree only reads.
func (t *Tree) Plan(ctx context.Context, argsJSON string) (Action, error) {
	q, err := t.parse(argsJSON)
	if err != nil {
		return Action{}, err
	}
	return Action{Kind: KindRead, Summary: fmt.Sprintf("Tree %s (depth %d)", q.rel, q.depth), Path: q.abs}, nil
}

// treeNode is one entry of the walked tree.
type treeNode struct {
	name     string
	dir      bool
	link     string
	children []*treeNode
}

// InvokableRun draws the tree.
func (t *Tree) InvokableRun(ctx context.Context, argsJSON string, _ ...tool.Option) (string, error) {
	q, err := t.parse(argsJSON)
	if err != nil {
		return "", err
	}
	if err := t.env.requireDir(q.abs, q.rel); err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, t.timeLimit)
	defer cancel()
	root := &treeNode{name: q.rel, dir: true}
	nodes := map[string]*treeNode{q.abs: root}
	dirs, files, walked := 0, 0, 0
	stopped := errors.New("walk limit")
	deny := t.env.denyFilter()
	err = project.Walk(ctx, t.env.Root, q.abs, project.WalkOptions{MaxDepth: q.depth, Hide: deny.hide()}, func(e project.Entry) error {
		if walked++; walked > treeMaxWalk {
			return stopped
		}
		n := &treeNode{name: e.D.Name(), dir: e.D.IsDir()}
		if e.D.Type()&fs.ModeSymlink != 0 {
			n.link, _ = os.Readlink(e.Abs)
		}
		if n.dir {
			dirs++
			nodes[e.Abs] = n
		} else {
			files++
		}
		parent := nodes[filepath.Dir(e.Abs)]
		parent.children = append(parent.children, n)
		return nil
	})
	partial := ""
	switch {
	case errors.Is(err, stopped):
		partial = fmt.Sprintf(" (counting stopped after %d entries)", treeMaxWalk)
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		partial = fmt.Sprintf(" (counting stopped after %s)", t.timeLimit)
	case err != nil:
		return "", pathError(q.rel, err)
	}
	var b strings.Builder
	b.WriteString(q.rel + "/\n")
	budget := t.maxLines
	drawTree(&b, root, "", &budget)
	fmt.Fprintf(&b, "\n%s, %s%s", plural(dirs, "directory", "directories"), plural(files, "file", "files"), partial)
	if q.depth < treeMaxDepth {
		fmt.Fprintf(&b, " within depth %d", q.depth)
	}
	if n := deny.note(); n != "" {
		b.WriteString("\n" + n)
	}
	return Truncate(b.String(), 0, maxResultBytes), nil
}

// drawTree draws n's children below prefix, spending one line of budget
// per entry; what does not fit is summed up as "… N more".
func drawTree(b *strings.Builder, n *treeNode, prefix string, budget *int) {
	kids := n.children
	for i, c := range kids {
		if *budget <= 1 || i >= treeMaxPerDir {
			fmt.Fprintf(b, "%s└── … %d more\n", prefix, len(kids)-i)
			*budget--
			return
		}
		*budget--
		branch, indent := "├── ", "│   "
		if i == len(kids)-1 {
			branch, indent = "└── ", "    "
		}
		b.WriteString(prefix + branch + c.name)
		switch {
		case c.link != "":
			b.WriteString(" -> " + c.link)
		case c.dir:
			b.WriteString("/")
		}
		b.WriteByte('\n')
		if c.dir {
			drawTree(b, c, prefix+indent, budget)
		}
	}
}
