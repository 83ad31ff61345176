package chat

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/ui/render"
)

const sampleMarkdown = "# Plan\n\n" +
	"Some *emphasis*, **bold**, ~~struck~~ and `inline code`, and a [link](https://example.com/docs) " +
	"in a paragraph long enough to wrap at forty columns.\n\n" +
	"## Steps\n\n" +
	"1. Read `ui/chat.go`\n" +
	"2. Fix the wrapper\n" +
	"   - keep the indent\n" +
	"   - nested item that is long enough to wrap onto a second line\n" +
	"3. Test\n\n" +
	"> A quoted remark\n> over two lines.\n\n" +
	"```go\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n```\n\n" +
	"| name | size |\n|------|-----:|\n| a.go | 12 |\n| b.go | 3400 |\n\n" +
	"---\n\n" +
	"- [x] done\n- [ ] open\n\n" +
	"See https://fawn.dev and <b>raw</b> html.\n"

func TestMarkdownRender(t *testing.T) {
	rc := darkCtx()
	lines := rc.MD.renderAll(sampleMarkdown, 40)
	var b strings.Builder
	for _, l := range lines {
		if l.Width() > 40 {
			t.Errorf("line wider than 40: %q", l.String())
		}
		b.WriteString(strings.TrimRight(l.String(), " ") + "\n")
	}
	golden(t, "markdown.golden", b.String())

	style := func(text string) tcell.Style {
		for _, l := range lines {
			for _, s := range l {
				if strings.Contains(s.Text, text) {
					return s.Style
				}
			}
		}
		t.Fatalf("no span contains %q", text)
		return tcell.StyleDefault
	}
	th := rc.Th
	if st := style("Plan"); fgOf(st) != th.Accent || attrsOf(st)&tcell.AttrBold == 0 {
		t.Error("a heading is not bold in the accent colour")
	}
	if attrsOf(style("emphasis"))&tcell.AttrItalic == 0 {
		t.Error("*emphasis* is not italic")
	}
	if attrsOf(style("bold"))&tcell.AttrBold == 0 {
		t.Error("**bold** is not bold")
	}
	if attrsOf(style("struck"))&tcell.AttrStrikeThrough == 0 {
		t.Error("~~struck~~ is not struck through")
	}
	if _, bg, _ := style("inline").Decompose(); bg != th.CodeBg {
		t.Error("inline code has no code background")
	}
	if st := style("link"); fgOf(st) != th.Accent || attrsOf(st)&tcell.AttrUnderline == 0 {
		t.Error("a link is not underlined in the accent colour")
	}
	// Fenced code is highlighted: the keyword differs from the identifier.
	if fgOf(style("func")) == fgOf(style("main")) {
		t.Error("the Go code block is not highlighted")
	}
}

func TestMarkdownStreamsPartialInput(t *testing.T) {
	rc := darkCtx()
	// Every prefix of a message must render without panicking, as it does
	// while the answer streams in.
	for i := 0; i <= len(sampleMarkdown); i++ {
		rc.MD.renderAll(sampleMarkdown[:i], 30)
	}
	lines := rc.MD.renderAll("```python\ndef f():\n    return 1", 30)
	if !strings.Contains(linesText(lines), "def f():") {
		t.Errorf("an unclosed fence should still show its code:\n%s", linesText(lines))
	}
}

func TestWrapping(t *testing.T) {
	cases := []struct {
		in    string
		width int
		want  []string
	}{
		{"the quick brown fox", 9, []string{"the quick", "brown fox"}},
		{"supercalifragilistic", 8, []string{"supercal", "ifragili", "stic"}},
		{"日本語のテキストです", 7, []string{"日本語", "のテキ", "ストで", "す"}},
		{"a  b", 10, []string{"a  b"}},
		{"tab\there", 20, []string{"tab here"}},
		{"", 5, []string{""}},
	}
	for _, c := range cases {
		lines := render.WrapText(c.in, tcell.StyleDefault, c.width, nil, nil)
		var got []string
		for _, l := range lines {
			got = append(got, l.String())
			if l.Width() > c.width {
				t.Errorf("%q: line %q is wider than %d", c.in, l.String(), c.width)
			}
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("wrap(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
	}
	// A hanging indent is drawn before continuation rows.
	lines := render.WrapText("one two three four", tcell.StyleDefault, 10, render.Line{{Text: "- ", Style: tcell.StyleDefault}}, render.Line{{Text: "  ", Style: tcell.StyleDefault}})
	if got := linesText(lines); got != "- one two\n  three\n  four" {
		t.Errorf("hanging indent: %q", got)
	}
}

func TestChunkedRenderMatchesWhole(t *testing.T) {
	rc := darkCtx()
	docs := []string{
		sampleMarkdown,
		"para one\n\npara two\n\n```\ncode\n\nmore code\n```\n\nafter",
		"- a\n- b\n\n  continued b\n\n- c\n\nend",
		"1. one\n\n2. two\n\n3. three",
		"    indented code\n\n    more\n\ntext",
		"> quote\n\n> another\n\ntext ~~~\n\n~~~\nfenced ~\n\n~~~\nx",
	}
	for _, d := range docs {
		got := rc.MD.renderChunked(d, 40, &mdCache{}, false)
		want := rc.MD.renderAll(d, 40)
		if linesText(got) != linesText(want) {
			t.Errorf("chunked render of %q differs:\n%s\n--- whole:\n%s", d, linesText(got), linesText(want))
		}
	}
	// Streaming: each document grows a few bytes at a time (the width
	// changing now and then, as when the pane is resized), and every
	// render is what rendering that text at once gives; the kept lines are
	// not rebuilt.
	for _, d := range docs {
		var cache mdCache
		width := 40
		for i := 1; i <= len(d); i += 3 {
			if i%50 == 1 {
				width = 30 + i%20
			}
			got := rc.MD.renderChunked(d[:i], width, &cache, true)
			if want := rc.MD.renderChunked(d[:i], width, &mdCache{}, false); linesText(got) != linesText(want) {
				t.Fatalf("streamed render of %q at width %d differs:\n%q\n--- at once:\n%q", d[:i], width, linesText(got), linesText(want))
			}
		}
		// A text that does not go on from the last one starts over.
		if got, want := rc.MD.renderChunked(docs[0], width, &cache, true), rc.MD.renderAll(docs[0], width); linesText(got) != linesText(want) {
			t.Fatalf("a new text after %q renders differently", d)
		}
	}
	var cache mdCache
	long := strings.Repeat(sampleMarkdown+"\n\n", 20)
	rc.MD.renderChunked(long, 40, &cache, true)
	first := &cache.out[0]
	rc.MD.renderChunked(long+"More text.", 40, &cache, true)
	if &cache.out[0] != first || len(cache.chunks) < 20 {
		t.Errorf("a streamed render rebuilt the lines of the chunks before the last")
	}
}

// A long command in a code block wraps at a space, not inside a token; its
// continuation rows are marked; copying gives it back as written.
func TestCodeBlocksWrapAtSpaces(t *testing.T) {
	rc := darkCtx()
	cmd := "docker run --rm -v /home/user/project:/src -w /src golang:1.26 go test -race -count=1 ./internal/reallylongpackagename/..."
	src := "Run this:\n\n```sh\n" + cmd + "\n```\n"
	lines := rc.MD.renderAll(src, 40)
	var rows []string
	for _, l := range lines {
		if s := l.String(); strings.Contains(s, "docker") || strings.HasPrefix(strings.TrimSpace(s), "↪") {
			rows = append(rows, strings.TrimRight(s, " "))
		}
	}
	if len(rows) < 3 {
		t.Fatalf("the command is not wrapped at 40 columns:\n%s", linesText(lines))
	}
	var fields []string
	for i, r := range rows {
		body := strings.TrimPrefix(r, " ")
		if i > 0 {
			if !strings.HasPrefix(r, "↪") {
				t.Errorf("continuation row %d is not marked: %q", i, r)
			}
			body = strings.TrimPrefix(r, "↪")
		}
		fields = append(fields, strings.Fields(body)...)
	}
	if strings.Join(fields, " ") != cmd {
		t.Errorf("the rows split a token or lose one:\n%s", strings.Join(rows, "\n"))
	}
	// A token longer than the row is still cut (there is no other way), and nothing is lost.
	long := strings.Repeat("x", 100)
	lines = rc.MD.renderAll("```\n"+long+"\n```", 30)
	got := ""
	for _, l := range lines {
		got += strings.TrimRight(strings.TrimLeft(l.String(), " ↪"), " ")
	}
	if got != long {
		t.Errorf("a long token lost characters: %q", got)
	}

	a := &assistantItem{}
	a.append(src)
	if code := a.codeText(rc); code != cmd {
		t.Errorf("codeText = %q", code)
	}
}

// renderAll renders src whole, as a finished answer.
func (m *Markdown) renderAll(src string, width int) []render.Line {
	lines, _ := m.render(src, width, false)
	return lines
}

// The cache of highlighted code blocks stays near maxCodeBlocks however
// many answers with code a session shows.
func TestCodeCacheIsBounded(t *testing.T) {
	rc := darkCtx()
	for i := range 1000 {
		rc.MD.renderChunked(fmt.Sprintf("```go\nfunc f() int { return %d }\n```\n", i), 60, &mdCache{}, false)
	}
	if n := len(rc.MD.code); n > maxCodeBlocks+1 {
		t.Errorf("%d code blocks cached after 1,000 answers; want at most %d", n, maxCodeBlocks+1)
	}
}
