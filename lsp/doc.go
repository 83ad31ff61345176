// Package lsp owns fawn's language servers: which ones a project gets
// (built-in defaults for gopls, typescript-language-server, pyright or
// pylsp, rust-analyzer and clangd, changed or added by the lsp.*
// configuration), starting each lazily in the background on the first file
// of its language the agent or the user opens, restarting one that crashes
// (with backoff, and reported), and talking to it: JSON-RPC 2.0 over its
// stdin and stdout through sourcegraph/jsonrpc2, with a deadline on every
// request so that a hung server never hangs fawn.
//
// It keeps the diagnostics the servers publish. After an agent edit
// ([Manager.AfterEdit]) it tells the server, waits briefly for fresh
// diagnostics and reports what the edit newly broke, apart from what was
// broken before. Diagnostics count as the server's analysis only when it
// published them with no work-done progress open ($/progress: a server
// loading or indexing the project publishes empty lists for files it has
// not analysed); until then an edit is "not checked yet", never "no
// errors". The UI gets every publication ([Options.OnDiagnostics])
// for its gutter marks. It answers definition, references, hover and
// symbol queries for the agent's tools and the editor.
//
// A language server runs on the project's code, and some run the
// project's own programs (rust-analyzer its build scripts, tsserver the
// plugins a tsconfig names), so a server starts only when the trust
// decision allows its [Item] ([Items] lists those a project would start).
//
// It imports tools, trust and internal/proc; ui and cmd/fawn import it.
package lsp
