package lexers

import (
	"github.com/alecthomas/chroma/v2"
)

// HTML lexer.
var HTML = lazyLexer(func() chroma.Lexer { // fawn patch: built on first use
	return chroma.MustNewXMLLexer(embedded, "embedded/html.xml")
})
