package tools

import "context"

// CodeIntel is what the language servers (package lsp) offer the tools:
// diagnostics after an edit, and questions about the code. Its methods
// are safe for concurrent use and bounded in time.
type CodeIntel interface {
	// AfterEdit tells the file's server that abs now holds content and
	// returns what the model should hear of its diagnostics ("" when no
	// server serves the file).
	AfterEdit(ctx context.Context, abs string, content []byte) string
	// AfterCommand tells the servers that an agent command changed these
	// files and returns what the model should hear of their diagnostics
	// ("" when no server serves them).
	AfterCommand(ctx context.Context, abs []string) string
	// Diagnostics reports the known problems of abs, or of the whole
	// project when abs is "".
	Diagnostics(ctx context.Context, abs string) (string, error)
	// Locate answers "definition" or "references" at a one-based line and
	// column (in characters) of abs.
	Locate(ctx context.Context, what, abs string, line, col int) ([]CodeLocation, error)
	// Hover is the server's description of what is at line and column.
	Hover(ctx context.Context, abs string, line, col int) (string, error)
	// Symbols lists the symbols of abs, or, with abs "", those of the
	// project matching query.
	Symbols(ctx context.Context, abs, query string) ([]CodeSymbol, error)
}

// CodeLocation is a place in a file: one-based line and column.
type CodeLocation struct {
	Path      string
	Line, Col int
	// Text is the line's text.
	Text string
}

// CodeSymbol is one symbol a server knows.
type CodeSymbol struct {
	Name, Kind, Detail string
	// Depth is the nesting in a file's outline (0 at the top).
	Depth int
	CodeLocation
}

// hiddenKey keys the check WithHidden puts in a context.
type hiddenKey struct{}

// WithHidden gives the code intelligence called with ctx the files it must
// neither name nor quote to the model (those the user's Read deny rules
// forbid): a server reports on every file of the project, and its
// messages quote the code.
func WithHidden(ctx context.Context, hidden func(abs string) bool) context.Context {
	if hidden == nil {
		return ctx
	}
	return context.WithValue(ctx, hiddenKey{}, hidden)
}

// Hidden reports whether abs must not be named or quoted under ctx.
func Hidden(ctx context.Context, abs string) bool {
	h, _ := ctx.Value(hiddenKey{}).(func(string) bool)
	return h != nil && h(abs)
}
