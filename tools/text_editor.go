package tools

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/aymanbagabas/go-udiff"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/project"
)

//go:embed text_editor.md
var textEditorDoc string

// Bounds of one view.
const (
	maxViewLines   = 2000
	maxViewBytes   = 256 << 10
	maxDirListing  = 400
	dirListDepth   = 2
	viewReadBuffer = 64 << 10
)

// TextEditor is the text_editor tool: view, create, str_replace, insert and
// undo_edit on the project's files.
type TextEditor struct {
	toolInfo
	env *Env
}

// NewTextEditor returns the text_editor tool working in env.
func NewTextEditor(env *Env) *TextEditor {
	env.ensureState()
	return &TextEditor{
		env: env,
		toolInfo: toolInfo{
			name: "text_editor",
			desc: textEditorDoc,
			params: map[string]*schema.ParameterInfo{
				"command": {Type: schema.String, Required: true, Enum: []string{"view", "create", "str_replace", "insert", "undo_edit"},
					Desc: "The operation: view, create, str_replace, insert or undo_edit."},
				"path": {Type: schema.String, Required: true,
					Desc: "File or directory, relative to the project root or absolute (inside the project)."},
				"view_range": {Type: schema.Array, ElemInfo: &schema.ParameterInfo{Type: schema.Integer},
					Desc: "view: [start, end] lines, 1-based and inclusive; end -1 reads to the end."},
				"file_text": {Type: schema.String, Desc: "create: the whole content of the file."},
				"old_str":   {Type: schema.String, Desc: "str_replace: the exact text to replace, unique in the file unless replace_all."},
				"new_str":   {Type: schema.String, Desc: "str_replace: the replacement; insert: the lines to insert."},
				"insert_line": {Type: schema.Integer,
					Desc: "insert: the line after which new_str goes; 0 inserts at the top."},
				"replace_all": {Type: schema.Boolean, Desc: "str_replace: replace every occurrence of old_str."},
			},
		},
	}
}

type editorArgs struct {
	Command    string   `json:"command"`
	Path       string   `json:"path"`
	ViewRange  flexInts `json:"view_range"`
	FileText   *string  `json:"file_text"`
	OldStr     *string  `json:"old_str"`
	NewStr     *string  `json:"new_str"`
	InsertLine flexInt  `json:"insert_line"`
	ReplaceAll flexBool `json:"replace_all"`
	Content    *string  `json:"content"` // some models say content for file_text
}

// parse decodes and checks the arguments and resolves the path.
func (t *TextEditor) parse(argsJSON string) (editorArgs, string, error) {
	var a editorArgs
	if err := decodeArgs(t.name, argsJSON, &a); err != nil {
		return a, "", err
	}
	a.Command = strings.TrimSpace(strings.ToLower(a.Command))
	switch a.Command {
	case "view", "create", "str_replace", "insert", "undo_edit":
	case "":
		return a, "", errors.New("command is missing: use view, create, str_replace, insert or undo_edit")
	default:
		return a, "", fmt.Errorf("unknown command %q: use view, create, str_replace, insert or undo_edit", a.Command)
	}
	if a.FileText == nil && a.Content != nil {
		a.FileText = a.Content
	}
	if strings.TrimSpace(a.Path) == "" {
		return a, "", fmt.Errorf("%s needs a path", a.Command)
	}
	if a.Command != "view" && (strings.HasSuffix(a.Path, "/") || strings.HasSuffix(a.Path, string(filepath.Separator))) {
		return a, "", fmt.Errorf("%s: the path ends in /, which names a directory; %s works on files: give the file's name (directories are made as needed)", a.Path, a.Command)
	}
	abs, err := t.env.Resolve(a.Path)
	if err != nil {
		return a, "", err
	}
	return a, abs, nil
}

// Plan describes the call without changing anything; for an edit it
// computes the change and its diff.
func (t *TextEditor) Plan(ctx context.Context, argsJSON string) (Action, error) {
	a, abs, err := t.parse(argsJSON)
	if err != nil {
		return Action{}, err
	}
	rel := t.env.Rel(abs)
	if a.Command == "view" {
		sum := "View " + rel
		switch len(a.ViewRange) {
		case 1:
			sum += fmt.Sprintf(" (from line %d)", a.ViewRange[0])
		case 2:
			sum += fmt.Sprintf(" (lines %d to %d)", a.ViewRange[0], a.ViewRange[1])
		}
		return Action{Kind: KindRead, Summary: sum, Path: abs}, nil
	}
	e, err := t.prepare(ctx, a, abs)
	if err != nil {
		return Action{}, err
	}
	return Action{Kind: KindEdit, Summary: e.summary(), Path: abs, Diff: e.diff(), Protected: Protected(t.env.Root, abs)}, nil
}

// InvokableRun runs one text_editor call.
func (t *TextEditor) InvokableRun(ctx context.Context, argsJSON string, _ ...tool.Option) (string, error) {
	a, abs, err := t.parse(argsJSON)
	if err != nil {
		return "", err
	}
	if a.Command == "view" {
		if err := t.env.checkReadable(abs); err != nil {
			return "", err
		}
		return t.view(ctx, abs, a.ViewRange)
	}
	e, err := t.prepare(ctx, a, abs)
	if err != nil {
		return "", err
	}
	return t.apply(ctx, e)
}

// edit is a planned change to one file, computed before anything is written.
type edit struct {
	command  string
	abs, rel string
	before   []byte // raw content now; nil when the file does not exist
	after    []byte // raw content to write; nil to remove the file (undo of a create)
	oldText  string // decoded, for the diff
	newText  string
	result   string // what the model is told after the write
	undoLeft int    // undo_edit: edits still recorded after this one
}

func (e *edit) diff() string {
	from, to := "a/"+filepath.ToSlash(e.rel), "b/"+filepath.ToSlash(e.rel)
	if e.before == nil {
		from = "/dev/null"
	}
	if e.after == nil {
		to = "/dev/null"
	}
	return udiff.Unified(from, to, e.oldText, e.newText)
}

func (e *edit) summary() string {
	switch {
	case e.before == nil:
		return fmt.Sprintf("Create %s (%s)", e.rel, plural(countLines(e.newText), "line", "lines"))
	case e.after == nil:
		return fmt.Sprintf("Delete %s (undo of its creation)", e.rel)
	}
	add, del := diffStat(e.diff())
	verb := "Edit"
	switch e.command {
	case "create":
		verb = "Overwrite"
	case "undo_edit":
		verb = "Undo edit of"
	}
	return fmt.Sprintf("%s %s +%d −%d", verb, e.rel, add, del)
}

// prepare computes an edit from the file as it is now (on disk, or in
// the editor's buffer when Env.Buffers is set).
func (t *TextEditor) prepare(ctx context.Context, a editorArgs, abs string) (*edit, error) {
	rel := t.env.Rel(abs)
	e := &edit{command: a.Command, abs: abs, rel: rel}
	if a.Command == "undo_edit" {
		return t.prepareUndo(ctx, e)
	}
	if a.Command == "create" {
		if a.FileText == nil {
			return nil, errors.New("create needs file_text: the whole content of the file")
		}
		info, err := os.Stat(abs)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrInvalid) {
			e.newText = *a.FileText
			e.after = []byte(*a.FileText)
			e.result = fmt.Sprintf("Created %s (%s).", rel, plural(countLines(e.newText), "line", "lines"))
			return e, nil
		}
		if err != nil {
			return nil, pathError(rel, err)
		}
		if info.IsDir() {
			return nil, fmt.Errorf("%s is a directory: give create a file path", rel)
		}
	}
	f, err := t.env.readForEdit(ctx, abs, rel)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s does not exist: use create to make a new file", rel)
		}
		return nil, pathError(rel, err)
	}
	if err := t.checkFresh(abs, rel, f.hash); err != nil {
		return nil, err
	}
	text, form := decodeText(f.raw)
	e.before, e.oldText = f.raw, text
	switch a.Command {
	case "create":
		nt := adaptNewlines(*a.FileText, form, text)
		if form.bom {
			nt = strings.TrimPrefix(nt, "\ufeff")
		}
		e.newText = nt
		e.result = fmt.Sprintf("Overwrote %s (%s, was %d).", rel,
			plural(countLines(nt), "line", "lines"), countLines(text))
	case "str_replace":
		if err := t.strReplace(e, a, text, form); err != nil {
			return nil, err
		}
	case "insert":
		if err := t.insert(e, a, text, form); err != nil {
			return nil, err
		}
	}
	e.after = encodeText(e.newText, form)
	if bytes.Equal(e.after, e.before) {
		return nil, fmt.Errorf("this %s would leave %s unchanged: nothing to do", a.Command, rel)
	}
	return e, nil
}

func (t *TextEditor) strReplace(e *edit, a editorArgs, text string, form textForm) error {
	if a.OldStr == nil {
		return errors.New("str_replace needs old_str: the exact text to replace (to add text use insert, to rewrite the file use create)")
	}
	if *a.OldStr == "" {
		return errors.New("old_str is empty: give the exact text to replace (to add text use insert, to rewrite the file use create)")
	}
	newStr := ""
	if a.NewStr != nil {
		newStr = *a.NewStr
	}
	old := adaptNewlines(*a.OldStr, form, text)
	nw := adaptNewlines(newStr, form, text)
	if old == nw {
		return errors.New("old_str and new_str are the same: nothing would change")
	}
	at := findAll(text, old)
	if len(at) == 0 && !form.crlf && strings.Contains(text, "\r\n") && !strings.Contains(old, "\r") {
		// A file with mixed line breaks: try the text with CRLF breaks.
		crOld, crNew := strings.ReplaceAll(old, "\n", "\r\n"), strings.ReplaceAll(nw, "\n", "\r\n")
		if crAt := findAll(text, crOld); len(crAt) > 0 {
			old, nw, at = crOld, crNew, crAt
		}
	}
	switch {
	case len(at) == 0:
		return errors.New(noMatchHint(text, old, e.rel))
	case len(at) > 1 && !bool(a.ReplaceAll):
		return fmt.Errorf("old_str matches %d times in %s, at lines %s: include more surrounding lines to make it unique, or set replace_all to replace every one",
			len(at), e.rel, lineList(linesOf(text, at)))
	}
	newText, n := replaceText(text, old, nw, at[0], bool(a.ReplaceAll))
	e.newText = newText
	first := lineOf(text, at[0])
	last := first + strings.Count(nw, "\n")
	if strings.HasSuffix(nw, "\n") && last > first {
		last--
	}
	if n == 1 {
		e.result = fmt.Sprintf("Edited %s: replaced 1 occurrence at line %d. The edited region now reads:\n%s",
			e.rel, first, snippet(newText, first, last))
	} else {
		e.result = fmt.Sprintf("Edited %s: replaced %d occurrences (first at line %d). The first edited region now reads:\n%s",
			e.rel, n, first, snippet(newText, first, last))
	}
	return nil
}

func (t *TextEditor) insert(e *edit, a editorArgs, text string, form textForm) error {
	if !a.InsertLine.Set {
		return errors.New("insert needs insert_line: the line after which new_str goes (0 = top of the file)")
	}
	if a.NewStr == nil {
		return errors.New("insert needs new_str: the lines to insert")
	}
	if *a.NewStr == "" {
		return errors.New("new_str is empty: there is nothing to insert")
	}
	ins := adaptNewlines(*a.NewStr, form, text)
	newText, err := insertText(text, a.InsertLine.N, ins)
	if err != nil {
		return err
	}
	e.newText = newText
	n := countLines(ins)
	from := a.InsertLine.N + 1
	e.result = fmt.Sprintf("Inserted %s after line %d of %s. The region now reads:\n%s",
		plural(n, "line", "lines"), a.InsertLine.N, e.rel, snippet(newText, from, from+n-1))
	return nil
}

func (t *TextEditor) prepareUndo(ctx context.Context, e *edit) (*edit, error) {
	rec, n, ok := t.env.Edits.Last(e.abs)
	if !ok {
		return nil, fmt.Errorf("there is no edit of %s to undo: undo_edit reverts the agent's own edits made in this session", e.rel)
	}
	cur, err := t.env.readContent(ctx, e.abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s no longer exists, so its last edit cannot be undone", e.rel)
	case err != nil:
		return nil, pathError(e.rel, err)
	}
	if sha256.Sum256(cur) != rec.After {
		return nil, fmt.Errorf("%s changed since the agent's last edit (%s), so undo_edit would lose those changes: view the file and edit it instead", e.rel, rec.Command)
	}
	e.before = cur
	e.oldText, _ = decodeText(cur)
	e.undoLeft = n - 1
	left := ""
	if e.undoLeft > 0 {
		left = fmt.Sprintf(" %s of this file can still be undone.", plural(e.undoLeft, "earlier edit", "earlier edits"))
	}
	if rec.Before == nil {
		e.after = nil
		e.result = fmt.Sprintf("Undid the creation of %s: the file is removed.", e.rel)
		return e, nil
	}
	e.after = rec.Before
	e.newText, _ = decodeText(rec.Before)
	e.result = fmt.Sprintf("Undid the last edit of %s (%s); it has %s again.%s", e.rel, rec.Command,
		plural(countLines(e.newText), "line", "lines"), left)
	return e, nil
}

// checkFresh insists the agent has read the file and that it has not
// changed since: on disk, or in the editor's buffer, where the agent read
// it, when Env.Buffers is set.
func (t *TextEditor) checkFresh(abs, rel string, hash [32]byte) error {
	st, ok := t.env.Files.Get(abs)
	if !ok {
		return fmt.Errorf("view %s first: text_editor edits only files read in this session (command view), so the edit is based on what the file holds now", rel)
	}
	if st.Hash != hash {
		return fmt.Errorf("%s changed on disk since you last viewed it: view it again, then make the edit against its current content", rel)
	}
	return nil
}

// apply writes a prepared edit and records it.
func (t *TextEditor) apply(ctx context.Context, e *edit) (string, error) {
	if t.env.Guard != nil {
		if err := t.env.Guard.CheckEdit(e.abs); err != nil {
			return "", err
		}
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if e.after == nil {
		if err := os.Remove(e.abs); err != nil {
			return "", pathError(e.rel, err)
		}
		t.env.Files.Forget(e.abs)
		t.env.Edits.Pop(e.abs)
		if t.env.Changes != nil {
			t.env.Changes.Changed(ctx, e.abs, e.before, nil)
		}
		Emit(ctx, FileChanged{Path: e.abs, Before: e.before, After: nil, Command: e.command})
		return e.result, nil
	}
	stamp, err := t.write(ctx, e)
	if err != nil {
		return "", fmt.Errorf("writing %s failed, the file is unchanged: %w", e.rel, err)
	}
	hash := stamp.Hash
	t.env.Files.Set(e.abs, stamp)
	if e.command == "undo_edit" {
		t.env.Edits.Pop(e.abs)
	} else {
		t.env.Edits.Push(e.abs, EditRecord{Before: e.before, After: hash, Command: e.command})
	}
	if t.env.Changes != nil {
		t.env.Changes.Changed(ctx, e.abs, e.before, e.after)
	}
	Emit(ctx, FileChanged{Path: e.abs, Before: e.before, After: e.after, Command: e.command})
	if t.env.Code != nil {
		if r := t.env.Code.AfterEdit(t.env.codeContext(ctx), e.abs, e.after); r != "" {
			Emit(ctx, CodeReport{Text: r})
			return e.result + "\n\n" + r, nil
		}
	}
	return e.result, nil
}

// write writes an edit: to the disk with project.WriteFile, or, with
// Env.Buffers, to the editor once project.WriteFile's rules (inside the
// project, no symlink out of it, a regular file) allow it.
func (t *TextEditor) write(ctx context.Context, e *edit) (FileStamp, error) {
	hash := sha256.Sum256(e.after)
	if t.env.Buffers == nil {
		info, err := project.WriteFile(t.env.Root, e.abs, e.after, project.WriteOptions{})
		if err != nil {
			return FileStamp{}, err
		}
		return FileStamp{ModTime: info.ModTime(), Size: info.Size(), Hash: hash}, nil
	}
	target, err := project.WriteTarget(t.env.Root, e.abs)
	if err != nil {
		return FileStamp{}, err
	}
	// Missing directories are made, as project.WriteFile makes them: the
	// editor is asked to write a file, not a tree.
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return FileStamp{}, err
	}
	if err := t.env.Buffers.WriteFile(ctx, e.abs, e.after); err != nil {
		return FileStamp{}, fmt.Errorf("the editor did not write it: %w", err)
	}
	return FileStamp{ModTime: time.Now(), Size: int64(len(e.after)), Hash: hash}, nil
}

// view shows a file's lines or a directory's entries.
func (t *TextEditor) view(ctx context.Context, abs string, rng []int) (string, error) {
	rel := t.env.Rel(abs)
	info, err := os.Stat(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrInvalid) {
			return "", t.env.notFound(abs, rel)
		}
		return "", pathError(rel, err)
	}
	if info.IsDir() {
		if len(rng) > 0 {
			return "", fmt.Errorf("%s is a directory: view_range applies to files", rel)
		}
		return t.listDir(ctx, abs, rel)
	}
	if !info.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file (%s)", rel, info.Mode().Type())
	}
	start, end, err := parseViewRange(rng)
	if err != nil {
		return "", err
	}

	f, err := t.env.openText(ctx, abs, info.Size())
	if err != nil {
		return "", pathError(rel, err)
	}
	defer f.Close()
	h := sha256.New()
	r := bufio.NewReaderSize(io.TeeReader(f, h), viewReadBuffer)
	head, _ := r.Peek(sniffSize)
	if isBinary(head) {
		return "", binaryError(rel, info.Size(), head[:min(len(head), 512)])
	}

	var pg viewPage
	if err := pg.read(ctx, r, rel, start, end); err != nil {
		return "", err
	}
	// Count the rest and finish the hash in bounded memory.
	total, err := countRest(r, pg.lineNo, pg.budgetHit)
	if err != nil {
		return "", pathError(rel, err)
	}
	var sum [32]byte
	copy(sum[:], h.Sum(nil))
	t.env.Files.Set(abs, FileStamp{ModTime: info.ModTime(), Size: info.Size(), Hash: sum})

	if total == 0 {
		Emit(ctx, FileViewed{Path: abs, Start: 1, End: -1})
		return fmt.Sprintf("%s is empty.", rel), nil
	}
	if start > total {
		return "", fmt.Errorf("view_range starts at line %d, but %s has only %s", start, rel, plural(total, "line", "lines"))
	}
	ev := FileViewed{Path: abs, Start: pg.first, End: pg.last}
	if pg.last == total {
		ev.End = -1
	}
	Emit(ctx, ev)

	notes := pg.notes(rel, end, total)
	res := pg.out.String()
	if len(notes) > 0 {
		res += strings.Join(notes, "\n")
	}
	return res, nil
}

// parseViewRange reads view_range: [start], [start, end] or nothing, where
// an end of -1 is the end of the file.
func parseViewRange(rng []int) (start, end int, err error) {
	start, end = 1, -1
	switch len(rng) {
	case 0:
	case 1:
		start = rng[0]
	case 2:
		start, end = rng[0], rng[1]
	default:
		return 0, 0, fmt.Errorf("view_range takes two numbers, [start, end], not %d", len(rng))
	}
	if start < 1 {
		return 0, 0, fmt.Errorf("view_range start %d is invalid: lines are numbered from 1", start)
	}
	if end != -1 && end < start {
		return 0, 0, fmt.Errorf("view_range [%d, %d] is invalid: end must be at least start, or -1 for the end of the file", start, end)
	}
	return start, end, nil
}

// viewPage is the numbered lines one view shows, and where it stopped.
type viewPage struct {
	out         strings.Builder
	lineNo      int // lines read
	first, last int // lines shown (0: none)
	budgetHit   bool
	cutLines    bool // a line shown was longer than maxLineDisplay
}

// read reads r (the file rel) up to line end (-1: to the end of the file)
// or until the page is full, numbering the lines from start on into the
// page.
func (pg *viewPage) read(ctx context.Context, r *bufio.Reader, rel string, start, end int) error {
	var line []byte
	for {
		if pg.lineNo%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if end != -1 && pg.lineNo >= end {
			return nil
		}
		want := pg.lineNo+1 >= start
		var full int
		var err error
		line, full, err = readLine(r, line[:0], want)
		if err == io.EOF && line == nil {
			return nil
		}
		if err != nil && err != io.EOF {
			return pathError(rel, err)
		}
		pg.lineNo++
		if !want {
			continue
		}
		if !pg.add(pg.lineNo, string(line), full == len(line), full) {
			return nil
		}
	}
}

// add shows line lineNo, whose text is text and full length full (whole
// says text is all of it), unless the page is full: then it reports false.
func (pg *viewPage) add(lineNo int, text string, whole bool, full int) bool {
	if whole {
		text = strings.TrimSuffix(text, "\r")
		full = len(text)
	}
	if lineNo == 1 && strings.HasPrefix(text, "\ufeff") {
		text, full = text[3:], full-3
	}
	if full > maxLineDisplay {
		pg.cutLines = true
	}
	if pg.last-pg.first+1 >= maxViewLines && pg.first > 0 || pg.out.Len()+len(text)+16 > maxViewBytes && pg.first > 0 {
		pg.budgetHit = true
		pg.lineNo--
		return false
	}
	writeNumbered(&pg.out, lineNo, text, full)
	if pg.first == 0 {
		pg.first = lineNo
	}
	pg.last = lineNo
	return true
}

// notes are the lines under a page of a file of total lines, viewed up to
// end (-1: its end): how to go on, where the file ends, what was cut.
func (pg *viewPage) notes(rel string, end, total int) []string {
	first, last := pg.first, pg.last
	var notes []string
	wantEnd := end
	if wantEnd == -1 || wantEnd > total {
		wantEnd = total
	}
	if last < wantEnd {
		next := last + 1
		notes = append(notes, fmt.Sprintf("[%s has %s; this shows lines %d-%d (a view is at most %d lines or %s). Continue with view_range [%d, %d].]",
			rel, plural(total, "line", "lines"), first, last, maxViewLines, humanSize(maxViewBytes), next, min(next+maxViewLines-1, wantEnd)))
	} else if first > 1 || last < total {
		notes = append(notes, fmt.Sprintf("[lines %d-%d of %d]", first, last, total))
	}
	if end > total {
		notes = append(notes, fmt.Sprintf("[the file ends at line %d]", total))
	}
	if pg.cutLines {
		notes = append(notes, fmt.Sprintf("[lines longer than %d bytes are cut; use grep or bash to read them whole]", maxLineDisplay))
	}
	return notes
}

// readLine reads one line from r (without its "\n") into buf and returns
// it with the line's full length. With keep it holds at most
// maxLineDisplay bytes of the line, so a huge single-line file costs no more
// memory than a short one; without keep it holds nothing. At the end of
// input it returns io.EOF, with a nil line when there was nothing left.
func readLine(r *bufio.Reader, buf []byte, keep bool) ([]byte, int, error) {
	got, n := false, 0
	for {
		chunk, err := r.ReadSlice('\n')
		if len(chunk) > 0 {
			got = true
		}
		c := bytes.TrimSuffix(chunk, []byte("\n"))
		n += len(c)
		if keep && len(buf) < maxLineDisplay {
			buf = append(buf, c[:min(len(c), maxLineDisplay-len(buf))]...)
		}
		switch {
		case err == nil:
			return nonNil(buf), n, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF:
			if !got {
				return nil, 0, io.EOF
			}
			return nonNil(buf), n, io.EOF
		default:
			return nil, 0, err
		}
	}
}

func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// countRest reads what is left of r and returns the file's total line
// count, given that lineNo lines were read. When the view stopped on a
// budget, the line in hand was read but not counted.
func countRest(r *bufio.Reader, lineNo int, pendingRead bool) (int, error) {
	total := lineNo
	if pendingRead {
		total++ // the line read but not shown
	}
	buf := make([]byte, 64<<10)
	var lastByte byte = '\n'
	any := false
	for {
		n, err := r.Read(buf)
		if n > 0 {
			any = true
			total += bytes.Count(buf[:n], []byte("\n"))
			lastByte = buf[n-1]
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, err
		}
	}
	if any && lastByte != '\n' {
		total++ // a last line without a newline
	}
	return total, nil
}

// listDir shows a directory's entries two levels deep, ignored ones hidden.
func (t *TextEditor) listDir(ctx context.Context, abs, rel string) (string, error) {
	var entries []string
	more := 0
	deny := t.env.denyFilter()
	err := project.Walk(ctx, t.env.Root, abs, project.WalkOptions{MaxDepth: dirListDepth, Hide: deny.hide()}, func(e project.Entry) error {
		if len(entries) >= maxDirListing {
			if more++; more >= 10*maxDirListing {
				return fs.SkipAll // enough to say there are many
			}
			return nil
		}
		s := filepath.ToSlash(e.Rel)
		if e.D.IsDir() {
			s += "/"
		} else if e.D.Type()&fs.ModeSymlink != 0 {
			if target, err := os.Readlink(e.Abs); err == nil {
				s += " -> " + target
			}
		}
		entries = append(entries, s)
		return nil
	})
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		return "", pathError(rel, err)
	}
	if len(entries) == 0 {
		return strings.TrimSuffix(fmt.Sprintf("%s/ is empty (or holds only ignored files).\n%s", rel, deny.note()), "\n"), nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s/ (%d levels deep, ignored files hidden):\n", rel, dirListDepth)
	for _, s := range entries {
		b.WriteString(s)
		b.WriteByte('\n')
	}
	switch {
	case more >= 10*maxDirListing:
		fmt.Fprintf(&b, "… at least %d more entries: use ls or tree on a subdirectory, or glob\n", more)
	case more > 0:
		fmt.Fprintf(&b, "… %d more entries: use ls or tree on a subdirectory, or glob\n", more)
	}
	if n := deny.note(); n != "" {
		b.WriteString(n + "\n")
	}
	return Truncate(b.String(), 0, maxResultBytes), nil
}

// notFound explains a missing path and suggests close names, never one
// the user's Read deny rules hide (.ENV would suggest .env).
func (e *Env) notFound(abs, rel string) error {
	dir := filepath.Dir(abs)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("%s does not exist (nor does its directory %s)", rel, filepath.Dir(rel))
	}
	base := strings.ToLower(filepath.Base(abs))
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	var close []string
	for _, ent := range entries {
		if e.readDenied(filepath.Join(dir, ent.Name())) != "" || e.linkDenied(filepath.Join(dir, ent.Name()), ent) {
			continue
		}
		n := strings.ToLower(ent.Name())
		ns := strings.TrimSuffix(n, filepath.Ext(n))
		if n == base || (stem != "" && (ns == stem || strings.Contains(n, stem))) || (len(ns) > 2 && strings.Contains(base, ns)) || similarity(n, base) >= 0.7 {
			close = append(close, filepath.Join(filepath.Dir(rel), ent.Name()))
		}
	}
	sort.Strings(close)
	if len(close) > 5 {
		close = close[:5]
	}
	if len(close) > 0 {
		return fmt.Errorf("%s does not exist; did you mean %s?", rel, strings.Join(close, ", "))
	}
	return fmt.Errorf("%s does not exist", rel)
}

// pathError rewords an OS error about rel without repeating the absolute path.
func pathError(rel string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %v", rel, pe.Err)
	}
	return err
}
