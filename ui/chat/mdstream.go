package chat

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/fawn-ide/fawn/ui/render"
)

// A streaming answer is rendered by chunks: runs of top-level blocks that
// are closed — nothing more at the answer's end can change them — each
// rendered once, on its own, and kept; only the open end of the answer
// (the tail) is parsed again each frame. A frame's work then does not grow
// with the answer.
//
// When a block is closed is goldmark's to say, not a guess from the text:
// the tail is parsed, and a top-level block of it starts a new chunk when
// its first line starts in the first column, is whole (ends in a newline)
// or starts with a letter (see isLetter), and follows a blank line. The parser took that line for a new block of
// the document, so every block before it was closed by then, by lines
// already there: a fence or an HTML block still open, a list the line
// goes on with (loose, after the blank line), a paragraph it continues
// lazily or underlines (a setext heading) would each have taken it. What
// a later line can still change is only in the blocks from it on.
//
// The one thing a later chunk changes in an earlier one is a link
// reference definition ("[label]: url"), which counts for the whole
// document. Each chunk is parsed with every definition known (the first of
// a label wins, as in one parse), remembers those it makes and the labels
// its links looked up, and is rendered again when what one of those labels
// names changes.

// mdChunk is a closed run of a message's top-level blocks and its render.
type mdChunk struct {
	start, end int // its text: mdCache.src[start:end]
	lines      []render.Line
	outEnd     int // len(mdCache.out) after its lines
	// approx: a code block in it waits to be lexed whole (Markdown.lexWhole);
	// it is rendered again once markdown.gen moves past gen.
	approx bool
	gen    uint64
	refs   mdRefs
}

// mdRefs are a text's link reference definitions, in order, and the
// labels its links looked up with what each named then.
type mdRefs struct {
	defs []parser.Reference
	used map[string]refTarget
}

// refTarget is what a reference label names (ok false: nothing).
type refTarget struct {
	dest, title string
	ok          bool
}

func targetOf(r parser.Reference, ok bool) refTarget {
	if !ok {
		return refTarget{}
	}
	return refTarget{dest: string(r.Destination()), title: string(r.Title()), ok: true}
}

// mdCache is what renderChunked keeps of a message between renders.
type mdCache struct {
	src    string // the text last rendered
	width  int
	chunks []mdChunk
	// The tail: the text after the chunks, as last rendered.
	tail          []render.Line
	tailRefs      mdRefs
	tailStreaming bool
	tailApprox    bool
	tailGen       uint64
	// known is the definitions the chunks make, in order.
	known []parser.Reference
	// targets is what every label names with all definitions known.
	targets map[string]refTarget
	out     []render.Line // the lines of all the chunks and the tail, blank lines between
	approx  bool          // a code block shows lexed in part
	// firstApprox is the first chunk waiting for its code lexed whole
	// (len(chunks) when none): a frame finds what it must render again
	// without going through every chunk of a long answer.
	firstApprox int
}

// renderChunked renders src, keeping in c the renders of its closed
// chunks: when src goes on from the text last rendered (an answer
// streaming in), only the tail is parsed again. streaming says more text
// may come at src's end; only then are chunks closed (a finished answer
// rendered afresh is parsed once, whole).
func (m *Markdown) renderChunked(src string, width int, c *mdCache, streaming bool) []render.Line {
	if len(src) < len(c.src) || src[:len(c.src)] != c.src {
		*c = mdCache{}
	}
	resized := c.width != width
	redo := len(c.chunks) // the first chunk whose lines out takes again
	if resized {
		redo = 0
	}
	resume := 0
	if n := len(c.chunks); n > 0 {
		resume = c.chunks[n-1].end
	}
	tailKept := src == c.src && !resized && c.out != nil && streaming == c.tailStreaming &&
		(!c.tailApprox || c.tailGen == m.gen)
	if !tailKept {
		m.renderTail(src, width, resume, c, streaming)
	}
	c.src, c.width = src, width

	// What every label names now; the chunks whose links looked up one
	// that names something else are rendered again.
	all := append(c.known[:len(c.known):len(c.known)], c.tailRefs.defs...)
	targets := targetsOf(all)
	if !sameTargets(targets, c.targets) {
		for i := range c.chunks[:redo] {
			if c.chunks[i].refs.stale(targets) {
				redo = i
				break
			}
		}
		c.targets = targets
	}
	// Chunks waiting for code lexed whole that came in.
	for i := c.firstApprox; i < min(redo, len(c.chunks)); i++ {
		if ch := &c.chunks[i]; ch.approx && ch.gen != m.gen {
			redo = i
			break
		}
	}
	var out []render.Line
	if redo > 0 {
		out = c.out[:c.chunks[redo-1].outEnd]
	}
	first := min(redo, c.firstApprox)
	c.approx, c.firstApprox = false, len(c.chunks)
	for i := first; i < len(c.chunks); i++ {
		ch := &c.chunks[i]
		if i >= redo {
			if resized || (ch.approx && ch.gen != m.gen) || ch.refs.stale(targets) {
				m.renderChunk(src, width, ch, all)
			}
			out = appendBlock(out, ch.lines)
			ch.outEnd = len(out)
		}
		if ch.approx {
			c.approx = true
			c.firstApprox = min(c.firstApprox, i)
		}
	}
	out = appendBlock(out, c.tail)
	c.approx = c.approx || c.tailApprox
	c.out = out
	return out
}

// renderTail renders the text after c's chunks (from resume), first
// closing, when streaming, the chunks whose blocks goldmark closed.
func (m *Markdown) renderTail(src string, width, resume int, c *mdCache, streaming bool) {
	r := m.parseRefs(src[resume:], c.known)
	from := r.doc.FirstChild()
	if streaming {
		cuts := closedBlocks(r.doc, src[resume:])
		if len(cuts) > 0 && (len(r.ctx.defs) > 0 || len(r.ctx.used) > 0) {
			// Links by reference: each chunk parsed on its own, with
			// every definition known, the tail's too (a chunk's links
			// may name one defined further on).
			all := append(c.known[:len(c.known):len(c.known)], r.ctx.defs...)
			start := resume
			for _, cut := range cuts {
				ch := mdChunk{start: start, end: resume + cut.at}
				m.renderChunk(src, width, &ch, all)
				c.addChunk(ch)
				start = ch.end
			}
			resume = start
			r = m.parseRefs(src[resume:], c.known)
			from = r.doc.FirstChild()
		} else {
			// None: the chunks' blocks are rendered from this parse,
			// as they would be each on its own.
			start := resume
			for _, cut := range cuts {
				ch := mdChunk{start: start, end: resume + cut.at, gen: m.gen}
				ch.lines, ch.approx = r.render(from, cut.node, width, false)
				c.addChunk(ch)
				start, from = ch.end, cut.node
			}
		}
	}
	c.tail, c.tailApprox = r.render(from, nil, width, streaming)
	c.tailRefs = mdRefs{defs: r.ctx.defs}
	c.tailStreaming, c.tailGen = streaming, m.gen
}

// appendBlock adds lines to out, a blank line between them and what out has.
func appendBlock(out, lines []render.Line) []render.Line {
	if len(lines) == 0 {
		return out
	}
	if len(out) > 0 {
		out = append(out, nil)
	}
	return append(out, lines...)
}

// renderChunk renders ch on its own, every definition in all known.
func (m *Markdown) renderChunk(src string, width int, ch *mdChunk, all []parser.Reference) {
	r := m.parseRefs(src[ch.start:ch.end], all)
	ch.lines, ch.approx = r.render(r.doc.FirstChild(), nil, width, false)
	ch.gen = m.gen
	ch.refs = mdRefs{defs: r.ctx.defs, used: r.ctx.targets()}
}

// addChunk adds a closed chunk, and its definitions to those known.
func (c *mdCache) addChunk(ch mdChunk) {
	c.chunks = append(c.chunks, ch)
	c.known = append(c.known, ch.refs.defs...)
}

// stale says whether a label the text looked up names something else now.
func (r mdRefs) stale(targets map[string]refTarget) bool {
	for label, t := range r.used {
		if targets[label] != t {
			return true
		}
	}
	return false
}

// targetsOf is what each label names, the first definition of it winning.
func targetsOf(defs []parser.Reference) map[string]refTarget {
	if len(defs) == 0 {
		return nil
	}
	t := make(map[string]refTarget, len(defs))
	for _, d := range defs {
		label := util.ToLinkReference(d.Label())
		if _, ok := t[label]; !ok {
			t[label] = targetOf(d, true)
		}
	}
	return t
}

func sameTargets(a, b map[string]refTarget) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// closedBlocks returns where in src (parsed as doc) the top-level blocks
// start that begin a new chunk: in the first column, on a whole line,
// after a blank line (see the comment at the top of this file).
func closedBlocks(doc ast.Node, src string) []blockCut {
	var cuts []blockCut
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		p := n.Pos()
		if n == doc.FirstChild() || p <= 0 || p >= len(src) || src[p-1] != '\n' ||
			src[p] == ' ' || src[p] == '\t' || (!isLetter(src[p]) && strings.IndexByte(src[p:], '\n') < 0) {
			continue
		}
		prev := src[strings.LastIndexByte(src[:p-1], '\n')+1 : p-1]
		if strings.Trim(prev, " \t") == "" {
			cuts = append(cuts, blockCut{at: p, node: n})
		}
	}
	return cuts
}

// blockCut is where a chunk starts: at byte at, with top-level block node.
type blockCut struct {
	at   int
	node ast.Node
}

// isLetter says whether a line starting with b starts a paragraph however
// it goes on: a line still growing ("1" that becomes "1. item", "-" that
// becomes "- item") may yet join a list above, one starting with a letter
// cannot.
func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// refContext is a parse's context that keeps the definitions the text
// makes and the labels its links look up.
type refContext struct {
	parser.Context
	defs []parser.Reference
	used map[string]bool
}

func (c *refContext) AddReference(r parser.Reference) {
	c.defs = append(c.defs, parser.NewReference([]byte(string(r.Label())), []byte(string(r.Destination())), []byte(string(r.Title()))))
	c.Context.AddReference(r)
}

func (c *refContext) Reference(label string) (parser.Reference, bool) {
	if c.used == nil {
		c.used = map[string]bool{}
	}
	c.used[label] = true
	return c.Context.Reference(label)
}

// targets is what each label the text looked up names.
func (c *refContext) targets() map[string]refTarget {
	if len(c.used) == 0 {
		return nil
	}
	t := make(map[string]refTarget, len(c.used))
	for label := range c.used {
		t[label] = targetOf(c.Context.Reference(label))
	}
	return t
}

// parsed is a text parsed with the definitions known before it.
type parsed struct {
	m   *Markdown
	src []byte
	doc ast.Node
	ctx *refContext
}

// parseRefs parses src with the definitions known (before its own).
func (m *Markdown) parseRefs(src string, known []parser.Reference) parsed {
	ctx := &refContext{Context: parser.NewContext()}
	for _, d := range known {
		ctx.Context.AddReference(d)
	}
	source := []byte(src)
	doc := m.md.Parser().Parse(text.NewReader(source), parser.WithContext(ctx))
	return parsed{m: m, src: source, doc: doc, ctx: ctx}
}

// render lays the parsed text's top-level blocks from first up to stop
// (nil: the last) out at width (see Markdown.render).
func (p parsed) render(first, stop ast.Node, width int, streaming bool) ([]render.Line, bool) {
	r := &mdRender{m: p.m, src: p.src, width: max(width, 4), th: p.m.th, streaming: streaming}
	r.blocksOf(first, stop)
	return r.out, r.approx
}
