package words

import "testing"

func TestPluralAndClip(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Plural(1, "file", "files"), "1 file"},
		{Plural(0, "file", "files"), "0 files"},
		{Plural(3, "match", "matches"), "3 matches"},
		{Clip("  short  ", 10), "short"},
		{Clip("héllo wörld", 5), "héllo…"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
