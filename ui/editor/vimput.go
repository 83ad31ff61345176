package editor

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Visual p and P (the selection replaced by a register), gv (the last
// selection again), and the tag objects it and at.

// vimVisualPut is p and P on a visual selection: the selection goes (into
// the unnamed register for p) and the register's text takes its place.
func (v *CodeView) vimVisualPut(c vimCmd) {
	vs := v.vim
	reg, ok := vs.register(c.reg)
	line := vs.mode == vimVisualLine
	a, b := v.vimVisualRange()
	vs.mode, vs.want = vimNormal, -2
	v.selected = false
	if !ok || reg.text == "" {
		vs.msg = "vim: register " + regName(c.reg) + " is empty"
		v.clampNormal()
		return
	}
	if reg.block {
		vs.notBuilt("p of a block over a selection")
		v.clampNormal()
		return
	}
	if !v.editable() {
		return
	}
	vs.seq++
	vs.merge = "vim:" + strconv.Itoa(vs.seq)
	v.vimVisualRecord(c)
	defer vs.stopRecording(true)
	deleted := vimReg{text: v.buf.Text(a, b)}
	if line {
		deleted = vimReg{text: deleted.text + "\n", linewise: true}
	}
	v.vimEdit(func() Pos {
		if line {
			body := strings.TrimSuffix(reg.text, "\n")
			v.buf.Replace(a, b, body)
			return Pos{a.Line, firstNonBlank(v.buf.Line(a.Line))}
		}
		v.buf.Delete(a, b)
		if reg.linewise {
			v.buf.Insert(a, "\n"+reg.text)
			return Pos{a.Line + 1, firstNonBlank(v.buf.Line(a.Line + 1))}
		}
		end := v.buf.Insert(a, reg.text)
		if strings.Contains(reg.text, "\n") {
			return a
		}
		return Pos{end.Line, prevCluster(v.buf.Line(end.Line), end.Col)}
	})
	if c.key == "p" {
		vs.regs['"'] = deleted
	}
	v.clampNormal()
}

// vimLastVisual is the selection gv brings back.
type vimLastVisual struct {
	mode       vimMode
	start, end Pos
	blockEnd   bool
}

// vimReselect is gv.
func (v *CodeView) vimReselect() {
	vs := v.vim
	lv := vs.lastVisual
	if lv.mode == vimNormal {
		vs.beep = true
		return
	}
	vs.mode, vs.vstart, vs.blockEnd = lv.mode, v.buf.Clamp(lv.start), lv.blockEnd
	vs.want = -2
	v.cursor = v.buf.Clamp(lv.end)
	v.vimShowSelection()
}

var tagRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<(/?)([A-Za-z][\w:.-]*)[^<>]*?(/?)>`) })

// tagObject is it and at: the innermost element around p, its content
// (it) or itself with its tags (at).
func (v *CodeView) tagObject(p Pos, around bool) (Pos, Pos, bool) {
	text := strings.Join(v.buf.Lines(0, v.buf.LineCount()), "\n")
	off := func(q Pos) int {
		n := 0
		for l := 0; l < q.Line; l++ {
			n += len(v.buf.Line(l)) + 1
		}
		return n + q.Col
	}
	pos := func(o int) Pos {
		l := strings.Count(text[:o], "\n")
		return Pos{l, o - (strings.LastIndexByte(text[:o], '\n') + 1)}
	}
	cur := off(p)
	type tag struct {
		name       string
		start, end int
	}
	var stack []tag
	best := [4]int{-1}
	for _, m := range tagRe().FindAllStringSubmatchIndex(text, -1) {
		closing, self := m[3] > m[2], m[7] > m[6]
		name := text[m[4]:m[5]]
		switch {
		case self:
		case !closing:
			stack = append(stack, tag{name, m[0], m[1]})
		default:
			for i := len(stack) - 1; i >= 0; i-- {
				if stack[i].name != name {
					continue
				}
				o := stack[i]
				stack = stack[:i]
				if o.start <= cur && cur < m[1] && (best[0] < 0 || o.start > best[0]) {
					best = [4]int{o.start, o.end, m[0], m[1]}
				}
				break
			}
		}
	}
	if best[0] < 0 {
		return p, p, false
	}
	if around {
		return pos(best[0]), pos(best[3]), true
	}
	return pos(best[1]), pos(best[2]), true
}

// vimVisualRepeat is what . does after a change made in visual mode: the
// same command on as much text from the cursor (as many lines; on one
// line as many characters; a block as wide), then the keys typed after it.
type vimVisualRepeat struct {
	mode     vimMode
	lines    int // lines below the first
	chars    int // characters, on one line
	endCol   int // the end's column, over lines
	width    int // a block's screen columns, less one
	blockEnd bool
	cmd      vimCmd
	keys     []string
}

// vimVisualRecord remembers the visual change c about to run, and records
// the keys typed for it (c's insert mode) until it ends.
func (v *CodeView) vimVisualRecord(c vimCmd) {
	vs := v.vim
	lv := vs.lastVisual
	a, b := order(lv.start, lv.end)
	r := &vimVisualRepeat{mode: lv.mode, lines: b.Line - a.Line, endCol: b.Col, blockEnd: lv.blockEnd, cmd: c}
	if r.lines == 0 {
		line := v.buf.Line(a.Line)
		r.chars = len([]rune(line[min(a.Col, len(line)):min(b.Col, len(line))])) + 1
	}
	ca := colOf(v.buf.Line(lv.start.Line), lv.start.Col, v.tabWidth)
	cb := colOf(v.buf.Line(lv.end.Line), lv.end.Col, v.tabWidth)
	r.width = max(ca, cb) - min(ca, cb)
	vs.vrepeat = r
	vs.lastChange = nil
	vs.visualChange = true
	vs.recording, vs.vrec = true, true
	vs.rec = vs.rec[:0]
}

// vimRepeatVisual is . after a visual change.
func (v *CodeView) vimRepeatVisual() {
	vs := v.vim
	r := vs.vrepeat
	if r == nil {
		return
	}
	start := v.cursor
	last := v.buf.LineCount() - 1
	end := start
	switch r.mode {
	case vimVisualLine:
		end.Line = min(last, start.Line+r.lines)
	case vimVisualBlock:
		end.Line = min(last, start.Line+r.lines)
		col := colOf(v.buf.Line(start.Line), start.Col, v.tabWidth) + r.width
		end.Col = offAt(v.buf.Line(end.Line), col, v.tabWidth)
	default:
		if r.lines == 0 {
			line := v.buf.Line(start.Line)
			for i := 1; i < r.chars && end.Col < len(line); i++ {
				end.Col = nextCluster(line, end.Col)
			}
		} else {
			end = v.buf.Clamp(Pos{min(last, start.Line+r.lines), r.endCol})
		}
	}
	vs.mode, vs.vstart, vs.blockEnd, vs.want = r.mode, start, r.blockEnd, -2
	v.cursor = end
	keys := append([]string(nil), r.keys...)
	vs.depth++
	vs.redoVisual = true
	defer func() { vs.depth--; vs.redoVisual = false }()
	v.vimVisualCmd(r.cmd)
	for _, k := range keys {
		v.vimFeed(k)
	}
}
