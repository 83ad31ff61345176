package editor

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func TestBufferRoundTripsBytes(t *testing.T) {
	cases := []string{
		"",
		"\n",
		"a",
		"a\n",
		"a\nb",
		"a\nb\n",
		"a\r\nb\r\n",
		"a\r\nb",
		"a\r\nb\r",
		"a\r\nb\nc\r\n",      // mixed: split on LF, CRs stay in the text
		"\r\n",               // CRLF only
		"\r",                 // a lone CR
		bom + "x\r\ny\r\n",   // BOM and CRLF
		bom,                  // BOM only
		"\x00\xff\xfe bin\n", // bytes that are not UTF-8
		"tab\there\n\n\n",
	}
	for _, c := range cases {
		b := NewBuffer([]byte(c))
		if got := string(b.Bytes()); got != c {
			t.Errorf("round trip of %q gave %q (lines %q)", c, got, b.lines)
		}
	}
}

func TestBufferDetectsFormat(t *testing.T) {
	b := NewBuffer([]byte(bom + "one\r\ntwo\r\n"))
	if !b.CRLF() || !b.fmt.bom || !b.fmt.finalNL {
		t.Fatalf("format = %+v, want CRLF, BOM, final newline", b.fmt)
	}
	if b.LineCount() != 2 || b.Line(0) != "one" || b.Line(1) != "two" {
		t.Fatalf("lines = %q", b.lines)
	}
	// An edit with LF line breaks is saved with the file's CRLF.
	b.Insert(Pos{1, 0}, "one and a half\n")
	if got, want := string(b.Bytes()), bom+"one\r\none and a half\r\ntwo\r\n"; got != want {
		t.Fatalf("after insert: %q, want %q", got, want)
	}
}

func TestBufferReplaceAndText(t *testing.T) {
	b := NewBuffer([]byte("hello world\nsecond line\nthird\n"))
	end := b.Replace(Pos{0, 6}, Pos{1, 6}, "there\nnew")
	if got, want := string(b.Bytes()), "hello there\nnew line\nthird\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if end != (Pos{1, 3}) {
		t.Fatalf("end = %v, want {1 3}", end)
	}
	if got := b.Text(Pos{0, 6}, Pos{1, 3}); got != "there\nnew" {
		t.Fatalf("Text = %q", got)
	}
	// Pasted CRLF and CR become line breaks, not stray characters.
	b.Insert(Pos{2, 0}, "a\r\nb\rc")
	if got, want := string(b.Bytes()), "hello there\nnew line\na\nb\ncthird\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestUndoRedoRoundTripIsByteExact(t *testing.T) {
	orig := []byte(bom + "package main\r\n\r\nfunc main() {\r\n\tprintln(\"hi\")\r\n}\r\n")
	b := NewBuffer(orig)
	rng := rand.New(rand.NewPCG(1, 2))
	var states [][]byte
	for i := 0; i < 300; i++ {
		from := randPos(rng, b)
		to := randPos(rng, b)
		var text string
		switch rng.IntN(4) {
		case 0:
			text = ""
		case 1:
			text = "x"
		case 2:
			text = "line\nbreak"
		default:
			text = "é€😀\t"
		}
		b.BeginStep(b.Clamp(from), "")
		b.Replace(from, to, text)
		b.EndStep(from)
		states = append(states, b.Bytes())
	}
	final := b.Bytes()
	for i := len(states) - 2; i >= -1; i-- {
		if _, ok := b.Undo(); !ok {
			t.Fatalf("undo %d failed", i)
		}
		want := orig
		if i >= 0 {
			want = states[i]
		}
		if !bytes.Equal(b.Bytes(), want) {
			t.Fatalf("after undo to state %d: %q, want %q", i, b.Bytes(), want)
		}
	}
	if _, ok := b.Undo(); ok {
		t.Fatal("undo past the start succeeded")
	}
	if b.Modified() {
		t.Fatal("buffer undone to the original still says modified")
	}
	for range states {
		if _, ok := b.Redo(); !ok {
			t.Fatal("redo failed")
		}
	}
	if !bytes.Equal(b.Bytes(), final) {
		t.Fatalf("after redoing everything: %q, want %q", b.Bytes(), final)
	}
}

func randPos(rng *rand.Rand, b *Buffer) Pos {
	l := rng.IntN(b.LineCount())
	line := b.Line(l)
	c := 0
	if len(line) > 0 {
		c = rng.IntN(len(line) + 1)
		for c > 0 && c < len(line) && line[c]&0xc0 == 0x80 {
			c-- // keep to rune boundaries, as the view does
		}
	}
	return Pos{l, c}
}

func TestTypingMergesIntoOneUndoStep(t *testing.T) {
	b := NewBuffer([]byte("x\n"))
	p := Pos{0, 1}
	for _, r := range "abc" {
		b.BeginStep(p, "type")
		p = b.Insert(p, string(r))
		b.EndStep(p)
	}
	if got := string(b.Bytes()); got != "xabc\n" {
		t.Fatalf("got %q", got)
	}
	if len(b.hist.undo) != 1 || len(b.hist.undo[0].splices) != 1 {
		t.Fatalf("typing made %d steps, want 1 step of 1 splice", len(b.hist.undo))
	}
	cur, _ := b.Undo()
	if got := string(b.Bytes()); got != "x\n" || cur != (Pos{0, 1}) {
		t.Fatalf("after undo: %q, cursor %v", got, cur)
	}
}

func TestModifiedFollowsSavePoint(t *testing.T) {
	b := NewBuffer([]byte("a\n"))
	p := Pos{0, 1}
	b.BeginStep(p, "type")
	p = b.Insert(p, "b")
	b.EndStep(p)
	if !b.Modified() {
		t.Fatal("not modified after typing")
	}
	b.MarkSaved()
	// Typing after a save must not merge into the saved step.
	b.BeginStep(p, "type")
	p = b.Insert(p, "c")
	b.EndStep(p)
	if !b.Modified() {
		t.Fatal("not modified after typing past the save")
	}
	b.Undo()
	if b.Modified() {
		t.Fatal("modified after undoing back to the save")
	}
	b.Undo()
	if !b.Modified() {
		t.Fatal("not modified after undoing past the save")
	}
}

func TestKeptStepThatChangedNothing(t *testing.T) {
	b := NewBuffer([]byte("ab\n"))
	b.BeginStep(Pos{0, 0}, "")
	b.Delete(Pos{0, 0}, Pos{0, 1})
	b.EndStep(Pos{0, 0})
	b.MarkSaved()
	// An operator over nothing: one undo step all the same, which leaves
	// the text as saved.
	b.BeginStep(Pos{0, 0}, "")
	b.KeepStep()
	b.EndStep(Pos{0, 0})
	if len(b.hist.undo) != 2 || b.Modified() {
		t.Fatalf("%d steps, modified %v; want the empty step kept, not modified", len(b.hist.undo), b.Modified())
	}
	if _, ok := b.Undo(); !ok || string(b.Bytes()) != "b\n" || b.Modified() {
		t.Fatalf("undo of the empty step: %q, modified %v; want it to undo nothing", b.Bytes(), b.Modified())
	}
	if b.Undo(); string(b.Bytes()) != "ab\n" || !b.Modified() {
		t.Fatalf("second undo: %q, modified %v", b.Bytes(), b.Modified())
	}
	// Without KeepStep a step that changed nothing is none.
	b.BeginStep(Pos{0, 0}, "")
	b.EndStep(Pos{0, 0})
	if len(b.hist.undo) != 0 {
		t.Fatalf("%d steps after an empty one not kept", len(b.hist.undo))
	}
}

func TestSetContentTouchesOnlyChangedLines(t *testing.T) {
	old := "a\nb\nc\nd\n"
	b := NewBuffer([]byte(old))
	var spliced []int
	b.OnChange(func(at, removed, added int) { spliced = append(spliced, at, removed, added) })
	ch := b.SetContent([]byte("a\nB\nc\nd\ne\n"), Pos{})
	if got := string(b.Bytes()); got != "a\nB\nc\nd\ne\n" {
		t.Fatalf("got %q", got)
	}
	if len(ch) != 2 || ch[0] != (LineChange{1, 2, 1, 2}) || ch[1] != (LineChange{4, 4, 4, 5}) {
		t.Fatalf("changes = %+v", ch)
	}
	if len(spliced) != 6 {
		t.Fatalf("splices = %v, want two", spliced)
	}
	b.Undo()
	if got := string(b.Bytes()); got != old {
		t.Fatalf("undo of reload gave %q", got)
	}
	// A change of line endings alone is a change too, and undoes.
	b.SetContent([]byte("a\r\nb\r\nc\r\nd\r\n"), Pos{})
	if !b.CRLF() {
		t.Fatal("reload to CRLF kept LF")
	}
	b.Undo()
	if b.CRLF() || string(b.Bytes()) != old {
		t.Fatalf("undo of CRLF reload gave %q", b.Bytes())
	}
}

func TestCellsWidths(t *testing.T) {
	var got []string
	cells("a\tb界\x01e\u0301", 4, func(c cell) bool {
		got = append(got, strings.Join([]string{c.text, itoa(c.col), itoa(c.width)}, ":"))
		return true
	})
	want := []string{"a:0:1", ":1:3", "b:4:1", "界:5:2", "\u2401:7:1", "e\u0301:8:1"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("cells = %q, want %q", got, want)
	}
	if c := colOf("a\tb界x", len("a\tb界"), 4); c != 7 {
		t.Fatalf("colOf = %d, want 7", c)
	}
	if o := offAt("a\tb界x", 6, 4); o != len("a\tb") {
		t.Fatalf("offAt inside a wide char = %d, want its start %d", o, len("a\tb"))
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
