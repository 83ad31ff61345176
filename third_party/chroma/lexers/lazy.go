package lexers

import (
	"sync"

	"github.com/alecthomas/chroma/v2"
)

// fawn patch: lexers that upstream builds while the package initialises
// (reading their XML definitions, building remapping tables) are built on
// first use instead, through lazyLexer. Registering one asks for its
// Config, so the registry's load builds them; until then nothing is read.

// lazy is a Lexer built by build when first used.
type lazy struct {
	once  sync.Once
	build func() chroma.Lexer
	l     chroma.Lexer
}

// lazyLexer returns a Lexer that calls build on first use.
func lazyLexer(build func() chroma.Lexer) chroma.Lexer {
	return &lazy{build: build}
}

func (z *lazy) get() chroma.Lexer {
	z.once.Do(func() { z.l = z.build() })
	return z.l
}

func (z *lazy) Config() *chroma.Config { return z.get().Config() }

func (z *lazy) Tokenise(options *chroma.TokeniseOptions, text string) (chroma.Iterator, error) {
	return z.get().Tokenise(options, text)
}

func (z *lazy) SetRegistry(registry *chroma.LexerRegistry) chroma.Lexer {
	z.get().SetRegistry(registry)
	return z
}

func (z *lazy) SetAnalyser(analyser func(text string) float32) chroma.Lexer {
	z.get().SetAnalyser(analyser)
	return z
}

func (z *lazy) AnalyseText(text string) float32 { return z.get().AnalyseText(text) }
