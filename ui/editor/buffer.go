package editor

import (
	"bytes"
	"strings"

	"github.com/aymanbagabas/go-udiff/lcs"
)

// Pos is a place in a buffer: a line (0-based) and a byte offset into it.
// Byte offsets keep edits cheap; the view converts them to screen columns.
type Pos struct {
	Line, Col int
}

// Less reports whether p comes before q.
func (p Pos) Less(q Pos) bool {
	return p.Line < q.Line || (p.Line == q.Line && p.Col < q.Col)
}

// order returns a and b sorted.
func order(a, b Pos) (Pos, Pos) {
	if b.Less(a) {
		return b, a
	}
	return a, b
}

const bom = "\xef\xbb\xbf"

// format is how a file's bytes frame its lines; it is kept so a save writes
// back exactly what was read.
type format struct {
	eol     string // "\n" or "\r\n"
	bom     bool
	finalNL bool
}

// Buffer is the text of one file as lines, with its undo history.
//
// The file's bytes round-trip exactly: a file whose line breaks are all CRLF
// is kept as CRLF; any other file is split on LF only, so a stray CR stays
// part of its line. The BOM and the presence of a final newline are kept too.
type Buffer struct {
	lines   []string
	fmt     format
	version uint64
	hist    history
	// onChange hears every splice, so views can keep per-line data in step.
	onChange []func(at, removed, added int)
	// onLineEdit hears a splice of one line for one, with the line's old
	// text, so a view can shift the line's colours with its characters.
	onLineEdit []func(line int, old string)
}

// NewBuffer parses data into a buffer.
func NewBuffer(data []byte) *Buffer {
	b := &Buffer{}
	b.lines, b.fmt = parse(data)
	return b
}

func parse(data []byte) ([]string, format) {
	f := format{eol: "\n"}
	if bytes.HasPrefix(data, []byte(bom)) {
		f.bom = true
		data = data[len(bom):]
	}
	s := string(data)
	nl := strings.Count(s, "\n")
	if nl > 0 && strings.Count(s, "\r\n") == nl {
		f.eol = "\r\n"
	}
	if strings.HasSuffix(s, "\n") {
		f.finalNL = true
		s = s[:len(s)-1]
	}
	lines := strings.Split(s, "\n")
	if f.eol == "\r\n" {
		// Every line but the last was followed by "\r\n"; the last only when
		// the file ends with a line break, else its "\r" is content.
		last := len(lines) - 1
		for i := range last {
			lines[i] = lines[i][:len(lines[i])-1]
		}
		if f.finalNL {
			lines[last] = lines[last][:len(lines[last])-1]
		}
	}
	return lines, f
}

// Bytes returns the file content, framed as it was read.
func (b *Buffer) Bytes() []byte {
	n := 0
	for _, l := range b.lines {
		n += len(l) + len(b.fmt.eol)
	}
	out := make([]byte, 0, n+len(bom))
	if b.fmt.bom {
		out = append(out, bom...)
	}
	for i, l := range b.lines {
		if i > 0 {
			out = append(out, b.fmt.eol...)
		}
		out = append(out, l...)
	}
	if b.fmt.finalNL {
		out = append(out, b.fmt.eol...)
	}
	return out
}

// LineCount is the number of lines (at least 1).
func (b *Buffer) LineCount() int { return len(b.lines) }

// Line returns line i without its line break.
func (b *Buffer) Line(i int) string {
	if i < 0 || i >= len(b.lines) {
		return ""
	}
	return b.lines[i]
}

// Lines returns lines [from, to); the strings are shared, the slice is not.
func (b *Buffer) Lines(from, to int) []string {
	from = max(0, from)
	to = min(len(b.lines), to)
	if from >= to {
		return nil
	}
	return append([]string(nil), b.lines[from:to]...)
}

// CRLF reports whether the file uses CRLF line breaks.
func (b *Buffer) CRLF() bool { return b.fmt.eol == "\r\n" }

// Version changes with every change to the text.
func (b *Buffer) Version() uint64 { return b.version }

// Modified reports whether the text differs from the last save or load.
func (b *Buffer) Modified() bool { return b.hist.state() != b.hist.saved }

// MarkSaved records the current text as what is on disk.
func (b *Buffer) MarkSaved() { b.hist.saved = b.hist.state() }

// OnChange registers fn to hear every splice: lines [at, at+removed) were
// replaced by [at, at+added).
func (b *Buffer) OnChange(fn func(at, removed, added int)) {
	b.onChange = append(b.onChange, fn)
}

// OnLineEdit registers fn to hear a change within one line (a splice of
// one line for one), after the OnChange listeners, with the line's old text.
func (b *Buffer) OnLineEdit(fn func(line int, old string)) {
	b.onLineEdit = append(b.onLineEdit, fn)
}

// Clamp returns p moved to the nearest valid position.
func (b *Buffer) Clamp(p Pos) Pos {
	if p.Line < 0 {
		return Pos{}
	}
	if p.Line >= len(b.lines) {
		l := len(b.lines) - 1
		return Pos{l, len(b.lines[l])}
	}
	p.Col = max(0, min(p.Col, len(b.lines[p.Line])))
	return p
}

// End is the position after the last character.
func (b *Buffer) End() Pos {
	l := len(b.lines) - 1
	return Pos{l, len(b.lines[l])}
}

// Text returns the text between two positions, lines joined by "\n".
func (b *Buffer) Text(from, to Pos) string {
	from, to = order(b.Clamp(from), b.Clamp(to))
	if from.Line == to.Line {
		return b.lines[from.Line][from.Col:to.Col]
	}
	var sb strings.Builder
	sb.WriteString(b.lines[from.Line][from.Col:])
	for i := from.Line + 1; i < to.Line; i++ {
		sb.WriteByte('\n')
		sb.WriteString(b.lines[i])
	}
	sb.WriteByte('\n')
	sb.WriteString(b.lines[to.Line][:to.Col])
	return sb.String()
}

// Replace replaces the text between from and to with text (whose line
// breaks may be LF, CRLF or CR) and returns the position after the inserted
// text. It joins the open undo step, or makes one of its own.
func (b *Buffer) Replace(from, to Pos, text string) Pos {
	from, to = order(b.Clamp(from), b.Clamp(to))
	if strings.ContainsRune(text, '\r') {
		text = strings.ReplaceAll(text, "\r\n", "\n")
		text = strings.ReplaceAll(text, "\r", "\n")
	}
	prefix := b.lines[from.Line][:from.Col]
	suffix := b.lines[to.Line][to.Col:]
	parts := strings.Split(text, "\n")
	last := len(parts) - 1
	end := Pos{from.Line + last, len(parts[last])}
	if last == 0 {
		end.Col += len(prefix)
	}
	parts[0] = prefix + parts[0]
	parts[last] += suffix
	b.splice(from.Line, to.Line-from.Line+1, parts)
	return end
}

// Insert inserts text at p and returns the position after it.
func (b *Buffer) Insert(p Pos, text string) Pos { return b.Replace(p, p, text) }

// Delete removes the text between from and to.
func (b *Buffer) Delete(from, to Pos) { b.Replace(from, to, "") }

// splice replaces lines [at, at+n) with repl, records it for undo and
// tells the listeners.
func (b *Buffer) splice(at, n int, repl []string) {
	old := append([]string(nil), b.lines[at:at+n]...)
	b.apply(at, n, repl)
	b.hist.record(splice{at: at, old: old, new: append([]string(nil), repl...)})
}

// apply is the one place lines change.
func (b *Buffer) apply(at, n int, repl []string) {
	var old string
	if n == 1 && len(repl) == 1 {
		old = b.lines[at]
	}
	if len(repl) == n {
		copy(b.lines[at:], repl)
	} else {
		tail := b.lines[at+n:]
		if d := len(repl) - n; d > 0 && len(b.lines)+d <= cap(b.lines) {
			b.lines = b.lines[:len(b.lines)+d]
			copy(b.lines[at+len(repl):], tail)
		} else if d > 0 {
			grown := make([]string, len(b.lines)+d, (len(b.lines)+d)*5/4+16)
			copy(grown, b.lines[:at])
			copy(grown[at+len(repl):], tail)
			b.lines = grown
		} else {
			copy(b.lines[at+len(repl):], tail)
			clear(b.lines[len(b.lines)+d:])
			b.lines = b.lines[:len(b.lines)+d]
		}
		copy(b.lines[at:], repl)
	}
	b.version++
	for _, fn := range b.onChange {
		fn(at, n, len(repl))
	}
	if n == 1 && len(repl) == 1 {
		for _, fn := range b.onLineEdit {
			fn(at, old)
		}
	}
}

// BeginStep opens an undo step that the following changes join until EndStep.
// cursor is restored when the step is undone. With merge set, the step
// continues the previous one when that one is still the newest, had the
// same merge kind and ended at cursor (typing a word is one step).
func (b *Buffer) BeginStep(cursor Pos, merge string) {
	b.hist.begin(cursor, merge)
}

// KeepStep makes the open undo step one even if nothing changes in it.
func (b *Buffer) KeepStep() { b.hist.keepOpen() }

// EndStep closes the open undo step; cursor is restored when it is redone.
func (b *Buffer) EndStep(cursor Pos) { b.hist.end(cursor) }

// Undo reverts the newest step and returns where the cursor was before it.
func (b *Buffer) Undo() (Pos, bool) {
	g := b.hist.popUndo()
	if g == nil {
		return Pos{}, false
	}
	for i := len(g.splices) - 1; i >= 0; i-- {
		s := g.splices[i]
		b.apply(s.at, len(s.new), s.old)
	}
	if g.fmtBefore != nil {
		b.fmt = *g.fmtBefore
		b.version++
	}
	return g.before, true
}

// Redo re-applies the newest undone step and returns the cursor after it.
func (b *Buffer) Redo() (Pos, bool) {
	g := b.hist.popRedo()
	if g == nil {
		return Pos{}, false
	}
	for _, s := range g.splices {
		b.apply(s.at, len(s.old), s.new)
	}
	if g.fmtAfter != nil {
		b.fmt = *g.fmtAfter
		b.version++
	}
	return g.after, true
}

// LineChange is one changed region of a reload: lines [Start, End) of the
// old text became lines [NewStart, NewEnd) of the new one.
type LineChange struct {
	Start, End, NewStart, NewEnd int
}

// SetContent replaces the whole text with data as one undo step that
// touches only the lines that differ, and returns those regions. The cursor
// arguments are what undo and redo restore.
func (b *Buffer) SetContent(data []byte, cursor Pos) []LineChange {
	lines, f := parse(data)
	changes := diffLines(b.lines, lines)
	if len(changes) == 0 && f == b.fmt {
		return nil
	}
	b.BeginStep(cursor, "")
	// Apply from the bottom so earlier indexes stay valid.
	for i := len(changes) - 1; i >= 0; i-- {
		c := changes[i]
		b.splice(c.Start, c.End-c.Start, lines[c.NewStart:c.NewEnd])
	}
	if f != b.fmt {
		before := b.fmt
		b.fmt = f
		b.version++
		b.hist.recordFormat(before, f)
	}
	b.EndStep(b.Clamp(cursor))
	return changes
}

// diffLines returns the changed regions between two versions of a text.
func diffLines(a, b []string) []LineChange {
	ds := lcs.DiffLines(a, b)
	out := make([]LineChange, len(ds))
	for i, d := range ds {
		out[i] = LineChange{Start: d.Start, End: d.End, NewStart: d.ReplStart, NewEnd: d.ReplEnd}
	}
	return out
}
