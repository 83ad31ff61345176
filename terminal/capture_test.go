package terminal

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

func captureAll(chunks ...string) captured {
	c := newCapture()
	for _, ch := range chunks {
		c.write([]byte(ch))
	}
	c.finish()
	return c.result()
}

func TestCaptureCleansTerminalOutput(t *testing.T) {
	cases := []struct {
		name string
		in   []string
		want string
	}{
		{"crlf", []string{"a\r\nb\r\n"}, "a\nb\n"},
		{"crlf split across reads", []string{"a\r", "\nb\r", "\n"}, "a\nb\n"},
		{"progress collapsed", []string{"10%\r50%\r100%\r\ndone\r\n"}, "100%\ndone\n"},
		{"progress split", []string{"10%\r", "90%", "\r\n"}, "90%\n"},
		{"no final newline", []string{"x\r\ny"}, "x\ny"},
		{"sgr", []string{"\x1b[1;31mred\x1b[0m \x1b[38;2;10;20;30mrgb\x1b[m\r\n"}, "red rgb\n"},
		{"sgr split", []string{"\x1b[3", "1mred\x1b", "[0m\r\n"}, "red\n"},
		{"osc title bel", []string{"\x1b]0;title\x07text\r\n"}, "text\n"},
		{"osc st", []string{"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\\r\n"}, "link\n"},
		{"dcs", []string{"\x1bPq#0;2;0;0;0\x1b\\after\r\n"}, "after\n"},
		{"charset", []string{"\x1b(Bplain\r\n"}, "plain\n"},
		{"erase line after cr", []string{"old text\r\x1b[Knew\r\n"}, "new\n"},
		{"erase whole line", []string{"junk\x1b[2Kkept\r\n"}, "kept\n"},
		{"cha as cr", []string{"50%\x1b[1G100%\r\n"}, "100%\n"},
		{"backspace", []string{"abc\b\bxy\r\n"}, "axy\n"},
		{"backspace utf8", []string{"añ\bo\r\n"}, "ao\n"},
		{"tabs kept", []string{"a\tb\r\n"}, "a\tb\n"},
		{"bell dropped", []string{"ding\a\r\n"}, "ding\n"},
		{"unicode", []string{"日本語 🎉\r\n"}, "日本語 🎉\n"},
		{"unicode split", []string{"\xe6\x97", "\xa5\r\n"}, "日\n"},
		{"invalid utf8 replaced", []string{"a fair amount of text, then a\xffb\r\n"}, "a fair amount of text, then a\uFFFDb\n"},
		{"blank lines", []string{"\r\n\r\n\r\n"}, "\n\n\n"},
		{"esc esc", []string{"a\x1b\x1b[31mb\r\n"}, "ab\n"},
		{"esc then text", []string{"a\x1b7b\x1b8c\r\n"}, "abc\n"},
		{"esc intermediates end with their final byte", []string{"a\x1b(%0b\r\n"}, "ab\n"},
		{"csi intermediate", []string{"a\x1b[2 qb\r\n"}, "ab\n"},
		{"csi with many parameters", []string{"x\x1b[1;2;3;4;5;6;7;8;9;10;11;12mok\r\n"}, "xok\n"},
		{"esc restarts a csi", []string{"a\x1b[1\x1b[2Kb\r\n"}, "b\n"},
		{"can aborts a csi", []string{"a\x1b[3\x18b\r\n"}, "ab\n"},
		{"sub aborts a csi", []string{"a\x1b[3\x1ab\r\n"}, "ab\n"},
		{"control inside a csi", []string{"a\x1b[3\x07mb\r\n"}, "ab\n"},
		{"esc inside an osc", []string{"\x1b]0;a\x1bbhidden\x07text\r\n"}, "text\n"},
		{"osc split", []string{"\x1b]0;ti", "tle\x1b", "\\text\r\n"}, "text\n"},
		{"sos pm apc", []string{"\x1bXs\x1b\\a\x1b^p\x1b\\b\x1b_c\x1b\\c\r\n"}, "abc\n"},
		{"esc inside a dcs", []string{"\x1bPq\x1bxhidden\x1b\\after\r\n"}, "after\n"},
		{"csi G with a column is not a cr", []string{"50%\x1b[5G100%\r\n"}, "50%100%\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := captureAll(c.in...)
			if got.text != c.want || got.binary {
				t.Fatalf("got %q (binary %v), want %q", got.text, got.binary, c.want)
			}
		})
	}
}

func TestCaptureKeepsHeadAndTail(t *testing.T) {
	c := newCapture()
	n := 100000
	for i := 1; i <= n; i++ {
		fmt.Fprintf(chunkWriter{c}, "line %d\r\n", i)
	}
	c.finish()
	r := c.result()
	if r.totalLines != int64(n) {
		t.Fatalf("totalLines %d", r.totalLines)
	}
	if !strings.HasPrefix(r.text, "line 1\nline 2\n") || !strings.HasSuffix(r.text, "line 99999\nline 100000\n") {
		t.Fatalf("head or tail missing")
	}
	if len(r.text) > captureHead+captureTail+100 {
		t.Fatalf("kept %d bytes", len(r.text))
	}
	// Every line is either shown or counted as omitted.
	shown := int64(strings.Count(r.text, "\n")) - 1 // the notice line
	if shown+r.omittedLines != int64(n) {
		t.Fatalf("shown %d + omitted %d != %d", shown, r.omittedLines, n)
	}
	want := fmt.Sprintf("[… %d lines, ", r.omittedLines)
	if !strings.Contains(r.text, want) {
		t.Fatalf("no notice %q in output", want)
	}
	// Nothing is cut inside a line.
	for _, l := range strings.Split(strings.TrimSuffix(r.text, "\n"), "\n") {
		if !strings.HasPrefix(l, "line ") && !strings.HasPrefix(l, "[… ") {
			t.Fatalf("broken line %q", l)
		}
	}
}

type chunkWriter struct{ c *capture }

func (w chunkWriter) Write(p []byte) (int, error) { w.c.write(p); return len(p), nil }

func TestCaptureOneHugeLine(t *testing.T) {
	line := strings.Repeat("x", 200000)
	r := captureAll(line + "\r\n")
	if r.totalBytes != 200001 || r.omittedBytes == 0 || len(r.text) > captureHead+captureTail+100 {
		t.Fatalf("total %d omitted %d kept %d", r.totalBytes, r.omittedBytes, len(r.text))
	}
	if !strings.HasPrefix(r.text, "xxxx") || !strings.HasSuffix(r.text, "xxxx\n") {
		t.Fatalf("ends lost")
	}
}

func TestCaptureBinary(t *testing.T) {
	var b bytes.Buffer
	for i := 0; i < 4096; i++ {
		b.WriteByte(byte(i * 7))
	}
	r := captureAll(b.String())
	if !r.binary || r.text != "" || r.totalBytes != 4096 {
		t.Fatalf("binary %v text %q total %d", r.binary, r.text, r.totalBytes)
	}
	// A little odd data in a lot of text is not binary.
	r = captureAll(strings.Repeat("text line\r\n", 100) + "\x00\xff\r\n")
	if r.binary {
		t.Fatal("mostly text judged binary")
	}
}

func TestCaptureStreamPreview(t *testing.T) {
	c := newCapture()
	c.write([]byte("one\r\ntw"))
	if s := c.takeStream(); s != "one\n" {
		t.Fatalf("first %q", s)
	}
	c.write([]byte("o\r\n"))
	if s := c.takeStream(); s != "two\n" {
		t.Fatalf("second %q", s)
	}
	for i := 0; i < 10000; i++ {
		c.write([]byte("flood\r\n"))
	}
	s := c.takeStream()
	if !strings.HasPrefix(s, "…\n") || len(s) > captureStreamMax+10 || !strings.HasSuffix(s, "flood\n") {
		t.Fatalf("flood preview: %d bytes, starts %q", len(s), s[:10])
	}
	if c.takeStream() != "" {
		t.Fatal("stream not emptied")
	}
}

func TestRing(t *testing.T) {
	r := ring{buf: make([]byte, 8)}
	r.write([]byte("abc"))
	if string(r.bytes()) != "abc" {
		t.Fatalf("%q", r.bytes())
	}
	r.write([]byte("defgh"))
	r.write([]byte("ij"))
	if string(r.bytes()) != "cdefghij" {
		t.Fatalf("%q", r.bytes())
	}
	r.write([]byte("0123456789ABC"))
	if string(r.bytes()) != "6789ABC"[0:0]+"56789ABC" {
		t.Fatalf("%q", r.bytes())
	}
	r.write([]byte("z"))
	if string(r.bytes()) != "6789ABCz" {
		t.Fatalf("%q", r.bytes())
	}
}

func TestMarkerScanner(t *testing.T) {
	stream := "out1\x1b]6973;abc;S\x07out2\x1b[31m\x1b]6973;abc;D;3;/tmp/a b;c\x07\x1b]6973;zzz;P\x07\x1b]6973;abc;P\x07tail"
	wantData := "out1out2\x1b[31m\x1b]6973;zzz;P\x07tail"
	wantMarks := []marker{{kind: 'S'}, {kind: 'D', status: 3, pwd: "/tmp/a b;c"}, {kind: 'P'}}
	// Split the stream at every position: a marker may straddle reads.
	for cut := 0; cut <= len(stream); cut++ {
		for cut2 := cut; cut2 <= len(stream); cut2 += 7 {
			s := newMarkerScanner("abc")
			var data bytes.Buffer
			var marks []marker
			for _, part := range []string{stream[:cut], stream[cut:cut2], stream[cut2:]} {
				s.scan([]byte(part), func(d []byte) { data.Write(d) }, func(m marker) { marks = append(marks, m) })
			}
			if data.String() != wantData {
				t.Fatalf("cut %d/%d: data %q", cut, cut2, data.String())
			}
			if fmt.Sprint(marks) != fmt.Sprint(wantMarks) {
				t.Fatalf("cut %d/%d: marks %v", cut, cut2, marks)
			}
		}
	}
}

func TestMarkerScannerGivesUpOnRunaway(t *testing.T) {
	s := newMarkerScanner("abc")
	var data bytes.Buffer
	junk := "\x1b]6973;abc;D;0;" + strings.Repeat("x", maxMarkerLen+10)
	s.scan([]byte(junk), func(d []byte) { data.Write(d) }, func(marker) { t.Fatal("marker from junk") })
	if data.String() != junk {
		t.Fatalf("junk not passed through: %d of %d bytes", data.Len(), len(junk))
	}
}

func TestLineLocalEnd(t *testing.T) {
	text := strings.Repeat("\x1b[32mok\x1b[0m line\x1b[K\r\n", 100)
	p := []byte("first\r\n" + text + "\x1b[5;1Hmoved\r\nmore\r\n")
	end := lineLocalEnd(p, 7, len(p))
	if string(p[7:end]) != text {
		t.Fatalf("stopped at %d: %q", end, p[end:])
	}
	if got := lineLocalEnd(p, 7, 20); got != 7 {
		t.Fatalf("limit ignored: %d", got)
	}
	replay := sgrReplay([]byte("\x1b[1m a \x1b[31m b \x1b]0;t\x07"))
	if string(replay) != "\x1b[1m\x1b[31m" {
		t.Fatalf("replay %q", replay)
	}
}
