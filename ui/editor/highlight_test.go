package editor

import "testing"

func TestLexerCacheKeepsSpecialNames(t *testing.T) {
	c := &lexerCache{}
	name := func(path string) string {
		l := c.lexerFor(path, nil)
		if l == nil {
			return ""
		}
		return l.Config().Name
	}
	for _, tc := range []struct{ path, want string }{
		{"a/main.go", "Go"},
		{"b/other.go", "Go"}, // from the cache
		{"notes.txt", ""},
		{"CMakeLists.txt", "CMake"}, // not the cached .txt
		{"x.go.bak", "Go"},
		{"y.py.bak", "Python"}, // not a cached .bak
		{"Makefile", "Makefile"},
	} {
		if got := name(tc.path); got != tc.want {
			t.Errorf("lexer for %s = %q, want %q", tc.path, got, tc.want)
		}
	}
}
