package safetext

import (
	"strings"
	"testing"
)

// A Writer shows what Text shows, however the text is cut into writes.
func TestWriterIsTextWhateverTheCuts(t *testing.T) {
	in := "answer: \x1b]52;c;eA==\a done\r\nnext 世界 \u009b2J \u202eok\r\nlast\n"
	want := Text(in)
	for step := 1; step <= len(in); step++ {
		var b strings.Builder
		w := NewWriter(&b)
		for i := 0; i < len(in); i += step {
			n, err := w.Write([]byte(in[i:min(i+step, len(in))]))
			if err != nil || n != min(step, len(in)-i) {
				t.Fatalf("step %d: Write = %d, %v", step, n, err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if b.String() != want {
			t.Fatalf("writes of %d bytes give %q, want %q", step, b.String(), want)
		}
	}
	var b strings.Builder
	w := NewWriter(&b)
	_, _ = w.Write([]byte("cut \xe4\xb8"))
	_ = w.Flush()
	if b.String() != "cut \ufffd\ufffd" {
		t.Errorf("a cut character at the end: %q", b.String())
	}
}
