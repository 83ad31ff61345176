package syntax

import (
	"embed"
	"sync"

	"github.com/alecthomas/chroma/v2"
)

//go:embed embedded/*.xml
var embedded embed.FS

// definition is one lexer of the table: its file under embedded/ (empty
// for a lexer written in Go here), whether it scores text (Analyse), and
// the part of its configuration that finding it needs.
type definition struct {
	file    string
	analyse bool
	config  chroma.Config
}

// registry is built on the first Get, Match or Analyse: one proxy per
// definition, registered in chroma's order (the XML definitions, then the
// ones written in Go), so chroma's registry ranks them as it would its
// own. It is never changed after.
var registry = sync.OnceValue(func() *chroma.LexerRegistry {
	reg := chroma.NewLexerRegistry()
	for i := range definitions {
		reg.Register(&lazyLexer{def: &definitions[i]})
	}
	for _, n := range native {
		reg.Register(&lazyLexer{def: &n.def, build: n.build})
	}
	return reg
})

// Get finds a lexer by name or alias ("go", "Python"), or failing that as
// a file extension or name, as chroma's lexers.Get does; nil if none.
func Get(name string) chroma.Lexer { return registry().Get(name) }

// Match finds the lexer for a file name, as chroma's lexers.Match does;
// nil if none.
func Match(filename string) chroma.Lexer { return registry().Match(filename) }

// Analyse picks the lexer that scores text highest, among those whose
// definition scores text (shebangs, modelines, first lines); nil if none.
func Analyse(text string) chroma.Lexer { return registry().Analyse(text) }

// Warm reads and compiles the definitions of the named lexers on the
// calling goroutine, so that a later first use does not wait for them.
func Warm(names ...string) {
	for _, n := range names {
		if l := Get(n); l != nil {
			if it, err := l.Tokenise(nil, "\n"); err == nil {
				it.Tokens()
			}
		}
	}
}

// Configs are the configurations of every lexer, in registration order,
// for callers that index file name patterns themselves.
func Configs() []*chroma.Config {
	reg := registry()
	out := make([]*chroma.Config, len(reg.Lexers))
	for i, l := range reg.Lexers {
		out[i] = l.Config()
	}
	return out
}

// lazyLexer stands for a lexer until it is used: it answers Config from
// the table and reads its definition on its first Tokenise (or AnalyseText,
// for one that scores text). Lexers that use others ("Using" in a
// definition: CSS in HTML) find them through the registry, as proxies.
type lazyLexer struct {
	def   *definition
	build func() chroma.Lexer // a lexer written in Go; nil for a definition
	once  sync.Once
	l     chroma.Lexer
	reg   *chroma.LexerRegistry
}

var _ chroma.Analyser = (*lazyLexer)(nil)

func (z *lazyLexer) lexer() chroma.Lexer {
	z.once.Do(func() {
		if z.build != nil {
			z.l = z.build()
		} else if l, err := chroma.NewXMLLexer(embedded, "embedded/"+z.def.file); err == nil {
			z.l = l
		} else {
			// TestEveryDefinitionLoads keeps this from happening; a
			// definition that does not load shows its files as plain text.
			z.l = chroma.MustNewLexer(&chroma.Config{Name: z.def.config.Name}, plaintextRules)
		}
		z.l.SetRegistry(z.reg)
	})
	return z.l
}

func (z *lazyLexer) Config() *chroma.Config { return &z.def.config }

func (z *lazyLexer) Tokenise(options *chroma.TokeniseOptions, text string) (chroma.Iterator, error) {
	return z.lexer().Tokenise(options, text)
}

// SetRegistry is called by Register, before any use.
func (z *lazyLexer) SetRegistry(reg *chroma.LexerRegistry) chroma.Lexer {
	z.reg = reg
	return z
}

// SetAnalyser is not supported: a lexer scores text as its definition says.
func (z *lazyLexer) SetAnalyser(func(string) float32) chroma.Lexer { return z }

func (z *lazyLexer) AnalyseText(text string) float32 {
	if !z.def.analyse {
		return 0
	}
	if a, ok := z.lexer().(chroma.Analyser); ok {
		return a.AnalyseText(text)
	}
	return 0
}

func plaintextRules() chroma.Rules {
	return chroma.Rules{"root": {{Pattern: `.+`, Type: chroma.Text}, {Pattern: `\n`, Type: chroma.Text}}}
}
