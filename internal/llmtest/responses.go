package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// The OpenAI Responses API (POST /v1/responses), streamed, as agents that
// speak only it (Codex) call it: the script's next response is sent as
// the API's typed events — response.created, an output item per text or
// function call with its deltas, response.completed with the usage. Only
// what those agents read is served: a request that does not ask for a
// stream is refused, reasoning is not sent, and faults are not played.

// responsesRequest is what the server reads of a Responses request.
type responsesRequest struct {
	Model  string `json:"model"`
	Stream bool   `json:"stream"`
}

func (s *Server) responses(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	s.record(r, body)
	if r.Method == http.MethodGet {
		// A WebSocket upgrade (Codex tries one first): 426 sends the
		// client to HTTP at once (a 404 makes Codex try again six times).
		writeError(w, http.StatusUpgradeRequired, "invalid_request_error", "llmtest: responses are served over HTTP only, not a WebSocket")
		return
	}
	var req responsesRequest
	if r.Method != http.MethodPost || err != nil || json.Unmarshal(body, &req) != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "llmtest: responses want a POSTed JSON body")
		return
	}
	if !req.Stream {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "llmtest: only streamed responses are served (set stream: true)")
		return
	}
	resp, n, ok := s.take()
	if !ok {
		writeError(w, http.StatusBadRequest, "invalid_request_error", fmt.Sprintf("llmtest: the script is over: request %d has no response left", s.Served()+1))
		return
	}
	flusher, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	for i, ev := range renderResponses(resp, n, req.Model) {
		if i > 0 && resp.Delay > 0 && !s.wait(r, resp.Delay.D()) {
			return
		}
		if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev.name, ev.data); err != nil {
			return
		}
		if flusher != nil {
			flusher.Flush()
		}
	}
}

// renderResponses turns a response into the Responses API's events.
func renderResponses(resp Response, n int, model string) []sseEvent {
	var out []sseEvent
	seq := 0
	add := func(name string, v map[string]any) {
		v["type"] = name
		v["sequence_number"] = seq
		seq++
		b, err := json.Marshal(v)
		if err != nil {
			panic("llmtest: " + err.Error()) // only maps of plain values
		}
		out = append(out, sseEvent{name, string(b)})
	}
	id := fmt.Sprintf("resp_llmtest_%d", n)
	created := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	envelope := func(status string, output []any) map[string]any {
		return map[string]any{"id": id, "object": "response", "created_at": created, "status": status, "model": model, "output": output}
	}
	add("response.created", map[string]any{"response": envelope("in_progress", []any{})})
	size := resp.ChunkSize
	if size <= 0 {
		size = 8
	}
	var items []any
	if resp.Text != "" {
		ix, itemID := len(items), fmt.Sprintf("msg_llmtest_%d", n)
		add("response.output_item.added", map[string]any{"output_index": ix, "item": map[string]any{
			"id": itemID, "type": "message", "status": "in_progress", "role": "assistant", "content": []any{}}})
		add("response.content_part.added", map[string]any{"item_id": itemID, "output_index": ix, "content_index": 0,
			"part": map[string]any{"type": "output_text", "text": "", "annotations": []any{}}})
		for _, p := range splitRunes(resp.Text, size) {
			add("response.output_text.delta", map[string]any{"item_id": itemID, "output_index": ix, "content_index": 0, "delta": p})
		}
		part := map[string]any{"type": "output_text", "text": resp.Text, "annotations": []any{}}
		add("response.output_text.done", map[string]any{"item_id": itemID, "output_index": ix, "content_index": 0, "text": resp.Text})
		add("response.content_part.done", map[string]any{"item_id": itemID, "output_index": ix, "content_index": 0, "part": part})
		item := map[string]any{"id": itemID, "type": "message", "status": "completed", "role": "assistant", "content": []any{part}}
		add("response.output_item.done", map[string]any{"output_index": ix, "item": item})
		items = append(items, item)
	}
	argSize := resp.ArgChunkSize
	if argSize <= 0 {
		argSize = 12
	}
	for i, c := range resp.ToolCalls {
		ix, itemID := len(items), fmt.Sprintf("fc_llmtest_%d_%d", n, i)
		callID := c.ID
		if callID == "" {
			callID = fmt.Sprintf("call_llmtest_%d_%d", n, i)
		}
		add("response.output_item.added", map[string]any{"output_index": ix, "item": map[string]any{
			"id": itemID, "type": "function_call", "status": "in_progress", "call_id": callID, "name": c.Name, "arguments": ""}})
		for _, p := range splitRunes(c.Arguments, argSize) {
			add("response.function_call_arguments.delta", map[string]any{"item_id": itemID, "output_index": ix, "delta": p})
		}
		add("response.function_call_arguments.done", map[string]any{"item_id": itemID, "output_index": ix, "arguments": c.Arguments})
		item := map[string]any{"id": itemID, "type": "function_call", "status": "completed", "call_id": callID, "name": c.Name, "arguments": c.Arguments}
		add("response.output_item.done", map[string]any{"output_index": ix, "item": item})
		items = append(items, item)
	}
	done := envelope("completed", items)
	in, outTok, cached := 0, 0, 0
	if u := resp.Usage; u != nil {
		in, outTok, cached = u.PromptTokens, u.CompletionTokens, u.CachedTokens
	}
	done["usage"] = map[string]any{"input_tokens": in, "input_tokens_details": map[string]any{"cached_tokens": cached},
		"output_tokens": outTok, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": in + outTok}
	add("response.completed", map[string]any{"response": done})
	return out
}
