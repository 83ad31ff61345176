package editor

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/internal/safetext"
	"github.com/fawn-ide/fawn/project"
	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/ui/keymap"
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

// WithMaxFileSize sets the size above which files open read-only, showing
// only their beginning (default DefaultMaxFileSize).
func WithMaxFileSize(n int64) Option { return func(t *Tabs) { t.maxSize = n } }

// WithTabWidth sets the columns between tab stops (default 4).
func WithTabWidth(n int) Option { return func(t *Tabs) { t.tabWidth = max(1, n) } }

// WithWrap turns soft wrap on for new tabs.
func WithWrap(on bool) Option { return func(t *Tabs) { t.wrap = on } }

// WithFileLister sets how the Ctrl-P finder lists the project's files.
func WithFileLister(fn FileLister) Option { return func(t *Tabs) { t.lister = fn } }

// WithWatcher makes the editor watch its open files through w, the watcher
// the explorer shares, instead of one of its own.
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

// Close stops the file watcher and the background work and waits for them.
func (t *Tabs) Close() {
	t.closeFinder()
	if t.watch != nil {
		t.watch.close()
	}
	t.hl.close()
	t.wg.Wait()
}

// CheckEdit implements tools.EditGuard: it refuses an agent edit to a file
// that has unsaved changes in the editor, so neither side's work is lost.
// It is safe to call from any goroutine.
func (t *Tabs) CheckEdit(path string) error {
	p := t.canon(path)
	t.mu.Lock()
	dirty := t.dirty[p]
	t.mu.Unlock()
	if !dirty {
		return nil
	}
	return fmt.Errorf("the user is editing %s; unsaved changes: the file was not changed. "+
		"Tell the user what you want to change, or ask them to save or discard their changes first", t.rel(p))
}

var _ tools.EditGuard = (*Tabs)(nil)

// AgentViewed opens (or finds) the file the agent read and scrolls to the
// lines it read.
func (t *Tabs) AgentViewed(ev tools.FileViewed) {
	tb, isNew, err := t.openTab(ev.Path)
	if err != nil {
		return // the tool reported it to the model; nothing to show
	}
	line := max(0, ev.Start-1)
	if isNew {
		tb.view.SetCursor(Pos{Line: line})
	}
	tb.view.ScrollTo(line)
	t.follow(tb)
}

// AgentChanged shows an edit of the agent that has landed on disk: the new
// content, its changed lines marked in the gutter and tinted until the next
// change, scrolled into view; the tab is marked as changed by the agent and
// the edit is kept for the diff key.
func (t *Tabs) AgentChanged(ev tools.FileChanged) {
	p := t.canon(ev.Path)
	edit := &agentEdit{before: ev.Before, after: ev.After, command: ev.Command}
	tb := t.find(p)
	if ev.After == nil {
		// The file is gone (undo_edit of a file the agent created).
		if tb == nil {
			return
		}
		name := t.rel(p)
		if tb.buf.Modified() {
			tb.flash, tb.flashErr = name+" was deleted by the agent; your unsaved changes are kept (Ctrl-S writes them)", true
			return
		}
		t.closeTab(tb, true)
		t.flash(name+" was deleted by the agent (it undid creating it)", false)
		return
	}
	if tb == nil {
		tb = t.newFileTab(p, t.fromBytes(ev.After))
		t.addTab(tb)
	} else if tb.buf.Modified() {
		// The guard let it through before the user started typing: keep
		// both, and ask.
		tb.agentEdit = edit
		tb.agentMark = true
		t.diskChanged(tb, t.fp.of(ev.After), ev.After)
		return
	} else if tb.binary || tb.readOnly {
		t.replaceContent(tb, t.fromBytes(ev.After))
	} else {
		tb.buf.SetContent(ev.After, tb.view.Cursor())
		tb.buf.MarkSaved()
		tb.disk = t.fp.of(ev.After)
	}
	tb.agentEdit = edit
	tb.agentMark = true
	if !tb.binary && !tb.readOnly {
		var before []string
		if ev.Before != nil {
			before, _ = parse(ev.Before)
		}
		after, _ := parse(ev.After)
		changes := diffLines(before, after)
		if len(after) == tb.buf.LineCount() {
			tb.view.setDecor(changeMarks(changes, tb.buf.LineCount(), t.th), false)
		}
		first := firstChanged(changes)
		tb.view.SetCursor(Pos{Line: first})
		tb.view.CenterOn(first)
	}
	if tb.diff != nil {
		t.showAgentDiff(tb)
	}
	t.syncDirty(tb)
	t.follow(tb)
}

// fromBytes is readFile for content already in hand (an agent's edit).
func (t *Tabs) fromBytes(data []byte) loaded {
	l := loaded{data: data, size: int64(len(data)), stamp: t.fp.of(data)}
	if t.maxSize > 0 && l.size > t.maxSize {
		l.data = data[:t.maxSize]
		if i := bytes.LastIndexByte(l.data, '\n'); i >= 0 {
			l.data = l.data[:i+1]
		}
		l.truncated = true
	}
	l.binary = looksBinary(l.data)
	return l
}

// Open opens path (absolute or relative to the root) in a tab, or switches
// to its tab, and puts the cursor on line (1-based; 0 keeps it).
func (t *Tabs) Open(path string, line int) error {
	tb, _, err := t.openTab(path)
	if err != nil {
		return err
	}
	t.activate(t.indexOf(tb))
	if line > 0 {
		tb.diff = nil
		tb.view.SetCursor(Pos{Line: line - 1})
		tb.view.CenterOn(line - 1)
	}
	return nil
}

// Unsaved lists the files with unsaved changes, relative to the root, so
// the app can ask before quitting.
func (t *Tabs) Unsaved() []string {
	var out []string
	for _, tb := range t.tabs {
		if tb.path != "" && tb.buf.Modified() {
			out = append(out, t.rel(tb.path))
		}
	}
	return out
}

// SaveAll saves every file with unsaved changes that has no conflict on
// disk; it returns the first error.
func (t *Tabs) SaveAll() error {
	var first error
	for _, tb := range t.tabs {
		if tb.path == "" || !tb.buf.Modified() {
			continue
		}
		st, _, err := diskStamp(tb.path, t.fp)
		if err == nil && st != tb.disk {
			err = fmt.Errorf("%s changed on disk since it was opened: open its tab and save it to choose", t.rel(tb.path))
		}
		if err == nil {
			err = t.write(tb)
		}
		if err != nil && first == nil {
			first = err
		}
	}
	return first
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

// openTab finds the tab of path or opens one (not made active).
func (t *Tabs) openTab(path string) (*tab, bool, error) {
	p := t.canon(path)
	if tb := t.find(p); tb != nil {
		return tb, false, nil
	}
	l, err := readFile(p, t.maxSize, t.fp)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, false, fmt.Errorf("cannot open %s: %v", t.rel(p), err)
	}
	tb := t.newFileTab(p, l)
	t.addTab(tb)
	if t.onFile != nil && !tb.binary {
		t.onFile(p)
	}
	return tb, true, nil
}

func (t *Tabs) newFileTab(path string, l loaded) *tab {
	tb := &tab{path: path}
	t.replaceContent(tb, l)
	if t.watch != nil {
		if err := t.watch.add(path); err != nil {
			tb.flash = "changes on disk to this file are not watched (" + err.Error() + "); saving still checks it first"
		}
	} else {
		tb.flash = "changes on disk are not watched (" + t.watchErr + "); saving still checks the file first"
	}
	return tb
}

// replaceContent gives tb a fresh buffer and view for l, keeping the
// place the old view showed.
func (t *Tabs) replaceContent(tb *tab, l loaded) {
	old := tb.view
	tb.binary, tb.readOnly, tb.truncated, tb.notice, tb.diff = l.binary, false, l.truncated, "", nil
	tb.disk = l.stamp
	if l.binary {
		tb.readOnly = true
		tb.notice = fmt.Sprintf("binary file (%s): not shown", humanSize(l.size))
		tb.buf = NewBuffer([]byte("\n  " + filepath.Base(tb.path) + " is a binary file (" + humanSize(l.size) + ").\n  fawn does not show binary files.\n"))
	} else {
		tb.buf = NewBuffer(l.data)
	}
	v := newCodeView(tb.buf, t.th, t.keys, t.hl, t.box, t.clip)
	v.tabWidth = t.tabWidth
	v.wrap = t.wrap
	if l.binary {
		v.noGutter, v.wrap = true, true
	} else {
		v.lexer = t.lexers.lexerFor(tb.path, l.data)
	}
	if l.truncated {
		tb.readOnly = true
		tb.notice = fmt.Sprintf("read-only: a %s file, first %s shown", humanSize(l.size), humanSize(int64(len(l.data))))
	}
	v.readOnly = tb.readOnly
	if old != nil && !l.binary {
		v.cursor = tb.buf.Clamp(old.cursor)
		v.top, v.left, v.wrap = min(old.top, tb.buf.LineCount()-1), old.left, old.wrap
	}
	t.hookView(tb, v)
	v.problems = t.problems[tb.path]
	tb.view = v
}

// hookView connects a view to its tab.
func (t *Tabs) hookView(tb *tab, v *CodeView) {
	v.notice = func(msg string) {
		if tb.notice != "" && v == tb.view {
			msg = tb.notice
		}
		tb.flash, tb.flashErr = msg, true
	}
	v.changed = func() {
		t.syncDirty(tb)
		t.typed(tb)
	}
	v.focused = func() bool {
		return t.HasFocus() && t.finder == nil && tb.prompt == nil && t.current() == tb
	}
}

func (t *Tabs) newWelcome() *tab {
	tb := &tab{welcome: true, readOnly: true, title: "Welcome", source: welcomeText(t.keys)}
	tb.buf = NewBuffer([]byte(tb.source))
	v := newCodeView(tb.buf, t.th, t.keys, nil, t.box, t.clip)
	v.readOnly, v.noGutter, v.wrap = true, true, true
	d := make([]decor, tb.buf.LineCount())
	d[1].fg = t.th.Accent
	v.setDecor(d, true)
	t.hookView(tb, v)
	tb.view = v
	return tb
}

// welcomeText introduces the editor with the keys of the table in use.
func welcomeText(keys *keymap.Table) string {
	k := func(action keymap.Action) string {
		ks := keys.Keys(action)
		if len(ks) == 0 {
			return "(unbound)"
		}
		return keymap.Display(ks[0])
	}
	rows := [][2]string{
		{k(actFinder), "open a project file"},
		{k(actSave), "save"},
		{k(actFind), "find in the file (" + k(actFindNext) + " for the next match)"},
		{k(actGotoLine), "go to a line"},
		{k(actDiff), "show the agent's last edit to the file as a diff"},
		{"r R o", "in a diff: revert the hunk, revert the file, open the file at the hunk"},
		{"s", "in a diff: side by side (when the editor is wide) or unified"},
		{k(actTab+"1") + "…9", "go to a tab; " + k(actNextTab) + " / " + k(actPrevTab) + " next and previous"},
		{k(actClose), "close the tab"},
	}
	var sb strings.Builder
	sb.WriteString("\n  fawn editor\n\n")
	sb.WriteString("  Files open here as the agent reads and edits them; the lines\n" +
		"  it changes are marked in the gutter. On a tab, " + string(markAgent) + " means\n" +
		"  changed by the agent since you last looked, " + string(markUnsaved) + " unsaved\n" +
		"  changes. While a file has unsaved changes, the agent may\n" +
		"  not edit it.\n\n")
	for _, r := range rows {
		fmt.Fprintf(&sb, "  %-11s %s\n", r[0], r[1])
	}
	return sb.String()
}

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
			choices: []choice{
				{key: 's', label: "save and close", do: func() {
					t.save(tb, func() { t.closeTab(tb, true) })
				}},
				{key: 'd', label: "discard them and close", do: func() { t.closeTab(tb, true) }},
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

// save writes tb, first asking when the file changed on disk since it was
// read; then runs after a successful write.
func (t *Tabs) save(tb *tab, then func()) {
	if tb.path == "" || tb.readOnly {
		tb.flash, tb.flashErr = "this tab is read-only", true
		if tb.notice != "" {
			tb.flash = tb.notice
		}
		return
	}
	st, data, err := diskStamp(tb.path, t.fp)
	if err != nil {
		tb.flash, tb.flashErr = fmt.Sprintf("cannot check %s before saving: %v", t.rel(tb.path), err), true
		return
	}
	if st != tb.disk && st.exists {
		name := t.rel(tb.path)
		var ask func()
		ask = func() {
			tb.prompt = &prompt{
				label: name + " changed on disk since you opened it. Save over it?",
				choices: []choice{
					{key: 'o', label: "overwrite", do: func() {
						tb.diff = nil
						if t.write(tb) == nil && then != nil {
							then()
						}
					}},
					{key: 'r', label: "reload (lose yours)", do: func() {
						tb.diff = nil
						t.reload(tb, data, st)
					}},
					{key: 'd', label: "diff", do: func() {
						t.showDiff(tb, data, tb.buf.Bytes(), "on disk → yours")
						ask()
					}},
				},
				cancel: func() { tb.diff = nil },
			}
		}
		ask()
		return
	}
	if t.write(tb) == nil && then != nil {
		then()
	}
}

// write saves tb atomically, keeping the file's mode, line breaks and BOM.
func (t *Tabs) write(tb *tab) error {
	data := tb.buf.Bytes()
	var before []byte
	if t.onSave != nil {
		if b, err := os.ReadFile(tb.path); err == nil {
			before = b
		}
	}
	// A file opened from outside the project (a definition in a library, a
	// link in the chat) is still the user's to save; it is confined to its
	// own directory, so a symlink put in its place since cannot carry the
	// save anywhere else.
	root := t.root
	if !project.Within(t.root, tb.path) {
		root = filepath.Dir(tb.path)
	}
	if _, err := project.WriteFile(root, tb.path, data, project.WriteOptions{InPlace: true}); err != nil {
		err = fmt.Errorf("could not save %s: %v; the file on disk is unchanged", t.rel(tb.path), err)
		tb.flash, tb.flashErr = err.Error(), true
		return err
	}
	tb.buf.MarkSaved()
	tb.buf.hist.seal()
	tb.disk = t.fp.of(data)
	tb.flash, tb.flashErr = "saved "+t.rel(tb.path), false
	t.syncDirty(tb)
	if t.onSave != nil {
		t.onSave(tb.path, before)
	}
	if t.onFile != nil {
		t.onFile(tb.path)
	}
	return nil
}

// typePause is how long typing pauses before the language servers get
// the text.
const typePause = 300 * time.Millisecond

// typed tells the language servers what the user is typing in tb, once
// the typing pauses: they mark its problems as it goes.
func (t *Tabs) typed(tb *tab) {
	if t.onType == nil || tb.path == "" || tb.binary {
		return
	}
	if t.typedTabs == nil {
		t.typedTabs = map[*tab]bool{}
	}
	t.typedTabs[tb] = true
	if t.typeTimer != nil {
		t.typeTimer.Stop()
	}
	t.typeTimer = time.AfterFunc(typePause, func() {
		t.box.post(func() {
			for tb := range t.typedTabs {
				if t.indexOf(tb) >= 0 {
					t.onType(tb.path, string(tb.buf.Bytes()))
				}
			}
			clear(t.typedTabs)
		})
	})
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

// reload replaces tb's text with data from disk, as one undoable step.
func (t *Tabs) reload(tb *tab, data []byte, st stamp) {
	cur := tb.view.Cursor()
	tb.buf.SetContent(data, cur)
	tb.buf.MarkSaved()
	tb.disk = st
	tb.view.cursor = tb.buf.Clamp(cur)
	tb.view.selected = false
	t.syncDirty(tb)
}

// fileChanged runs on the watcher's goroutine: it reads the file and hands
// the result to the UI goroutine.
func (t *Tabs) fileChanged(path string) {
	if info, err := os.Stat(path); err == nil && t.maxSize > 0 && info.Size() > t.maxSize {
		// Too large to edit: never read it all on each change (a growing
		// log would be read again and again). An editable tab becomes a
		// read-only one once; a read-only one says it is out of date.
		l, err := readFile(path, t.maxSize, t.fp)
		t.box.post(func() {
			tb := t.find(path)
			switch {
			case tb == nil || err != nil:
			case tb.truncated:
				tb.notice = fmt.Sprintf("read-only: a %s file, first part shown; it changed on disk since (close and reopen to see it)", humanSize(info.Size()))
			case tb.buf.Modified():
				tb.flash, tb.flashErr = t.rel(path)+" changed on disk and is now too large to edit; saving overwrites it with yours", true
			default:
				t.replaceContent(tb, l)
			}
		})
		return
	}
	st, data, err := diskStamp(path, t.fp)
	if err != nil {
		return // unreadable for now; the next event tries again
	}
	// Only the newest version of a file waits for the UI goroutine: while
	// the editor is not drawn (another pane zoomed), a file rewritten again
	// and again holds one copy, not one per change.
	t.mu.Lock()
	_, queued := t.diskQueue[path]
	t.diskQueue[path] = diskVersion{st, data}
	t.mu.Unlock()
	if queued {
		return
	}
	t.box.post(func() {
		t.mu.Lock()
		dv := t.diskQueue[path]
		delete(t.diskQueue, path)
		t.mu.Unlock()
		if tb := t.find(path); tb != nil {
			t.diskChanged(tb, dv.st, dv.data)
		}
	})
}

// diskVersion is a file as read after a change on disk.
type diskVersion struct {
	st   stamp
	data []byte
}

// diskChanged reacts to a new version of tb's file: nothing when it is what
// the editor already has, a silent reload when the user has no unsaved
// changes, else a question.
func (t *Tabs) diskChanged(tb *tab, st stamp, data []byte) {
	if st == tb.disk {
		return
	}
	name := t.rel(tb.path)
	if !st.exists {
		tb.disk = st
		tb.flash, tb.flashErr = name+" was deleted on disk; save to write it again", true
		return
	}
	if tb.binary || tb.readOnly {
		if l, err := readFile(tb.path, t.maxSize, t.fp); err == nil {
			t.replaceContent(tb, l)
		}
		return
	}
	if !tb.buf.Modified() {
		t.reload(tb, data, st)
		tb.flash, tb.flashErr = "reloaded "+name+": it changed on disk", false
		return
	}
	var ask func()
	ask = func() {
		tb.prompt = &prompt{
			label: name + " changed on disk, and you have unsaved changes in it.",
			choices: []choice{
				{key: 'r', label: "reload (lose yours)", do: func() {
					tb.diff = nil
					t.reload(tb, data, st)
				}},
				{key: 'k', label: "keep mine (also Esc)", do: func() {
					tb.diff = nil
					tb.disk = st // saving now overwrites, as chosen
				}},
				{key: 'd', label: "diff", do: func() {
					t.showDiff(tb, data, tb.buf.Bytes(), "on disk → yours")
					ask()
				}},
			},
			escHidden: true,
			cancel: func() {
				tb.diff = nil
				tb.disk = st
			},
		}
	}
	ask()
}

// toggleDiff shows or hides the agent's last edit of tb as a diff.
func (t *Tabs) toggleDiff(tb *tab) {
	if tb.diff != nil {
		tb.diff = nil
		return
	}
	if tb.agentEdit == nil {
		tb.flash, tb.flashErr = "the agent has not edited this file since it was opened", true
		return
	}
	t.showAgentDiff(tb)
}

func (t *Tabs) showAgentDiff(tb *tab) {
	e := tb.agentEdit
	title := "the agent's last edit"
	if e.command != "" {
		title += " (" + e.command + ")"
	}
	t.showDiff(tb, e.before, e.after, title)
}

// showDiff shows before → after in place of tb's view.
func (t *Tabs) showDiff(tb *tab, before, after []byte, title string) {
	buf, dec, _, hunks := diffDocHunks(before, after, t.th)
	lb, rb, ld, rd, splitHunks := splitDoc(before, after, t.th)
	tb.review = &review{before: before, after: after, hunks: hunks, splitHunks: splitHunks}
	tb.diff = t.diffView(tb, buf, dec)
	tb.split = &splitDiff{left: t.diffView(tb, lb, ld), right: t.diffView(tb, rb, rd)}
	tb.splitOn = false
	tb.diffTitle = title + " " + diffSummary(before, after)
}

// diffView is a read-only view of a diff document, its cursor on the
// first changed line.
func (t *Tabs) diffView(tb *tab, buf *Buffer, dec []decor) *CodeView {
	v := newCodeView(buf, t.th, t.keys, t.hl, t.box, t.clip)
	v.tabWidth = t.tabWidth
	v.readOnly = true
	v.wrap = false
	v.lexer = tb.view.lexer
	v.setDecor(dec, true)
	t.hookView(tb, v)
	for i, d := range dec {
		if d.mark == '+' || d.mark == '-' {
			v.SetCursor(Pos{Line: i})
			v.ScrollTo(max(0, i-3))
			break
		}
	}
	return v
}

// splitMinWidth is the editor width from which diffs show side by side.
const splitMinWidth = 140

// splitDiff is a diff side by side: two views of one row count, the right
// one following the left one's cursor and scroll.
type splitDiff struct {
	left, right *CodeView
}

// setSplit shows tb's diff side by side (on) or unified, keeping the
// cursor in the same hunk.
func (tb *tab) setSplit(on bool) {
	if tb.split == nil || tb.review == nil || on == tb.splitOn {
		return
	}
	from, to := tb.diff, tb.split.left
	fromHunks, toHunks := tb.review.hunks, tb.review.splitHunks
	if !on {
		from, to = to, from
		fromHunks, toHunks = toHunks, fromHunks
	}
	row := 0
	cur := from.Cursor().Line
	for i, h := range fromHunks {
		if cur >= h.doc0 && cur < h.doc1 && i < len(toHunks) {
			th := toHunks[i]
			row = min(th.doc0+cur-h.doc0, th.doc1-1)
		}
	}
	to.SetCursor(Pos{Line: row})
	tb.splitOn = on
}

// drawColumns draws views of one row count side by side in the rectangle
// given, split by rules: the first leads (it has the keys), the others
// follow its cursor row and scroll.
func (t *Tabs) drawColumns(screen tcell.Screen, cols []*CodeView, x, y, w, h int) {
	n := len(cols)
	cw := (w - (n - 1)) / n
	sep := t.base.Foreground(t.th.Border)
	lead := cols[0]
	cx := x
	for i, v := range cols {
		width := cw
		if i == n-1 {
			width = x + w - cx
		}
		if i > 0 {
			v.cursor, v.selected, v.pending = Pos{Line: lead.cursor.Line}, false, nil
			v.top, v.topRow, v.left = lead.top, lead.topRow, lead.left
			for j := 0; j < h; j++ {
				screen.Put(cx-1, y+j, "│", sep)
			}
		}
		v.SetRect(cx, y, width, h)
		v.Draw(screen)
		cx += width + 1
	}
}

// shown is the view tb shows now.
func (tb *tab) shown() *CodeView {
	if tb.versions != nil {
		return tb.versions.cols[0]
	}
	if tb.diff != nil {
		if tb.splitOn && tb.split != nil {
			return tb.split.left
		}
		return tb.diff
	}
	return tb.view
}

// InputHandler handles the editor's keys.
func (t *Tabs) InputHandler() func(event *tcell.EventKey, setFocus func(p tview.Primitive)) {
	return t.WrapInputHandler(func(ev *tcell.EventKey, _ func(p tview.Primitive)) {
		t.HandleKey(ev)
	})
}

// HandleKey handles one key: the finder or a prompt first, then the tab
// actions, then the active view. It reports whether the key was used.
func (t *Tabs) HandleKey(ev *tcell.EventKey) bool {
	t.box.drain()
	if t.finder != nil {
		t.handleFinder(ev)
		return true
	}
	tb := t.current()
	tb.flash = ""
	action := t.keys.Action(ev)
	if t.tabAction(action) {
		return true
	}
	if tb.prompt != nil {
		p := tb.prompt
		return p.handle(ev, action, func() {
			if tb.prompt == p {
				tb.prompt = nil
			}
		})
	}
	switch action {
	case actSave:
		t.save(tb, nil)
		return true
	case actDiff:
		t.toggleDiff(tb)
		return true
	case actFind:
		t.openFind(tb)
		return true
	case actFindNext, actFindPrev:
		t.findStep(tb, tb.shown().findText, action == actFindNext)
		return true
	case actGotoLine:
		t.openGoto(tb)
		return true
	case actNextProblem, actPrevProblem:
		if tb.diff == nil && tb.versions == nil && !tb.welcome {
			t.stepProblem(tb, action == actNextProblem)
			return true
		}
	case actDefinition, actHover:
		if tb.diff == nil && tb.versions == nil && tb.path != "" && !tb.binary {
			if t.codeNav == nil {
				tb.flash, tb.flashErr = "no language server serves this file (/lsp shows them)", true
				return true
			}
			c := tb.view.cursor
			text := tb.buf.Line(c.Line)
			col := utf8.RuneCountInString(text[:min(c.Col, len(text))]) + 1
			what := "definition"
			if action == actHover {
				what = "hover"
			}
			t.codeNav(what, tb.path, c.Line+1, col)
			return true
		}
	}
	if tb.versions != nil && t.versionsKey(tb, ev) {
		return true
	}
	if tb.diff != nil && ev.Key() == tcell.KeyEscape {
		tb.diff = nil
		return true
	}
	if tb.diff != nil && t.reviewKey(tb, ev) {
		return true
	}
	if v := tb.shown(); v.findText != "" && ev.Key() == tcell.KeyEscape {
		v.findText = ""
		return true
	}
	return tb.shown().HandleKey(ev)
}

// tabAction handles the actions that work whatever the tab is doing.
func (t *Tabs) tabAction(action keymap.Action) bool {
	switch action {
	case actFinder:
		t.openFinder()
	case actClose:
		t.closeTab(t.current(), false)
	case actNextTab:
		t.activate((t.active + 1) % len(t.tabs))
	case actPrevTab:
		t.activate((t.active + len(t.tabs) - 1) % len(t.tabs))
	default:
		n, ok := strings.CutPrefix(string(action), string(actTab))
		if !ok {
			return false
		}
		i, err := strconv.Atoi(n)
		if err != nil {
			return false
		}
		t.activate(i - 1)
	}
	return true
}

// openFind opens the incremental find prompt: each key moves to the first
// match from where the find started; Enter or F3 goes on to the next.
func (t *Tabs) openFind(tb *tab) {
	v := tb.shown()
	origin := v.Cursor()
	from, to, has := v.Selection()
	initial := ""
	if has && from.Line == to.Line {
		initial = v.buf.Text(from, to)
		origin = from
	}
	p := &prompt{label: "Find:", text: true, input: initial}
	p.change = func(p *prompt) {
		v.findText = p.input
		if p.input == "" {
			v.SetCursor(origin)
			return
		}
		if !t.findFrom(v, origin, p.input, true, false) {
			p.msg, p.msgErr = "no match", true
		} else {
			p.msg = t.matchCount(v, p.input)
		}
	}
	p.submit = func(p *prompt) {
		// Enter keeps the match selected and the matches tinted; F3 goes on.
	}
	p.cancel = func() { v.findText = "" }
	p.action = func(action keymap.Action) bool {
		switch action {
		case actFindNext, actFindPrev:
			if p.input != "" && !t.findStep(tb, p.input, action == actFindNext) {
				p.msg, p.msgErr = "no match", true
			}
			return true
		}
		return false
	}
	tb.prompt = p
	if initial != "" {
		p.changed()
	}
}

// matchCount says how many matches the file has, when that is cheap.
func (t *Tabs) matchCount(v *CodeView, q string) string {
	if v.buf.LineCount() > 50000 {
		return ""
	}
	n := 0
	for i := 0; i < v.buf.LineCount(); i++ {
		n += len(findAll(v.buf.Line(i), q))
	}
	if n == 1 {
		return "1 match"
	}
	return strconv.Itoa(n) + " matches"
}

// findStep moves to the next (or previous) match of q after the cursor.
func (t *Tabs) findStep(tb *tab, q string, forward bool) bool {
	v := tb.shown()
	if q == "" {
		return false
	}
	from, to, _ := v.Selection()
	start := to
	if !forward {
		start = from
	}
	return t.findFrom(v, start, q, forward, true)
}

// findFrom selects the first match of q at or after p (before p going
// back), wrapping around the end of the file.
func (t *Tabs) findFrom(v *CodeView, p Pos, q string, forward, strict bool) bool {
	n := v.buf.LineCount()
	for i := 0; i <= n; i++ {
		var l int
		if forward {
			l = (p.Line + i) % n
		} else {
			l = ((p.Line-i)%n + n) % n
		}
		text := v.buf.Line(l)
		col := -1
		switch {
		case forward && i == 0:
			if k := indexSmart(text[min(p.Col, len(text)):], q); k >= 0 {
				col = p.Col + k
			}
		case forward:
			if i == n && l == p.Line {
				text = text[:min(len(text), p.Col+len(q))]
			}
			col = indexSmart(text, q)
		case i == 0:
			col = lastIndexSmart(text[:min(p.Col, len(text))], q)
		default:
			col = lastIndexSmart(text, q)
		}
		if col >= 0 {
			v.Select(Pos{l, col}, Pos{l, col + len(q)})
			return true
		}
	}
	return false
}

// openGoto asks for a line number ("120" or "120:8").
func (t *Tabs) openGoto(tb *tab) {
	v := tb.shown()
	p := &prompt{label: fmt.Sprintf("Go to line (1–%d):", v.buf.LineCount()), text: true}
	p.change = func(p *prompt) {
		if _, _, ok := parseLineCol(p.input); !ok && p.input != "" {
			p.msg, p.msgErr = "a line number, or line:column", true
		}
	}
	p.submit = func(p *prompt) {
		line, col, ok := parseLineCol(p.input)
		if !ok {
			return
		}
		line = max(1, min(line, v.buf.LineCount()))
		text := v.buf.Line(line - 1)
		off := 0
		if col > 1 {
			off = offAt(text, col-1, v.tabWidth)
		}
		v.SetCursor(Pos{line - 1, off})
		v.CenterOn(line - 1)
	}
	tb.prompt = p
}

func parseLineCol(s string) (int, int, bool) {
	s = strings.TrimSpace(s)
	ls, cs, hasCol := strings.Cut(s, ":")
	line, err := strconv.Atoi(ls)
	if err != nil || line < 0 {
		return 0, 0, false
	}
	col := 0
	if hasCol {
		if col, err = strconv.Atoi(cs); err != nil || col < 0 {
			return 0, 0, false
		}
	}
	return line, col, true
}

// PasteHandler sends pasted text to the finder, a prompt or the view.
func (t *Tabs) PasteHandler() func(text string, setFocus func(p tview.Primitive)) {
	return t.WrapPasteHandler(func(text string, _ func(p tview.Primitive)) {
		t.Paste(text)
	})
}

// Paste inserts text where the user is typing.
func (t *Tabs) Paste(text string) {
	if f := t.finder; f != nil {
		f.query += strings.SplitN(text, "\n", 2)[0]
		f.filter()
		return
	}
	tb := t.current()
	if tb.prompt != nil {
		tb.prompt.paste(text)
		return
	}
	tb.shown().insertText(text, "")
}

// MouseHandler switches tabs from the strip, drives the finder, and passes
// the rest to the active view.
func (t *Tabs) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
	return t.WrapMouseHandler(func(action tview.MouseAction, ev *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
		mx, my := ev.Position()
		v := t.current().shown()
		if !t.InRect(mx, my) && !v.dragging {
			return false, nil
		}
		if t.finder != nil {
			switch action {
			case tview.MouseLeftClick:
				if !t.finderClick(mx, my) {
					t.closeFinder()
				}
			case tview.MouseScrollUp:
				t.finder.move(-3)
			case tview.MouseScrollDown:
				t.finder.move(3)
			}
			return true, nil
		}
		if my == t.stripY && !v.dragging {
			switch action {
			case tview.MouseLeftDown, tview.MouseMiddleClick:
				setFocus(t)
				for _, p := range t.stripPos {
					if mx >= p[0] && mx < p[1] {
						if action == tview.MouseMiddleClick {
							t.closeTab(t.tabs[p[2]], false)
						} else {
							t.activate(p[2])
						}
					}
				}
			case tview.MouseScrollUp:
				t.activate((t.active + len(t.tabs) - 1) % len(t.tabs))
			case tview.MouseScrollDown:
				t.activate((t.active + 1) % len(t.tabs))
			}
			return true, nil
		}
		if h := v.MouseHandler(); h != nil {
			consumed, capture := h(action, ev, func(tview.Primitive) { setFocus(t) })
			if capture != nil {
				capture = t
			}
			return consumed, capture
		}
		return false, nil
	})
}

// Draw draws the tab strip, the active view and the status line, after
// applying what background work has finished.
func (t *Tabs) Draw(screen tcell.Screen) {
	t.box.drain()
	drawFrame(screen, t.Box, t)
	t.clip.screen = screen
	x, y, w, h := t.GetInnerRect()
	if w <= 0 || h <= 0 {
		return
	}
	tb := t.current()
	if t.HasFocus() && t.finder == nil {
		tb.agentMark = false // the user is looking at it now
	}
	if tb.welcome && tb.source != welcomeText(t.keys) {
		// The app applied the user's key overrides after New.
		tb = t.newWelcome()
		t.tabs[t.active] = tb
	}
	if h < 3 {
		v := tb.shown()
		v.SetRect(x, y, w, h)
		v.Draw(screen)
		return
	}
	t.drawStrip(screen, x, y, w)
	status := 1
	if tb.prompt != nil && h > 4 {
		status = tb.prompt.rows()
	}
	if tb.diff != nil {
		tb.setSplit(w >= splitMinWidth && !t.unifiedDiffs)
	}
	switch {
	case tb.versions != nil:
		t.drawColumns(screen, tb.versions.cols, x, y+1, w, h-1-status)
	case tb.diff != nil && tb.splitOn:
		t.drawColumns(screen, []*CodeView{tb.split.left, tb.split.right}, x, y+1, w, h-1-status)
	default:
		v := tb.shown()
		v.SetRect(x, y+1, w, h-1-status)
		v.Draw(screen)
	}
	t.drawStatus(screen, x, y+h-status, w, status, tb)
	if t.finder != nil {
		t.drawFinder(screen, x, y+1, w, h-1)
	}
}

// drawStrip draws the tab titles, keeping the active one in view.
func (t *Tabs) drawStrip(screen tcell.Screen, x, y, w int) {
	t.stripY = y
	t.stripPos = t.stripPos[:0]
	bg := t.th.CursorLine
	strip := t.base.Background(bg)
	for i := 0; i < w; i++ {
		screen.Put(x+i, y, " ", strip)
	}
	labels := make([]string, len(t.tabs))
	widths := make([]int, len(t.tabs))
	for i, tb := range t.tabs {
		l := " " + safetext.Line(tb.title) // a file's name: never raw
		if tb.path != "" && tb.buf.Modified() {
			l += " " + string(markUnsaved)
		}
		if tb.agentMark {
			l += " " + string(markAgent)
		}
		if e, w := problemCounts(tb.view.problems); e+w > 0 {
			l += fmt.Sprintf(" %c%d", markProblem, e+w)
		}
		labels[i] = l + " "
		widths[i] = putWidth(labels[i]) + 1 // and a separator
	}
	first := 0
	for first < t.active {
		sum := 0
		for i := first; i <= t.active; i++ {
			sum += widths[i]
		}
		if sum <= w-2 {
			break
		}
		first++
	}
	col := x
	if first > 0 {
		screen.SetContent(col, y, '‹', nil, strip.Foreground(t.th.Dim))
		col++
	}
	for i := first; i < len(t.tabs) && col < x+w; i++ {
		tb := t.tabs[i]
		st := strip.Foreground(t.th.Dim)
		if i == t.active {
			st = t.base.Background(t.th.Selection).Foreground(t.th.Foreground).Bold(true)
		}
		start := col
		for _, r := range labels[i] {
			if col >= x+w {
				break
			}
			cs := st
			switch r {
			case markUnsaved:
				cs = st.Foreground(t.th.Warning)
			case markAgent:
				cs = st.Foreground(t.th.Accent)
			}
			_, n := screen.Put(col, y, string(r), cs)
			col += max(1, n)
		}
		t.stripPos = append(t.stripPos, [3]int{start, col, i})
		if tb != nil && col < x+w {
			screen.SetContent(col, y, '│', nil, strip.Foreground(t.th.Border))
			col++
		}
	}
	if last := t.stripPos[len(t.stripPos)-1][2]; last < len(t.tabs)-1 || col > x+w {
		screen.SetContent(x+w-1, y, '›', nil, strip.Foreground(t.th.Dim))
	}
}

func putWidth(s string) int {
	n := 0
	cells(s, 1, func(c cell) bool { n += c.width; return true })
	return n
}

// drawStatus draws the prompt, or a message and the cursor position.
func (t *Tabs) drawStatus(screen tcell.Screen, x, y, w, rows int, tb *tab) {
	st := t.base.Background(t.th.CursorLine)
	for r := 0; r < rows; r++ {
		for i := 0; i < w; i++ {
			screen.Put(x+i, y+r, " ", st)
		}
	}
	if tb.prompt != nil {
		c := tb.prompt.draw(screen, x+1, y, w-2, st, t.th.Accent, t.th.Dim, t.th.Error)
		if c >= 0 && t.HasFocus() && t.finder == nil {
			screen.ShowCursor(c, y)
		}
		return
	}
	v := tb.shown()
	// Right: where the cursor is, and what the file is.
	var right []string
	if !tb.welcome && !tb.binary && tb.diff == nil && tb.versions == nil {
		c := v.Cursor()
		right = append(right, fmt.Sprintf("Ln %d, Col %d", c.Line+1, colOf(v.buf.Line(c.Line), c.Col, v.tabWidth)+1))
		if tb.diff == nil {
			if tb.buf.CRLF() {
				right = append(right, "CRLF")
			} else {
				right = append(right, "LF")
			}
			if tb.buf.fmt.bom {
				right = append(right, "BOM")
			}
			if tb.view.lexer != nil {
				right = append(right, tb.view.lexer.Config().Name)
			}
		}
		if tb.readOnly {
			right = append(right, "RO")
		}
		if v.wrap {
			right = append(right, "wrap")
		}
	}
	// Left: a message, else what is shown.
	left, fg := "", t.th.Foreground
	switch {
	case tb.versions != nil: // the choice waiting is what matters
		left, fg = tb.versions.status, t.th.Warning
	case tb.flash != "":
		left = tb.flash
		if tb.flashErr {
			fg = t.th.Error
		}
	case tb.diff != nil:
		layout := "" // offered only where it fits
		if tb.splitOn {
			layout = "s: unified · "
		} else if w >= splitMinWidth {
			layout = "s: side by side · "
		}
		left, fg = "diff of "+tb.diffTitle+" · "+layout+keymap.Display(firstKey(t.keys, actDiff))+" or Esc: back to the file", t.th.Accent
	case v.findText != "":
		left, fg = "find: "+v.findText+" — "+keymap.Display(firstKey(t.keys, actFindNext))+" next, Esc to clear", t.th.Dim
	case !tb.welcome && tb.diff == nil && tb.versions == nil && t.problemLine(tb) != "":
		left, fg = tb.view.problemStatus()
	case tb.notice != "":
		left, fg = tb.notice, t.th.Warning
	case tb.welcome:
		left, fg = "Welcome", t.th.Dim
	default:
		left = t.rel(tb.path)
		if tb.buf.Modified() {
			left += " (unsaved)"
		}
		if tb.agentEdit != nil && v.decor != nil {
			left += " — agent edit " + diffSummary(tb.agentEdit.before, tb.agentEdit.after) + ", " +
				keymap.Display(firstKey(t.keys, actDiff)) + ": diff"
		}
	}
	// The message wins the room; the position shows when it fits beside it.
	rs := strings.Join(right, "  ")
	lw, rw := putWidth(left), putWidth(rs)
	if lw+rw+4 > w {
		rw = 0
	} else {
		putString(screen, x+w-1-rw, y, rw, rs, st.Foreground(t.th.Dim))
	}
	putString(screen, x+1, y, w-rw-3, left, st.Foreground(fg))
}

func firstKey(keys *keymap.Table, action keymap.Action) string {
	if ks := keys.Keys(action); len(ks) > 0 {
		return ks[0]
	}
	return "?"
}
