package render

import (
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/internal/safetext"
	"github.com/fawn-ide/fawn/ui/syntax"
	"github.com/fawn-ide/fawn/ui/theme"
)

// Highlighter turns code into styled lines with chroma, in the theme's
// chroma style. It caches token styles; it is used on the UI goroutine only.
type Highlighter struct {
	style *chroma.Style
	base  tcell.Style
	cache map[chroma.TokenType]tcell.Style
	lexed int // bytes lexed so far (tests read it)
}

// NewHighlighter highlights in th's chroma style on th's code background.
func NewHighlighter(th *theme.Theme) *Highlighter {
	return &Highlighter{
		style: th.Syntax,
		base:  tcell.StyleDefault.Foreground(th.Foreground).Background(th.CodeBg),
		cache: map[chroma.TokenType]tcell.Style{},
	}
}

// Lexed is how many bytes of code h has lexed so far, for measuring where
// the work of highlighting happens.
func (h *Highlighter) Lexed() int { return h.lexed }

func (h *Highlighter) tokenStyle(t chroma.TokenType) tcell.Style {
	if s, ok := h.cache[t]; ok {
		return s
	}
	e := h.style.Get(t)
	s := h.base
	if e.Colour.IsSet() {
		s = s.Foreground(tcell.NewRGBColor(int32(e.Colour.Red()), int32(e.Colour.Green()), int32(e.Colour.Blue())))
	}
	if e.Bold == chroma.Yes {
		s = s.Bold(true)
	}
	if e.Italic == chroma.Yes {
		s = s.Italic(true)
	}
	if e.Underline == chroma.Yes {
		s = s.Underline(true)
	}
	h.cache[t] = s
	return s
}

// WarmLexers reads the definitions of the lexers code is most often in
// (Go, Python, shell, JavaScript, TypeScript, JSON, YAML, Markdown), so the
// first file or code block in one does not wait for it.
func WarmLexers() {
	syntax.Warm("go", "python", "bash", "javascript", "typescript", "json", "yaml", "markdown", "diff")
}

// lexerFor finds a lexer by fence language ("go", "python", "sh") or, failing
// that, by treating it as a file extension ("py", "rs"). Unknown languages get
// nil: plain text is better than a wrong guess.
func lexerFor(lang string) chroma.Lexer {
	lang = strings.ToLower(strings.TrimSpace(lang))
	if lang == "" {
		return nil
	}
	if l := syntax.Get(lang); l != nil {
		return l
	}
	if l := syntax.Match("x." + lang); l != nil {
		return l
	}
	return nil
}

// Lines highlights code; it returns one unwrapped Line per source line with
// tabs expanded.
func (h *Highlighter) Lines(lang, code string) []Line {
	code = strings.TrimSuffix(code, "\n")
	h.lexed += len(code)
	lexer := lexerFor(lang)
	if lexer == nil {
		return h.Plain(code)
	}
	it, err := chroma.Coalesce(lexer).Tokenise(nil, code)
	if err != nil {
		return h.Plain(code)
	}
	out := []Line{nil}
	col := 0
	for tok := it(); tok != chroma.EOF; tok = it() {
		st := h.tokenStyle(tok.Type)
		parts := strings.Split(tok.Value, "\n")
		for i, p := range parts {
			if i > 0 {
				out = append(out, nil)
				col = 0
			}
			if p == "" {
				continue
			}
			p = expandTabs(p, &col)
			out[len(out)-1] = append(out[len(out)-1], Span{p, st})
		}
	}
	return out
}

// Plain is code as Lines does it for a language it does not know: one
// line per source line in the base style, tabs expanded.
func (h *Highlighter) Plain(code string) []Line {
	var out []Line
	for _, l := range strings.Split(code, "\n") {
		col := 0
		out = append(out, Line{{expandTabs(l, &col), h.base}})
	}
	return out
}

// expandTabs replaces tabs with spaces to the next stop of 4, continuing from
// column *col, drops a CR (of a CR LF line ending) and shows other control
// characters as safetext does (␛): a code block is the model's text.
func expandTabs(s string, col *int) string {
	if safetext.IsSafe(s) {
		*col += len(s)
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\t':
			n := 4 - *col%4
			b.WriteString(strings.Repeat(" ", n))
			*col += n
		case r == '\r':
		default:
			shown := safetext.Line(string(r))
			b.WriteString(shown)
			*col += len([]rune(shown))
		}
	}
	return b.String()
}
