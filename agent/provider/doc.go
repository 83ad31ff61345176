// Package provider owns turning a model entry of the configuration
// (models.chat_model, models.named.*) into a ready eino chat model client —
// fawn's own clients, over plain HTTP and server-sent events, of any
// OpenAI-compatible server's chat completions and of Anthropic's Messages
// API, or the offline demo model — and the plumbing that depends on which
// server answers: the HTTP transport that records each response's status
// and Retry-After, reading a provider's error for its status and the
// server's own words, and normalising the tool-call fragments of a streamed
// answer, whatever the server's dialect.
//
// [New] is a pure constructor: a configuration in, a client (or the
// mistake in the configuration) out; it does no I/O and keeps no state.
// The turn loop, what is retried and how long fawn waits, and what the user
// is told stay in package agent, which is what imports this one. Of fawn
// it imports only config and internal/words.
package provider
