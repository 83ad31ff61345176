// Package syntax owns the lexers fawn highlights code with: chroma's XML
// definitions, copied unchanged into embedded/ with a table of their
// names, aliases, file names and MIME types (table.go), both written by
// `go generate` (gen/) from the chroma version go.mod requires, and the
// two lexers chroma writes in Go that fawn needs (Go and Markdown).
//
// chroma's own registry (github.com/alecthomas/chroma/v2/lexers) parses
// every definition while the program initialises (~12 ms and 2.7 MB at
// every start, even `fawn --version`). Here nothing is parsed before a
// lexer is asked for: Get, Match and Analyse answer from the table, and a
// lexer reads its definition on its first Tokenise. fawn must not import
// chroma's lexers package (TestFawnDoesNotLinkChromasRegistry).
//
// Lexers chroma writes only in Go, other than Go and Markdown (Caddyfile,
// Gemtext, Genshi, Haxe, HTTP, Markless, PHTML, Raku, reStructuredText,
// Svelte, YAML+Jinja, the Go templates), are not here: such files show as
// plain text. Common Lisp, Emacs Lisp and ERB come from their definitions
// without chroma's Go wrappers (the Lisps' remapping of builtin names,
// ERB's HTML around the Ruby).
//
// It imports nothing from fawn; ui/render and ui/editor import it.
package syntax

//go:generate go run ./gen
