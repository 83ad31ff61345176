package syntax

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	chromalexers "github.com/alecthomas/chroma/v2/lexers" // the reference; fawn itself must not link it
)

// notHere are the lexers chroma writes in Go that fawn leaves out: their
// files show as plain text. A new chroma that adds one fails
// TestTheDefinitionsAreChromas until it is added here or to native.
var notHere = []string{
	"Caddyfile", "Caddyfile Directives", "Gemtext", "Genshi", "Genshi HTML", "Genshi Text",
	"Go HTML Template", "Go Text Template", "HTTP", "Haxe", "Markless", "PHTML", "Raku",
	"YAML+Jinja", "reStructuredText", "Svelte",
}

func TestTableMatchesTheDefinitions(t *testing.T) {
	files, err := fs.Glob(embedded, "embedded/*.xml")
	if err != nil {
		t.Fatal(err)
	}
	var inTable []string
	for _, d := range definitions {
		inTable = append(inTable, "embedded/"+d.file)
		l, err := chroma.NewXMLLexer(embedded, "embedded/"+d.file)
		if err != nil {
			t.Fatalf("%s does not load: %v", d.file, err)
		}
		c := l.Config()
		want := chroma.Config{Name: c.Name, Aliases: c.Aliases, Filenames: c.Filenames, AliasFilenames: c.AliasFilenames, MimeTypes: c.MimeTypes, Priority: c.Priority}
		got := d.config
		for _, s := range []*[]string{&want.Aliases, &want.Filenames, &want.AliasFilenames, &want.MimeTypes} {
			if len(*s) == 0 {
				*s = nil
			}
		}
		if !reflect.DeepEqual(got, want) || d.analyse != (c.Analyse != nil) {
			t.Errorf("%s: table has %+v (analyse %v), the definition %+v (analyse %v): run go generate ./ui/syntax",
				d.file, got, d.analyse, want, c.Analyse != nil)
		}
		// Every definition's rules read (compiling them is chroma's test).
		if _, err := l.Rules(); err != nil {
			t.Errorf("%s: %v", d.file, err)
		}
	}
	if !slices.Equal(files, inTable) {
		t.Errorf("embedded/ holds %d definitions, the table %d: run go generate ./ui/syntax", len(files), len(inTable))
	}
}

// TestTheDefinitionsAreChromas compares every lexer with chroma's own
// registry: the same definitions, and none missing but those in notHere.
func TestTheDefinitionsAreChromas(t *testing.T) {
	var missing []string
	compared := 0
	for _, up := range chromalexers.GlobalLexerRegistry.Lexers {
		name := up.Config().Name
		ours, _ := registry().Get(name).(*lazyLexer)
		if ours == nil || ours.Config().Name != name {
			missing = append(missing, name)
			continue
		}
		upRegex, ok := up.(*chroma.RegexLexer)
		if !ok {
			continue // a wrapper in Go (Markdown, the Lisps): see TestGoAndMarkdownLexAsChromas
		}
		want, err := upRegex.Rules()
		if err != nil {
			t.Fatalf("chroma's %s: %v", name, err)
		}
		if _, err := chroma.Marshal(upRegex); err != nil {
			continue // rules in Go (Go's raw strings): see TestGoAndMarkdownLexAsChromas
		}
		mine := ours.lexer().(*chroma.RegexLexer)
		got, err := mine.Rules()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(mine.Config(), up.Config()) {
			t.Errorf("%s differs from chroma's: run go generate ./ui/syntax", name)
		}
		compared++
	}
	slices.Sort(missing)
	want := slices.Sorted(slices.Values(notHere))
	if !slices.Equal(missing, want) {
		t.Errorf("lexers of chroma not here: %q, want %q", missing, want)
	}
	if compared < 250 {
		t.Errorf("compared only %d definitions with chroma's", compared)
	}
}

func tokens(t *testing.T, l chroma.Lexer, text string) []chroma.Token {
	t.Helper()
	it, err := l.Tokenise(nil, text)
	if err != nil {
		t.Fatal(err)
	}
	return it.Tokens()
}

func TestGoAndMarkdownLexAsChromas(t *testing.T) {
	src, err := os.ReadFile("registry.go")
	if err != nil {
		t.Fatal(err)
	}
	var goSrc []string // without raw strings: those are one token here
	for _, l := range strings.SplitAfter(string(src), "\n") {
		if !strings.Contains(l, "`") {
			goSrc = append(goSrc, l)
		}
	}
	md := "---\ntitle: x\ntags: [a, b]\n---\n# Title\n\nSome *emph* and **strong** and `code`, a [link](http://x).\n\n" +
		"- [x] done\n1. first\n> quote\n\n```go\nfunc main() { fmt.Println(\"hi\", 1+2) }\n```\n\n```\nplain\n```\n"
	for _, c := range []struct{ name, text string }{{"go", strings.Join(goSrc, "")}, {"markdown", md}} {
		got, want := tokens(t, Get(c.name), c.text), tokens(t, chromalexers.Get(c.name), c.text)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %d tokens here, %d in chroma; first here %v", c.name, len(got), len(want), got[:min(len(got), 8)])
		}
	}
	if got := Analyse("package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println() }\n"); got == nil || got.Config().Name != "Go" {
		t.Errorf("Analyse of Go source = %v, want Go", got)
	}
	if got := Analyse("#!/bin/bash\necho hi\n"); got == nil || got.Config().Name != "Bash" {
		t.Errorf("Analyse of a bash script = %v, want Bash", got)
	}
}

// TestNothingIsReadUntilUsed: finding lexers reads no definition; a lexer
// reads its own on first use, and the ones it uses on theirs.
func TestNothingIsReadUntilUsed(t *testing.T) {
	reg := chroma.NewLexerRegistry()
	var all []*lazyLexer
	for i := range definitions {
		z := &lazyLexer{def: &definitions[i]}
		all = append(all, z)
		reg.Register(z)
	}
	built := func() (names []string) {
		for _, z := range all {
			if z.l != nil {
				names = append(names, z.def.config.Name)
			}
		}
		return names
	}
	html := reg.Match("index.html")
	if html == nil || html.Config().Name != "HTML" || reg.Match("x.py") == nil || reg.Get("rust") == nil {
		t.Fatalf("Match(index.html) = %v", html)
	}
	if b := built(); len(b) != 0 {
		t.Fatalf("finding lexers read %q", b)
	}
	toks := tokens(t, html, "<style>p { color: red }</style>\n")
	if b := built(); !slices.Equal(b, []string{"CSS", "HTML"}) {
		t.Errorf("lexing HTML with CSS read %q, want CSS and HTML", b)
	}
	if !slices.ContainsFunc(toks, func(tok chroma.Token) bool { return tok.Type == chroma.NameTag && tok.Value == "p" }) {
		t.Errorf("the CSS in HTML was not lexed as CSS: %v", toks)
	}
}

func TestMatchAndGetAsChromas(t *testing.T) {
	for _, name := range []string{"main.go", "x.py", "Makefile", "CMakeLists.txt", "x.rs", "x.ts", "x.tsx", "a.json", "x.yaml",
		"Dockerfile", "x.sh", ".bashrc", "x.c", "x.h", "x.cpp", "x.md", "x.html", "x.go.bak", "x.unknownext", "go.mod", "x.toml"} {
		got, want := Match(name), chromalexers.Match(name)
		if (got == nil) != (want == nil) || got != nil && got.Config().Name != want.Config().Name {
			t.Errorf("Match(%q) = %v, chroma's %v", name, got, want)
		}
	}
	for _, name := range []string{"go", "python", "sh", "bash", "js", "ts", "rs", "yml", "diff", "json", "c++", "Go"} {
		got, want := Get(name), chromalexers.Get(name)
		if (got == nil) != (want == nil) || got != nil && got.Config().Name != want.Config().Name {
			t.Errorf("Get(%q) = %v, chroma's %v", name, got, want)
		}
	}
}

// TestFawnDoesNotLinkChromasRegistry: chroma's lexers package parses
// every definition while the program initialises.
func TestFawnDoesNotLinkChromasRegistry(t *testing.T) {
	goBin := filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	if os.Getenv("GOROOT") == "" {
		var err error
		if goBin, err = exec.LookPath("go"); err != nil {
			t.Skip("the go command is not on PATH")
		}
	}
	out, err := exec.Command(goBin, "list", "-deps", "github.com/fawn-ide/fawn/cmd/fawn").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if p == "github.com/alecthomas/chroma/v2/lexers" {
			t.Fatal("fawn links chroma's lexers package: its registry parses every definition at start; use ui/syntax")
		}
	}
}
