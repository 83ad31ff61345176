package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fawn-ide/fawn/project"
	"github.com/fawn-ide/fawn/terminal"
)

// Env is what the tools of one session share. Build it with NewEnv; the
// fields that are nil are optional (the tool constructors create the
// session state that is missing, so &Env{Root: root} works too).
type Env struct {
	// Root is the project root, absolute and with symlinks resolved.
	Root string
	// Files remembers what the agent has read, so edits can insist on a fresh view.
	Files *FileTracker
	// Todos holds the session's to-do list.
	Todos *TodoStore
	// Guard, when set, may refuse an edit (the user has unsaved changes in that file).
	Guard EditGuard
	// BashTimeout is the default timeout of a bash call (tools.bash.timeout).
	BashTimeout time.Duration
	// Edits remembers the agent's writes, so text_editor undo_edit can revert them.
	Edits *EditHistory
	// Changes, when set, is told of every file the tools change and of every
	// command the agent runs, so each change can be reviewed and taken back.
	Changes ChangeRecorder
	// Code, when set, is the project's language servers: text_editor
	// appends what an edit broke to its result, and the code tools ask them.
	Code CodeIntel
	// ReadDenied, when set, returns the user's deny rule that forbids the
	// agent to read rel (slash-separated, relative to Root), or "". Every
	// tool that reads or lists honours it (see deny.go). It is called
	// from concurrent walkers.
	ReadDenied func(rel string) string
	// Web is how web_fetch and web_search reach the web (nil: fetches with
	// the defaults, no search backend).
	Web *WebAccess
	// Buffers, when set, holds the content of the project's files instead
	// of the disk (an editor's buffers, unsaved changes included):
	// text_editor reads and writes through it. nil: the disk.
	Buffers Buffers
	// Sandbox, when set, is the shared shell's OS sandbox: the bash tool
	// reads a failed command's output for its refusal and, when the user
	// lets it, runs a command once outside it.
	Sandbox Sandbox
	// Outputs, when set, keeps the whole output of a command whose result
	// leaves some of it out, for view_output.
	Outputs *Outputs
	// Watch, when set, is the project's one watcher: the checkpoint book
	// reads through it what an agent command changed (nil: it walks).
	Watch *project.Watcher
}

// Sandbox is what the bash tool needs of the shell's sandbox.
type Sandbox interface {
	// On says whether the shared shell is confined now.
	On() bool
	// Refusal reads a failed command's output for the sandbox's refusal
	// and returns the line that says it.
	Refusal(output string) (string, bool)
	// RunOutside runs one command in a shell of its own, not confined,
	// in dir, streaming its output to onOutput.
	RunOutside(ctx context.Context, dir string, c terminal.Command, onOutput func(chunk string)) (terminal.Result, error)
}

// ChangeRecorder keeps what the agent changes in the project (a checkpoint
// book). Its methods must be safe to call from any goroutine.
type ChangeRecorder interface {
	// Changed: a tool wrote abs. before is nil when the file was created,
	// after nil when it was removed.
	Changed(ctx context.Context, abs string, before, after []byte)
	// CommandStarting is called just before an agent command runs; the
	// function it returns is called when the command has ended, to find
	// what the command changed, and returns those files (absolute).
	CommandStarting(ctx context.Context) (ended func() []string)
}

// EditGuard lets the UI veto an agent edit to a file the user is editing.
type EditGuard interface {
	// CheckEdit returns an error meant for the model when path must not be changed now.
	CheckEdit(path string) error
}

// Todo is one item of the agent's to-do list.
type Todo struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	Status   string `json:"status"`             // pending | in_progress | completed | cancelled
	Priority string `json:"priority,omitempty"` // low | medium | high
}

// NewEnv returns the Env of a session working on the project at root. root is
// made absolute and its symlinks resolved, so every path the tools report and
// compare has one spelling.
func NewEnv(root string) (*Env, error) {
	if root == "" {
		return nil, errors.New("project root is empty: give the directory fawn should work in")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("project root %q: %w", root, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("project root %s does not exist", abs)
		}
		return nil, fmt.Errorf("project root %s: %w", abs, err)
	}
	st, err := os.Stat(real)
	if err != nil {
		return nil, fmt.Errorf("project root %s: %w", abs, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("project root %s is not a directory", abs)
	}
	return &Env{
		Root:  real,
		Files: NewFileTracker(),
		Todos: &TodoStore{},
		Edits: NewEditHistory(),
	}, nil
}

// Resolve turns path (absolute, or relative to the project root) into an
// absolute path with every symlink resolved, and refuses anything that lands
// outside the root. Paths that do not exist yet are resolved through their
// nearest existing parent, so a new file cannot be created through a symlink
// that points out of the project either.
func (e *Env) Resolve(path string) (string, error) {
	if strings.TrimSpace(path) == "" {
		return "", errors.New("path is empty: give a path relative to the project root or an absolute path")
	}
	if strings.IndexByte(path, 0) >= 0 {
		return "", fmt.Errorf("path %q contains a NUL byte", path)
	}
	abs := path
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(e.Root, abs)
	}
	real, err := project.Real(filepath.Clean(abs))
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if !within(e.Root, real) {
		return "", fmt.Errorf("%s is outside the project %s", path, e.Root)
	}
	return real, nil
}

// Rel returns abs relative to the project root for display ("." for the
// root itself); paths outside the root are returned unchanged.
func (e *Env) Rel(abs string) string {
	if !within(e.Root, abs) {
		return abs
	}
	rel, err := filepath.Rel(e.Root, abs)
	if err != nil {
		return abs
	}
	return rel
}

// within reports whether p is root or inside it; both must be clean and absolute.
func within(root, p string) bool { return project.Within(root, p) }

// orRoot is path, or "." (the project root) when the model left it empty:
// the walking tools default to the whole project.
func orRoot(path string) string {
	if strings.TrimSpace(path) == "" {
		return "."
	}
	return path
}

// requireDir says, for the model, why abs cannot be listed: it does not
// exist, cannot be read, or is a file.
func (e *Env) requireDir(abs, rel string) error {
	fi, err := os.Stat(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return e.notFound(abs, rel)
		}
		return pathError(rel, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is a file (%s), not a directory: use text_editor view to read it", rel, humanSize(fi.Size()))
	}
	return nil
}
