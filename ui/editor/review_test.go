package editor

import (
	"testing"

	"github.com/fawn-ide/fawn/ui/theme"
)

// Reverting each hunk alone puts back exactly that hunk; reverting all of
// them, one after the other, gives the original bytes back (line breaks,
// BOM and final newline included).
func TestRevertHunkByteExact(t *testing.T) {
	for _, c := range []struct{ name, before, after string }{
		{"crlf, no final newline, change at the end", "a\r\nb\r\nc\r\nd\r\ne\r\nf\r\ng\r\nh\r\ni\r\nj", "A\r\nb\r\nc\r\nd\r\ne\r\nf\r\ng\r\nh\r\ni\r\nJ\r\n"},
		{"bom and lines added", "\ufeffone\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n", "\ufeffzero\none\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\n"},
		{"lines removed", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "1\n3\n4\n5\n6\n7\n8\n9\n10\n11\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, _, hunks := diffDocHunks([]byte(c.before), []byte(c.after), theme.Get(""))
			if len(hunks) != 2 {
				t.Fatalf("%d hunks", len(hunks))
			}
			// The second hunk first, so the first's line numbers still hold.
			cur := []byte(c.after)
			for i := len(hunks) - 1; i >= 0; i-- {
				_, _, _, hs := diffDocHunks([]byte(c.before), cur, theme.Get(""))
				cur = revertHunk([]byte(c.before), cur, hs[len(hs)-1])
				if i == 1 && string(cur) == c.before {
					t.Errorf("reverting one hunk reverted both")
				}
			}
			if string(cur) != c.before {
				t.Errorf("after reverting both hunks:\n got %q\nwant %q", cur, c.before)
			}
		})
	}
}
