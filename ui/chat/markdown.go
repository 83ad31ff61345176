package chat

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	"github.com/fawn-ide/fawn/ui/render"
	"github.com/fawn-ide/fawn/ui/theme"
)

// Markdown renders the model's Markdown into styled, wrapped lines: headings,
// emphasis, lists, links, inline code, block quotes, tables and fenced code
// highlighted with chroma. It holds the parser and the highlighter so one
// instance serves every message (UI goroutine only).
type Markdown struct {
	md goldmark.Markdown
	th *theme.Theme
	hl *render.Highlighter
	// code caches highlighted code blocks by language and text: while an
	// answer streams, every frame re-renders it, and lexing is the costly part.
	code     map[codeKey][]render.Line
	codeUsed map[codeKey]bool
	// grown is the code block last highlighted while an answer streamed;
	// its next, longer version is lexed from near where it grew. wrap
	// keeps the rows its lines were wrapped into.
	grown grownCode
	wrap  codeWrap
	// Async, when set, runs work on another goroutine and the function it
	// returns on the UI goroutine (then draws): a block lexed in part is
	// then lexed whole off the UI goroutine, its lines go into code from
	// there, and gen counts them; pending holds the block's lines
	// meanwhile. Without Async it is lexed whole at once.
	Async   func(work func() (done func()))
	pending map[codeKey][]render.Line
	gen     uint64
}

// grownCode is a streaming code block's text and highlighted lines.
type grownCode struct {
	lang, code string
	lines      []render.Line
	approx     bool // lexed in part (highlightGrown)
}

// verifyLines is how many non-empty lines already shown a code block's
// new lines are lexed again from, and must come out as before, for the
// lines above them to be kept (see highlightGrown).
const verifyLines = 4

// plainLine is the longest line a streaming code block is lexed with: past
// it (a model's answer with a huge line) the block shows plain until done,
// as lexing it every frame would take tens of milliseconds a frame.
const plainLine = 4 << 10

// growMin is the shortest block highlightGrown lexes in part: a shorter one
// is lexed whole in a millisecond or two, and stays exact. (A variable for
// the tests.)
var growMin = 2048

type codeKey struct{ lang, code string }

func NewMarkdown(th *theme.Theme) *Markdown {
	return &Markdown{
		md:       goldmark.New(goldmark.WithExtensions(extension.GFM)),
		th:       th,
		hl:       render.NewHighlighter(th),
		code:     map[codeKey][]render.Line{},
		codeUsed: map[codeKey]bool{},
	}
}

// highlight returns the highlighted lines of a code block, cached. While
// an answer streams (streaming), a block that grew since the last call is
// lexed only from near its end (highlightGrown); approx says so. Once the
// answer has moved past it, the block is lexed whole: on another
// goroutine when async is set (lexWhole), showing the lines lexed in part
// till then, else at once.
func (m *Markdown) highlight(lang, code string, streaming bool) (lines []render.Line, approx bool) {
	k := codeKey{lang, code}
	if l, ok := m.code[k]; ok {
		m.codeUsed[k] = true
		if streaming {
			m.grown = grownCode{lang: lang, code: code, lines: l}
		}
		return l, false
	}
	if l, ok := m.pending[k]; ok {
		return l, true // being lexed whole
	}
	g := &m.grown
	if streaming {
		if g.lines != nil && g.lang == lang && g.code == code {
			return g.lines, g.approx // a frame where the block did not grow
		}
		if l, ok := m.highlightGrown(lang, code); ok {
			return l, true
		}
		if longestLine(code) > plainLine {
			// A line too long to lex every frame (highlightGrown works
			// by lines): plain until the block is done.
			l := m.hl.Plain(strings.TrimSuffix(code, "\n"))
			*g = grownCode{lang: lang, code: code, lines: l, approx: true}
			return l, true
		}
	} else if m.Async != nil {
		// A block lexed in part is done growing (perhaps with its last
		// lines in this frame): lex it whole off the UI goroutine (a long
		// block takes longer than a frame), show it lexed in part till then.
		l, ok := g.lines, g.approx && g.lang == lang && g.code == code
		if !ok {
			l, ok = m.highlightGrown(lang, code)
		}
		if ok {
			m.lexWhole(k, l)
			return l, true
		}
	}
	l := m.hl.Lines(lang, code)
	if streaming {
		m.grown = grownCode{lang: lang, code: code, lines: l}
	}
	m.keep(k, l)
	return l, false
}

// maxCodeBlocks is how many highlighted code blocks the cache holds
// before it drops those not used since the last sweep: enough for the
// answers in view and one streaming; a long session's old answers, drawn
// again, lex again (the message list keeps no lines of items far out of
// view either).
const maxCodeBlocks = 128

// keep caches the lines of a code block lexed whole.
func (m *Markdown) keep(k codeKey, l []render.Line) {
	if len(m.code) > maxCodeBlocks {
		// Keep what was used since the last sweep; drop the rest.
		for k := range m.code {
			if !m.codeUsed[k] {
				delete(m.code, k)
			}
		}
		m.codeUsed = map[codeKey]bool{}
	}
	m.code[k] = l
	m.codeUsed[k] = true
}

// lexWhole lexes block k whole on a goroutine of its own, showing lines
// (lexed in part) meanwhile; when done, the UI goroutine caches the result
// and counts a new generation, which renders again the messages that
// showed a block lexed in part (assistantItem.rev).
func (m *Markdown) lexWhole(k codeKey, lines []render.Line) {
	if m.pending == nil {
		m.pending = map[codeKey][]render.Line{}
	}
	m.pending[k] = lines
	m.Async(func() func() {
		l := render.NewHighlighter(m.th).Lines(k.lang, k.code) // its own style cache
		return func() {
			delete(m.pending, k)
			m.keep(k, l)
			m.gen++
		}
	})
}

// highlightGrown highlights code, the last streaming block with more text
// at its end, without lexing it all again: a frame's work would grow with
// the block (chroma lexes ~1 µs a byte; a 400-line file ~10 ms). It lexes
// from a few non-empty lines above the last line shown (and up to one
// that starts in the first column), on its own, and
// keeps the lines above only if the lines lexed again come out as they
// were: then the lexer, started afresh there, is in the state it was in
// there (not inside a comment or a multi-line string). If they do not, it
// starts further up, three times as far each time. It returns false when
// the block did not grow or it would lex most of the block anyway.
func (m *Markdown) highlightGrown(lang, code string) ([]render.Line, bool) {
	g := &m.grown
	// The parser ends a block's last line with a newline, whole or not.
	shown := strings.TrimSuffix(g.code, "\n")
	if g.lines == nil || g.lang != lang || len(shown) < growMin || len(code) <= len(shown) || code[:len(shown)] != shown {
		return nil, false
	}
	// The last line shown may have grown; the ones above it are whole. (A
	// lexer that ends the text with a newline adds an empty line.)
	last := min(len(g.lines), strings.Count(shown, "\n")+1) - 1
	from, seen := last, 0
	off := strings.LastIndexByte(shown, '\n') + 1 // where line from starts
	for want := verifyLines; ; want *= 3 {
		// Up to want non-empty lines, and on to one that starts in the
		// first column: more likely where nothing from above goes on.
		for from > 0 && (seen < want || code[off] == ' ' || code[off] == '\t' || code[off] == '\n') {
			from--
			off = strings.LastIndexByte(code[:off-1], '\n') + 1
			if len(g.lines[from]) > 0 {
				seen++
			}
		}
		if seen < want || from < last/4 {
			return nil, false // lexing the block whole is about as cheap
		}
		tail := m.hl.Lines(lang, code[off:])
		if len(tail) >= last-from && linesEqual(tail[:last-from], g.lines[from:last]) {
			lines := make([]render.Line, 0, from+len(tail))
			lines = append(append(lines, g.lines[:from]...), tail...)
			*g = grownCode{lang: lang, code: code, lines: lines, approx: true}
			return lines, true
		}
	}
}

// longestLine is the length in bytes of s's longest line.
func longestLine(s string) int {
	longest := 0
	for s != "" {
		n := strings.IndexByte(s, '\n')
		if n < 0 {
			n = len(s)
		}
		longest = max(longest, n)
		s = s[min(n+1, len(s)):]
	}
	return longest
}

// linesEqual says whether a and b hold the same lines.
func linesEqual(a, b []render.Line) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}

// render lays src out at width. streaming lets a code block that grew be
// highlighted from near its end; approx says one was.
func (m *Markdown) render(src string, width int, streaming bool) (lines []render.Line, approx bool) {
	if width < 4 {
		width = 4
	}
	source := []byte(src)
	doc := m.md.Parser().Parse(text.NewReader(source))
	r := &mdRender{m: m, src: source, width: width, th: m.th, streaming: streaming}
	r.blocks(doc)
	return r.out, r.approx
}

// Lines lays the Markdown src out at width, for a widget outside the chat
// (the plan dialog).
func (m *Markdown) Lines(src string, width int) []render.Line {
	lines, _ := m.render(src, width, false)
	return lines
}

// codeBlocks returns the text of src's code blocks, as written.
func (m *Markdown) codeBlocks(src string) []string {
	source := []byte(src)
	doc := m.md.Parser().Parse(text.NewReader(source))
	var out []string
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			var b strings.Builder
			lines := n.Lines()
			for i := 0; i < lines.Len(); i++ {
				seg := lines.At(i)
				b.Write(seg.Value(source))
			}
			out = append(out, strings.TrimSuffix(b.String(), "\n"))
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return out
}

// mdPrefix is what a container (list item, quote) draws before its lines:
// first on its first line, rest on the others.
type mdPrefix struct {
	first, rest render.Span
	used        bool
}

type mdRender struct {
	m      *Markdown
	th     *theme.Theme
	src    []byte
	width  int
	out    []render.Line
	prefix []*mdPrefix
	// blankPending asks for an empty line before the next block.
	blankPending bool
	// streaming and approx: see markdown.render.
	streaming, approx bool
}

func (r *mdRender) base() tcell.Style {
	return tcell.StyleDefault.Foreground(r.th.Foreground)
}

// prefixes returns the first-line and continuation prefixes of the current
// container stack, and marks the containers as started.
func (r *mdRender) prefixes() (first, rest render.Line) {
	for _, p := range r.prefix {
		if p.used {
			first = append(first, p.rest)
		} else {
			first = append(first, p.first)
		}
		rest = append(rest, p.rest)
	}
	for _, p := range r.prefix {
		p.used = true
	}
	return first, rest
}

func (r *mdRender) restPrefix() render.Line {
	var rest render.Line
	for _, p := range r.prefix {
		rest = append(rest, p.rest)
	}
	return rest
}

func (r *mdRender) emit(spans []render.Span) {
	r.flushBlank()
	first, rest := r.prefixes()
	r.out = append(r.out, render.WrapLine(spans, r.width, first, rest)...)
}

func (r *mdRender) flushBlank() {
	if r.blankPending && len(r.out) > 0 {
		r.out = append(r.out, trimLine(r.restPrefix()))
	}
	r.blankPending = false
}

// trimLine drops trailing spaces so blank lines inside quotes carry only the bar.
func trimLine(l render.Line) render.Line {
	out := append(render.Line(nil), l...)
	for len(out) > 0 {
		last := &out[len(out)-1]
		t := strings.TrimRight(last.Text, " ")
		if t != "" {
			last.Text = t
			break
		}
		out = out[:len(out)-1]
	}
	return out
}

func (r *mdRender) blocks(parent ast.Node) { r.blocksOf(parent.FirstChild(), nil) }

// blocksOf renders the blocks from first up to stop (nil: the last).
func (r *mdRender) blocksOf(first, stop ast.Node) {
	for n := first; n != nil && n != stop; n = n.NextSibling() {
		// A block that shows nothing (a link reference definition) asks
		// for no blank line after it.
		before := len(r.out)
		r.block(n)
		if len(r.out) > before {
			r.blankPending = true
		}
	}
}

func (r *mdRender) block(n ast.Node) {
	switch n := n.(type) {
	case *ast.Paragraph:
		r.inlineBlock(n, r.base())
	case *ast.TextBlock:
		r.inlineBlock(n, r.base())
	case *ast.Heading:
		st := r.base().Foreground(r.th.Accent).Bold(true)
		if n.Level == 1 {
			st = st.Underline(true)
		}
		r.inlineBlock(n, st)
	case *ast.ThematicBreak:
		r.flushBlank()
		first, rest := r.prefixes()
		w := r.width - first.Width()
		if w < 1 {
			w = 1
		}
		_ = rest
		r.out = append(r.out, append(first, render.Span{Text: strings.Repeat("─", w), Style: r.base().Foreground(r.th.Dim)}))
	case *ast.Blockquote:
		bar := render.Span{Text: "▎ ", Style: r.base().Foreground(r.th.Dim)}
		before, pending := len(r.out), r.blankPending
		r.flushBlank()
		after := len(r.out)
		r.prefix = append(r.prefix, &mdPrefix{first: bar, rest: bar})
		r.blocks(n)
		r.prefix = r.prefix[:len(r.prefix)-1]
		if len(r.out) == after {
			// A quote with nothing to show (a definition, say) shows
			// nothing: not the blank line before it either.
			r.out, r.blankPending = r.out[:before], pending
		}
	case *ast.List:
		r.list(n)
	case *ast.FencedCodeBlock:
		r.code(string(n.Language(r.src)), r.linesOf(n))
	case *ast.CodeBlock:
		r.code("", r.linesOf(n))
	case *ast.HTMLBlock:
		txt := r.linesOf(n)
		if n.HasClosure() {
			txt += string(n.ClosureLine.Value(r.src))
		}
		for _, l := range strings.Split(strings.TrimRight(txt, "\n"), "\n") {
			r.emit([]render.Span{{Text: render.Sanitize(l, 4), Style: r.base().Foreground(r.th.Dim)}})
		}
	case *east.Table:
		r.table(n)
	default:
		if n.HasChildren() {
			r.blocks(n)
		}
	}
}

func (r *mdRender) linesOf(n ast.Node) string {
	var b strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		b.Write(seg.Value(r.src))
	}
	return b.String()
}

func (r *mdRender) list(n *ast.List) {
	num := n.Start
	if num == 0 {
		num = 1
	}
	depth := 0
	for p := n.Parent(); p != nil; p = p.Parent() {
		if _, ok := p.(*ast.List); ok {
			depth++
		}
	}
	bullets := []string{"•", "◦", "▪"}
	r.flushBlank()
	for item := n.FirstChild(); item != nil; item = item.NextSibling() {
		var marker string
		if n.IsOrdered() {
			marker = strconv.Itoa(num) + string(n.Marker) + " "
			num++
		} else {
			marker = bullets[depth%len(bullets)] + " "
		}
		pad := strings.Repeat(" ", render.TextWidth(marker))
		r.prefix = append(r.prefix, &mdPrefix{
			first: render.Span{Text: marker, Style: r.base().Foreground(r.th.Accent)},
			rest:  render.Span{Text: pad, Style: r.base()},
		})
		if item.FirstChild() == nil {
			r.emit(nil) // an empty item still shows its marker
		}
		if item != n.FirstChild() {
			r.blankPending = !n.IsTight
		}
		for c := item.FirstChild(); c != nil; c = c.NextSibling() {
			if c != item.FirstChild() {
				r.blankPending = !n.IsTight
			}
			r.block(c)
		}
		r.prefix = r.prefix[:len(r.prefix)-1]
	}
}

func (r *mdRender) code(lang, code string) {
	r.flushBlank()
	hl, approx := r.m.highlight(lang, code, r.streaming)
	r.approx = r.approx || approx
	bg := tcell.StyleDefault.Background(r.th.CodeBg)
	lead, rest := r.prefixes()
	avail := r.width - rest.Width()
	if avail < 4 {
		avail = 4
	}
	pad := render.Span{Text: " ", Style: bg}
	// next returns the container prefix for the next output row.
	next := func() render.Line {
		l := lead
		lead = rest
		return append(render.Line(nil), l...)
	}
	if lang != "" {
		p := next()
		r.out = append(r.out, render.PadTo(append(p, pad, render.Span{Text: lang, Style: bg.Foreground(r.th.Dim).Italic(true)}), p.Width()+avail, bg))
	}
	// A row too long for the width continues on the next, marked "↪", cut
	// at a space where there is one so a command stays readable.
	cont := render.Span{Text: "↪", Style: bg.Foreground(r.th.Dim)}
	var cw *codeWrap
	if r.streaming || approx {
		cw = r.m.wrap.of(lang, lead, rest, avail)
	}
	for i, l := range hl {
		if cw != nil && i < len(cw.lines) && sameLine(cw.lines[i], l) {
			r.out = append(r.out, cw.rows[i]...)
			lead = rest
			continue
		}
		p := next()
		first := append(p, pad)
		indent := append(append(render.Line(nil), rest...), cont)
		start := len(r.out)
		for _, wl := range render.WrapCode(l, rest.Width()+avail, first, indent) {
			r.out = append(r.out, render.PadTo(wl, rest.Width()+avail, bg))
		}
		if cw != nil {
			cw.set(i, l, r.out[start:len(r.out):len(r.out)])
		}
	}
	if cw != nil {
		cw.lines, cw.rows = cw.lines[:len(hl)], cw.rows[:len(hl)]
	}
}

// codeWrap keeps the rows a streaming code block's lines were wrapped
// into, line by line, so that a frame wraps only the lines lexed again
// (highlightGrown keeps the others, the very same Lines); also while the
// block, done, waits to be lexed whole (markdown.lexWhole).
type codeWrap struct {
	lang       string
	lead, rest render.Line // the container prefixes
	width      int
	lines      []render.Line   // the highlighted line each entry holds the rows of
	rows       [][]render.Line // its rows, as the block's output has them
}

// of returns the rows kept for a block with these prefixes and width,
// forgetting them if they were wrapped for others.
func (cw *codeWrap) of(lang string, lead, rest render.Line, width int) *codeWrap {
	if cw.lang != lang || cw.width != width || !cw.lead.Equal(lead) || !cw.rest.Equal(rest) {
		*cw = codeWrap{lang: lang, lead: append(render.Line(nil), lead...), rest: append(render.Line(nil), rest...), width: width}
	}
	return cw
}

// set keeps line i's rows.
func (cw *codeWrap) set(i int, line render.Line, rows []render.Line) {
	for len(cw.lines) <= i {
		cw.lines, cw.rows = append(cw.lines, nil), append(cw.rows, nil)
	}
	cw.lines[i], cw.rows[i] = line, rows
}

// sameLine says whether a and b are the same Line, not equal copies: a
// line highlightGrown kept.
func sameLine(a, b render.Line) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// inlineBlock renders a block's inline content, breaking at hard line breaks.
func (r *mdRender) inlineBlock(n ast.Node, style tcell.Style) {
	var lines [][]render.Span
	cur := []render.Span{}
	r.inlines(n, style, &cur, &lines)
	lines = append(lines, cur)
	for _, l := range lines {
		r.emit(l)
	}
}

func (r *mdRender) inlines(parent ast.Node, style tcell.Style, cur *[]render.Span, lines *[][]render.Span) {
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		r.inline(n, style, cur, lines)
	}
}

func (r *mdRender) inline(n ast.Node, style tcell.Style, cur *[]render.Span, lines *[][]render.Span) {
	add := func(s string, st tcell.Style) {
		if s != "" {
			*cur = append(*cur, render.Span{Text: render.Sanitize(s, 4), Style: st})
		}
	}
	switch n := n.(type) {
	case *ast.Text:
		add(string(n.Value(r.src)), style)
		if n.HardLineBreak() {
			*lines = append(*lines, *cur)
			*cur = []render.Span{}
		} else if n.SoftLineBreak() {
			add(" ", style)
		}
	case *ast.String:
		add(string(n.Value), style)
	case *ast.CodeSpan:
		var b bytes.Buffer
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch t := c.(type) {
			case *ast.Text:
				b.Write(t.Value(r.src))
			case *ast.String:
				b.Write(t.Value)
			}
		}
		add(b.String(), style.Background(r.th.CodeBg))
	case *ast.Emphasis:
		st := style.Italic(true)
		if n.Level >= 2 {
			st = style.Bold(true)
		}
		r.inlines(n, st, cur, lines)
	case *east.Strikethrough:
		r.inlines(n, style.StrikeThrough(true), cur, lines)
	case *ast.Link:
		dest := string(n.Destination)
		st := style.Foreground(r.th.Accent).Underline(true).Url(dest)
		before := len(*cur)
		r.inlines(n, st, cur, lines)
		var label strings.Builder
		for _, s := range (*cur)[before:] {
			label.WriteString(s.Text)
		}
		if dest != "" && label.String() != dest && !strings.HasPrefix(dest, "#") {
			add(" ("+dest+")", style.Foreground(r.th.Dim))
		}
	case *ast.AutoLink:
		url := string(n.URL(r.src))
		add(string(n.Label(r.src)), style.Foreground(r.th.Accent).Underline(true).Url(url))
	case *ast.Image:
		var alt strings.Builder
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if t, ok := c.(*ast.Text); ok {
				alt.Write(t.Value(r.src))
			}
		}
		add("[image: "+alt.String()+"] ("+string(n.Destination)+")", style.Foreground(r.th.Dim))
	case *ast.RawHTML:
		for i := 0; i < n.Segments.Len(); i++ {
			seg := n.Segments.At(i)
			add(string(seg.Value(r.src)), style.Foreground(r.th.Dim))
		}
	case *east.TaskCheckBox:
		if n.IsChecked {
			add("☑ ", style.Foreground(r.th.Success))
		} else {
			add("☐ ", style)
		}
	default:
		r.inlines(n, style, cur, lines)
	}
}

// table draws a GFM table with aligned columns when it fits, and as one line
// per row otherwise.
func (r *mdRender) table(t *east.Table) {
	var rows [][][]render.Span
	header := 0
	var aligns []east.Alignment
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		var cells [][]render.Span
		for c := row.FirstChild(); c != nil; c = c.NextSibling() {
			var lines [][]render.Span
			cur := []render.Span{}
			st := r.base()
			if _, ok := row.(*east.TableHeader); ok {
				st = st.Bold(true)
			}
			r.inlines(c, st, &cur, &lines)
			var flat []render.Span
			for _, l := range lines {
				flat = append(append(flat, l...), render.Span{Text: " ", Style: st})
			}
			cells = append(cells, append(flat, cur...))
			if tc, ok := c.(*east.TableCell); ok && len(rows) == 0 {
				aligns = append(aligns, tc.Alignment)
			}
		}
		if _, ok := row.(*east.TableHeader); ok {
			header = 1
		}
		rows = append(rows, cells)
	}
	ncol := 0
	for _, row := range rows {
		if len(row) > ncol {
			ncol = len(row)
		}
	}
	widths := make([]int, ncol)
	for _, row := range rows {
		for i, c := range row {
			if w := render.Line(c).Width(); w > widths[i] {
				widths[i] = w
			}
		}
	}
	total := 0
	for _, w := range widths {
		total += w + 3
	}
	dim := r.base().Foreground(r.th.Dim)
	r.flushBlank()
	lead, rest := r.prefixes()
	if total-1 > r.width-rest.Width() {
		// Too wide: one wrapped line per row, cells separated by a bar.
		for _, row := range rows {
			var spans []render.Span
			for i, c := range row {
				if i > 0 {
					spans = append(spans, render.Span{Text: " │ ", Style: dim})
				}
				spans = append(spans, c...)
			}
			r.emit(spans)
		}
		return
	}
	for ri, row := range rows {
		l := append(render.Line(nil), lead...)
		lead = rest
		for i := 0; i < ncol; i++ {
			var c render.Line
			if i < len(row) {
				c = row[i]
			}
			gap := widths[i] - c.Width()
			left := 0
			if i < len(aligns) {
				switch aligns[i] {
				case east.AlignRight:
					left = gap
				case east.AlignCenter:
					left = gap / 2
				}
			}
			if i > 0 {
				l = append(l, render.Span{Text: " │ ", Style: dim})
			}
			l = append(l, render.Span{Text: strings.Repeat(" ", left), Style: r.base()})
			l = append(l, c...)
			l = append(l, render.Span{Text: strings.Repeat(" ", gap-left), Style: r.base()})
		}
		r.out = append(r.out, trimLine(l))
		if ri == header-1 {
			sep := append(render.Line(nil), rest...)
			for i, w := range widths {
				if i > 0 {
					sep = append(sep, render.Span{Text: "─┼─", Style: dim})
				}
				sep = append(sep, render.Span{Text: strings.Repeat("─", w), Style: dim})
			}
			r.out = append(r.out, sep)
		}
	}
}
