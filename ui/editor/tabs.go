package editor

import (
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/project"
	"github.com/fawn-ide/fawn/ui/keymap"
	"github.com/fawn-ide/fawn/ui/picker"
	"github.com/fawn-ide/fawn/ui/theme"
)

// Marks shown in tab titles.
const (
	markUnsaved = '●' // the file has unsaved changes
	markAgent   = '✦' // the agent changed the file since the user last looked
	markProblem = '✖' // a language server reports errors or warnings (gutter, tab)
)

// Option configures Tabs.
type Option func(*Tabs)

// WithRedraw sets what background work (highlighting, files changed on
// disk, the finder's listing) calls to get the editor drawn again. It must
// be safe to call from any goroutine and must not block; the work itself is
// applied at the next Draw, on the UI goroutine.
func WithRedraw(fn func()) Option { return func(t *Tabs) { t.box.setRedraw(fn) } }

// WithWatcher makes the editor watch its open files through w, its project
// root's one watcher (shared with the explorer, the checkpoint book and the
// file index), instead of one of its own.
func WithWatcher(w *project.Watcher) Option { return func(t *Tabs) { t.sharedWatch = w } }

// tab is one open file (or the Welcome page).
type tab struct {
	path    string // absolute, symlinks resolved; "" for Welcome
	welcome bool
	source  string // the Welcome text, redone when the keys change
	binary  bool
	buf     *Buffer
	view    *CodeView
	title   string

	readOnly  bool
	truncated bool   // only the start of a file too large to edit is shown
	notice    string // shown while nothing else is said (why it is read-only)
	disk      stamp  // the file on disk as last read or written here

	agentMark bool       // changed by the agent since the user last looked
	agentEdit *agentEdit // the agent's last edit, for the diff
	diff      *CodeView  // shown instead of view while set
	diffTitle string
	// review, while a session diff (ShowDiff) is shown, is what it compares:
	// its hunks can be reverted one by one or opened in the file.
	review *review
	// split is the diff laid out side by side, shown instead of diff
	// while splitOn (the editor is wide enough, and the user did not ask
	// for the unified diff).
	split   *splitDiff
	splitOn bool
	// versions, while set, shows versions of the file side by side (a
	// conflict), over everything else, with choices.
	versions *versionsView

	prompt   *prompt
	flash    string
	flashErr bool
}

type agentEdit struct {
	before, after []byte
	command       string
}

// Tabs is the editor pane: a tab strip over the active tab's code view and
// a status line. It is a tview primitive; see the package comment for which
// methods may be called from which goroutine.
type Tabs struct {
	*tview.Box

	// onSave, when set, is told of every file the user saves, with what
	// it held before (nil: it did not exist).
	onSave func(path string, before []byte)
	// onRevert, when set, writes content into path for the diff view's
	// revert keys (whole: the whole file back as the session found it).
	onRevert func(path string, content []byte, whole bool)

	root     string
	th       theme.Theme
	keys     *keymap.Table
	base     tcell.Style
	maxSize  int64
	tabWidth int
	wrap     bool
	// unifiedDiffs: the user asked for unified diffs even when there is
	// room for side by side (s in a diff toggles it).
	unifiedDiffs bool
	lister       FileLister
	vimKeys      bool // editor.keys: vim
	// keyset is the tables of the finder (the picker's actions, left out
	// of the help: the picker's own table shows them), the prompts, the
	// diff and versions views and vim keys.
	keyset *KeySet

	tabs   []*tab
	active int
	finder *finder

	box    *mailbox
	hl     *highlighter
	fp     stamper
	lexers *lexerCache
	clip   *clipboard
	watch  *watcher
	// sharedWatch is the watcher given with WithWatcher; nil: watch alone.
	sharedWatch *project.Watcher
	// watchErr says why files are not watched (no inotify); saving still
	// compares the file on disk first.
	watchErr string
	wg       sync.WaitGroup

	// problems are the language servers' diagnostics by file; codeNav
	// asks them for a definition or a hover (SetCodeNav).
	problems map[string][]Problem
	codeNav  func(what, path string, line, col int)
	onFile   func(path string)
	// onType gets the text of tabs the user typed in, once the typing
	// pauses (typePause); typedTabs are those waiting, typeTimer the
	// pause. All three are the UI goroutine's.
	onType    func(path, text string)
	typedTabs map[*tab]bool
	typeTimer *time.Timer

	// strip geometry at the last draw, for clicks: tab i spans [x0, x1).
	stripY   int
	stripPos [][3]int // x0, x1, index

	mu        sync.Mutex
	dirty     map[string]bool        // files with unsaved changes, for CheckEdit
	diskQueue map[string]diskVersion // changed files waiting for the UI goroutine
}

// New returns the editor pane for the project at root, showing the Welcome
// tab. keys is the editor's key table (DefaultKeys, with the user's
// overrides); nil means DefaultKeys. Call Close when done with it.
func New(root string, th theme.Theme, keys *keymap.Table, opts ...Option) *Tabs {
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	if keys == nil {
		keys = DefaultKeys()
	}
	t := &Tabs{
		Box:       tview.NewBox(),
		root:      root,
		th:        th,
		keys:      keys,
		base:      tcell.StyleDefault.Foreground(th.Foreground).Background(th.Background),
		maxSize:   DefaultMaxFileSize,
		tabWidth:  4,
		lister:    projectFiles,
		box:       &mailbox{},
		clip:      &clipboard{},
		fp:        newStamper(),
		lexers:    &lexerCache{},
		dirty:     map[string]bool{},
		diskQueue: map[string]diskVersion{},
	}
	t.SetBackgroundColor(th.Background)
	t.hl = newHighlighter(th.Syntax, t.base)
	for _, o := range opts {
		o(t)
	}
	if t.keyset == nil {
		t.keyset = DefaultKeySet()
	}
	if w, err := newWatcher(t.sharedWatch, t.fileChanged); err == nil {
		t.watch = w
	} else {
		t.watchErr = err.Error()
	}
	t.addTab(t.newWelcome())
	return t
}

// SetRedraw is WithRedraw for a Tabs already built.
func (t *Tabs) SetRedraw(fn func()) { t.box.setRedraw(fn) }

// Keys returns the key table the editor uses.
func (t *Tabs) Keys() *keymap.Table { return t.keys }

// FinderKeys is the file finder's key table, for the user's bindings
// (the picker's action names).
func (t *Tabs) FinderKeys() *keymap.Table { return t.keyset.Finder }

func hiddenPickerKeys() *keymap.Table {
	k := picker.DefaultKeys()
	for i := range k.Bindings {
		k.Bindings[i].Hidden = true
	}
	return k
}

// Close stops the file watcher and the background work and waits for them.
func (t *Tabs) Close() {
	t.closeFinder()
	if t.watch != nil {
		t.watch.close()
	}
	t.hl.close()
	t.wg.Wait()
}

// canon makes path absolute (relative to the root) with symlinks resolved,
// so one file has one name whoever names it.
func (t *Tabs) canon(path string) string {
	if !filepath.IsAbs(path) {
		path = filepath.Join(t.root, path)
	}
	path = filepath.Clean(path)
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	if d, err := filepath.EvalSymlinks(filepath.Dir(path)); err == nil {
		return filepath.Join(d, filepath.Base(path))
	}
	return path
}

// rel names path for the user: relative to the root when inside it.
func (t *Tabs) rel(path string) string {
	if r, err := filepath.Rel(t.root, path); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return path
}

func (t *Tabs) find(path string) *tab {
	for _, tb := range t.tabs {
		if tb.path == path {
			return tb
		}
	}
	return nil
}

func (t *Tabs) indexOf(tb *tab) int {
	for i, x := range t.tabs {
		if x == tb {
			return i
		}
	}
	return -1
}

func (t *Tabs) current() *tab { return t.tabs[t.active] }

// addTab adds tb after the active tab, replacing an untouched Welcome tab.
func (t *Tabs) addTab(tb *tab) {
	if len(t.tabs) == 1 && t.tabs[0].welcome && !tb.welcome {
		t.tabs[0] = tb
		t.active = 0
	} else {
		at := len(t.tabs)
		if len(t.tabs) > 0 {
			at = t.active + 1
		}
		t.tabs = append(t.tabs[:at], append([]*tab{tb}, t.tabs[at:]...)...)
		if len(t.tabs) > 1 && at <= t.active {
			t.active++
		}
	}
	t.retitle()
}

func (t *Tabs) activate(i int) {
	if i >= 0 && i < len(t.tabs) {
		t.active = i
	}
}

// follow shows tb unless the user is busy in the current tab: a question
// or a diff open there, the finder open, or typing in it (unsaved changes
// while the editor has the focus).
func (t *Tabs) follow(tb *tab) {
	cur := t.current()
	if cur == tb {
		return
	}
	if cur.prompt != nil || cur.diff != nil || t.finder != nil || (t.HasFocus() && cur.path != "" && cur.buf.Modified()) {
		return
	}
	t.activate(t.indexOf(tb))
}

// closeTab closes tb, asking first when it has unsaved changes.
func (t *Tabs) closeTab(tb *tab, force bool) {
	if !force && tb.path != "" && tb.buf.Modified() {
		name := t.rel(tb.path)
		tb.prompt = &prompt{
			label: name + " has unsaved changes. Close it?",
			keys:  t.keyset.Close,
			choices: []choice{
				{action: actCloseSave, label: "save and close", do: func() {
					t.save(tb, func() { t.closeTab(tb, true) })
				}},
				{action: actCloseDiscard, label: "discard them and close", do: func() { t.closeTab(tb, true) }},
			},
		}
		t.activate(t.indexOf(tb))
		return
	}
	i := t.indexOf(tb)
	if i < 0 {
		return
	}
	if t.watch != nil && tb.path != "" {
		t.watch.remove(tb.path)
	}
	t.mu.Lock()
	delete(t.dirty, tb.path)
	t.mu.Unlock()
	if t.onFile != nil && tb.path != "" && !tb.binary && (tb.buf.Modified() || t.typedTabs[tb]) {
		// The servers had the text typed in it: the file is what counts now.
		delete(t.typedTabs, tb)
		t.onFile(tb.path)
	}
	t.tabs = append(t.tabs[:i], t.tabs[i+1:]...)
	if len(t.tabs) == 0 {
		t.tabs = []*tab{t.newWelcome()}
	}
	if t.active > i || t.active >= len(t.tabs) {
		t.active = max(0, t.active-1)
	}
	t.retitle()
}

// syncDirty publishes tb's unsaved state for CheckEdit.
func (t *Tabs) syncDirty(tb *tab) {
	if tb.path == "" {
		return
	}
	mod := tb.buf.Modified()
	t.mu.Lock()
	if mod {
		t.dirty[tb.path] = true
	} else {
		delete(t.dirty, tb.path)
	}
	t.mu.Unlock()
}

// retitle names the tabs by file name, adding parent directories to the
// tabs whose names would otherwise be the same.
func (t *Tabs) retitle() {
	parts := make([][]string, len(t.tabs))
	depth := make([]int, len(t.tabs))
	for i, tb := range t.tabs {
		if tb.welcome {
			continue
		}
		parts[i] = strings.Split(t.rel(tb.path), "/")
		depth[i] = 1
	}
	suffix := func(i int) string {
		p := parts[i]
		return strings.Join(p[max(0, len(p)-depth[i]):], "/")
	}
	for changed := true; changed; {
		changed = false
		seen := map[string][]int{}
		for i := range t.tabs {
			if parts[i] != nil {
				seen[suffix(i)] = append(seen[suffix(i)], i)
			}
		}
		for _, group := range seen {
			if len(group) < 2 {
				continue
			}
			for _, i := range group {
				if depth[i] < len(parts[i]) {
					depth[i]++
					changed = true
				}
			}
		}
	}
	for i, tb := range t.tabs {
		if !tb.welcome {
			tb.title = suffix(i)
		}
	}
}

// Flash shows a message on the editor's status line until the next key.
func (t *Tabs) Flash(msg string, isErr bool) { t.flash(msg, isErr) }

// flash shows a message on the current tab's status line until the next key.
func (t *Tabs) flash(msg string, isErr bool) {
	tb := t.current()
	tb.flash, tb.flashErr = msg, isErr
}

// SetOnType sets what gets the text of a file the user is typing in, not
// saved yet (the language servers read it); it is called on the UI
// goroutine when the typing pauses.
func (t *Tabs) SetOnType(fn func(path, text string)) { t.onType = fn }

// SetOnFile sets what is told of every file a tab opens and every save
// (the language servers read it).
func (t *Tabs) SetOnFile(fn func(path string)) { t.onFile = fn }

// SetOnSave sets what is told of every file the user saves (the session's
// checkpoints record it as changed by the user).
func (t *Tabs) SetOnSave(fn func(path string, before []byte)) { t.onSave = fn }

// SetOnRevert sets what writes a revert asked for in a diff (r: the hunk
// at the cursor, R: the whole file): the session's checkpoints, which
// record it and refuse to clobber a file changed by hand since.
func (t *Tabs) SetOnRevert(fn func(path string, content []byte, whole bool)) { t.onRevert = fn }
