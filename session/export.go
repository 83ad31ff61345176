package session

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
)

// WriteMarkdown writes l's transcript as Markdown: the user's messages, the
// answers, each tool call and its result as fenced blocks, compactions as
// quoted summaries.
func WriteMarkdown(out io.Writer, l *Log) error {
	w := bufio.NewWriter(out)
	title := l.Info.Title
	if title == "" {
		title = "fawn session " + l.Header.ID
	}
	fmt.Fprintf(w, "# %s\n\n", oneLine(title))
	fmt.Fprintf(w, "- session: `%s`\n", l.Header.ID)
	fmt.Fprintf(w, "- project: `%s`\n", l.Header.Project)
	if l.Model != "" {
		fmt.Fprintf(w, "- model: %s\n", l.Model)
	}
	fmt.Fprintf(w, "- created: %s\n", l.Info.Created.Local().Format(time.DateTime))
	fmt.Fprintf(w, "- messages: %d, turns: %d, tokens: %d in, %d out\n", l.Info.Messages, l.Info.Turns, l.Usage.Input, l.Usage.Output)
	if l.Header.Parent != "" {
		fmt.Fprintf(w, "- continues session `%s`\n", l.Header.Parent)
	}
	calls := map[string]ToolCall{}
	for _, e := range l.Transcript {
		switch {
		case e.Message != nil:
			writeMessage(w, e.Message, calls)
		case e.Record != nil && e.Record.Type == TypeCompact:
			r := e.Record
			fmt.Fprintf(w, "\n---\n\n**Compacted** (%s", r.Reason)
			if r.Focus != "" {
				fmt.Fprintf(w, ", focus: %s", oneLine(r.Focus))
			}
			fmt.Fprintf(w, "): %d → %d tokens\n\n", r.TokensBefore, r.TokensAfter)
			for _, line := range strings.Split(strings.TrimSpace(r.Summary), "\n") {
				fmt.Fprintf(w, "> %s\n", line)
			}
			fmt.Fprintln(w)
		case e.Record != nil && e.Record.Type == TypeTurn && e.Record.Error != "":
			fmt.Fprintf(w, "\n*The turn ended with an error: %s*\n", oneLine(e.Record.Error))
		}
	}
	if len(l.Todos) > 0 {
		fmt.Fprintf(w, "\n## To-dos\n\n")
		for _, t := range l.Todos {
			box := " "
			switch t.Status {
			case "completed":
				box = "x"
			case "in_progress":
				box = "~"
			case "cancelled":
				box = "-"
			}
			fmt.Fprintf(w, "- [%s] %s\n", box, oneLine(t.Title))
		}
	}
	return w.Flush()
}

func writeMessage(w *bufio.Writer, m *Message, calls map[string]ToolCall) {
	switch m.Role {
	case "user":
		fmt.Fprintf(w, "\n## User\n\n%s\n", strings.TrimSpace(m.Shown()))
		for _, p := range m.Parts {
			if p.Type == "image" {
				fmt.Fprintf(w, "\n*[image %s]*\n", p.MIME)
			}
		}
	case "assistant":
		fmt.Fprintf(w, "\n## Assistant\n")
		if r := strings.TrimSpace(m.Reasoning); r != "" {
			fmt.Fprintf(w, "\n<details><summary>Reasoning</summary>\n\n%s\n\n</details>\n", r)
		}
		if t := strings.TrimSpace(m.Content); t != "" {
			fmt.Fprintf(w, "\n%s\n", t)
		}
		for _, c := range m.ToolCalls {
			calls[c.ID] = c
			fmt.Fprintf(w, "\n**Tool call** `%s` (`%s`)\n\n", c.Name, c.ID)
			fence(w, "json", prettyJSON(c.Arguments))
		}
	case "tool":
		name := m.ToolName
		if name == "" {
			name = calls[m.ToolCallID].Name
		}
		fmt.Fprintf(w, "\n**Result** of `%s` (`%s`)\n\n", name, m.ToolCallID)
		fence(w, "", m.text())
	default:
		fmt.Fprintf(w, "\n## %s\n\n%s\n", m.Role, m.text())
	}
}

// fence writes text as a fenced block whose fence is longer than any run of
// backticks inside it.
func fence(w *bufio.Writer, lang, text string) {
	longest, run := 0, 0
	for _, r := range text {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	f := strings.Repeat("`", max(3, longest+1))
	fmt.Fprintf(w, "%s%s\n%s\n%s\n", f, lang, strings.TrimRight(text, "\n"), f)
}

func prettyJSON(s string) string {
	var v any
	if json.Unmarshal([]byte(s), &v) != nil {
		return s
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return s
	}
	return string(b)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
