// Package llmtest owns fawn's scripted model server: an HTTP server that
// speaks OpenAI's /v1/chat/completions and Anthropic's /v1/messages
// (streaming SSE and plain JSON), OpenAI's /v1/responses and Gemini's
// /v1beta/models/M:streamGenerateContent (for agents such as Codex and
// Gemini CLI that speak only those) and /v1/models, replays a script of responses in the tool-call dialects real
// servers use, injects the faults real servers produce, and records every
// request so a test can check the history the client sent back.
//
// Tests use it through [Start] (or [NewServer]); cmd/llmserve serves a script
// file so the real fawn binary can be pointed at it with --base-url.
//
// It imports nothing of fawn; tests and the llmserve command import it,
// never fawn's own code.
package llmtest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Dialect is how a server splits tool calls into streamed fragments. Real
// OpenAI-compatible servers disagree, and a client must merge all of them.
type Dialect string

const (
	// OpenAI is what api.openai.com sends: every fragment carries its call's
	// index; the ID, type and name come only on the call's first fragment.
	OpenAI Dialect = "openai"
	// RepeatIDs repeats the index, ID and name on every fragment.
	RepeatIDs Dialect = "repeat-ids"
	// NoIndex omits "index" everywhere; the ID and name come only on a call's
	// first fragment, so later fragments belong to the call before them.
	NoIndex Dialect = "no-index"
	// WholeCalls sends each call complete (ID, name, all arguments) in one chunk.
	WholeCalls Dialect = "whole-calls"
	// IndexZero gives every call index 0; calls differ only by the ID on their
	// first fragment.
	IndexZero Dialect = "index-zero"
	// NoIDs never sends a call ID (index and name as OpenAI).
	NoIDs Dialect = "no-ids"
)

// Dialects lists every dialect, for table-driven tests.
func Dialects() []Dialect {
	return []Dialect{OpenAI, RepeatIDs, NoIndex, WholeCalls, IndexZero, NoIDs}
}

func (d Dialect) valid() bool {
	for _, x := range Dialects() {
		if d == x {
			return true
		}
	}
	return d == ""
}

// FaultKind names a failure the server injects in place of (or in the middle
// of) a response.
type FaultKind string

const (
	// RateLimit answers 429 with a Retry-After header (Fault.RetryAfter).
	RateLimit FaultKind = "rate-limit"
	// ServerError answers Fault.Status (default 500) with an OpenAI error body.
	ServerError FaultKind = "server-error"
	// ContextLength answers 400 with OpenAI's context_length_exceeded error.
	ContextLength FaultKind = "context-length"
	// Drop sends Fault.After chunks, then closes the connection mid-response.
	Drop FaultKind = "drop"
	// Stall sends Fault.After chunks, then sends nothing until Fault.Stall has
	// passed (0: until the client goes away), then the rest of the response.
	Stall FaultKind = "stall"
	// Malformed sends Fault.After chunks, then a data line that is not JSON.
	Malformed FaultKind = "malformed-json"
	// NoDone sends the whole response but ends the stream without "data: [DONE]"
	// (Anthropic: without message_stop).
	NoDone FaultKind = "no-done"
	// StreamError sends Fault.After chunks, then an error inside the stream
	// (Anthropic's overloaded_error event; for OpenAI a data line holding
	// an error object) and ends the response.
	StreamError FaultKind = "stream-error"
	// Cut sends Fault.After chunks, then ends the response cleanly: no
	// finish reason, no "data: [DONE]", as a proxy that closes early does.
	Cut FaultKind = "cut"
	// Empty answers a streaming request 200 with an empty body.
	Empty FaultKind = "empty"
	// NotSSE answers a streaming request 200 with a body that is not SSE.
	NotSSE FaultKind = "not-sse"
	// JSONBody answers a streaming request with a whole (non-streaming)
	// JSON completion, as servers that ignore "stream" do.
	JSONBody FaultKind = "json-body"
)

// Fault is a failure injected into one response.
type Fault struct {
	Kind FaultKind `json:"kind"`
	// Status is the HTTP status of a ServerError (default 500).
	Status int `json:"status,omitempty"`
	// Message is the error message in the body of an HTTP error.
	Message string `json:"message,omitempty"`
	// Body, when set, is the whole body of a ServerError, sent as
	// text/plain in place of the provider's error object: a proxy's page.
	Body string `json:"body,omitempty"`
	// RetryAfter is the Retry-After header of a RateLimit, in seconds (default 1; -1: no header).
	RetryAfter int `json:"retry_after,omitempty"`
	// After is how many SSE chunks are sent before a Drop, Stall or Malformed.
	After int `json:"after,omitempty"`
	// Stall is how long a Stall lasts (0: until the client disconnects).
	Stall Duration `json:"stall,omitempty"`
}

// ToolCall is one call the scripted model makes.
type ToolCall struct {
	// ID is the call ID; empty picks "call_<response>_<n>".
	ID        string `json:"id,omitempty"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Usage is the token usage a response reports.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	CachedTokens     int `json:"cached_tokens,omitempty"`
	// CacheWriteTokens are prompt tokens written to the cache (Anthropic's
	// cache_creation_input_tokens; part of PromptTokens).
	CacheWriteTokens int `json:"cache_write_tokens,omitempty"`
}

// Response is what the server answers to one chat completion request.
type Response struct {
	// Reasoning is streamed first, in ReasoningField ("reasoning_content", the
	// default, or "reasoning").
	Reasoning      string `json:"reasoning,omitempty"`
	ReasoningField string `json:"reasoning_field,omitempty"`
	// Signature is the signature of the Anthropic thinking block (default
	// "sig-llmtest-N").
	Signature string `json:"signature,omitempty"`
	// Text is streamed after the reasoning, before any tool call.
	Text      string     `json:"text,omitempty"`
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// Usage is sent in a trailing chunk with no choices (as OpenAI does with
	// stream_options.include_usage), or on the last chunk when UsageInLastChunk.
	Usage            *Usage `json:"usage,omitempty"`
	UsageInLastChunk bool   `json:"usage_in_last_chunk,omitempty"`
	// FinishReason defaults to "tool_calls" when there are calls, else "stop".
	FinishReason string `json:"finish_reason,omitempty"`
	// Dialect overrides the script's dialect for this response.
	Dialect Dialect `json:"dialect,omitempty"`
	// ChunkSize is the number of runes of text per chunk (default 8);
	// ArgChunkSize the number of runes of arguments per fragment (default
	// 12), which cuts through JSON strings and escapes as real servers do.
	ChunkSize    int `json:"chunk_size,omitempty"`
	ArgChunkSize int `json:"arg_chunk_size,omitempty"`
	// Delay is slept before every chunk after the first.
	Delay Duration `json:"delay,omitempty"`
	// Fault, when set, replaces or interrupts this response.
	Fault *Fault `json:"fault,omitempty"`
}

// Script is what the server replays: one Response per chat completion
// request, in order.
type Script struct {
	Responses []Response `json:"responses"`
	// Dialect is the default dialect (OpenAI when empty).
	Dialect Dialect `json:"dialect,omitempty"`
	// Loop starts over at the first response when the script runs out;
	// otherwise a request past the end gets a 400 saying so.
	Loop bool `json:"loop,omitempty"`
	// Models is what /v1/models lists (default: "llmtest").
	Models []string `json:"models,omitempty"`
	// Lenient turns off the checks of the request history that OpenAI makes
	// (every tool call answered, every tool message answering a call).
	Lenient bool `json:"lenient,omitempty"`
	// Respond, when set, answers every chat completion request in place of
	// Responses: a script too long to write out (an all-day session), or
	// one whose next answer depends on what the client sent (a subagent's
	// request or a background note arriving between a turn's steps). n
	// counts the responses handed out before this one. It is called on
	// the request's goroutine, one request at a time. It answers OpenAI's
	// chat completions only: a request of another API is told the script is over.
	Respond func(req *ChatRequest, n int) Response `json:"-"`
	// Forget keeps no request (Requests and ChatRequests stay empty): the
	// histories of a long session, each sent whole, would fill the memory.
	Forget bool `json:"forget,omitempty"`
}

// Validate reports the first thing in the script the server cannot play.
func (s Script) Validate() error {
	if !s.Dialect.valid() {
		return fmt.Errorf("dialect %q is not one of %v", s.Dialect, Dialects())
	}
	for i, r := range s.Responses {
		where := fmt.Sprintf("responses[%d]", i)
		if !r.Dialect.valid() {
			return fmt.Errorf("%s: dialect %q is not one of %v", where, r.Dialect, Dialects())
		}
		if r.ReasoningField != "" && r.ReasoningField != "reasoning_content" && r.ReasoningField != "reasoning" {
			return fmt.Errorf("%s: reasoning_field %q: want reasoning_content or reasoning", where, r.ReasoningField)
		}
		for j, c := range r.ToolCalls {
			if c.Name == "" {
				return fmt.Errorf("%s.tool_calls[%d]: name is empty", where, j)
			}
		}
		if f := r.Fault; f != nil {
			switch f.Kind {
			case RateLimit, ServerError, ContextLength, Drop, Stall, Malformed, NoDone, StreamError, Cut, Empty, NotSSE, JSONBody:
			default:
				return fmt.Errorf("%s.fault.kind %q: want one of rate-limit, server-error, context-length, drop, stall, malformed-json, no-done, stream-error, cut, empty, not-sse, json-body", where, f.Kind)
			}
			if f.Kind == ServerError && f.Status != 0 && (f.Status < 400 || f.Status > 599) {
				return fmt.Errorf("%s.fault.status %d: want an HTTP error status (400-599)", where, f.Status)
			}
		}
	}
	return nil
}

// LoadScript reads a script from a .json, .yaml or .yml file.
func LoadScript(path string) (Script, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Script{}, err
	}
	var s Script
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml":
		// Decode YAML generically and go through JSON, so the json tags (and
		// Duration's parsing) are the only field names there are.
		var v any
		if err := yaml.Unmarshal(data, &v); err != nil {
			return Script{}, fmt.Errorf("%s: %w", path, err)
		}
		if data, err = json.Marshal(v); err != nil {
			return Script{}, fmt.Errorf("%s: %w", path, err)
		}
		fallthrough
	case ".json":
		dec := json.NewDecoder(strings.NewReader(string(data)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&s); err != nil {
			return Script{}, fmt.Errorf("%s: %w", path, err)
		}
	default:
		return Script{}, fmt.Errorf("%s: want a .json, .yaml or .yml file", path)
	}
	if err := s.Validate(); err != nil {
		return Script{}, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// Duration is a time.Duration that reads from JSON as "1.5s" or as milliseconds.
type Duration time.Duration

// D returns d as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// MarshalJSON writes d as a Go duration string.
func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).String())
}

// UnmarshalJSON accepts "250ms", "2s" or a number of milliseconds.
func (d *Duration) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(string(b))
	if s == "null" {
		return nil
	}
	if uq, err := strconv.Unquote(s); err == nil {
		v, err := time.ParseDuration(uq)
		if err != nil {
			return fmt.Errorf("duration %q: want e.g. \"250ms\" or \"2s\"", uq)
		}
		*d = Duration(v)
		return nil
	}
	ms, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("duration %s: want e.g. \"250ms\" or a number of milliseconds", s)
	}
	*d = Duration(time.Duration(ms * float64(time.Millisecond)))
	return nil
}
