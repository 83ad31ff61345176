package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/internal/words"
)

const (
	demoModelName    = "fawn-demo"
	defaultDemoDelay = 12 * time.Millisecond
)

// demoModel is the offline model fawn runs when no provider is configured.
// It is deterministic: from the conversation it is sent it works out where
// it is in a short tour of the project, made of real, read-only tool calls
// (tree, view the README, grep for TODO, git status or ls, a to-do list),
// and ends by explaining how to configure a real provider. It streams like
// a model: text in small chunks, calls with IDs and argument fragments.
type demoModel struct {
	root, configDir string
	delay           time.Duration
	tools           map[string]bool
	seq             *atomic.Int64 // call IDs, shared by the copies WithTools makes
	facts           *demoFacts
}

func newDemoModel(root, configDir string, delay time.Duration) *demoModel {
	if root == "" {
		root = "."
	}
	return &demoModel{root: root, configDir: configDir, delay: delay, tools: map[string]bool{},
		seq: new(atomic.Int64), facts: &demoFacts{}}
}

// WithTools returns the model with these tools available: a step whose
// tool is missing is skipped.
func (d *demoModel) WithTools(infos []*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	cp := *d
	cp.tools = map[string]bool{}
	for _, in := range infos {
		cp.tools[in.Name] = true
	}
	return &cp, nil
}

// Generate returns the whole next message.
func (d *demoModel) Generate(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	sr, err := d.Stream(ctx, in, opts...)
	if err != nil {
		return nil, err
	}
	defer sr.Close()
	var chunks []*schema.Message
	for {
		m, err := sr.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		chunks = append(chunks, m)
	}
	return schema.ConcatMessages(chunks)
}

// Stream streams the next message of the tour.
func (d *demoModel) Stream(ctx context.Context, in []*schema.Message, _ ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	text, call := d.next(in)
	sr, sw := schema.Pipe[*schema.Message](8)
	go func() {
		defer sw.Close()
		first := true
		send := func(m *schema.Message) bool {
			if !first && d.delay > 0 {
				t := time.NewTimer(d.delay)
				select {
				case <-t.C:
				case <-ctx.Done():
					t.Stop()
					sw.Send(nil, ctx.Err())
					return false
				}
			}
			first = false
			if ctx.Err() != nil {
				sw.Send(nil, ctx.Err())
				return false
			}
			m.Role = schema.Assistant
			return !sw.Send(m, nil)
		}
		for _, w := range wordsOf(text) {
			if !send(&schema.Message{Content: w}) {
				return
			}
		}
		finish := "stop"
		if call != nil {
			finish = "tool_calls"
			zero := 0
			if !send(&schema.Message{ToolCalls: []schema.ToolCall{{Index: &zero, ID: call.ID, Type: "function",
				Function: schema.FunctionCall{Name: call.Function.Name}}}}) {
				return
			}
			for _, frag := range splitEvery(call.Function.Arguments, 16) {
				if !send(&schema.Message{ToolCalls: []schema.ToolCall{{Index: &zero, Function: schema.FunctionCall{Arguments: frag}}}}) {
					return
				}
			}
		}
		prompt := 0
		for _, m := range in {
			prompt += len(m.Content)
		}
		out := len(text)
		if call != nil {
			out += len(call.Function.Arguments)
		}
		send(&schema.Message{ResponseMeta: &schema.ResponseMeta{FinishReason: finish,
			Usage: &schema.TokenUsage{PromptTokens: prompt / 4, CompletionTokens: out/4 + 1, TotalTokens: (prompt+out)/4 + 1}}})
	}()
	return sr, nil
}

// demoStep is one step of the tour: what it says, then the call it makes.
type demoStep struct {
	text string
	tool string
	args any
}

// next works out the reply to in: the next step of the tour, its end, or,
// once the tour was given, a short answer saying what the demo model is.
func (d *demoModel) next(in []*schema.Message) (string, *schema.ToolCall) {
	lastUser := -1
	for i, m := range in {
		if m.Role == schema.User {
			lastUser = i
		}
	}
	toured := false
	for i, m := range in {
		if i < lastUser && m.Role == schema.Assistant {
			toured = true
		}
	}
	if toured {
		prompt := ""
		if lastUser >= 0 {
			prompt = in[lastUser].Content
		}
		return fmt.Sprintf("I'm fawn's offline demo model, so I can't really act on %q: I can only give the tour you saw.\n\n%s",
			words.Clip(prompt, 80), d.help()), nil
	}
	done := 0
	for _, m := range in[lastUser+1:] {
		if m.Role == schema.Assistant {
			done++
		}
	}
	steps := d.steps()
	if done < len(steps) {
		st := steps[done]
		args, _ := json.Marshal(st.args)
		id := fmt.Sprintf("demo_%d", d.seq.Add(1))
		return st.text, &schema.ToolCall{ID: id, Type: "function", Function: schema.FunctionCall{Name: st.tool, Arguments: string(args)}}
	}
	return d.closing(in[lastUser+1:]), nil
}

func (d *demoModel) steps() []demoStep {
	f := d.facts.get(d.root)
	var steps []demoStep
	intro := "Hello! I'm fawn's offline demo model: no AI provider is configured yet, so instead of answering I'll show you around, " +
		"using fawn's real tools on this project. Everything I do here only reads; nothing will change.\n\n"
	add := func(tool, text string, args any) {
		if !d.tools[tool] {
			return
		}
		if len(steps) == 0 {
			text = intro + text
		}
		steps = append(steps, demoStep{text: text, tool: tool, args: args})
	}
	add("tree", "First, the layout of the project:", map[string]any{"path": ".", "max_depth": 2})
	switch {
	case f.readme != "":
		add("text_editor", fmt.Sprintf("Now %s, where most projects explain themselves. It opens in the editor as I read it:", f.readme),
			map[string]any{"command": "view", "path": f.readme, "view_range": []int{1, 80}})
	case f.largest != "":
		add("text_editor", fmt.Sprintf("There's no README, so let me open the largest source file, %s. It opens in the editor as I read it:", f.largest),
			map[string]any{"command": "view", "path": f.largest, "view_range": []int{1, 80}})
	}
	add("grep", "Next, a search for TODO notes across the project:", map[string]any{"pattern": "TODO", "output_mode": "files_with_matches"})
	cmd := "ls -la"
	what := "And a look at the directory, run in the terminal pane, the same shell you can type into."
	if f.git {
		cmd = "git status --short --branch"
		what = "And the state of the working tree, run in the terminal pane, the same shell you can type into."
	}
	add("bash", what+" Commands ask for your permission first, unless the permission mode says otherwise:", map[string]any{"command": cmd})
	todos := []map[string]string{
		{"id": "1", "title": "Look around the project", "status": "completed", "priority": "medium"},
		{"id": "2", "title": "Configure a real model provider", "status": "in_progress", "priority": "high"},
		{"id": "3", "title": "Ask fawn for a change and watch it work", "status": "pending", "priority": "medium"},
	}
	add("todo_write", "While I work I keep a to-do list, shown in the To-do pane. Here's one for getting started:", map[string]any{"todos": todos})
	return steps
}

// closing ends the tour with what it found and how to configure a provider.
func (d *demoModel) closing(turn []*schema.Message) string {
	results := map[string]*schema.Message{}
	calls := map[string]string{} // tool name → call ID
	for _, m := range turn {
		for _, tc := range m.ToolCalls {
			calls[tc.Function.Name] = tc.ID
		}
		if m.Role == schema.Tool {
			results[m.ToolCallID] = m
		}
	}
	var b strings.Builder
	b.WriteString("That's the tour. What you just saw was real: ")
	if len(calls) == 0 {
		b.WriteString("well, it would have been, but no tools are available in this session. ")
	} else {
		b.WriteString("each step ran through fawn's tools on this project, and nothing was changed. ")
	}
	if r := results[calls["grep"]]; r != nil {
		res := strings.TrimSpace(r.Content)
		switch {
		case strings.HasPrefix(res, "error:"):
			b.WriteString("The TODO search did not work out (" + words.Clip(res, 100) + "). ")
		case res == "" || strings.HasPrefix(strings.ToLower(res), "no match"):
			b.WriteString("No TODO notes turned up. ")
		default:
			n := 0
			for _, l := range strings.Split(res, "\n") {
				// Notes such as "[3 files]" are not matches.
				if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "[") && !strings.HasPrefix(l, "(") {
					n++
				}
			}
			fmt.Fprintf(&b, "The TODO search matched %s, worth a look some day. ", words.Plural(n, "file", "files"))
		}
	}
	if r := results[calls["bash"]]; r != nil && strings.HasPrefix(strings.TrimSpace(r.Content), "error:") {
		b.WriteString("The command did not run (" + words.Clip(r.Content, 120) + "). ")
	}
	b.WriteString("\n\nI'm only a scripted demo, though, and can't act on requests. ")
	b.WriteString(d.help())
	b.WriteString("\n\nWith a real model, fawn works the same way: it says what it is about to do, opens the files it reads and edits, " +
		"runs commands in the terminal pane, and asks before it changes anything.")
	return b.String()
}

// help says, in Markdown for the chat, how to configure a real provider.
func (d *demoModel) help() string {
	file := "~/.config/fawn/config.yaml"
	if d.configDir != "" {
		file = filepath.Join(d.configDir, "config.yaml")
	}
	return "To use a real model, either export a key:\n\n" +
		"```sh\n" +
		"export OPENAI_API_KEY=sk-...      # OpenAI\n" +
		"export ANTHROPIC_API_KEY=sk-ant-... FAWN_MODELS_CHAT_MODEL_TYPE=anthropic FAWN_MODEL=claude-sonnet-4-5\n" +
		"```\n\n" +
		"or write `" + file + "`, for example for a local Ollama:\n\n" +
		"```yaml\n" +
		"models:\n" +
		"  chat_model:\n" +
		"    type: openai          # any OpenAI-compatible server; or anthropic\n" +
		"    model: qwen2.5-coder\n" +
		"    base_url: http://localhost:11434/v1\n" +
		"    api_key: ${OPENAI_API_KEY}   # leave out for servers without keys\n" +
		"```\n\n" +
		"`config.example.yaml` shows OpenAI, Anthropic, DeepSeek, Ollama, llama.cpp and vLLM. " +
		"Then restart fawn; `fawn config --check` checks the file first."
}

// demoFacts is what the tour needs to know of the project, found once.
type demoFacts struct {
	once    sync.Once
	readme  string // relative path
	largest string // relative path of the largest source file
	git     bool
}

func (f *demoFacts) get(root string) *demoFacts {
	f.once.Do(func() { f.scan(root) })
	return f
}

// isSource reports whether a file extension is one of common source code.
func isSource(ext string) bool {
	switch strings.ToLower(ext) {
	case ".go", ".py", ".js", ".ts", ".tsx", ".jsx", ".rs", ".c", ".h", ".cc", ".cpp", ".hpp", ".java", ".kt",
		".rb", ".php", ".cs", ".swift", ".scala", ".sh", ".lua", ".zig", ".ex", ".hs", ".ml", ".dart", ".vue", ".svelte":
		return true
	}
	return false
}

func (f *demoFacts) scan(root string) {
	if st, err := os.Stat(filepath.Join(root, ".git")); err == nil && (st.IsDir() || st.Mode().IsRegular()) {
		f.git = true
	}
	if ents, err := os.ReadDir(root); err == nil {
		for _, e := range ents {
			if !e.IsDir() && strings.HasPrefix(strings.ToLower(e.Name()), "readme") {
				if f.readme == "" || strings.HasSuffix(strings.ToLower(e.Name()), ".md") {
					f.readme = e.Name()
				}
			}
		}
	}
	if f.readme != "" {
		return
	}
	var best int64
	seen := 0
	_ = filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if seen++; seen > 20000 {
			return filepath.SkipAll // a huge tree: what was seen will do
		}
		name := e.Name()
		if e.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "vendor" || name == "target" || name == "dist" || name == "build") {
				return filepath.SkipDir
			}
			return nil
		}
		if !isSource(filepath.Ext(name)) {
			return nil
		}
		if info, err := e.Info(); err == nil && info.Size() > best {
			if rel, err := filepath.Rel(root, p); err == nil {
				best, f.largest = info.Size(), rel
			}
		}
		return nil
	})
}

// words splits text into chunks of a word and the space after it.
func wordsOf(text string) []string {
	var out []string
	start := 0
	for i, r := range text {
		if r == ' ' || r == '\n' {
			out = append(out, text[start:i+1])
			start = i + 1
		}
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
}

func splitEvery(s string, n int) []string {
	var out []string
	r := []rune(s)
	for len(r) > 0 {
		k := min(n, len(r))
		out = append(out, string(r[:k]))
		r = r[k:]
	}
	return out
}
