package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// The Gemini API (POST /v1beta/models/MODEL:streamGenerateContent?alt=sse
// and :generateContent), as agents that speak only it (Gemini CLI) call
// it: the script's next response is sent as candidates whose parts carry
// the text in chunks and each call as a functionCall, the last chunk with
// the finish reason and the usage. :countTokens answers an estimate.
// Faults are not played.

func (s *Server) gemini(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	s.record(r, body)
	_, method, ok := strings.Cut(strings.TrimPrefix(r.URL.Path, "/v1beta/models/"), ":")
	if r.Method != http.MethodPost || err != nil || !ok || !json.Valid(body) {
		writeGeminiError(w, http.StatusBadRequest, "llmtest: Gemini wants POST /v1beta/models/MODEL:METHOD with a JSON body")
		return
	}
	if method == "countTokens" {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"totalTokens": len(body) / 4})
		return
	}
	if method != "streamGenerateContent" && method != "generateContent" {
		writeGeminiError(w, http.StatusNotFound, "llmtest: no Gemini method "+method)
		return
	}
	resp, _, ok := s.take()
	if !ok {
		writeGeminiError(w, http.StatusBadRequest, fmt.Sprintf("llmtest: the script is over: request %d has no response left", s.Served()+1))
		return
	}
	chunks := renderGemini(resp)
	if method == "generateContent" {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(wholeGemini(resp))
		return
	}
	flusher, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	for i, c := range chunks {
		if i > 0 && resp.Delay > 0 && !s.wait(r, resp.Delay.D()) {
			return
		}
		b, _ := json.Marshal(c)
		if _, err := fmt.Fprintf(w, "data: %s\r\n\r\n", b); err != nil {
			return
		}
		if flusher != nil {
			flusher.Flush()
		}
	}
}

// geminiUsage is a response's usageMetadata.
func geminiUsage(resp Response) map[string]any {
	in, out := 0, 0
	if u := resp.Usage; u != nil {
		in, out = u.PromptTokens, u.CompletionTokens
	}
	return map[string]any{"promptTokenCount": in, "candidatesTokenCount": out, "totalTokenCount": in + out}
}

// geminiCalls are a response's calls as functionCall parts.
func geminiCalls(resp Response) []any {
	var parts []any
	for _, c := range resp.ToolCalls {
		var args any = map[string]any{}
		if c.Arguments != "" {
			_ = json.Unmarshal([]byte(c.Arguments), &args)
		}
		parts = append(parts, map[string]any{"functionCall": map[string]any{"name": c.Name, "args": args}})
	}
	return parts
}

func geminiChunk(parts []any, finish string, resp Response) map[string]any {
	cand := map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "index": 0}
	out := map[string]any{"candidates": []any{cand}, "modelVersion": "llmtest"}
	if finish != "" {
		cand["finishReason"] = finish
		out["usageMetadata"] = geminiUsage(resp)
	}
	return out
}

// renderGemini turns a response into streamed chunks.
func renderGemini(resp Response) []map[string]any {
	size := resp.ChunkSize
	if size <= 0 {
		size = 8
	}
	var out []map[string]any
	for _, p := range splitRunes(resp.Text, size) {
		out = append(out, geminiChunk([]any{map[string]any{"text": p}}, "", resp))
	}
	last := geminiCalls(resp)
	if len(last) == 0 {
		last = []any{map[string]any{"text": ""}}
	}
	return append(out, geminiChunk(last, "STOP", resp))
}

// wholeGemini is a response not streamed.
func wholeGemini(resp Response) map[string]any {
	parts := geminiCalls(resp)
	if resp.Text != "" {
		parts = append([]any{map[string]any{"text": resp.Text}}, parts...)
	}
	return geminiChunk(parts, "STOP", resp)
}

func writeGeminiError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"code": status, "message": msg, "status": "INVALID_ARGUMENT"}})
}
