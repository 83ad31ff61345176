package chat

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/ui/render"
)

// streamDocs are real Markdown documents to stream: fawn's README and
// ARCHITECTURE.md, and the CommonMark spec's examples from goldmark's
// module (each alone, and runs of them one after the other, so that
// blocks of every kind meet), when the module cache has them.
func streamDocs(t *testing.T) map[string]string {
	t.Helper()
	docs := map[string]string{"sample": sampleMarkdown, "code": streamAnswer(40)}
	for _, f := range []string{"README.md", "ARCHITECTURE.md"} {
		data, err := os.ReadFile(filepath.Join("..", "..", f))
		if err != nil {
			t.Fatal(err)
		}
		docs[f] = string(data)
	}
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/yuin/goldmark").Output()
	if err != nil {
		t.Logf("the CommonMark spec's examples are not streamed: go list: %v", err)
		return docs
	}
	data, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "_test", "spec.json"))
	if err != nil {
		t.Logf("the CommonMark spec's examples are not streamed: %v", err)
		return docs
	}
	var spec []struct {
		Markdown string `json:"markdown"`
		Example  int    `json:"example"`
	}
	if err := json.Unmarshal(data, &spec); err != nil {
		t.Fatal(err)
	}
	for i, ex := range spec {
		docs[fmt.Sprintf("spec example %d", ex.Example)] = ex.Markdown
		if i%4 == 0 {
			// A run of examples, as one answer: with blank lines between
			// them, and without.
			var run, tight strings.Builder
			for _, e := range spec[i:min(i+8, len(spec))] {
				run.WriteString(e.Markdown + "\n\n")
				tight.WriteString(e.Markdown)
			}
			docs[fmt.Sprintf("spec examples %d-", ex.Example)] = run.String()
			docs[fmt.Sprintf("spec examples %d- (no blank lines)", ex.Example)] = tight.String()
		}
	}
	return docs
}

// streamAnswer is an answer as models write them: prose, lists that
// go on after a blank line, code blocks, a reference link defined at the end.
func streamAnswer(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "Step %d: the wrapper in **ui/chat.go** drops the last word of a line, see [the wrapper][w].\n\n", i)
		if i%3 == 0 {
			b.WriteString("- keep the break position\n- place the cluster\n\n- then decide where to break\n\n")
		}
		if i%4 == 0 {
			b.WriteString("```go\nfunc (w *wrapper) place(g string) {\n\tw.cur = append(w.cur, g)\n\n\tw.flush(false)\n}\n```\n\n")
		}
		if i%5 == 0 {
			b.WriteString("1. first\n\n2. second\n\n   more of the second\n\n3. third\n\n")
		}
	}
	b.WriteString("That is all.\n\n[w]: https://example.com/wrapper\n")
	return b.String()
}

// cellRows are lines as the cells they fill: each character with its style.
func cellRows(lines []render.Line) [][]styledRune {
	rows := make([][]styledRune, len(lines))
	for i, l := range lines {
		for _, s := range l {
			for _, r := range s.Text {
				rows[i] = append(rows[i], styledRune{r, s.Style})
			}
		}
	}
	return rows
}

type styledRune struct {
	r  rune
	st tcell.Style
}

// sameCells reports where a and b differ ("" where they do not).
func sameCells(a, b []render.Line) string {
	if linesEqual(a, b) {
		return "" // span for span, so cell for cell
	}
	ra, rb := cellRows(a), cellRows(b)
	for i := range max(len(ra), len(rb)) {
		if i >= len(ra) || i >= len(rb) {
			return fmt.Sprintf("%d rows against %d", len(ra), len(rb))
		}
		x, y := ra[i], rb[i]
		for j := range max(len(x), len(y)) {
			if j >= len(x) || j >= len(y) || x[j] != y[j] {
				return fmt.Sprintf("row %d differs at column %d:\n%q\n%q", i, j, a[i].String(), b[i].String())
			}
		}
	}
	return ""
}

// An answer streamed in chunks of random sizes, rendered after each as
// frames render it, ends as the same text rendered at once: the same
// cells, character and style, for the README, ARCHITECTURE.md and every
// CommonMark example (setext headings, lazy continuation lines, reference
// definitions, lists and fences still open, HTML blocks); and every frame
// shows what the text so far rendered at once shows.
func TestStreamedMarkdownMatchesOneShot(t *testing.T) {
	rc := darkCtx()
	ref := NewMarkdown(rc.Th)
	docs := streamDocs(t)
	names := make([]string, 0, len(docs))
	for name := range docs {
		names = append(names, name)
	}
	failures := 0
	for _, name := range names {
		doc := docs[name]
		rng := rand.New(rand.NewSource(int64(len(doc))))
		for _, width := range []int{30, 80} {
			// Every frame is checked for short documents; a long one's
			// frames at a few points only (each check renders it whole).
			every := max(1, len(doc)/12)
			var c mdCache
			checked := 0
			for i := 0; i < len(doc); {
				n := 1 + rng.Intn(40)
				if rng.Intn(8) == 0 {
					n = 1 + rng.Intn(400) // a burst: several chunks in one frame
				}
				i = min(i+n, len(doc))
				for i < len(doc) && !utf8.RuneStart(doc[i]) {
					i++
				}
				got := rc.MD.renderChunked(doc[:i], width, &c, true)
				if i/every > checked {
					checked = i / every
					if d := sameCells(got, ref.renderAll(doc[:i], width)); d != "" && failures < 10 {
						failures++
						t.Errorf("%s at width %d, streamed to byte %d: a frame differs from the text so far rendered at once: %s\ntext: %q", name, width, i, d, tail(doc[:i], 300))
					}
				}
			}
			got := rc.MD.renderChunked(doc, width, &c, false)
			if d := sameCells(got, ref.renderAll(doc, width)); d != "" && failures < 10 {
				failures++
				t.Errorf("%s at width %d: streamed, it ends unlike the text rendered at once: %s\ntext: %q", name, width, d, tail(doc, 300))
			}
		}
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// A finished answer, rendered whole in one piece, is laid out again at a
// new width (the pane resized); at the same width and text it is kept.
func TestFinishedAnswerRendersAgainAtNewWidth(t *testing.T) {
	rc := darkCtx()
	var c mdCache
	for _, width := range []int{80, 30, 30, 80} {
		got := rc.MD.renderChunked(sampleMarkdown, width, &c, false)
		if d := sameCells(got, rc.MD.renderAll(sampleMarkdown, width)); d != "" {
			t.Fatalf("at width %d: %s", width, d)
		}
	}
}
