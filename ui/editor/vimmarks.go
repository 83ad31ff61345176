package editor

import "strings"

// Marks (ma, `a, 'a, and the jump mark of '' and ``), macros (q, @, @@)
// and the "+ register.

// vimMarksSplice keeps the marks on their lines as lines come and go (a
// splice replaced lines [at, at+removed) by [at, at+added)): a mark after
// the splice moves with its line, one inside stays on the splice's lines.
// Any change also ends vim's empty buffer.
func (v *CodeView) vimMarksSplice(at, removed, added int) {
	vs := v.vim
	if vs == nil {
		return
	}
	vs.emptied = false
	if removed == added {
		return
	}
	move := func(p Pos) Pos {
		switch {
		case p.Line < at:
		case p.Line >= at+removed:
			p.Line += added - removed
		case p.Line == at:
		case p.Line == at+removed-1:
			p.Line = at + added - 1
		default:
			p.Line = min(p.Line, at+added-1)
		}
		return p
	}
	for r, p := range vs.marks {
		vs.marks[r] = move(p)
	}
	if vs.jumpSet {
		vs.jumpMark = move(vs.jumpMark)
	}
}

// dropMarks forgets the marks on lines l1..l2, which are being deleted
// (vim's marks die with their lines).
func (vs *vimState) dropMarks(l1, l2 int) {
	for r, p := range vs.marks {
		if p.Line >= l1 && p.Line <= l2 {
			delete(vs.marks, r)
		}
	}
}

// setJump remembers where a jump leaves from, for ” and “.
func (vs *vimState) setJump(p Pos) { vs.jumpMark, vs.jumpSet = p, true }

// isJump names the motions vim's jump list records.
func isJump(key string) bool {
	switch key {
	case "G", "gg", "/", "?", "n", "N", "*", "#", "%", "`", "'", "{", "}", "(", ")", "H", "M", "L":
		return true
	}
	return false
}

// vimMark is `x and 'x: where mark x is.
func (v *CodeView) vimMark(c vimCmd) (Pos, motionKind, bool) {
	vs := v.vim
	var p Pos
	switch {
	case c.arg == '`' || c.arg == '\'':
		if !vs.jumpSet {
			p = Pos{} // vim's '' before any jump is the first line
		} else {
			p = vs.jumpMark
		}
	case c.arg >= 'a' && c.arg <= 'z':
		var ok bool
		if p, ok = vs.marks[c.arg]; !ok {
			vs.msg = "E20: Mark not set"
			return v.cursor, exclusive, false
		}
	case c.arg == '<' || c.arg == '>':
		l := vs.vmarks[0]
		if c.arg == '>' {
			l = vs.vmarks[1]
		}
		p = Pos{l, 0}
	default:
		vs.notBuilt("mark " + string(c.arg))
		return v.cursor, exclusive, false
	}
	p = v.buf.Clamp(p)
	if c.key == "'" {
		return Pos{p.Line, firstNonBlank(v.buf.Line(p.Line))}, linewise, true
	}
	return p, exclusive, true
}

// vimSetMark is m: a–z, and ' or ` (the jump mark).
func (v *CodeView) vimSetMark(r rune) {
	vs := v.vim
	switch {
	case r >= 'a' && r <= 'z':
		vs.marks[r] = v.cursor
	case r == '\'' || r == '`':
		vs.setJump(v.cursor)
	default:
		vs.notBuilt("mark " + string(r))
	}
}

// macroText turns keys into a register's text as vim keeps it (Esc as
// the byte 0x1b, Enter as a carriage return), and back.
var macroBytes = map[string]string{"<Esc>": "\x1b", "<CR>": "\r", "<BS>": "\b", "<Tab>": "\t", "<C-r>": "\x12", "<C-v>": "\x16"}

func macroText(keys []string) string {
	var sb strings.Builder
	for _, k := range keys {
		if b, ok := macroBytes[k]; ok {
			sb.WriteString(b)
		} else {
			sb.WriteString(k)
		}
	}
	return sb.String()
}

func macroKeys(text string) []string {
	var out []string
	for _, r := range text {
		k := string(r)
		if r == '\n' {
			k = "<CR>" // a line of a linewise register ends in Enter
		}
		for name, b := range macroBytes {
			if b == k {
				k = name
			}
		}
		out = append(out, k)
	}
	return out
}

// vimStartMacro is q{reg}: the keys typed from now on go to reg.
func (v *CodeView) vimStartMacro(r rune) {
	vs := v.vim
	if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '"') {
		vs.notBuilt("q" + string(r) + " (record into that register)")
		return
	}
	vs.macroReg, vs.macroKeys = r, vs.macroKeys[:0]
}

// vimStopMacro is the q that ends a recording.
func (v *CodeView) vimStopMacro() {
	vs := v.vim
	r := vs.macroReg
	vs.macroReg = 0
	reg := vimReg{text: macroText(vs.macroKeys)}
	if r >= 'A' && r <= 'Z' {
		old, _ := vs.register(r)
		reg.text = old.text + reg.text
		r += 'a' - 'A'
	}
	// Recording fills the named register only, not the unnamed one.
	if r != '"' {
		vs.regs[r] = reg
	} else {
		vs.regs['"'] = reg
	}
}

// vimRunMacro is @{reg} (and @@, the last one run): its keys, n times.
func (v *CodeView) vimRunMacro(r rune, n int) {
	vs := v.vim
	if r == '@' {
		if vs.lastMacro == 0 {
			vs.msg = "E748: No previously used register"
			return
		}
		r = vs.lastMacro
	}
	if r == ':' {
		vs.notBuilt("@: (repeat the command line)")
		return
	}
	reg, ok := vs.register(r)
	if !ok && r != '+' && r != '*' {
		vs.msg = "vim: register " + string(r) + " is empty"
		return
	}
	if r == '+' || r == '*' {
		reg = vimReg{text: vs.clip.text}
	}
	vs.lastMacro = r
	keys := macroKeys(reg.text)
	if vs.depth > 20 {
		vs.msg = "vim: @" + string(r) + " runs itself too deep"
		return
	}
	vs.depth++
	defer func() { vs.depth-- }()
	for ; n > 0; n-- {
		for _, k := range keys {
			vs.beep = false
			v.vimFeed(k)
			if vs.beep {
				return // a command that fails ends the macro, as in vim
			}
		}
	}
}
