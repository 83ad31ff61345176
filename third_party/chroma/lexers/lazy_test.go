package lexers

import (
	"sync"
	"testing"

	"github.com/alecthomas/chroma/v2"
)

// fawn patch: the registry loads on first use, once, from any goroutine,
// with the Go-defined lexers and the analysers set up in init functions.
func TestEmbeddedLexersLoadOnFirstUse(t *testing.T) {
	if n := len(GlobalLexerRegistry.Lexers); n != 0 {
		t.Fatalf("%d lexers registered before first use; the load should wait for it", n)
	}
	var wg sync.WaitGroup
	got := make([]chroma.Lexer, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = Match("main.py")
		}()
	}
	wg.Wait()
	for i, l := range got {
		if l == nil || l.Config().Name != "Python" {
			t.Fatalf("goroutine %d: Match(main.py) = %v, want Python", i, l)
		}
	}
	if n := len(Registry().Lexers); n < 200 {
		t.Fatalf("only %d lexers after the load", n)
	}
	// A Go-defined lexer, registered while the package initialised.
	if l := Get("go"); l == nil || l.Config().Name != "Go" {
		t.Fatalf(`Get("go") = %v`, l)
	}
	// An analyser set up by an init function (dns.go) after the load.
	if l := Analyse("$TTL 3600\n@ IN SOA ns1.example.com. admin.example.com. 1 2 3 4 5\n"); l == nil || l.Config().Name != "dns" {
		t.Fatalf("Analyse(zone file) = %v, want dns", l)
	}
	// Registering after the load goes straight into the registry.
	mine := chroma.MustNewLexer(&chroma.Config{Name: "fawn-test", Filenames: []string{"*.fawntest"}}, PlaintextRules)
	Register(mine)
	if Match("a.fawntest") != mine {
		t.Fatal("a lexer registered after the load is not found")
	}
}

// fawn patch: the lexers built on first use (lazyLexer) are found and
// tokenise like the others, HTML inside the delegating ones included.
func TestLazyLexersWork(t *testing.T) {
	for _, tc := range []struct{ file, name, text string }{
		{"page.erb", "ERB", "<p><%= @name %></p>\n"},
		{"play.sls", "YAML+Jinja", "key: {{ value }}\n"},
		{"init.el", "EmacsLisp", "(defun f () (car x))\n"},
		{"a.lisp", "Common Lisp", "(defun f (x) (car x))\n"},
	} {
		l := Match(tc.file)
		if l == nil || l.Config().Name != tc.name {
			t.Errorf("Match(%s) = %v, want %s", tc.file, l, tc.name)
			continue
		}
		it, err := l.Tokenise(nil, tc.text)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		var text string
		for tok := it(); tok != chroma.EOF; tok = it() {
			if tok.Type == chroma.Error {
				t.Errorf("%s: an error token %q", tc.name, tok.Value)
			}
			text += tok.Value
		}
		if text != tc.text {
			t.Errorf("%s: tokens give back %q, want %q", tc.name, text, tc.text)
		}
	}
	for _, name := range []string{"go-html-template", "go-text-template"} {
		if l := Get(name); l == nil || l.Config() == nil {
			t.Errorf("Get(%s) = %v", name, l)
		}
	}
	if got := HTML.Config().Name; got != "HTML" {
		t.Errorf("HTML.Config().Name = %q", got)
	}
}
