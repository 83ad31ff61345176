package tools

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
)

// The round-trip invariants of the editing operations: run with go test
// -fuzz=FuzzStrReplace ./tools (and so on); the seeds run as ordinary tests.
// The ignore matcher's are in package project.

func FuzzStrReplace(f *testing.F) {
	for _, s := range []struct{ file, old, new string }{
		{"a\nb\nc\n", "b", "B"},
		{"one\r\ntwo\r\nthree\r\n", "two\n", "2\n2b\n"},
		{"\xef\xbb\xbfx\ny", "y", "z\n"},
		{"no final newline", "final", "last"},
		{"mixed\nbreaks\r\nhere\r\n", "breaks\nhere", "b\nh"},
		{"aaa", "aa", "b"},
		{"x\r\n", "x\r\n", ""},
		{"tab\there\n", "\t", "    "},
	} {
		f.Add([]byte(s.file), s.old, s.new)
	}
	f.Fuzz(func(t *testing.T, raw []byte, old, nw string) {
		if isBinary(raw) || len(raw) > 8<<10 || len(old) > 2<<10 || len(nw) > 2<<10 {
			return
		}
		text, form := decodeText(raw)
		if got := encodeText(text, form); !bytes.Equal(got, raw) {
			t.Fatalf("decode/encode is not byte-exact: %q -> %q", raw, got)
		}
		ed := &TextEditor{}
		e := &edit{rel: "f"}
		a := editorArgs{OldStr: &old, NewStr: &nw}
		if err := ed.strReplace(e, a, text, form); err != nil {
			return // refusals are fine; panics are not
		}
		out := encodeText(e.newText, form)
		if form.bom && !bytes.HasPrefix(out, []byte(utf8BOM)) {
			t.Fatalf("lost the BOM: %q", out)
		}
		if form.crlf && bytes.Count(out, []byte("\n")) != bytes.Count(out, []byte("\r\n")) {
			t.Fatalf("a CRLF file got a bare LF: %q", out)
		}
		// Replacing back restores the file byte for byte, when the way back is unambiguous.
		text2, form2 := decodeText(out)
		if form2 != form {
			return // e.g. every line break was removed, so CRLF can no longer be seen
		}
		repl := adaptNewlines(nw, form, text)
		orig := adaptNewlines(old, form, text)
		if repl == "" || len(findAll(text2, repl)) != 1 || strings.Contains(text, "\r") && !form.crlf {
			return
		}
		back := &edit{rel: "f"}
		a2 := editorArgs{OldStr: &repl, NewStr: &orig}
		if err := ed.strReplace(back, a2, text2, form2); err != nil {
			t.Fatalf("replacing back failed: %v", err)
		}
		if got := encodeText(back.newText, form2); !bytes.Equal(got, raw) {
			t.Fatalf("round trip changed the file:\n%q\n%q", raw, got)
		}
	})
}

func FuzzInsert(f *testing.F) {
	for _, s := range []struct {
		file string
		line int
		ins  string
	}{
		{"a\nb\n", 1, "x"},
		{"a\nb", 2, "x\n"},
		{"a\r\nb\r\n", 0, "x\ny"},
		{"\xef\xbb\xbfa", 1, "b"},
		{"", 0, "x"},
		{"\n\n", 2, "\n"},
	} {
		f.Add([]byte(s.file), s.line, s.ins)
	}
	f.Fuzz(func(t *testing.T, raw []byte, line int, ins string) {
		if isBinary(raw) || len(raw) > 8<<10 || len(ins) > 2<<10 || ins == "" {
			return
		}
		text, form := decodeText(raw)
		ed := &TextEditor{}
		e := &edit{rel: "f"}
		a := editorArgs{NewStr: &ins, InsertLine: flexInt{Set: true, N: line}}
		err := ed.insert(e, a, text, form)
		if err != nil {
			if line >= 0 && line <= countLines(text) {
				t.Fatalf("insert at %d of %d lines refused: %v", line, countLines(text), err)
			}
			return
		}
		out := encodeText(e.newText, form)
		if form.bom != bytes.HasPrefix(out, []byte(utf8BOM)) {
			t.Fatalf("BOM state changed: %q", out)
		}
		if form.crlf && bytes.Count(out, []byte("\n")) != bytes.Count(out, []byte("\r\n")) {
			t.Fatalf("a CRLF file got a bare LF: %q", out)
		}
		if text == "" {
			return
		}
		block := adaptNewlines(ins, form, text)
		if !strings.HasSuffix(text, "\n") && line == countLines(text) && (block == "\n" || strings.HasSuffix(block, "\n\n")) {
			// An empty last line inserted after a last line without a
			// newline is indistinguishable from a final newline.
			return
		}
		if strings.HasSuffix(text, "\n") != strings.HasSuffix(e.newText, "\n") {
			t.Fatalf("final newline state changed: %q -> %q", text, e.newText)
		}
		// Removing the inserted lines gives the original lines back.
		k := countLines(block)
		before, after := splitAll(text), splitAll(e.newText)
		if len(after) != len(before)+k {
			t.Fatalf("%d lines + %d inserted = %d lines", len(before), k, len(after))
		}
		rest := append(append([]string{}, after[:line]...), after[line+k:]...)
		if strings.Join(rest, "\n") != strings.Join(before, "\n") {
			t.Fatalf("the lines around the insertion changed:\n%q\n%q", text, e.newText)
		}
	})
}

// splitAll splits on "\n" only, keeping any "\r", without the empty string
// after a final newline.
func splitAll(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// FuzzToolArguments throws arbitrary JSON at every tool's Plan and Run.
func FuzzToolArguments(f *testing.F) {
	for _, s := range []string{
		``, `{}`, `null`, `[]`, `"x"`, `{"command":"view","path":"a.txt","view_range":[0,-5]}`,
		`{"command":"insert","path":"a.txt","insert_line":1e300,"new_str":"x"}`,
		`{"command":"str_replace","path":"a.txt","old_str":"a","new_str":null}`,
		`{"pattern":"(","path":"."}`, `{"pattern":"-e","output_mode":"count","A":-1}`,
		`{"pattern":"**/*","path":"../.."}`, `{"todos":[{"id":1,"status":"???"}]}`,
		`{"path":".","max_depth":-1}`, `{"match":["["],"all":"yes"}`,
	} {
		f.Add(s)
	}
	env := newTestEnv(f, map[string]string{"a.txt": "a\nb\n", "d/x.go": "package d\n"})
	tools := Builtin(env)
	ed := tools[0].(*TextEditor)
	if _, err := ed.InvokableRun(context.Background(), `{"command":"view","path":"a.txt"}`); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, args string) {
		for _, tl := range tools {
			if _, err := tl.Plan(context.Background(), args); err != nil && err.Error() == "" {
				t.Fatalf("%s: empty error", tl.Name())
			}
			// Only read-only tools run: an edit may change the fixture,
			// which is fine, but would make failures irreproducible.
			if act, err := tl.Plan(context.Background(), args); err == nil && act.Kind == KindRead {
				if _, err := tl.InvokableRun(context.Background(), args); err != nil && err.Error() == "" {
					t.Fatalf("%s: empty error", tl.Name())
				}
			}
		}
	})
}

// FuzzRequiredLiteral checks grep's literal prefilter never rules out a
// file the regular expression matches.
func FuzzRequiredLiteral(f *testing.F) {
	for _, s := range [][2]string{
		{`func\s+\w+Handler\(`, "func  needleHandler(ctx)"},
		{`(?i)NEEDLE`, "a NeEdLe here"},
		{`(?i)kelvin`, "\u212aelvin"},
		{`(ab)+c`, "ababc"},
		{`x{2,}yz`, "xxxyz"},
		{`a|bc`, "bc"},
		{`(?i)straße`, "STRASSE"},
		{`(?m)^foo$`, "x\nfoo\ny"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, expr, data string) {
		re, err := regexp.Compile(expr)
		if err != nil {
			return
		}
		lit, fold := requiredLiteral(expr)
		if lit == nil || !re.MatchString(data) {
			return
		}
		if !containsLiteral([]byte(data), lit, fold) {
			t.Fatalf("%q matches %q, but the prefilter's literal %q (fold %v) is not in it", expr, data, lit, fold)
		}
	})
}
