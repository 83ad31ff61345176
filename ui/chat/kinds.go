package chat

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/fawn-ide/fawn/internal/words"
	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/ui/panes"
	"github.com/fawn-ide/fawn/ui/render"
)

// ToolKind is how fawn presents one tool: the card's icon, summary and body,
// and the pane its calls drive. The router looks kinds up by tool name in a
// Registry; a tool without a kind gets the generic one.
type ToolKind struct {
	Icon string
	// Summary is the card's one-line summary from what is known so far
	// ("$ go test ./...", "Edit ui/chat.go  +12 −3"); "" falls back to the
	// tool name and its arguments. It must use only rc.root of rc.
	Summary func(c *Card, rc *Ctx) string
	// Body returns the card's body lines (unwrapped; the card truncates them
	// and folds all but cardBodyLines unless expanded).
	Body func(c *Card, rc *Ctx) []render.Line
	// Tail folds the start of the body rather than its end (command output).
	Tail bool
	// Fold, when set, words the row that stands for the hidden body lines
	// ("… 12 more lines (Space expands)").
	Fold func(c *Card, hidden int) string
	// Full, when set, is the whole call (a command of several lines, all of
	// a tool's arguments), shown when the card is expanded.
	Full func(c *Card) string
	// Failed, when set, says a call that ended without an error still
	// failed (a command's non-zero exit code).
	Failed func(c *Card) bool
	// Drives is the pane a call of this kind shows its work in, besides the
	// chat: panes.Editor, panes.Terminal, panes.Todo, or panes.Chat for none.
	Drives panes.Pane
	// AgentTerminal says a call's command and output also go to the agent
	// terminal tab (a hosted agent's own commands).
	AgentTerminal bool
}

// Registry maps tool names to kinds.
type Registry struct {
	kinds    map[string]*ToolKind
	fallback *ToolKind
}

// NewRegistry returns a registry holding fawn's built-in tools.
func NewRegistry() *Registry {
	r := &Registry{kinds: map[string]*ToolKind{}, fallback: genericKind()}
	r.Register("text_editor", editorKind())
	r.Register("bash", bashKind())
	r.Register("grep", searchKind("Search", "⌕"))
	r.Register("glob", searchKind("Find", "⌕"))
	r.Register("ls", listingKind("List"))
	r.Register("tree", listingKind("Tree"))
	r.Register("todo_write", todoKind())
	r.Register("skill", skillKind())
	r.Register("task", taskKind())
	r.Register("ask_user", askKind())
	r.Register("web_fetch", webFetchKind())
	r.Register("web_search", webSearchKind())
	// The calls of an agent fawn hosts (ACP) that show in the chat only:
	// its own commands, which ran outside fawn's terminal, and what it
	// names by its kind alone, shown by their titles.
	r.Register("execute", hostedCommandKind())
	for _, k := range []string{"search", "fetch", "think", "switch_mode", "other"} {
		r.Register(k, titledKind())
	}
	r.Register(tools.ExitPlanName, planKind())
	return r
}

// hostedCommandKind is a hosted agent's own command: a bash card that
// drives no pane of fawn's shell, its output shown in the agent terminal
// tab as well.
func hostedCommandKind() *ToolKind {
	k := bashKind()
	k.Drives = panes.Chat
	k.AgentTerminal = true
	return k
}

// titledKind is a hosted agent's call shown by the title it gave it.
func titledKind() *ToolKind {
	k := genericKind()
	k.Summary = func(c *Card, _ *Ctx) string { return c.arg("title") }
	return k
}

// Register sets the kind of the tool called name (replacing any).
func (r *Registry) Register(name string, k *ToolKind) { r.kinds[name] = k }

// Lookup returns the kind of tool name, or the generic kind.
func (r *Registry) Lookup(name string) *ToolKind {
	if k, ok := r.kinds[name]; ok {
		return k
	}
	return r.fallback
}

func decodeArgs(s string) map[string]any {
	var m map[string]any
	if json.Unmarshal([]byte(s), &m) != nil {
		return map[string]any{}
	}
	return m
}

// genericSummary is "name {args}" for tools fawn knows nothing about (MCP).
func genericSummary(c *Card) string {
	args := strings.TrimSpace(c.Args)
	if args == "{}" {
		args = ""
	}
	if len(args) > 200 {
		args = args[:200]
	}
	name := c.Tool
	if name == "" {
		name = "tool"
	}
	if args == "" {
		return name
	}
	return name + " " + args
}

// resultLines is the body most tools show: their result text.
func resultLines(c *Card, rc *Ctx) []render.Line {
	if c.Result == "" {
		return nil
	}
	st := rc.style()
	if c.IsError {
		st = st.Foreground(rc.Th.Error)
	}
	var out []render.Line
	for _, l := range strings.Split(strings.TrimRight(c.Result, "\n"), "\n") {
		out = append(out, render.Line{{Text: render.Sanitize(l, 4), Style: st}})
	}
	return out
}

func genericKind() *ToolKind {
	return &ToolKind{Icon: "⚙", Body: resultLines, Drives: panes.Chat, Full: func(c *Card) string {
		args := strings.TrimSpace(c.Args)
		if args == "" || args == "{}" {
			return ""
		}
		name := c.Tool
		if name == "" {
			name = "tool"
		}
		return name + " " + args
	}}
}

// --- text_editor -----------------------------------------------------------

func editorKind() *ToolKind {
	return &ToolKind{
		Icon:   "✎",
		Drives: panes.Editor,
		Summary: func(c *Card, rc *Ctx) string {
			path := c.arg("path")
			if c.Changed != nil {
				path = c.Changed.Path
			} else if c.Viewed != nil {
				path = c.Viewed.Path
			} else if path == "" && c.Action != nil {
				path = c.Action.Path
			}
			path = render.RelPath(rc.Root, path)
			switch c.arg("command") {
			case "view":
				s := "View " + path
				if c.Viewed != nil && c.Viewed.Start > 0 {
					if c.Viewed.End > 0 {
						s += fmt.Sprintf(":%d-%d", c.Viewed.Start, c.Viewed.End)
					} else if c.Viewed.Start > 1 {
						s += fmt.Sprintf(":%d-", c.Viewed.Start)
					}
				}
				return s
			case "create":
				if c.Changed != nil {
					return fmt.Sprintf("Create %s  +%d", path, countLines(c.Changed.After))
				}
				return "Create " + path
			case "", "str_replace", "insert", "undo_edit":
				if c.Changed != nil {
					add, del := diffStat(c.Changed.Before, c.Changed.After)
					verb := "Edit"
					if c.Changed.Before == nil {
						verb = "Create"
					}
					return fmt.Sprintf("%s %s  +%d −%d", verb, path, add, del)
				}
				if c.Action != nil && c.Action.Summary != "" {
					return c.Action.Summary
				}
				if !c.ready {
					return "Edit …"
				}
				return "Edit " + path
			}
			if c.Action != nil && c.Action.Summary != "" {
				return c.Action.Summary
			}
			return ""
		},
		Body: func(c *Card, rc *Ctx) []render.Line {
			if c.IsError {
				return resultLines(c, rc)
			}
			if c.Changed != nil {
				return append(diffLines(c.Changed.Before, c.Changed.After, rc), codeLines(c.Code, rc)...)
			}
			if c.Status == StatusWaiting && c.Action != nil && c.Action.Diff != "" {
				return ColorDiff(c.Action.Diff, rc)
			}
			return nil
		},
	}
}

func countLines(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	n := strings.Count(string(b), "\n")
	if b[len(b)-1] != '\n' {
		n++
	}
	return n
}

func splitLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	s := strings.TrimSuffix(string(b), "\n")
	return strings.Split(s, "\n")
}

// changedRange trims the common first and last lines of before and after;
// what is left is the changed region. Cheap, and for one edit exact enough.
func changedRange(before, after []string) (start, endB, endA int) {
	for start < len(before) && start < len(after) && before[start] == after[start] {
		start++
	}
	endB, endA = len(before), len(after)
	for endB > start && endA > start && before[endB-1] == after[endA-1] {
		endB--
		endA--
	}
	return start, endB, endA
}

// diffStat counts added and removed lines of an edit.
func diffStat(before, after []byte) (add, del int) {
	b, a := splitLines(before), splitLines(after)
	start, endB, endA := changedRange(b, a)
	return endA - start, endB - start
}

// diffLines shows an edit as removed then added lines of its changed region.
func diffLines(before, after []byte, rc *Ctx) []render.Line {
	b, a := splitLines(before), splitLines(after)
	start, endB, endA := changedRange(b, a)
	del := rc.style().Foreground(rc.Th.Removed)
	add := rc.style().Foreground(rc.Th.Added)
	num := rc.style().Foreground(rc.Th.Dim)
	var out []render.Line
	for i := start; i < endB; i++ {
		out = append(out, render.Line{{Text: fmt.Sprintf("%4d ", i+1), Style: num}, {Text: "- " + render.Sanitize(b[i], 4), Style: del}})
	}
	for i := start; i < endA; i++ {
		out = append(out, render.Line{{Text: fmt.Sprintf("%4d ", i+1), Style: num}, {Text: "+ " + render.Sanitize(a[i], 4), Style: add}})
	}
	return out
}

// ColorDiff colours a unified diff.
func ColorDiff(diff string, rc *Ctx) []render.Line {
	var out []render.Line
	for _, l := range strings.Split(strings.TrimRight(diff, "\n"), "\n") {
		st := rc.style()
		switch {
		case strings.HasPrefix(l, "+++") || strings.HasPrefix(l, "---"):
			st = st.Foreground(rc.Th.Dim)
		case strings.HasPrefix(l, "+"):
			st = st.Foreground(rc.Th.Added)
		case strings.HasPrefix(l, "-"):
			st = st.Foreground(rc.Th.Removed)
		case strings.HasPrefix(l, "@@"):
			st = st.Foreground(rc.Th.Accent)
		}
		out = append(out, render.Line{{Text: render.Sanitize(l, 4), Style: st}})
	}
	return out
}

// --- bash ------------------------------------------------------------------

func bashKind() *ToolKind {
	return &ToolKind{
		Icon:   "❯",
		Drives: panes.Terminal,
		Tail:   true,
		Failed: func(c *Card) bool {
			return c.exit != nil && *c.exit > 0
		},
		Summary: func(c *Card, rc *Ctx) string {
			cmd := c.arg("command")
			if c.Action != nil && c.Action.Command != "" {
				cmd = c.Action.Command
			}
			if cmd == "" {
				if !c.ready {
					return "$ …"
				}
				return ""
			}
			first, _, more := strings.Cut(strings.TrimSpace(cmd), "\n")
			if more {
				first += " …"
			}
			return "$ " + first
		},
		Full: func(c *Card) string {
			if c.Action != nil && c.Action.Command != "" {
				return "$ " + c.Action.Command
			}
			if cmd := c.arg("command"); cmd != "" {
				return "$ " + cmd
			}
			return ""
		},
		Fold: func(c *Card, hidden int) string {
			if c.cmd != nil {
				return fmt.Sprintf("… %s of %s printed (Space expands)", words.Plural(hidden, "earlier line", "earlier lines"),
					words.Plural(c.cmd.TotalLines, "line", "lines"))
			}
			if c.Status == StatusRunning {
				return fmt.Sprintf("… %s so far (Space expands)", words.Plural(hidden, "earlier line", "earlier lines"))
			}
			return fmt.Sprintf("… %s (Space expands)", words.Plural(hidden, "earlier line", "earlier lines"))
		},
		Body: func(c *Card, rc *Ctx) []render.Line {
			// base is the index in the output of out[0]; hidden are rows
			// of a folded card counted and never drawn; gone is the
			// index of a line on a spill file that could not be read.
			var out []string
			base, hidden, gone := 0, 0, -1
			switch {
			case c.spill != nil && !c.Expanded:
				// Folded, the card shows the last lines it kept: the
				// rest stays in the file.
				out = c.spill.last
				base = c.spill.lines - len(out)
				hidden = base
			case c.spill != nil:
				out, gone = c.spilledLines()
				if gone >= 0 {
					base = c.spill.lines - len(c.spill.last) - 1
				}
			default:
				out = c.OutputLines()
			}
			if len(out) == 0 {
				if c.Status.finished() {
					// The result without the language servers' report,
					// which follows in its colours.
					bare := *c
					bare.Result = strings.TrimSuffix(c.Result, "\n"+c.Code)
					return append(resultLines(&bare, rc), codeLines(c.Code, rc)...)
				}
				return nil
			}
			st := rc.style()
			note := st.Foreground(rc.Th.Dim).Italic(true)
			lines := make([]render.Line, hidden, hidden+len(out)+4)
			if c.dropped > 0 {
				lines = append(lines, render.Line{{Text: fmt.Sprintf("(%s before these are in the Terminal pane)", words.Plural(c.dropped, "line", "lines")), Style: note}})
			}
			for k, l := range out {
				i := base + k
				switch {
				case k == gone:
					lines = append(lines, render.Line{{Text: render.Sanitize(l, 4), Style: st.Foreground(rc.Th.Warning)}})
				case l == skipMark:
					lines = append(lines, render.Line{{Text: "… (this live view skipped lines; the Terminal pane shows them all)", Style: note}})
				case c.cmd != nil && c.cmd.OmittedLines > 0 && i == c.cmd.HeadLines:
					d := c.cmd
					where := "scroll back in the Terminal pane (Shift-PgUp) for the latest of them"
					if d.Spill != "" {
						where = "all of it is kept in " + render.Sanitize(d.Spill, 4) + " (the agent reads it with view_output)"
					}
					lines = append(lines, render.Line{{Text: fmt.Sprintf("… lines %d–%d are left out here and of what the model saw; %s",
						d.HeadLines+1, d.HeadLines+d.OmittedLines, where), Style: note}})
				default:
					lines = append(lines, render.Line{{Text: render.Sanitize(l, 4), Style: st}})
				}
			}
			if c.Status.finished() && c.exit != nil && *c.exit > 0 {
				lines = append(lines, render.Line{{Text: "exit code " + strconv.Itoa(*c.exit), Style: st.Foreground(rc.Th.Error)}})
			}
			lines = append(lines, sandboxLines(c, rc)...)
			return append(lines, codeLines(c.Code, rc)...)
		},
	}
}

// sandboxLines say in words what the shell's sandbox did to a command: it
// refused it (and the agent may ask to run it once outside), or the user
// let it run once outside.
func sandboxLines(c *Card, rc *Ctx) []render.Line {
	if c.cmd == nil {
		return nil
	}
	st := rc.style()
	switch {
	case c.cmd.Outside:
		return []render.Line{{{Text: "ran once outside the sandbox", Style: st.Foreground(rc.Th.Dim).Italic(true)}}}
	case c.cmd.Refused != "":
		return []render.Line{
			{{Text: "refused by the sandbox", Style: st.Foreground(rc.Th.Error)}},
			{{Text: "the agent may ask to run it once outside", Style: st.Foreground(rc.Th.Dim).Italic(true)}},
		}
	}
	return nil
}

// --- search and listings ---------------------------------------------------

func searchKind(verb, icon string) *ToolKind {
	return &ToolKind{
		Icon:   icon,
		Drives: panes.Chat,
		Summary: func(c *Card, rc *Ctx) string {
			pat := c.arg("pattern")
			if pat == "" {
				if !c.ready {
					return verb + " …"
				}
				return ""
			}
			s := verb + " " + strconv.Quote(pat)
			if p := c.arg("path"); p != "" && p != "." {
				s += " in " + render.RelPath(rc.Root, p)
			}
			if c.Status == StatusDone {
				n := countResultLines(c.Result)
				unit := "files"
				if m := c.arg("output_mode"); m == "content" {
					unit = "lines"
				} else if m == "count" {
					unit = "counts"
				}
				if n == 0 {
					s += " → no matches"
				} else {
					if n == 1 {
						unit = strings.TrimSuffix(unit, "s")
					}
					s += fmt.Sprintf(" → %d %s", n, unit)
				}
			}
			return s
		},
		Body: resultLines,
	}
}

// countResultLines counts a search result's lines, leaving out notes such as
// "(results truncated)" and "No matches".
func countResultLines(s string) int {
	n := 0
	for _, l := range strings.Split(s, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "(") || strings.HasPrefix(t, "[") ||
			strings.HasPrefix(strings.ToLower(t), "no match") || strings.HasPrefix(strings.ToLower(t), "no files") {
			continue
		}
		n++
	}
	return n
}

func listingKind(verb string) *ToolKind {
	return &ToolKind{
		Icon:   "▤",
		Drives: panes.Chat,
		Summary: func(c *Card, rc *Ctx) string {
			p := c.arg("path")
			if p == "" || p == "." {
				p = "."
			}
			return verb + " " + render.RelPath(rc.Root, p)
		},
		Body: resultLines,
	}
}

// --- todo_write ------------------------------------------------------------

func todoKind() *ToolKind {
	return &ToolKind{
		Icon:   "☰",
		Drives: panes.Todo,
		Summary: func(c *Card, rc *Ctx) string {
			items := c.Todos
			if !c.hasTodo {
				items = todosFromArgs(c.argMap())
			}
			if items == nil {
				return "To-do …"
			}
			done, total := panes.TodoCounts(items)
			return fmt.Sprintf("To-do %d/%d", done, total)
		},
		Body: func(c *Card, rc *Ctx) []render.Line {
			if c.IsError {
				return resultLines(c, rc)
			}
			items := c.Todos
			if !c.hasTodo {
				items = todosFromArgs(c.argMap())
			}
			var out []render.Line
			for _, it := range items {
				out = append(out, panes.TodoLine(it, rc.Th))
			}
			return out
		},
	}
}

func todosFromArgs(args map[string]any) []tools.Todo {
	raw, ok := args["todos"]
	if !ok {
		return nil
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return nil
	}
	var items []tools.Todo
	if json.Unmarshal(b, &items) != nil {
		return nil
	}
	return items
}

// skillKind shows a skill being loaded: "Load the skill release", its
// instructions as the body.
func skillKind() *ToolKind {
	k := genericKind()
	k.Icon = "✧"
	k.Summary = func(c *Card, _ *Ctx) string {
		if name, _ := decodeArgs(c.Args)["name"].(string); name != "" {
			return "Load the skill " + name
		}
		return "Load a skill"
	}
	return k
}

// taskKind shows a subagent at work: what it was asked, its calls so far
// and its words while it runs (its own cards follow, indented); its answer
// and what it spent once it is done.
func taskKind() *ToolKind {
	k := genericKind()
	k.Icon = "⇉"
	k.Tail = true
	k.Summary = func(c *Card, _ *Ctx) string {
		who := c.arg("subagent_type")
		if who == "" {
			who = "general"
		}
		what := c.arg("description")
		if what == "" {
			what = c.arg("prompt")
		}
		return "Task for the " + who + " agent: " + what
	}
	k.Body = func(c *Card, rc *Ctx) []render.Line {
		dim := rc.style().Foreground(rc.Th.Dim)
		var out []render.Line
		if c.Status.finished() {
			out = resultLines(c, rc)
			if u := c.subUsage; u != nil {
				text := fmt.Sprintf("%s agent: %s · %s", u.Agent, words.Plural(u.Usage.Steps, "step", "steps"), words.Plural(u.Usage.ToolCalls, "call", "calls"))
				if u.Usage.InputTokens+u.Usage.OutputTokens > 0 {
					text += fmt.Sprintf(" · %s in · %s out", render.Kilo(u.Usage.InputTokens), render.Kilo(u.Usage.OutputTokens))
				}
				out = append(out, render.Line{{Text: text + " · " + render.HumanDuration(u.Usage.Duration), Style: dim.Italic(true)}})
			}
			return out
		}
		for _, l := range c.OutputLines() {
			if l != skipMark {
				out = append(out, render.Line{{Text: render.Sanitize(l, 4), Style: rc.style()}})
			}
		}
		if c.subCalls > 0 {
			now := ""
			if c.subLast != nil {
				now = " · now: " + c.subLast.Summary(rc)
			}
			out = append(out, render.Line{{Text: words.Plural(c.subCalls, "call", "calls") + now, Style: dim.Italic(true)}})
		}
		return out
	}
	return k
}

// askKind shows the agent's question to the user and the answer.
func askKind() *ToolKind {
	k := genericKind()
	k.Icon = "?"
	k.Summary = func(c *Card, _ *Ctx) string {
		if q := c.arg("question"); q != "" {
			return "Ask: " + q
		}
		return "Ask the user"
	}
	return k
}

// planKind is exit_plan's card: the plan's step count, the answer below;
// an approved plan's steps go to the to-do view.
func planKind() *ToolKind {
	k := genericKind()
	k.Icon = "☰"
	k.Drives = panes.Todo
	k.Summary = func(c *Card, _ *Ctx) string {
		if n := len(tools.PlanTodos(c.arg("plan"))); n > 0 {
			return fmt.Sprintf("Plan (%s)", words.Plural(n, "step", "steps"))
		}
		return "Plan"
	}
	return k
}

// codeLines shows what the language servers said of an edit under its
// diff: errors in the error colour, warnings in the warning colour.
func codeLines(report string, rc *Ctx) []render.Line {
	if report == "" {
		return nil
	}
	var out []render.Line
	for i, l := range strings.Split(report, "\n") {
		if i == 12 {
			out = append(out, render.Line{{Text: "  …", Style: rc.style().Foreground(rc.Th.Dim)}})
			break
		}
		st := rc.style().Foreground(rc.Th.Dim)
		switch {
		case strings.Contains(l, ": error: "):
			st = rc.style().Foreground(rc.Th.Error)
		case strings.Contains(l, ": warning: "):
			st = rc.style().Foreground(rc.Th.Warning)
		}
		out = append(out, render.Line{{Text: "  " + render.Sanitize(l, 4), Style: st}})
	}
	return out
}
