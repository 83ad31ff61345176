package worktree

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/fawn-ide/fawn/internal/gitcmd"
)

// The errors Open, Create and the rest return, each wrapped with what it is
// about; the text is for the user.
var (
	ErrGitMissing    = errors.New("git is not installed (or not on PATH): tasks in worktrees need git")
	ErrNotRepository = errors.New("not in a git repository: tasks in worktrees need one (git init, then a first commit)")
	ErrNoCommits     = errors.New("the repository has no commits yet: make a first commit, then start a task in a worktree")
	ErrBare          = errors.New("a bare repository has no checkout to start a task from: open a clone that has a work tree")
	ErrBadName       = errors.New("a task's name is 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit")
	ErrExists        = errors.New("a task of that name already exists")
	ErrNotFound      = errors.New("no task of that name")
	ErrMissing       = errors.New("the task's worktree directory is gone")
	ErrLocked        = errors.New("the task's worktree is locked")
	ErrUncommitted   = errors.New("the task's worktree has uncommitted changes")
	ErrNoIdentity    = errors.New("git does not know who you are: set it with git config --global user.name \"Your Name\" and git config --global user.email you@example.com")
	ErrNothing       = errors.New("nothing to commit")
)

// State is what a task's worktree is in, for a UI to offer the right thing.
type State int

const (
	// OK: the worktree is there.
	OK State = iota
	// Missing: git knows the worktree but its directory is gone (deleted
	// behind fawn's back); Restore checks the branch out again, Discard
	// cleans it up.
	Missing
	// Locked: someone ran git worktree lock on it; git removes it only
	// when unlocked.
	Locked
	// NoWorktree: the branch is there but no worktree (pruned, or a
	// crash between making the branch and its checkout); Restore or
	// Discard.
	NoWorktree
)

func (s State) String() string {
	switch s {
	case OK:
		return "ok"
	case Missing:
		return "missing directory"
	case Locked:
		return "locked"
	case NoWorktree:
		return "no worktree"
	}
	return "unknown"
}

// Base is what a task started from.
type Base struct {
	// Branch is the branch HEAD was on, or "" when HEAD was detached.
	Branch string
	// Commit is the commit HEAD was at.
	Commit string
}

// String is the branch, or the commit's short form.
func (b Base) String() string {
	if b.Branch != "" {
		return b.Branch
	}
	if len(b.Commit) > 12 {
		return b.Commit[:12]
	}
	return b.Commit
}

// Tree is one task's worktree.
type Tree struct {
	Name   string // NAME
	Branch string // fawn/NAME
	// Dir is the worktree's root; Project is the project directory in it
	// (Dir itself, or the subdirectory the repository was opened from).
	Dir, Project string
	Base         Base
	State        State
	// Locked is the reason given to git worktree lock, if any.
	Locked string
}

// Manager is one repository's tasks. Its methods may be called from
// several goroutines; git's own locks order what they write.
type Manager struct {
	// UserFilters lets the filter and merge drivers of the user's own git
	// configuration (git-lfs) run in the commands of a trusted project;
	// set it before the first call. See gitcmd.Git.UserFilters.
	UserFilters bool

	top    string // the checkout opened (its root), where merges land
	prefix string // the project's path in it, slash-separated, "" at the root
	root   string // <dir>/<repo-id>
}

// Open is the repository around repo (the project directory), whose
// worktrees live under dir (an absolute directory outside the repository).
func Open(ctx context.Context, repo, dir string) (*Manager, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, ErrGitMissing
	}
	abs, err := filepath.Abs(repo)
	if err != nil {
		return nil, err
	}
	if _, err := gitcmd.ReadHead(abs); errors.Is(err, gitcmd.ErrBareRepository) {
		return nil, fmt.Errorf("%s: %w", abs, ErrBare)
	} else if errors.Is(err, gitcmd.ErrNoRepository) {
		return nil, fmt.Errorf("%s: %w", abs, ErrNotRepository)
	}
	m := &Manager{}
	out, err := m.git(ctx, abs, "rev-parse", "--show-toplevel", "--show-prefix", "--git-common-dir")
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return nil, ErrGitMissing
		}
		return nil, fmt.Errorf("%s: %w (%v)", abs, ErrNotRepository, err)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != 3 {
		return nil, fmt.Errorf("%s: %w (git rev-parse said %q)", abs, ErrNotRepository, out)
	}
	m.top, m.prefix = lines[0], strings.TrimSuffix(lines[1], "/")
	common := lines[2]
	if !filepath.IsAbs(common) {
		common = filepath.Join(abs, common)
	}
	if _, err := m.git(ctx, m.top, "rev-parse", "--verify", "-q", "HEAD^{commit}"); err != nil {
		return nil, fmt.Errorf("%s: %w", m.top, ErrNoCommits)
	}
	if !filepath.IsAbs(dir) {
		return nil, fmt.Errorf("the worktrees directory %q is not an absolute path", dir)
	}
	dir = filepath.Clean(dir)
	if inside(dir, m.top) {
		return nil, fmt.Errorf("the worktrees directory %s is inside the repository %s, whose status would show every task's files: choose one outside it (worktrees.dir)", dir, m.top)
	}
	m.root = filepath.Join(dir, repoID(common))
	return m, nil
}

// inside reports whether path is dir or below it.
func inside(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// repoID names a repository's directory of worktrees: the name of the
// directory holding its git directory (the checkout's, for .git), made
// safe, and a hash of the git directory's path.
func repoID(common string) string {
	common = filepath.Clean(common)
	name := filepath.Base(common)
	if name == ".git" {
		name = filepath.Base(filepath.Dir(common))
	}
	name = strings.TrimSuffix(name, ".git")
	name = strings.Map(func(r rune) rune {
		if r < utf8.RuneSelf && nameByte(byte(r)) {
			return r
		}
		return '_'
	}, name)
	if len(name) > 40 {
		name = name[:40]
	}
	sum := sha256.Sum256([]byte(common))
	return name + "-" + hex.EncodeToString(sum[:4])
}

// nameByte says whether c may stand in a task name: [A-Za-z0-9._-].
func nameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-'
}

// validName says whether name is 1 to 64 of [A-Za-z0-9._-], the first a
// letter or digit. (Not a regular expression: the {0,63} of one compiled at
// start-up cost every start of fawn 55 KB and a deep stack.)
func validName(name string) bool {
	if len(name) == 0 || len(name) > 64 || name[0] == '.' || name[0] == '_' || name[0] == '-' {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !nameByte(name[i]) {
			return false
		}
	}
	return true
}

// CheckName says whether name is a task name: one that is a safe branch
// component and directory name alike.
func CheckName(name string) error {
	if !validName(name) || strings.Contains(name, "..") ||
		strings.HasSuffix(name, ".") || strings.HasSuffix(name, ".lock") {
		return fmt.Errorf("%q: %w", name, ErrBadName)
	}
	return nil
}

// Root is the checkout the Manager was opened in: where merges land.
func (m *Manager) Root() string { return m.top }

// Dir is the directory this repository's worktrees are made in.
func (m *Manager) Dir() string { return m.root }

func branchOf(name string) string { return "fawn/" + name }

func (m *Manager) git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	g := gitcmd.Git{Dir: dir, UserFilters: m.UserFilters, Options: []string{"-c", "core.quotePath=off"}}
	return g.Output(ctx, args...)
}

// exitCode is git's exit status in err, or -1.
func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return -1
}

func (m *Manager) project(dir string) string {
	if m.prefix == "" {
		return dir
	}
	return filepath.Join(dir, filepath.FromSlash(m.prefix))
}

// Create makes the task NAME: the branch fawn/NAME at the current HEAD,
// checked out in a new worktree <dir>/<repo-id>/NAME. A detached HEAD is
// a base too (its commit, and no branch to merge into).
func (m *Manager) Create(ctx context.Context, name string) (Tree, error) {
	if err := CheckName(name); err != nil {
		return Tree{}, err
	}
	branch := branchOf(name)
	if _, err := m.git(ctx, m.top, "show-ref", "--verify", "--quiet", "refs/heads/"+branch); err == nil {
		return Tree{}, fmt.Errorf("%w: branch %s is there (finish or discard that task, or pick another name)", ErrExists, branch)
	}
	path := filepath.Join(m.root, name)
	if _, err := os.Lstat(path); err == nil {
		return Tree{}, fmt.Errorf("%w: %s is there (remove it, or pick another name)", ErrExists, path)
	}
	base, err := m.head(ctx)
	if err != nil {
		return Tree{}, err
	}
	if err := os.MkdirAll(m.root, 0o700); err != nil {
		return Tree{}, fmt.Errorf("cannot make the worktrees directory: %w", err)
	}
	// The base first: a crash after this leaves only a section that names
	// no branch, which the next Create of the name overwrites.
	for k, v := range map[string]string{"fawnBase": base.Branch, "fawnBaseCommit": base.Commit} {
		if _, err := m.git(ctx, m.top, "config", "branch."+branch+"."+k, v); err != nil {
			return Tree{}, fmt.Errorf("cannot record the task's base: %w", err)
		}
	}
	if _, err := m.git(ctx, m.top, "worktree", "add", "--quiet", "-b", branch, path, base.Commit); err != nil {
		_, _ = m.git(ctx, m.top, "config", "--remove-section", "branch."+branch)
		return Tree{}, fmt.Errorf("cannot make the worktree of %s: %w", name, err)
	}
	t := Tree{Name: name, Branch: branch, Dir: path, Project: m.project(path), Base: base, State: OK}
	// A project directory that holds no tracked file is not checked out.
	if err := os.MkdirAll(t.Project, 0o755); err != nil {
		return t, err
	}
	return t, nil
}

// head is the current HEAD of the main checkout, as a Base.
func (m *Manager) head(ctx context.Context) (Base, error) {
	out, err := m.git(ctx, m.top, "rev-parse", "--verify", "-q", "HEAD^{commit}")
	if err != nil {
		return Base{}, fmt.Errorf("%s: %w", m.top, ErrNoCommits)
	}
	b := Base{Commit: strings.TrimSpace(string(out))}
	// Not --short: it says heads/main when a tag is called main too.
	out, err = m.git(ctx, m.top, "symbolic-ref", "-q", "HEAD")
	switch {
	case err == nil:
		b.Branch = strings.TrimPrefix(strings.TrimSpace(string(out)), "refs/heads/")
	case exitCode(err) == 1: // detached
	default:
		return Base{}, err
	}
	return b, nil
}

// worktreeEntry is one record of git worktree list --porcelain.
type worktreeEntry struct {
	path, branch       string
	locked, prunable   bool
	lockReason, reason string
}

func (m *Manager) worktrees(ctx context.Context) ([]worktreeEntry, error) {
	out, err := m.git(ctx, m.top, "worktree", "list", "--porcelain", "-z")
	if err != nil {
		return nil, err
	}
	var list []worktreeEntry
	var cur *worktreeEntry
	for _, f := range strings.Split(string(out), "\x00") {
		if f == "" {
			cur = nil
			continue
		}
		key, val, _ := strings.Cut(f, " ")
		if key == "worktree" {
			list = append(list, worktreeEntry{path: val})
			cur = &list[len(list)-1]
			continue
		}
		if cur == nil {
			continue
		}
		switch key {
		case "branch":
			cur.branch = strings.TrimPrefix(val, "refs/heads/")
		case "locked":
			cur.locked, cur.lockReason = true, val
		case "prunable":
			cur.prunable, cur.reason = true, val
		}
	}
	return list, nil
}

// List is the repository's tasks (branches fawn/*), sorted by name, each
// with the state of its worktree.
func (m *Manager) List(ctx context.Context) ([]Tree, error) {
	out, err := m.git(ctx, m.top, "for-each-ref", "--format=%(refname:lstrip=3)", "refs/heads/fawn/")
	if err != nil {
		return nil, err
	}
	wts, err := m.worktrees(ctx)
	if err != nil {
		return nil, err
	}
	bases, err := m.bases(ctx)
	if err != nil {
		return nil, err
	}
	var trees []Tree
	for _, name := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if name == "" || CheckName(name) != nil {
			continue // a fawn/a/b, or a name fawn would not have made
		}
		t := Tree{Name: name, Branch: branchOf(name), Dir: filepath.Join(m.root, name), State: NoWorktree, Base: bases[branchOf(name)]}
		// Where its branch is checked out, else its directory (whose
		// shell checked out something else).
		i := slices.IndexFunc(wts, func(w worktreeEntry) bool { return w.branch == t.Branch })
		if i < 0 {
			i = slices.IndexFunc(wts, func(w worktreeEntry) bool { return w.path == t.Dir })
		}
		if i >= 0 {
			w := wts[i]
			t.Dir, t.State = w.path, OK
			if _, err := os.Stat(w.path); w.prunable || err != nil {
				t.State = Missing
			} else if w.locked {
				t.State, t.Locked = Locked, w.lockReason
			}
		}
		t.Project = m.project(t.Dir)
		trees = append(trees, t)
	}
	sort.Slice(trees, func(i, j int) bool { return trees[i].Name < trees[j].Name })
	return trees, nil
}

// isCommitID reports whether s is a full commit ID, SHA-1 or SHA-256
// (a function, not a regular expression: {40} compiled at start costs
// every start of fawn a quarter of a millisecond).
func isCommitID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// plausibleBranch is a branch name as git allows one, as far as it
// matters here: fawn only ever gives it to git as refs/heads/NAME, never
// where it could be read as an option.
func plausibleBranch(s string) bool {
	if s == "" || len(s) > 255 || strings.HasPrefix(s, "-") || strings.Contains(s, "..") {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == ' ' || r == '~' || r == '^' || r == ':' || r == '\\' {
			return false
		}
	}
	return true
}

// bases reads every recorded base, keeping only values that are a
// plausible branch name and a full commit ID: they come from a file in the
// repository, and end up on git's command line.
func (m *Manager) bases(ctx context.Context) (map[string]Base, error) {
	out, err := m.git(ctx, m.top, "config", "-z", "--get-regexp", `^branch\.fawn/.*\.fawnbase(commit)?$`)
	if err != nil && exitCode(err) != 1 {
		return nil, err
	}
	bases := map[string]Base{}
	for _, rec := range bytes.Split(out, []byte{0}) {
		key, val, _ := strings.Cut(string(rec), "\n")
		rest, ok := strings.CutPrefix(key, "branch.")
		if !ok {
			continue
		}
		i := strings.LastIndexByte(rest, '.')
		if i < 0 {
			continue
		}
		branch, variable := rest[:i], rest[i+1:]
		b := bases[branch]
		switch variable {
		case "fawnbase":
			if plausibleBranch(val) {
				b.Branch = val
			}
		case "fawnbasecommit":
			if isCommitID(val) {
				b.Commit = val
			}
		}
		bases[branch] = b
	}
	return bases, nil
}

// Get is the task NAME (ErrNotFound when there is none).
func (m *Manager) Get(ctx context.Context, name string) (Tree, error) {
	if err := CheckName(name); err != nil {
		return Tree{}, err
	}
	trees, err := m.List(ctx)
	if err != nil {
		return Tree{}, err
	}
	for _, t := range trees {
		if t.Name == name {
			return t, nil
		}
	}
	return Tree{}, fmt.Errorf("%w: %s", ErrNotFound, name)
}

// Restore checks a Missing or NoWorktree task's branch out again, in its
// directory: what was committed comes back; what was not, is lost with the
// directory. A task in another state is returned as it is.
func (m *Manager) Restore(ctx context.Context, t Tree) (Tree, error) {
	if t.State != Missing && t.State != NoWorktree {
		return t, nil
	}
	if _, err := os.Lstat(t.Dir); err == nil {
		return t, fmt.Errorf("%w: %s is there but is not the task's worktree (remove it first)", ErrExists, t.Dir)
	}
	args := []string{"worktree", "add", "--quiet"}
	if t.State == Missing {
		// The branch is still "checked out" in the missing directory,
		// which is still registered: -f overrides both.
		args = append(args, "-f")
	}
	if _, err := m.git(ctx, m.top, append(args, t.Dir, t.Branch)...); err != nil {
		return t, fmt.Errorf("cannot check %s out again: %w", t.Branch, err)
	}
	t.State = OK
	return t, os.MkdirAll(t.Project, 0o755)
}

// Discard removes the task's worktree and deletes its branch, with every
// commit on it. Without force it refuses a worktree with uncommitted
// changes (ErrUncommitted) and a locked one (ErrLocked: fawn locks none,
// but a git worktree add killed half-way leaves its worktree locked,
// "initializing"); pass force only after the user said yes.
func (m *Manager) Discard(ctx context.Context, t Tree, force bool) error {
	switch t.State {
	case Locked:
		if !force {
			return fmt.Errorf("%w (%s): discard it anyway, or unlock it with git worktree unlock %s", ErrLocked, t.Locked, t.Dir)
		}
		if _, err := m.git(ctx, m.top, "worktree", "remove", "-f", "-f", t.Dir); err != nil {
			return fmt.Errorf("cannot remove the worktree of %s: %w", t.Name, err)
		}
	case OK:
		if !force {
			n, err := m.uncommitted(ctx, t)
			if err != nil {
				return err
			}
			if len(n) > 0 {
				return fmt.Errorf("%w (%d files): commit them, or discard them too", ErrUncommitted, len(n))
			}
		}
		args := []string{"worktree", "remove"}
		if force {
			args = append(args, "--force")
		}
		if _, err := m.git(ctx, m.top, append(args, t.Dir)...); err != nil {
			return fmt.Errorf("cannot remove the worktree of %s: %w", t.Name, err)
		}
	case Missing:
		// git forgets just this one; an older git, which cannot, prunes
		// the records of every directory that is gone (a locked one stays).
		if _, err := m.git(ctx, m.top, "worktree", "remove", t.Dir); err != nil {
			if _, err := m.git(ctx, m.top, "worktree", "prune"); err != nil {
				return fmt.Errorf("cannot clean up the worktree of %s: %w", t.Name, err)
			}
		}
	}
	// branch -D deletes the branch's config section, the base with it.
	if _, err := m.git(ctx, m.top, "branch", "-D", "--quiet", t.Branch); err != nil {
		return fmt.Errorf("cannot delete the branch %s: %w", t.Branch, err)
	}
	_ = m.Forget(t.Name)  // no later run reopens it
	_ = os.Remove(m.root) // when it was the last task
	return nil
}

// uncommitted is the task worktree's changed and untracked files.
func (m *Manager) uncommitted(ctx context.Context, t Tree) ([]string, error) {
	if t.State == Missing || t.State == NoWorktree {
		return nil, nil
	}
	out, err := m.git(ctx, t.Dir, "status", "--porcelain", "-z", "--untracked-files=all")
	if err != nil {
		return nil, err
	}
	return statusPaths(out), nil
}

// statusPaths reads git status --porcelain -z: "XY path", and for a
// rename or copy one more field, the old path.
func statusPaths(out []byte) []string {
	var paths []string
	fields := strings.Split(string(out), "\x00")
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if len(f) < 4 {
			continue
		}
		paths = append(paths, f[3:])
		if f[0] == 'R' || f[0] == 'C' {
			i++
		}
	}
	return paths
}
