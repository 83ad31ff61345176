package panes

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/ui/keymap"
	"github.com/fawn-ide/fawn/ui/render"
	"github.com/fawn-ide/fawn/ui/theme"
)

// maxAgentLines bounds what the agent terminal keeps; older lines go.
const maxAgentLines = 5000

// ansiRE matches the escape sequences a command's output colours itself
// with: the tab shows its text, not its colours.
var ansiRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)`)
})

// AgentTerm is the "agent" terminal tab: the commands a hosted agent runs
// itself (outside fawn's shell) and their output as it arrives, read only.
// Each command starts with its "$ command" line and ends with how it
// ended; output of two commands running at once is told apart by a line
// naming the command it continues.
type AgentTerm struct {
	*tview.Box
	th      *theme.Theme
	lines   []render.Line
	partial string // the output of the last line, not ended yet
	last    string // the call whose output was written last
	cmds    map[string]string
	running int
	offset  int // lines scrolled back from the end
	height  int
	keys    *keymap.Table
}

// NewAgentTerm is an empty agent terminal in th's colours; keys is its
// table (nil: AgentTermKeys).
func NewAgentTerm(th *theme.Theme, keys *keymap.Table) *AgentTerm {
	if keys == nil {
		keys = AgentTermKeys()
	}
	v := &AgentTerm{Box: tview.NewBox(), th: th, cmds: map[string]string{}, keys: keys}
	v.SetBackgroundColor(th.Background)
	return v
}

// Title is the tab's title: "Agent", with the command while one runs.
func (v *AgentTerm) Title() string {
	if v.running > 0 {
		return "Agent · running"
	}
	return "Agent"
}

// Command starts call id's command line.
func (v *AgentTerm) Command(id, command string) {
	v.flush()
	v.cmds[id] = command
	v.running++
	v.last = id
	v.add(render.Line{{Text: "$ " + render.Sanitize(oneLine(command), 4), Style: tcell.StyleDefault.Foreground(v.th.Accent).Bold(true)}})
}

// Output adds output of call id.
func (v *AgentTerm) Output(id, text string) {
	if id != v.last {
		v.flush()
		v.last = id
		if c, ok := v.cmds[id]; ok {
			v.add(render.Line{{Text: "(" + render.Sanitize(oneLine(c), 4) + ")", Style: tcell.StyleDefault.Foreground(v.th.Dim)}})
		}
	}
	text = ansiRE().ReplaceAllString(strings.ReplaceAll(text, "\r\n", "\n"), "")
	v.partial += text
	for {
		i := strings.IndexByte(v.partial, '\n')
		if i < 0 {
			break
		}
		v.add(render.Line{{Text: render.Sanitize(v.partial[:i], 4), Style: tcell.StyleDefault.Foreground(v.th.Foreground)}})
		v.partial = v.partial[i+1:]
	}
}

// Ended closes call id's command: failed says it ended in error.
func (v *AgentTerm) Ended(id string, failed bool) {
	if _, ok := v.cmds[id]; !ok {
		return
	}
	if v.last == id {
		v.flush()
	}
	delete(v.cmds, id)
	v.running--
	word, st := "done", tcell.StyleDefault.Foreground(v.th.Dim)
	if failed {
		word, st = "failed", tcell.StyleDefault.Foreground(v.th.Error)
	}
	v.add(render.Line{{Text: fmt.Sprintf("[%s]", word), Style: st}})
}

// Text is what the tab holds, a line per row (for tests and copying).
func (v *AgentTerm) Text() string {
	var b strings.Builder
	for _, l := range v.lines {
		b.WriteString(l.String())
		b.WriteByte('\n')
	}
	b.WriteString(v.partial)
	return b.String()
}

func (v *AgentTerm) flush() {
	if v.partial != "" {
		v.add(render.Line{{Text: render.Sanitize(v.partial, 4), Style: tcell.StyleDefault.Foreground(v.th.Foreground)}})
		v.partial = ""
	}
}

func (v *AgentTerm) add(l render.Line) {
	v.lines = append(v.lines, l)
	if len(v.lines) > maxAgentLines {
		v.lines = append([]render.Line(nil), v.lines[len(v.lines)-maxAgentLines:]...)
	}
}

func oneLine(s string) string {
	s, _, more := strings.Cut(strings.TrimSpace(s), "\n")
	if more {
		s += " …"
	}
	return s
}

// Draw shows the end of what the tab holds (or where it is scrolled to).
func (v *AgentTerm) Draw(screen tcell.Screen) {
	x, y, w, h := v.GetInnerRect()
	v.height = h
	if w <= 2 || h <= 0 {
		return
	}
	lines := v.lines
	if v.partial != "" {
		lines = append(lines[:len(lines):len(lines)], render.Line{{Text: render.Sanitize(v.partial, 4), Style: tcell.StyleDefault.Foreground(v.th.Foreground)}})
	}
	if len(lines) == 0 {
		render.DrawText(screen, x+1, y, w-1, "The commands the agent runs itself show here as they run.", tcell.StyleDefault.Foreground(v.th.Dim))
		return
	}
	v.offset = min(v.offset, max(0, len(lines)-h))
	end := len(lines) - v.offset
	start := max(0, end-h)
	for i := start; i < end; i++ {
		render.DrawLine(screen, x+1, y+i-start, w-1, lines[i])
	}
}

// InputHandler scrolls back with the arrows and page keys; End follows
// the output again.
func (v *AgentTerm) InputHandler() func(event *tcell.EventKey, setFocus func(p tview.Primitive)) {
	return v.WrapInputHandler(func(ev *tcell.EventKey, _ func(p tview.Primitive)) {
		switch v.keys.Action(ev) {
		case ActionAgentTermUp:
			v.offset++
		case ActionAgentTermDown:
			v.offset = max(0, v.offset-1)
		case ActionAgentTermPageUp:
			v.offset += max(1, v.height-1)
		case ActionAgentTermPageDown:
			v.offset = max(0, v.offset-max(1, v.height-1))
		case ActionAgentTermFollow:
			v.offset = 0
		}
	})
}
