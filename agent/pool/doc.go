// Package pool owns the request slots of fawn's model endpoints: each entry
// of models (chat_model, each models.named.NAME) may carry at most its
// parallel requests at once, whichever client, session or subagent sends
// them. A [Set] is built from the configuration by the session that owns
// it and shared with every client built for its entries (SetModel's, the
// subagents'); nothing here is global. A [Model] wraps a chat model so that
// each request holds one slot from the request until its stream ends,
// fails or is given up (its request's context ends) — one round-trip,
// never a whole turn, so a subagent waiting for a slot never holds one its
// parent needs.
//
// A Model over several endpoints (a subagent's, across models.background
// and chat_model) sends each request to the first of them with a free
// slot, and waits for the first slot to free when all are busy.
//
// The Set also keeps which endpoints failed over and until when they are
// skipped (models.failover_cooldown).
//
// It imports config; package agent imports it.
package pool
