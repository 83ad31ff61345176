package llmtest

import (
	"encoding/json"
	"fmt"
)

// renderChunks turns a response into the JSON of its SSE chunks, in the
// response's dialect: reasoning, then text, then tool calls, then the finish
// chunk and (unless it rides on the last chunk) the usage chunk.
func renderChunks(resp Response, n int, model string) []string {
	id := fmt.Sprintf("chatcmpl-llmtest-%d", n)
	var chunks []map[string]any
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{
			"id":      id,
			"object":  "chat.completion.chunk",
			"created": 1700000000,
			"model":   model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}},
		}
	}
	first := true
	add := func(delta map[string]any) {
		if first {
			delta["role"] = "assistant"
			first = false
		}
		chunks = append(chunks, chunk(delta, nil))
	}

	size := resp.ChunkSize
	if size <= 0 {
		size = 8
	}
	for _, piece := range splitRunes(resp.Reasoning, size) {
		add(map[string]any{reasoningField(resp): piece})
	}
	for _, piece := range splitRunes(resp.Text, size) {
		add(map[string]any{"content": piece})
	}

	argSize := resp.ArgChunkSize
	if argSize <= 0 {
		argSize = 12
	}
	d := resp.Dialect
	for i, c := range resp.ToolCalls {
		cid := callID(c, n, i)
		if d == WholeCalls {
			add(map[string]any{"tool_calls": []any{map[string]any{
				"index": i, "id": cid, "type": "function",
				"function": map[string]any{"name": c.Name, "arguments": c.Arguments},
			}}})
			continue
		}
		pieces := splitRunes(c.Arguments, argSize)
		// The first fragment names the call; its arguments are empty as OpenAI sends them.
		pieces = append([]string{""}, pieces...)
		for j, p := range pieces {
			frag := map[string]any{"function": map[string]any{"arguments": p}}
			head := j == 0
			switch d {
			case OpenAI:
				frag["index"] = i
			case RepeatIDs:
				frag["index"] = i
				head = true
			case IndexZero:
				frag["index"] = 0
			case NoIDs:
				frag["index"] = i
			case NoIndex:
			}
			if head {
				if d != NoIDs {
					frag["id"] = cid
				}
				frag["type"] = "function"
				frag["function"].(map[string]any)["name"] = c.Name
			}
			add(map[string]any{"tool_calls": []any{frag}})
		}
	}

	finish := chunk(map[string]any{}, finishReason(resp))
	if first {
		finish["choices"].([]any)[0].(map[string]any)["delta"] = map[string]any{"role": "assistant", "content": ""}
	}
	if resp.Usage != nil && resp.UsageInLastChunk {
		finish["usage"] = usageJSON(resp.Usage)
	}
	chunks = append(chunks, finish)
	if resp.Usage != nil && !resp.UsageInLastChunk {
		chunks = append(chunks, map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": 1700000000, "model": model,
			"choices": []any{}, "usage": usageJSON(resp.Usage),
		})
	}

	out := make([]string, len(chunks))
	for i, c := range chunks {
		b, err := json.Marshal(c)
		if err != nil {
			panic("llmtest: " + err.Error()) // only maps of plain values: cannot happen
		}
		out[i] = string(b)
	}
	return out
}

func callID(c ToolCall, n, i int) string {
	if c.ID != "" {
		return c.ID
	}
	return fmt.Sprintf("call_%d_%d", n, i)
}

func finishReason(r Response) string {
	if r.FinishReason != "" {
		return r.FinishReason
	}
	if len(r.ToolCalls) > 0 {
		return "tool_calls"
	}
	return "stop"
}

func reasoningField(r Response) string {
	if r.ReasoningField != "" {
		return r.ReasoningField
	}
	return "reasoning_content"
}

func usageJSON(u *Usage) map[string]any {
	m := map[string]any{
		"prompt_tokens":     u.PromptTokens,
		"completion_tokens": u.CompletionTokens,
		"total_tokens":      u.PromptTokens + u.CompletionTokens,
	}
	if u.CachedTokens > 0 {
		m["prompt_tokens_details"] = map[string]any{"cached_tokens": u.CachedTokens}
	}
	return m
}

func splitRunes(s string, n int) []string {
	var out []string
	r := []rune(s)
	for len(r) > 0 {
		k := min(n, len(r))
		out = append(out, string(r[:k]))
		r = r[k:]
	}
	return out
}
