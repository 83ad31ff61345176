// Package secret owns what fawn does with the secrets it holds (model keys,
// a password in a server's URL) so that they reach only the server they are
// for: it takes the key variables out of fawn's own process environment once
// the configuration has read them (Unsetenv), and it redacts secrets from
// every text fawn shows or stores (Redactor, URL).
//
// Why both halves of Unsetenv: os.Unsetenv changes Go's copy of the
// environment, which is what children inherit, but the kernel shows any
// process of the same user the environment block fawn was started with as
// /proc/PID/environ, and that block is fawn's own memory which no Go call
// changes. Unsetenv overwrites the variables there too, so the agent's
// shell reading /proc/$PPID/environ finds nothing.
//
// What this does not cover: a process allowed to ptrace fawn (root, or the
// same user where kernel.yama.ptrace_scope is 0) can read the key from
// fawn's memory through /proc/PID/mem, as from any program that uses a key.
//
// It imports nothing of fawn; agent, config, mcp, ui and cmd/fawn import it.
package secret
