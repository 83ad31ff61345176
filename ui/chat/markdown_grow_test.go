package chat

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/ui/render/screentest"
)

// growSamples are code blocks long enough to be lexed in part as they
// stream, full of what a lexer carries from line to line: block comments,
// multi-line strings and docstrings (blank lines inside), heredocs.
func growSamples() map[string]string {
	var py, js, sh strings.Builder
	for i := 0; py.Len() < 1500; i++ {
		fmt.Fprintf(&py, "def step%d(parts, width=%d):\n    \"\"\"Join the parts.\n\n    def inside(): not code\n    \"\"\"\n", i, i)
		fmt.Fprintf(&py, "    if width <= 0:\n        raise ValueError(f\"width {width}\")  # too small\n    return ' '.join(parts)\n\n")
	}
	for i := 0; js.Len() < 1500; i++ {
		fmt.Fprintf(&js, "/* step %d:\n   joins the parts,\n\n   function notCode() {} */\n", i)
		fmt.Fprintf(&js, "export function step%d(parts, width) {\n  const usage = `usage:\n  step [-w width]\n\n  ${parts.length} parts`;\n  return parts.join(' ') + usage;\n}\n\n", i)
	}
	for i := 0; sh.Len() < 1500; i++ {
		fmt.Fprintf(&sh, "step%d() {\n  cat <<EOF\nusage: step [-w width]\n  if then fi; \"not code\"\n\nEOF\n  echo \"$1\" | tr a-z A-Z  # %d\n}\n\n", i, i)
	}
	return map[string]string{"go": screentest.GoSource(50), "python": py.String(), "javascript": js.String(), "bash": sh.String()}
}

// A code block that grows as an answer streams is lexed from near its end
// (highlightGrown); at every step it reads and is coloured exactly as the
// block lexed whole.
func TestGrowingCodeIsHighlightedAsWhole(t *testing.T) {
	defer func(n int) { growMin = n }(growMin)
	growMin = 128 // the samples are short, to be quick to lex whole at every step
	rc := darkCtx()
	for lang, code := range growSamples() {
		m := NewMarkdown(rc.Th)
		rng := rand.New(rand.NewSource(int64(len(code))))
		steps, approx := 0, 0
		for i := 1; i < len(code); i += 1 + rng.Intn(60) {
			got, ap := m.highlight(lang, code[:i], true)
			if want := m.hl.Lines(lang, code[:i]); !linesEqual(got, want) {
				for j := range min(len(got), len(want)) {
					if !got[j].Equal(want[j]) {
						t.Fatalf("%s, %d bytes in: line %d is\n%v\nlexed whole:\n%v", lang, i, j, got[j], want[j])
					}
				}
				t.Fatalf("%s, %d bytes in: %d lines, lexed whole %d", lang, i, len(got), len(want))
			}
			if i > 2*growMin {
				steps++
			}
			if ap && i > 2*growMin {
				approx++
			}
		}
		t.Logf("%s: %d of %d steps lexed in part", lang, approx, steps)
		if approx < steps/2 {
			t.Errorf("%s: %d of %d steps lexed in part; the test does not test it", lang, approx, steps)
		}
	}
}

// Answers that stream long code blocks, through the list as frames read
// them: every frame shows what the same text rendered at once shows (the
// code lexed in part and the rows of its lines kept from frame to frame
// included); a block lexed in part is rendered whole once the answer moves
// past it or ends.
func TestStreamedCodeEndsHighlightedAsWhole(t *testing.T) {
	defer func(n int) { growMin = n }(growMin)
	growMin = 128 // the blocks are short, to be quick to render whole at every step
	a := newHarness()
	const width = 90
	ref := NewMarkdown(a.ctx.Th) // renders the text at once, on its own caches
	answers := []string{
		"The file:\n\n```go\n" + screentest.GoSource(50) + "```\n\nAnd a list:\n\n- one\n- two\n\n```js\n" + growSamples()["javascript"] + "```\n\nThat is all.",
		// The block is the answer's end (the model never closed it): no
		// chunk comes after it, and finishing the answer renders it whole.
		"It ends with the file:\n\n```go\n" + screentest.GoSource(60) + "var a = 1\n",
	}
	for n, answer := range answers {
		a.router.Handle(agent.Event{Type: agent.EventTurnStarted, Text: "show"})
		var item *assistantItem
		var e *entry // the list's cache of the item's lines, as a frame reads them
		sawApprox, sawWaiting := false, false
		for off, step := 0, 97; off < len(answer); off += step {
			if len(answer)-off < 24 {
				step = 1 // the last lines a byte at a time
			}
			a.router.Handle(agent.Event{Type: agent.EventText, Text: answer[off:min(off+step, len(answer))]})
			item = a.router.text
			e = a.list.entries[len(a.list.entries)-1]
			if e.item != item {
				t.Fatal("the answer is not the list's last item")
			}
			w := width
			if off/97%7 == 3 {
				w = 61 // a resize now and then: the rows kept are wrapped again
			}
			got := e.get(a.ctx, w)
			want := ref.renderAll(item.text.String(), w)
			if !linesEqual(got, want) {
				t.Fatalf("answer %d, %d bytes in: it shows differently from the same text rendered at once", n, off)
			}
			sawApprox = sawApprox || item.md.tailApprox
			for _, ch := range item.md.chunks {
				sawApprox = sawApprox || ch.approx
				// A block done growing, waiting to be lexed whole.
				sawWaiting = sawWaiting || ch.approx
			}
		}
		if n == 0 && !sawWaiting {
			t.Fatal("no block waited to be lexed whole mid-answer: the test does not test it")
		}
		if !sawApprox {
			t.Fatalf("answer %d: no code block was lexed in part: the test does not test it", n)
		}
		if n == 1 && !item.md.tailApprox {
			t.Fatal("the block at the answer's end was not lexed in part: the test does not test finishing it")
		}
		a.router.Handle(agent.Event{Type: agent.EventTurnEnded})
		if item.open {
			t.Fatalf("answer %d: the answer block is still open after the turn", n)
		}
		// The frame after the turn does not lex the block whole on the UI
		// goroutine (a long block takes longer than a frame): another
		// goroutine does, and the answer is rendered again when it is done.
		lexed := a.ctx.MD.hl.Lexed()
		e.get(a.ctx, width)
		if n == 1 && a.ctx.MD.hl.Lexed() != lexed {
			t.Errorf("answer %d: the frame after the turn lexed %d bytes on the UI goroutine", n, a.ctx.MD.hl.Lexed()-lexed)
		}
		for deadline := time.Now().Add(30 * time.Second); item.md.approx; {
			if time.Now().After(deadline) {
				t.Fatalf("answer %d: a block is still lexed in part 30 s after the turn", n)
			}
			time.Sleep(5 * time.Millisecond)
			a.drain() // what the other goroutine posted
			e.get(a.ctx, width)
		}
		for i, ch := range item.md.chunks {
			if ch.approx {
				t.Fatalf("answer %d: chunk %d of %d is still lexed in part once the answer's blocks were lexed whole", n, i, len(item.md.chunks))
			}
		}
		fresh := NewMarkdown(a.ctx.Th)
		if got, want := e.get(a.ctx, width), fresh.renderAll(answer, width); !linesEqual(got, want) {
			t.Fatalf("answer %d: the finished answer is not rendered as the same text at once", n)
		}
	}
}

// A code block with a huge line (a hostile or broken answer) is not lexed
// every frame while it streams: it shows plain, then lexed whole when done.
func TestHugeCodeLineIsNotLexedEveryFrame(t *testing.T) {
	a := newHarness()
	huge := strings.Repeat(`x := "a"; `, 1000) // 10 KB, one line
	answer := "Look:\n\n```go\nfunc f() {\n" + huge + "\n}\n```\n\nDone."
	a.router.Handle(agent.Event{Type: agent.EventTurnStarted, Text: "show"})
	lexed, frames := a.ctx.MD.hl.Lexed(), 0
	for off := 0; off < len(answer); off += 1000 {
		a.router.Handle(agent.Event{Type: agent.EventText, Text: answer[off:min(off+1000, len(answer))]})
		a.list.entries[len(a.list.entries)-1].get(a.ctx, 90)
		frames++
	}
	// Lexed every frame, the block would be ~frames²/2 KB.
	if got := a.ctx.MD.hl.Lexed() - lexed; got > 2*len(answer) {
		t.Errorf("%d frames lexed %d bytes of a %d-byte answer on the UI goroutine", frames, got, len(answer))
	}
	a.router.Handle(agent.Event{Type: agent.EventTurnEnded})
	item := a.list.entries[len(a.list.entries)-1].item.(*assistantItem)
	e := a.list.entries[len(a.list.entries)-1]
	e.get(a.ctx, 90)
	for deadline := time.Now().Add(30 * time.Second); item.md.approx; {
		if time.Now().After(deadline) {
			t.Fatal("the block is still shown plain 30 s after the turn")
		}
		time.Sleep(5 * time.Millisecond)
		a.drain()
		e.get(a.ctx, 90)
	}
	if got, want := e.get(a.ctx, 90), NewMarkdown(a.ctx.Th).renderAll(answer, 90); !linesEqual(got, want) {
		t.Fatal("the finished answer is not rendered as the same text at once")
	}
}
