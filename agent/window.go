package agent

import (
	"strings"

	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/trust"
)

// defaultContextWindow is the context window of a model fawn knows nothing
// about: small enough for most local models, so compaction comes early
// rather than after the server refused a request.
const defaultContextWindow = 32000

// knownWindows are the context windows of common models, by name prefix;
// the longest matching prefix wins.
var knownWindows = []struct {
	prefix string
	tokens int
}{
	{"gpt-4o", 128000},
	{"gpt-4.1", 1047576},
	{"gpt-4-turbo", 128000},
	{"gpt-4", 8192},
	{"gpt-3.5-turbo", 16385},
	{"gpt-5", 400000},
	{"o1", 200000},
	{"o3", 200000},
	{"o4-mini", 200000},
	{"codex-mini", 200000},
	{"claude-", 200000},
	{"deepseek-", 128000},
	{"gemini-", 1048576},
	{"qwen2.5-coder", 32768},
	{"qwen3-coder", 262144},
	{"qwen", 32768},
	{"llama-3", 128000},
	{"llama3.1", 128000},
	{"llama3.2", 128000},
	{"llama3.3", 128000},
	{"mistral-large", 128000},
	{"codestral", 256000},
	{"devstral", 128000},
	{"kimi-k2", 131072},
	{"glm-4", 128000},
	{"grok-", 131072},
}

// windowFor returns the context window of model: configured (a value above
// 0), from fawn's table, or the default — and which of these it was.
func windowFor(model string, configured int) (tokens int, source string) {
	if configured > 0 {
		return configured, "models.chat_model.context_window"
	}
	name := strings.ToLower(model)
	if i := strings.LastIndex(name, "/"); i >= 0 {
		name = name[i+1:] // openrouter's "anthropic/claude-…"
	}
	best := -1
	for i, k := range knownWindows {
		if strings.HasPrefix(name, k.prefix) && (best < 0 || len(k.prefix) > len(knownWindows[best].prefix)) {
			best = i
		}
	}
	if best >= 0 {
		return knownWindows[best].tokens, "fawn's table of known models (" + knownWindows[best].prefix + "…)"
	}
	return defaultContextWindow, "fawn's default for a model it does not know; set models.chat_model.context_window"
}

// ContextWindow is the context window of the model in use, in tokens, and
// where that figure comes from.
func (s *Session) ContextWindow() (tokens int, source string) {
	s.mu.Lock()
	model, configured := s.client.Model, s.modelCfg.ContextWindow
	if n := s.nextModel; n != nil {
		model, configured = n.client.Model, n.cfg.ContextWindow
	}
	s.mu.Unlock()
	return windowFor(model, configured)
}

// ContextInfo is how the context window is used (/context), in estimated
// tokens.
type ContextInfo struct {
	Window       int
	WindowSource string
	// System is the system prompt without the instruction files; Instructions
	// those files (AGENTS.md, CLAUDE.md); Tools the tool schemas.
	System, Instructions, Tools int
	InstructionFiles            []string
	// The conversation: the user's messages, the assistant's text, its tool
	// calls, and the tools' results.
	User, Assistant, ToolCalls, ToolResults int
	Messages                                int
	// Reserve is kept for the answer (max_tokens).
	Reserve int
	// Reported is the prompt size the server gave for the last request (0:
	// none yet).
	Reported int
	// AutoCompact is agent.auto_compact (percent; 0: off).
	AutoCompact int
	// Cost is what the session has cost so far.
	Cost Cost
}

// Used is the estimate of the next request's size.
func (c ContextInfo) Used() int {
	return c.System + c.Instructions + c.Tools + c.User + c.Assistant + c.ToolCalls + c.ToolResults
}

// Context says how the context window is used now.
func (s *Session) Context() ContextInfo {
	var ci ContextInfo
	ci.Window, ci.WindowSource = s.ContextWindow()
	s.mu.Lock()
	ratio := s.tokensPerChar
	toolChars := s.toolChars
	ci.Reported = s.usage.ContextTokens
	ci.Cost = s.usage.Cost
	s.mu.Unlock()
	if ratio <= 0 {
		ratio = 1.0 / charsPerToken
	}
	tok := func(chars int) int { return int(float64(chars) * ratio) }
	sys := s.systemPrompt()
	if sys == "" {
		sys = buildSystemPrompt(s.promptData())
	}
	instr := 0
	for _, p := range s.instructionFilesIn(sys) {
		if b, err := trust.ReadFile(p, 4<<20); err == nil {
			instr += min(len(b), maxInstructions)
			ci.InstructionFiles = append(ci.InstructionFiles, p)
		}
	}
	ci.Instructions = tok(instr)
	ci.System = tok(max(len(sys)-instr, 0))
	ci.Tools = tok(toolChars.get())
	for _, m := range s.conv.snapshot() {
		ci.Messages++
		switch m.Role {
		case schema.User:
			ci.User += tok(len(messageText(m)) + 16)
		case schema.Assistant:
			ci.Assistant += tok(len(m.Content) + len(m.ReasoningContent) + 16)
			for _, tc := range m.ToolCalls {
				ci.ToolCalls += tok(32 + len(tc.Function.Name) + len(tc.Function.Arguments))
			}
		case schema.Tool:
			ci.ToolResults += tok(len(m.Content) + 16)
		}
	}
	ci.Reserve = s.outputLimit()
	ci.AutoCompact = s.cfg.Agent.AutoCompact
	return ci
}
