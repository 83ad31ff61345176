package lexers

import (
	"embed"
	"io/fs"
	"sync"
	"sync/atomic"

	"github.com/alecthomas/chroma/v2"
)

//go:embed embedded
var embedded embed.FS

// GlobalLexerRegistry is the global LexerRegistry of Lexers.
//
// fawn patch: it starts empty and is filled on first use (Registry, or any
// function below), not while the package initialises: parsing the embedded
// XML definitions was the largest cost of starting a program that links
// this package. Code that reads GlobalLexerRegistry's fields directly must
// call Registry first.
var GlobalLexerRegistry = chroma.NewLexerRegistry()

var (
	loadMu  sync.Mutex
	loaded  atomic.Bool
	pending []chroma.Lexer // Go-defined lexers registered before the load
	hooks   []func()       // set-up waiting for the load (see whenLoaded)
)

// Registry returns GlobalLexerRegistry, loading the embedded lexers into it
// first if that has not happened yet. It is safe for concurrent use.
func Registry() *chroma.LexerRegistry {
	if loaded.Load() {
		return GlobalLexerRegistry
	}
	loadMu.Lock()
	defer loadMu.Unlock()
	if loaded.Load() {
		return GlobalLexerRegistry
	}
	paths, err := fs.Glob(embedded, "embedded/*.xml")
	if err != nil {
		panic(err)
	}
	for _, path := range paths {
		GlobalLexerRegistry.Register(chroma.MustNewXMLLexer(embedded, path))
	}
	for _, l := range pending {
		GlobalLexerRegistry.Register(l)
	}
	for _, f := range hooks {
		f()
	}
	pending, hooks = nil, nil
	loaded.Store(true)
	return GlobalLexerRegistry
}

// whenLoaded runs f once the registry is loaded: now, if it already is. f
// must use GlobalLexerRegistry directly, not Get or Registry.
func whenLoaded(f func()) {
	loadMu.Lock()
	defer loadMu.Unlock()
	if loaded.Load() {
		f()
		return
	}
	hooks = append(hooks, f)
}

// Names of all lexers, optionally including aliases.
func Names(withAliases bool) []string {
	return Registry().Names(withAliases)
}

// Aliases of all the lexers, and skip those lexers who do not have any aliases,
// or show their name instead
func Aliases(skipWithoutAliases bool) []string {
	return Registry().Aliases(skipWithoutAliases)
}

// Get a Lexer by name, alias or file extension.
//
// Note that this if there isn't an exact match on name or alias, this will
// call Match(), so it is not efficient.
func Get(name string) chroma.Lexer {
	return Registry().Get(name)
}

// MatchMimeType attempts to find a lexer for the given MIME type.
func MatchMimeType(mimeType string) chroma.Lexer {
	return Registry().MatchMimeType(mimeType)
}

// Match returns the first lexer matching filename.
//
// Note that this iterates over all file patterns in all lexers, so it's not
// particularly efficient.
func Match(filename string) chroma.Lexer {
	return Registry().Match(filename)
}

// Register a Lexer with the global registry.
func Register(lexer chroma.Lexer) chroma.Lexer {
	loadMu.Lock()
	defer loadMu.Unlock()
	if loaded.Load() {
		return GlobalLexerRegistry.Register(lexer)
	}
	pending = append(pending, lexer)
	return lexer
}

// Analyse text content and return the "best" lexer..
func Analyse(text string) chroma.Lexer {
	return Registry().Analyse(text)
}

// PlaintextRules is used for the fallback lexer as well as the explicit
// plaintext lexer.
func PlaintextRules() chroma.Rules {
	return chroma.Rules{
		"root": []chroma.Rule{
			{`.+`, chroma.Text, nil},
			{`\n`, chroma.Text, nil},
		},
	}
}

// Fallback lexer if no other is found.
var Fallback chroma.Lexer = chroma.MustNewLexer(&chroma.Config{
	Name:      "fallback",
	Filenames: []string{"*"},
	Priority:  -1,
}, PlaintextRules)
