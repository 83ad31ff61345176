package editor

import (
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/alecthomas/chroma/v2"
	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/ui/syntax"
)

// span styles the bytes of a line up to end (from the previous span's end).
type span struct {
	end   int
	style tcell.Style
}

// lineStyle is the highlighting of one line and the buffer version it was
// computed for; an older version is still drawn until a fresh one arrives,
// so typing never flashes the line plain.
type lineStyle struct {
	spans []span
	ver   uint64
	done  bool
}

// mailbox hands work from background goroutines to the UI goroutine: post
// queues fn and asks for a redraw; the owner runs the queue at its next Draw.
type mailbox struct {
	mu     sync.Mutex
	fns    []func()
	redraw func()
}

func (m *mailbox) post(fn func()) {
	m.mu.Lock()
	m.fns = append(m.fns, fn)
	redraw := m.redraw
	m.mu.Unlock()
	if redraw != nil {
		redraw()
	}
}

func (m *mailbox) setRedraw(fn func()) {
	m.mu.Lock()
	m.redraw = fn
	m.mu.Unlock()
}

// drain runs what was posted; it must be called on the UI goroutine.
func (m *mailbox) drain() {
	for {
		m.mu.Lock()
		fns := m.fns
		m.fns = nil
		m.mu.Unlock()
		if len(fns) == 0 {
			return
		}
		for _, fn := range fns {
			fn()
		}
	}
}

// hlJob asks for lines [start, start+len(lines)) of a buffer at version to
// be highlighted; done receives one span list per line.
type hlJob struct {
	lexer   chroma.Lexer
	version uint64
	start   int
	lines   []string
	delay   time.Duration // wait this long first; a newer job replaces it
	done    func(job *hlJob, spans [][]span)
}

// highlighter lexes windows of text on one background goroutine that runs
// only while there is work, keeping only the newest job per view: a job
// superseded before it starts is never run.
type highlighter struct {
	style *chroma.Style
	base  tcell.Style

	mu      sync.Mutex
	pending map[any]*hlJob
	order   []any
	running bool
	closed  bool
	wg      sync.WaitGroup

	cache map[chroma.TokenType]tcell.Style // worker goroutine only
}

func newHighlighter(st *chroma.Style, base tcell.Style) *highlighter {
	return &highlighter{style: st, base: base, pending: map[any]*hlJob{}, cache: map[chroma.TokenType]tcell.Style{}}
}

// submit queues job for owner, replacing a job of the same owner that has
// not started yet.
func (h *highlighter) submit(owner any, job *hlJob) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return
	}
	if _, ok := h.pending[owner]; !ok {
		h.order = append(h.order, owner)
	}
	h.pending[owner] = job
	if !h.running {
		h.running = true
		h.wg.Add(1)
		go h.work()
	}
}

func (h *highlighter) work() {
	defer h.wg.Done()
	for {
		h.mu.Lock()
		if len(h.order) == 0 || h.closed {
			h.running = false
			h.mu.Unlock()
			return
		}
		owner := h.order[0]
		job := h.pending[owner]
		if job.delay > 0 {
			// Let the job settle; if a newer one for the same view comes
			// meanwhile, that one is taken instead.
			job.delay = 0
			h.mu.Unlock()
			time.Sleep(editSettle)
			continue
		}
		h.order = h.order[1:]
		delete(h.pending, owner)
		h.mu.Unlock()
		job.done(job, h.lex(job))
	}
}

// close stops the worker and waits for it.
func (h *highlighter) close() {
	h.mu.Lock()
	h.closed = true
	h.mu.Unlock()
	h.wg.Wait()
}

func (h *highlighter) tokenStyle(t chroma.TokenType) tcell.Style {
	if st, ok := h.cache[t]; ok {
		return st
	}
	e := h.style.Get(t)
	st := h.base
	if e.Colour.IsSet() {
		st = st.Foreground(tcell.NewRGBColor(int32(e.Colour.Red()), int32(e.Colour.Green()), int32(e.Colour.Blue())))
	}
	// Backgrounds stay the theme's, so the code sits on the same ground as
	// every other pane.
	st = st.Bold(e.Bold == chroma.Yes).Italic(e.Italic == chroma.Yes).Underline(e.Underline == chroma.Yes)
	h.cache[t] = st
	return st
}

// lex tokenises the job's lines and cuts the tokens into per-line spans.
func (h *highlighter) lex(job *hlJob) [][]span {
	out := make([][]span, len(job.lines))
	text := strings.Join(job.lines, "\n") + "\n"
	it, err := job.lexer.Tokenise(nil, text)
	if err != nil {
		return out
	}
	line, off := 0, 0
	add := func(n int, st tcell.Style) {
		if line >= len(out) || n == 0 {
			return
		}
		off += n
		spans := out[line]
		if k := len(spans); k > 0 && spans[k-1].style == st {
			spans[k-1].end = off
		} else {
			out[line] = append(spans, span{end: off, style: st})
		}
	}
	for tok := it(); tok != chroma.EOF; tok = it() {
		st := h.tokenStyle(tok.Type)
		v := tok.Value
		for {
			i := strings.IndexByte(v, '\n')
			if i < 0 {
				add(len(v), st)
				break
			}
			add(i, st)
			line++
			off = 0
			v = v[i+1:]
		}
		if line >= len(out) {
			break
		}
	}
	return out
}

// lexerCache remembers the lexer matched for each file extension: matching
// a name tries every lexer's patterns, a few milliseconds each time. Names
// that some lexer claims by more than their extension ("CMakeLists.txt",
// "Makefile.am") are always matched in full.
type lexerCache struct {
	byExt   map[string]chroma.Lexer
	special []string // name patterns that are not "*.ext"
}

func (c *lexerCache) lexerFor(path string, content []byte) chroma.Lexer {
	base := filepath.Base(path)
	ext := filepath.Ext(base)
	if c.byExt == nil {
		c.byExt = map[string]chroma.Lexer{}
		for _, cfg := range syntax.Configs() {
			for _, g := range append(append([]string(nil), cfg.Filenames...), cfg.AliasFilenames...) {
				if !strings.HasPrefix(g, "*.") || strings.ContainsAny(g[2:], "*?[.") {
					c.special = append(c.special, g)
				}
			}
		}
	}
	cacheable := ext != "" && ext != base
	for _, g := range c.special {
		if ok, _ := filepath.Match(g, base); ok {
			cacheable = false
			break
		}
	}
	l, ok := c.byExt[ext]
	if !ok || !cacheable {
		l = syntax.Match(base)
		// Keep it only when the extension alone gives the same lexer (not
		// so for a backup such as "x.go.bak").
		if cacheable && l != nil && syntax.Match("x"+ext) == l {
			c.byExt[ext] = l
		}
	}
	if l == nil && len(content) > 0 {
		l = syntax.Analyse(string(content[:min(len(content), 4096)]))
	}
	if l == nil || l.Config().Name == "plaintext" {
		return nil
	}
	return chroma.Coalesce(l)
}

// hlMargin is how many lines around the visible ones are highlighted with
// them: enough context for the lexer and for a short scroll.
const hlMargin = 60

// editSettle is how long highlighting waits after an edit for more keys.
const editSettle = 15 * time.Millisecond

// lastVisibleLine is the line after the last one (partly) shown.
func (v *CodeView) lastVisibleLine() int {
	if !v.wrap {
		return min(v.buf.LineCount(), v.top+v.textH)
	}
	line, rows := v.top, -v.topRow
	for line < v.buf.LineCount() && rows < v.textH {
		rows += len(v.rowStarts(line))
		line++
	}
	return line
}

// requestHighlight asks for the visible window when some of it is stale.
func (v *CodeView) requestHighlight() {
	if v.lexer == nil || v.hl == nil {
		return
	}
	ver := v.buf.Version()
	bottom := v.lastVisibleLine()
	stale := false
	for i := v.top; i < bottom && i < len(v.styles); i++ {
		if !v.styles[i].done || v.styles[i].ver != ver {
			stale = true
			break
		}
	}
	if !stale {
		return
	}
	if v.reqValid && v.reqVer == ver && v.reqFrom <= v.top && v.reqTo >= bottom {
		return // already asked for
	}
	// After an edit (same window, newer text) the job waits a moment, so
	// a burst of typing lexes once, at its end, and the keystrokes' own
	// frames have the CPU; the old colours stay on screen meanwhile.
	var delay time.Duration
	if v.reqValid && v.reqVer != ver && v.reqFrom <= v.top && v.reqTo >= bottom {
		delay = editSettle
	}
	from := max(0, v.top-hlMargin)
	to := min(v.buf.LineCount(), bottom+hlMargin)
	v.reqVer, v.reqFrom, v.reqTo, v.reqValid = ver, from, to, true
	box := v.box
	v.hl.submit(v, &hlJob{
		lexer:   v.lexer,
		version: ver,
		start:   from,
		delay:   delay,
		lines:   v.buf.Lines(from, to),
		done: func(job *hlJob, spans [][]span) {
			box.post(func() { v.applyHighlight(job, spans) })
		},
	})
}

// applyHighlight takes a result on the UI goroutine; a result for an older
// version of the text is dropped (the next draw asks again).
func (v *CodeView) applyHighlight(job *hlJob, spans [][]span) {
	if job.version != v.buf.Version() {
		if v.reqVer == job.version {
			v.reqValid = false
		}
		return
	}
	for i, sp := range spans {
		if n := job.start + i; n < len(v.styles) {
			v.styles[n] = lineStyle{spans: sp, ver: job.version, done: true}
		}
	}
}
