package syntax

// The Go and Markdown lexers are chroma's (v2.27.0, lexers/go.go and
// lexers/markdown.go, MIT: embedded/COPYING), which chroma writes in Go
// rather than as definitions. Two differences: a raw string in Go is one
// string token (chroma lexes it as a Go text template), and Markdown's
// front matter and fenced code find their lexers here.

import (
	"strings"

	. "github.com/alecthomas/chroma/v2" //nolint:revive // chroma's rule tables read as its own
)

// native are the lexers written in Go here, registered after the
// definitions as chroma registers its own.
var native = [...]struct {
	def   definition
	build func() Lexer
}{
	{definition{analyse: true, config: goConfig}, goLexer},
	{definition{config: markdownConfig}, markdownLexer},
}

var (
	goConfig       = Config{Name: "Go", Aliases: []string{"go", "golang"}, Filenames: []string{"*.go"}, MimeTypes: []string{"text/x-gosrc"}}
	markdownConfig = Config{Name: "markdown", Aliases: []string{"md", "mkd"}, Filenames: []string{"*.md", "*.mkd", "*.markdown"}, MimeTypes: []string{"text/x-markdown"}}
)

func goLexer() Lexer {
	return MustNewLexer(new(goConfig), goRules).SetAnalyser(func(text string) float32 {
		if strings.Contains(text, "fmt.") && strings.Contains(text, "package ") {
			return 0.5
		}
		if strings.Contains(text, "package ") {
			return 0.1
		}
		return 0.0
	})
}

func goRules() Rules {
	return Rules{
		"root": {
			rule(`\n`, TextWhitespace, nil),
			rule(`\s+`, TextWhitespace, nil),
			rule(`//[^\s\n\r][^\n\r]*`, CommentPreproc, nil),
			rule(`//[^\n\r]*`, CommentSingle, nil),
			rule(`/(\\\n)?[*](.|\n)*?[*](\\\n)?/`, CommentMultiline, nil),
			rule(`(import|package)\b`, KeywordNamespace, nil),
			rule(`(var|func|struct|map|chan|type|interface|const)\b`, KeywordDeclaration, nil),
			rule(Words(``, `\b`, `break`, `default`, `select`, `case`, `defer`, `go`, `else`, `goto`, `switch`, `fallthrough`, `if`, `range`, `continue`, `for`, `return`), Keyword, nil),
			rule(`(true|false|iota|nil)\b`, KeywordConstant, nil),
			rule(Words(``, `\b(\()`, `uint`, `uint8`, `uint16`, `uint32`, `uint64`, `int`, `int8`, `int16`, `int32`, `int64`, `float`, `float32`, `float64`, `complex64`, `complex128`, `byte`, `rune`, `string`, `bool`, `error`, `uintptr`, `print`, `println`, `panic`, `recover`, `close`, `complex`, `real`, `imag`, `len`, `cap`, `append`, `copy`, `delete`, `new`, `make`, `clear`, `min`, `max`), ByGroups(NameBuiltin, Punctuation), nil),
			rule(Words(``, `\b`, `uint`, `uint8`, `uint16`, `uint32`, `uint64`, `int`, `int8`, `int16`, `int32`, `int64`, `float`, `float32`, `float64`, `complex64`, `complex128`, `byte`, `rune`, `string`, `bool`, `error`, `uintptr`, `any`), KeywordType, nil),
			rule(`\d+i`, LiteralNumber, nil),
			rule(`\d+\.\d*([Ee][-+]\d+)?i`, LiteralNumber, nil),
			rule(`\.\d+([Ee][-+]\d+)?i`, LiteralNumber, nil),
			rule(`\d+[Ee][-+]\d+i`, LiteralNumber, nil),
			rule(`\d+(\.\d+[eE][+\-]?\d+|\.\d*|[eE][+\-]?\d+)`, LiteralNumberFloat, nil),
			rule(`\.\d+([eE][+\-]?\d+)?`, LiteralNumberFloat, nil),
			rule(`0[0-7]+`, LiteralNumberOct, nil),
			rule(`0[xX][0-9a-fA-F_]+`, LiteralNumberHex, nil),
			rule(`0b[01_]+`, LiteralNumberBin, nil),
			rule(`(0|[1-9][0-9_]*)`, LiteralNumberInteger, nil),
			rule(`'(\\['"\\abfnrtv]|\\x[0-9a-fA-F]{2}|\\[0-7]{1,3}|\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8}|[^\\])'`, LiteralStringChar, nil),
			rule("`[^`]*`", LiteralString, nil),
			rule(`"(\\\\|\\"|[^"])*"`, LiteralString, nil),
			rule(`(<<=|>>=|<<|>>|<=|>=|&\^=|&\^|\+=|-=|\*=|/=|%=|&=|\|=|&&|\|\||<-|\+\+|--|==|!=|:=|\.\.\.|[+\-*/%&])`, Operator, nil),
			rule(`([a-zA-Z_]\w*)(\s*)(\()`, ByGroups(NameFunction, UsingSelf("root"), Punctuation), nil),
			rule(`[|^<>=!()\[\]{}.,;:~]`, Punctuation, nil),
			rule(`[^\W\d]\w*`, NameOther, nil),
		},
	}
}

// rule is a chroma Rule written as chroma's tables write it.
func rule(pattern string, typ Emitter, mutator Mutator) Rule {
	return Rule{Pattern: pattern, Type: typ, Mutator: mutator}
}
