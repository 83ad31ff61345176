package editor

import (
	"strconv"
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/ui/keymap"
)

// Vim keys (editor.keys: vim) are a small state machine in front of the
// code view: it turns keys into the buffer's own edits, so one vim change
// is one step of the editor's undo (every edit of a change joins the same
// merge kind), and what it has not built says so in the status line
// instead of doing something else.

type vimMode int

const (
	vimNormal vimMode = iota
	vimInsert
	vimVisual
	vimVisualLine
	vimCmdline
	vimReplace
	vimVisualBlock
)

// vimReg is a register's text; linewise text ends with a line break.
type vimReg struct {
	text     string
	linewise bool
	block    bool // a visual block's rows
}

// vimHost is what the command line asks of the tab around the view.
type vimHost interface {
	vimWrite(then func()) // :w, then runs then once written
	vimQuit(force bool)
	vimEdit(path string) error
}

// vimState is one view's vim state.
type vimState struct {
	mode    vimMode
	pending []string // keys of the normal-mode command being typed
	regs    map[rune]vimReg
	msg     string // the status line's message ("vim: q (macros) not built")
	cmdline string
	// cmdKind is what the command line is: ':', or '/' and '?' for a
	// search, whose command (an operator waiting for it) is searchCmd.
	cmdKind   byte
	searchCmd vimCmd
	search    vimSearch

	marks map[rune]Pos // ma: a–z
	// jumpMark is where the last jump (G, /, n, `a …) left from: '' and ``.
	jumpMark Pos
	jumpSet  bool

	// Macros: the register being recorded into (0: none) and its keys;
	// depth counts replays (. and @) so their keys are not recorded again.
	macroReg  rune
	macroKeys []string
	lastMacro rune
	depth     int

	// Replace mode: the characters typed over, to give back on <BS>.
	replaced []replacedChar
	// block is the visual-block selection's screen column kept by $.
	blockEnd bool
	block    *blockIns
	// lastVisual is the selection gv selects again; resel the size of
	// the last one an operator took, redoVisual while . repeats one.
	lastVisual vimLastVisual
	resel      vimResel
	redoVisual bool

	clip *clipboard // the "+ register: the editor's clipboard (OSC 52)

	// The last f, F, t or T, for ; and ,.
	findCmd, findChar rune

	want int // the column j and k keep (screen column); -1: the line's end, -2: the cursor's
	// aiLine is a line holding only the indent insert mode put there
	// (o, cc, Enter): vim removes it when nothing is typed on the line.
	aiLine int

	// A change being recorded for ., and the last one.
	rec        []string
	recording  bool
	lastChange []string
	lastCount  int

	// Insert mode: what started it and the keys typed, for a count.
	insCount  int
	insKeys   []string
	insRepeat bool // replaying the count's copies
	seq       int  // numbers changes, to keep their edits one undo step
	merge     string

	vstart Pos    // where visual mode started
	vmarks [2]int // the lines of the last visual selection, for '<,'>
	// visualChange: the last change was made in visual mode; . repeats
	// vrepeat (vrec: its keys are being recorded).
	visualChange bool
	vrepeat      *vimVisualRepeat
	vrec         bool

	// emptied: every line was deleted, vim's empty buffer, where d and c
	// take nothing and keep the registers; any change ends it.
	emptied bool

	// beep: the last command failed (a motion that could not move, a
	// search not found), which ends a macro as in vim.
	beep bool

	host vimHost
}

func newVimState() *vimState {
	return &vimState{regs: map[rune]vimReg{}, marks: map[rune]Pos{}, want: -2}
}

// vimToken names a key as vim's notation does; "" for a key vim mode
// leaves to the editor's own table. keys (nil: the default) binds <Esc>.
func vimToken(ev *tcell.EventKey, keys *keymap.Table) string {
	if keys != nil {
		if keys.Action(ev) == actVimEscape {
			return "<Esc>"
		}
		if ev.Key() == tcell.KeyEscape {
			return "" // bound elsewhere
		}
	}
	switch ev.Key() {
	case tcell.KeyRune:
		if ev.Modifiers()&(tcell.ModCtrl|tcell.ModAlt) != 0 {
			return ""
		}
		return string(ev.Rune())
	case tcell.KeyEscape:
		return "<Esc>"
	case tcell.KeyEnter:
		return "<CR>"
	case tcell.KeyBackspace, tcell.KeyBackspace2:
		return "<BS>"
	case tcell.KeyDelete:
		return "<Del>"
	case tcell.KeyTab:
		return "<Tab>"
	case tcell.KeyCtrlR:
		return "<C-r>"
	case tcell.KeyCtrlV:
		return "<C-v>"
	case tcell.KeyLeft:
		return "<Left>"
	case tcell.KeyRight:
		return "<Right>"
	case tcell.KeyUp:
		return "<Up>"
	case tcell.KeyDown:
		return "<Down>"
	}
	return ""
}

// SetVim turns vim keys on or off for the view.
func (v *CodeView) SetVim(on bool) {
	switch {
	case on && v.vim == nil:
		v.vim = newVimState()
		v.vim.clip = v.clip
		v.buf.OnChange(v.vimMarksSplice)
		v.clampNormal()
	case !on:
		v.vim = nil
	}
}

// VimMode names the vim mode for the status line ("" without vim keys).
func (v *CodeView) VimMode() string {
	if v.vim == nil {
		return ""
	}
	switch v.vim.mode {
	case vimInsert:
		return "INSERT"
	case vimVisual:
		return "VISUAL"
	case vimVisualLine:
		return "VISUAL LINE"
	case vimVisualBlock:
		return "VISUAL BLOCK"
	case vimReplace:
		return "REPLACE"
	case vimCmdline:
		return "COMMAND"
	}
	return "NORMAL"
}

// VimStatus is what vim mode has to say: the command line being typed, a
// message, or the keys of a command not yet complete.
func (v *CodeView) VimStatus() string {
	vs := v.vim
	switch {
	case vs == nil:
		return ""
	case vs.mode == vimCmdline:
		return string(vs.cmdKind) + vs.cmdline
	case vs.msg != "":
		return vs.msg
	case len(vs.pending) > 0:
		return strings.Join(vs.pending, "")
	case vs.macroReg != 0:
		return "recording @" + string(vs.macroReg)
	}
	return ""
}

// vimKey handles one key in vim mode; false leaves it to the editor table.
func (v *CodeView) vimKey(ev *tcell.EventKey) bool {
	tok := vimToken(ev, v.vimKeys)
	if tok == "" {
		if v.vim.mode == vimInsert {
			return false // Ctrl-S and the like keep working
		}
		v.vim.msg = "vim: this key is not a vim key here"
		return true
	}
	v.vimFeed(tok)
	v.ensureCursorVisible()
	return true
}

// vimFeed runs one key through the state machine.
func (v *CodeView) vimFeed(tok string) {
	vs := v.vim
	if vs.recording {
		vs.rec = append(vs.rec, tok)
	}
	if vs.macroReg != 0 && vs.depth == 0 {
		if vs.mode == vimNormal && len(vs.pending) == 0 && tok == "q" {
			v.vimStopMacro()
			return
		}
		vs.macroKeys = append(vs.macroKeys, tok)
	}
	switch vs.mode {
	case vimInsert:
		v.vimInsertKey(tok)
	case vimReplace:
		v.vimReplaceKey(tok)
	case vimCmdline:
		v.vimCmdlineKey(tok)
	default:
		vs.msg = ""
		vs.pending = append(vs.pending, tok)
		cmd, st := parseVim(vs.pending, vs.mode != vimNormal)
		switch st {
		case parseMore:
			if _, ok := notBuilt[cmd.key]; ok && cmd.op == "" {
				vs.notBuilt(cmd.key) // say so now; its argument is still eaten
			}
			return
		case parseBad:
			vs.pending = nil
			vs.stopRecording(false)
			return
		}
		vs.pending = nil
		if vs.mode == vimNormal {
			v.vimNormal(cmd)
		} else {
			v.vimVisualCmd(cmd)
		}
	}
}

// vimCmd is a parsed normal-mode command: ["x][count]key, or
// ["x][count]op[count](motion|object|op).
type vimCmd struct {
	reg   rune
	count int // 0: none given
	op    string
	key   string
	arg   rune // f, t, r's character
	// search is the pattern of / or ? (its keys for .); pending is the
	// mode the search was typed from.
	search  string
	pending vimMode
}

func (c vimCmd) n() int { return max(1, c.count) }

type parseState int

const (
	parseMore parseState = iota
	parseDone
	parseBad
)

var vimOps = map[string]bool{"d": true, "c": true, "y": true, ">": true, "<": true}

// parseVim reads a command from the keys typed so far.
func parseVim(toks []string, visual bool) (vimCmd, parseState) {
	var c vimCmd
	i := 0
	if toks[0] == "<Esc>" {
		return vimCmd{key: "<Esc>"}, parseDone
	}
	count := func() (int, bool) {
		n, any := 0, false
		for i < len(toks) && len(toks[i]) == 1 && toks[i][0] >= '0' && toks[i][0] <= '9' && (any || toks[i] != "0") {
			n = n*10 + int(toks[i][0]-'0')
			any = true
			i++
		}
		return n, any
	}
	n1, had1 := count()
	if i < len(toks) && toks[i] == `"` {
		if i+1 >= len(toks) {
			return c, parseMore
		}
		r := []rune(toks[i+1])
		if len(r) != 1 {
			return c, parseBad
		}
		c.reg = r[0]
		i += 2
		if n, had := count(); had {
			n1, had1 = max(1, n1)*n, true
		}
	}
	if i >= len(toks) {
		return c, parseMore
	}
	if had1 {
		c.count = n1
	}
	opLen := 0
	switch {
	case visual:
	case vimOps[toks[i]] || toks[i] == "=":
		opLen = 1
	case toks[i] == "g" && i+1 < len(toks) && strings.Contains("uU~q?w", toks[i+1]) && len(toks[i+1]) == 1:
		opLen = 2 // gu gU g~, and gq g? gw, which say they are not built once they have their motion
	}
	if opLen > 0 {
		c.op = strings.Join(toks[i:i+opLen], "")
		i += opLen
		n2, had2 := count()
		if had2 {
			c.count = max(1, c.count) * n2
		}
		if i >= len(toks) {
			return c, parseMore
		}
		if key, st := opTarget(toks[i:], c.op); st != parseDone || key != "" {
			c.key = key
			return c, st
		}
	}
	if visual && (toks[i] == "i" || toks[i] == "a") {
		if i+1 >= len(toks) {
			return c, parseMore
		}
		c.key = toks[i] + toks[i+1]
		return c, parseDone
	}
	c.key = toks[i]
	switch c.key {
	case "g", "f", "F", "t", "T", "r", "m", "`", "'", "@", "q", "Z", "z":
		if i+1 >= len(toks) {
			return c, parseMore
		}
		next := toks[i+1]
		if next == "<Esc>" {
			return c, parseBad
		}
		if c.key == "g" || c.key == "Z" || c.key == "z" {
			c.key += next
			return c, parseDone
		}
		r := []rune(next)
		if len(r) != 1 {
			return c, parseBad
		}
		c.arg = r[0]
	}
	return c, parseDone
}

// opTarget reads what follows an operator when it is not a motion: the
// operator again (dd, gUU, gUgU: "line") or a text object ("iw"); "" and
// parseDone for a motion.
func opTarget(toks []string, op string) (string, parseState) {
	switch {
	case toks[0] == op || len(op) == 2 && toks[0] == op[1:]:
		return "line", parseDone // dd, gUU, g~~
	case len(op) == 2 && toks[0] == "g":
		if len(toks) < 2 {
			return "", parseMore
		}
		if toks[1] == op[1:] {
			return "line", parseDone // gUgU
		}
	case toks[0] == "i" || toks[0] == "a":
		if len(toks) < 2 {
			return "", parseMore
		}
		return toks[0] + toks[1], parseDone
	}
	return "", parseDone
}

// notBuilt names the vim keys fawn knows of but has not built, so they say
// so instead of doing something else.
var notBuilt = map[string]string{
	"=": "= (reindent)", "gi": "gi", "&": "&", "K": "K", "U": "U", "<Tab>": "Tab (jumps)",
	"g?": "g? (rot13)", "gq": "gq (format)", "gw": "gw (format)", "zf": "folds",
}

func (vs *vimState) notBuilt(key string) {
	name, ok := notBuilt[key]
	if !ok {
		name = key
	}
	vs.msg = "vim: " + name + " not built"
}

// startChange begins recording a change for . and opens its undo kind.
func (vs *vimState) startChange(cmd vimCmd, keys []string) {
	vs.seq++
	vs.merge = "vim:" + strconv.Itoa(vs.seq)
	if !vs.recording {
		vs.recording = true
		vs.rec = append(vs.rec[:0], keys...)
		vs.lastCount = cmd.count
	}
}

// stopRecording ends the change; keep makes it the one . repeats.
func (vs *vimState) stopRecording(keep bool) {
	if vs.vrec {
		// A visual change's keys (what c typed) for its repeat.
		if vs.vrepeat != nil {
			vs.vrepeat.keys = append([]string(nil), vs.rec...)
		}
		vs.vrec, vs.recording = false, false
		vs.rec = vs.rec[:0]
		return
	}
	if vs.recording && keep {
		vs.lastChange = append([]string(nil), vs.rec...)
		vs.visualChange = false
	}
	vs.recording = false
	vs.rec = vs.rec[:0]
}

// cmdKeys renders cmd back to keys, without its count, for the record.
func cmdKeys(c vimCmd) []string {
	var out []string
	if c.reg != 0 {
		out = append(out, `"`, string(c.reg))
	}
	for _, r := range c.op {
		out = append(out, string(r)) // gU is two keys
	}
	switch {
	case c.key == "line":
		out = append(out, c.op[len(c.op)-1:])
	case len(c.key) == 2 && (c.key[0] == 'i' || c.key[0] == 'a') && c.op != "":
		out = append(out, c.key[:1], c.key[1:])
	default:
		out = append(out, c.key)
	}
	if c.arg != 0 {
		out = append(out, string(c.arg))
	}
	if c.key == "/" || c.key == "?" {
		out = append(out, searchCmdKeys(c)...)
	}
	return out
}

// vimEdit runs fn as (part of) the current change's one undo step.
func (v *CodeView) vimEdit(fn func() Pos) { v.vimEditStep(false, fn) }

// vimEditStep is vimEdit; keep makes the step one even when fn changes
// nothing, as vim's undo has one for a shift or a case change that found
// nothing to do.
func (v *CodeView) vimEditStep(keep bool, fn func() Pos) {
	v.buf.BeginStep(v.cursor, v.vim.merge)
	if keep {
		v.buf.KeepStep()
	}
	p := fn()
	v.cursor = v.buf.Clamp(p)
	v.selected = false
	v.buf.EndStep(v.cursor)
	if v.changed != nil {
		v.changed()
	}
}

// vimEmptyStep is an undo step that changes nothing, as vim keeps one for
// an operator over an empty region: u then undoes it, not the change
// before, and puts the cursor back where it was.
func (v *CodeView) vimEmptyStep() {
	at := v.cursor
	v.vimEditStep(true, func() Pos { return at })
}

// clampNormal keeps the cursor on a character, as normal mode does.
func (v *CodeView) clampNormal() {
	v.cursor = v.buf.Clamp(v.cursor)
	line := v.buf.Line(v.cursor.Line)
	if v.cursor.Col >= len(line) && len(line) > 0 {
		v.cursor.Col = prevCluster(line, len(line))
	}
}

// register returns register r's text ('"' or 0: the unnamed one).
func (vs *vimState) register(r rune) (vimReg, bool) {
	if r == 0 {
		r = '"'
	}
	if r >= 'A' && r <= 'Z' {
		r += 'a' - 'A'
	}
	if r == '*' {
		r = '+'
	}
	if r == '+' && vs.clip != nil {
		// What fawn last put on the clipboard: a copy made with the
		// standard keys is charwise; "+y keeps its linewise mark.
		if reg, ok := vs.regs['+']; ok && reg.text == vs.clip.text {
			return reg, true
		}
		return vimReg{text: vs.clip.text}, vs.clip.text != ""
	}
	reg, ok := vs.regs[r]
	return reg, ok
}

// setRegister stores text in r (and the unnamed register); an upper-case
// name appends.
func (vs *vimState) setRegister(r rune, reg vimReg, yank bool) bool {
	switch {
	case r == 0 || r == '"':
	case r == '+' || r == '*':
		vs.regs['+'] = reg
		vs.clip.set(reg.text) // the editor's clipboard: OSC 52 to the terminal
	case r >= 'a' && r <= 'z':
		vs.regs[r] = reg
	case r >= 'A' && r <= 'Z':
		lr := r + 'a' - 'A'
		old := vs.regs[lr]
		if old.linewise && !reg.linewise {
			reg.text += "\n"
		} else if !old.linewise && reg.linewise && old.text != "" {
			old.text += "\n"
		}
		reg = vimReg{text: old.text + reg.text, linewise: old.linewise || reg.linewise}
		vs.regs[lr] = reg
	default:
		vs.msg = "vim: register " + string(r) + " not built"
		return false
	}
	vs.regs['"'] = reg
	if yank {
		vs.regs['0'] = reg
	}
	return true
}

func validRegister(r rune) bool {
	return r == 0 || r == '"' || r == '0' || r == '+' || r == '*' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
}
