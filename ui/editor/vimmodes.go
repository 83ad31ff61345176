package editor

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// vimInsertCmd is i, a, A, I, o and O.
func (v *CodeView) vimInsertCmd(key string, n int) {
	p := v.cursor
	line := v.buf.Line(p.Line)
	switch key {
	case "a":
		if p.Col < len(line) {
			v.cursor.Col = nextCluster(line, p.Col)
		}
	case "A":
		v.cursor.Col = len(line)
	case "I":
		v.cursor.Col = firstNonBlank(line)
	case "o":
		ind := indentOf(line)
		v.vimEdit(func() Pos { return v.buf.Insert(Pos{p.Line, len(line)}, "\n"+ind) })
	case "O":
		ind := indentOf(line)
		v.vimEdit(func() Pos {
			v.buf.Insert(Pos{p.Line, 0}, ind+"\n")
			return Pos{p.Line, len(ind)}
		})
	}
	kind := ""
	if key == "o" || key == "O" {
		kind = "o"
	}
	v.vimStartInsert(n, kind)
	if kind == "o" && indentOf(line) != "" {
		v.vim.aiLine = v.cursor.Line
	}
}

// vimStartInsert enters insert mode; the text typed is inserted n times
// in all (kind "o": each copy on a line of its own).
func (v *CodeView) vimStartInsert(n int, kind string) {
	vs := v.vim
	vs.mode = vimInsert
	vs.aiLine = -1
	vs.insCount = n
	vs.insKeys = vs.insKeys[:0]
	if kind == "o" {
		vs.insKeys = append(vs.insKeys, "<CR>")
	}
	v.selected = false
}

// vimInsertKey handles a key in insert mode.
func (v *CodeView) vimInsertKey(tok string) {
	vs := v.vim
	if tok == "<Esc>" || tok == "<CR>" {
		v.dropAutoIndent()
	}
	vs.aiLine = -1
	if tok == "<Esc>" {
		if !vs.insRepeat && vs.insCount > 1 {
			keys := append([]string(nil), vs.insKeys...)
			if len(keys) > 0 && keys[0] == "<CR>" && len(keys) == 1 {
				keys = nil
			}
			if len(keys) > 0 && keys[0] != "<CR>" || len(keys) > 1 {
				vs.insRepeat = true
				for i := 1; i < vs.insCount; i++ {
					for _, k := range keys {
						v.vimInsertKey(k)
					}
				}
				vs.insRepeat = false
			}
		}
		vs.mode = vimNormal
		if vs.block != nil {
			// The block's text goes to its other lines; the cursor to
			// the block's top left.
			v.finishBlockInsert()
			v.clampNormal()
			vs.want = -2
			vs.stopRecording(true)
			return
		}
		if v.cursor.Col > 0 {
			v.cursor.Col = prevCluster(v.buf.Line(v.cursor.Line), v.cursor.Col)
		}
		v.clampNormal()
		vs.want = -2
		vs.stopRecording(true)
		return
	}
	if !vs.insRepeat {
		vs.insKeys = append(vs.insKeys, tok)
	}
	p := v.cursor
	line := v.buf.Line(p.Line)
	switch tok {
	case "<CR>":
		ind := indentOf(line)
		if len(ind) > p.Col {
			ind = ind[:p.Col]
		}
		v.vimEdit(func() Pos { return v.buf.Insert(p, "\n"+ind) })
		if ind != "" {
			vs.aiLine = v.cursor.Line
		}
	case "<BS>":
		switch {
		case p.Col > 0:
			v.vimEdit(func() Pos {
				from := Pos{p.Line, prevCluster(line, p.Col)}
				v.buf.Delete(from, p)
				return from
			})
		case p.Line > 0:
			v.vimEdit(func() Pos {
				from := Pos{p.Line - 1, len(v.buf.Line(p.Line - 1))}
				v.buf.Delete(from, p)
				return from
			})
		}
	case "<Del>":
		if p.Col < len(line) {
			v.vimEdit(func() Pos { v.buf.Delete(p, Pos{p.Line, nextCluster(line, p.Col)}); return p })
		}
	case "<Tab>":
		unit := "\t"
		if v.indent != "\t" {
			col := colOf(line, p.Col, v.tabWidth)
			unit = strings.Repeat(" ", len(v.indent)-col%len(v.indent))
		}
		v.vimEdit(func() Pos { return v.buf.Insert(p, unit) })
	case "<Left>", "<Right>", "<Up>", "<Down>":
		// Moving in insert mode starts a new undo step, as in vim.
		m := map[string]motion{"<Left>": motionLeft, "<Right>": motionRight, "<Up>": motionUp, "<Down>": motionDown}[tok]
		v.move(m, false)
		vs.seq++
		vs.merge = "vim:" + strconv.Itoa(vs.seq)
	case "<C-r>", "<C-v>":
		vs.msg = "vim: " + tok + " in insert mode not built"
	default:
		v.vimEdit(func() Pos { return v.buf.Insert(p, tok) })
	}
}

// dropAutoIndent removes the indent insert mode put on a line nothing was
// typed on, as vim's autoindent does.
func (v *CodeView) dropAutoIndent() {
	vs := v.vim
	if vs.aiLine != v.cursor.Line {
		return
	}
	line := v.buf.Line(vs.aiLine)
	if line == "" || indentOf(line) != line || v.cursor.Col != len(line) {
		return
	}
	l := vs.aiLine
	v.vimEdit(func() Pos { v.buf.Delete(Pos{l, 0}, Pos{l, len(line)}); return Pos{l, 0} })
}

// vimCmdlineKey edits and runs the : command line.
func (v *CodeView) vimCmdlineKey(tok string) {
	vs := v.vim
	switch tok {
	case "<Esc>":
		vs.mode, vs.cmdline = vimNormal, ""
		if vs.cmdKind != ':' {
			v.vimSearchAbort()
		}
	case "<BS>":
		if vs.cmdline == "" {
			vs.mode = vimNormal
			if vs.cmdKind != ':' {
				v.vimSearchAbort()
			}
			return
		}
		_, n := lastRune(vs.cmdline)
		vs.cmdline = vs.cmdline[:len(vs.cmdline)-n]
	case "<CR>":
		line := vs.cmdline
		vs.mode, vs.cmdline = vimNormal, ""
		if vs.cmdKind != ':' {
			v.vimSearchDone(line)
			return
		}
		v.vimEx(line)
		v.clampNormal()
	default:
		if len([]rune(tok)) == 1 {
			vs.cmdline += tok
		}
	}
}

func lastRune(s string) (rune, int) {
	r := []rune(s)
	if len(r) == 0 {
		return 0, 0
	}
	x := r[len(r)-1]
	return x, len(string(x))
}

// exRange reads a line range (1,3 % . $ 'a,'b .+2) at the start of cmd:
// first and last line (0-based), the rest of cmd, and whether there was one.
func (v *CodeView) exRange(cmd string) (int, int, string, bool, error) {
	cur, last := v.cursor.Line, v.buf.LineCount()-1
	if strings.HasPrefix(cmd, "%") {
		return 0, last, cmd[1:], true, nil
	}
	addr := func(s string) (int, string, bool, error) {
		var base int
		switch {
		case strings.HasPrefix(s, "."):
			base, s = cur, s[1:]
		case strings.HasPrefix(s, "$"):
			base, s = last, s[1:]
		case strings.HasPrefix(s, "'<"):
			base, s = v.vim.vmarks[0], s[2:]
		case strings.HasPrefix(s, "'>"):
			base, s = v.vim.vmarks[1], s[2:]
		case strings.HasPrefix(s, "'") && len(s) > 1 && s[1] >= 'a' && s[1] <= 'z':
			m, ok := v.vim.marks[rune(s[1])]
			if !ok {
				return 0, s, false, fmt.Errorf("E20: Mark not set")
			}
			base, s = m.Line, s[2:]
		case strings.HasPrefix(s, "'"):
			return 0, s, false, fmt.Errorf("vim: that mark in a range is not built")
		default:
			i := 0
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				i++
			}
			if i == 0 {
				if strings.HasPrefix(s, "+") || strings.HasPrefix(s, "-") {
					base = cur
					break
				}
				return 0, s, false, nil
			}
			n, _ := strconv.Atoi(s[:i])
			base, s = n-1, s[i:]
		}
		for len(s) > 1 && (s[0] == '+' || s[0] == '-') {
			i := 1
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				i++
			}
			n := 1
			if i > 1 {
				n, _ = strconv.Atoi(s[1:i])
			}
			if s[0] == '-' {
				n = -n
			}
			base += n
			s = s[i:]
		}
		return base, s, true, nil
	}
	a, rest, ok, err := addr(cmd)
	if err != nil || !ok {
		return cur, cur, rest, false, err
	}
	b := a
	if strings.HasPrefix(rest, ",") {
		var ok2 bool
		b, rest, ok2, err = addr(rest[1:])
		if err != nil {
			return cur, cur, rest, false, err
		}
		if !ok2 {
			b = cur
		}
	}
	if a < 0 || b < 0 || a > last || b > last {
		return cur, cur, rest, false, fmt.Errorf("E16: Invalid range")
	}
	if a > b {
		a, b = b, a
	}
	return a, b, rest, true, nil
}

// vimEx runs a command line: :N, :w, :q, :wq, :x, :e FILE, :s, :noh.
func (v *CodeView) vimEx(line string) {
	vs := v.vim
	line = strings.TrimSpace(line)
	if n, err := strconv.Atoi(line); err == nil {
		// :N past the end goes to the last line, as in vim.
		l := max(0, min(n-1, v.buf.LineCount()-1))
		v.cursor = Pos{l, firstNonBlank(v.buf.Line(l))}
		return
	}
	a, b, cmd, has, err := v.exRange(line)
	if err != nil {
		vs.msg = err.Error()
		return
	}
	cmd = strings.TrimSpace(cmd)
	name, arg, _ := strings.Cut(cmd, " ")
	switch {
	case cmd == "" && has:
		v.cursor = Pos{b, firstNonBlank(v.buf.Line(b))}
	case cmd == "":
	case strings.HasPrefix(cmd, "s/") || cmd == "s":
		v.vimSubstitute(a, b, cmd)
	case name == "noh" || name == "nohlsearch":
	case name == "w" || name == "write":
		if v.vimHostOr() && arg == "" {
			vs.host.vimWrite(nil)
		} else if arg != "" {
			vs.msg = "vim: :w FILE not built"
		}
	case name == "q" || name == "quit" || name == "q!" || name == "quit!":
		if v.vimHostOr() {
			vs.host.vimQuit(strings.HasSuffix(name, "!"))
		}
	case name == "wq" || name == "x" || name == "xit" || name == "exit":
		if v.vimHostOr() {
			host := vs.host
			if name == "wq" || v.buf.Modified() {
				host.vimWrite(func() { host.vimQuit(false) })
			} else {
				host.vimQuit(false)
			}
		}
	case name == "e" || name == "edit":
		if arg == "" {
			vs.msg = "vim: :e without a file name not built"
			return
		}
		if v.vimHostOr() {
			if err := vs.host.vimEdit(strings.TrimSpace(arg)); err != nil {
				vs.msg = err.Error()
			}
		}
	default:
		vs.msg = "vim: :" + name + " not built"
	}
}

func (v *CodeView) vimHostOr() bool {
	if v.vim.host == nil {
		v.vim.msg = "vim: this view has no file to write or close"
		return false
	}
	return true
}

// vimSubstitute is :s/pat/rep/[g] over lines a..b.
func (v *CodeView) vimSubstitute(a, b int, cmd string) {
	vs := v.vim
	parts := splitSubst(strings.TrimPrefix(cmd[1:], "/"))
	if len(parts) < 2 {
		vs.msg = "vim: :s without a pattern (repeating the last one) not built"
		return
	}
	pat, rep, flags := parts[0], parts[1], ""
	if len(parts) > 2 {
		flags = parts[2]
	}
	if strings.Trim(flags, "g") != "" {
		vs.msg = "vim: :s flags other than g not built"
		return
	}
	re, err := regexp.Compile(vimPattern(pat))
	if err != nil {
		vs.msg = "vim: pattern " + pat + ": " + err.Error()
		return
	}
	// The pattern is the last search's too, for n and N (its direction
	// stays), found or not.
	vs.search.pat, vs.search.re = pat, re
	repl := vimReplacement(rep)
	global := flags == "g"
	lastHit := -1
	if !v.editable() {
		return
	}
	vs.seq++
	vs.merge = "vim:" + strconv.Itoa(vs.seq)
	for l := a; l <= b; l++ {
		if re.MatchString(v.buf.Line(l)) {
			v.cursor = Pos{l, 0} // where vim's undo puts the cursor back
			break
		}
	}
	v.vimEdit(func() Pos {
		for l := a; l <= b; l++ {
			text := v.buf.Line(l)
			idx := re.FindAllStringSubmatchIndex(text, -1)
			if !global && len(idx) > 1 {
				idx = idx[:1]
			}
			n := len(idx)
			var buf []byte
			last := 0
			for _, m := range idx {
				buf = append(buf, text[last:m[0]]...)
				buf = re.ExpandString(buf, repl, text, m)
				last = m[1]
			}
			out := string(append(buf, text[last:]...))
			if n > 0 {
				lastHit = l
				if out != text {
					v.buf.Replace(Pos{l, 0}, Pos{l, len(text)}, out)
				}
			}
		}
		if lastHit < 0 {
			return v.cursor
		}
		return Pos{lastHit, firstNonBlank(v.buf.Line(lastHit))}
	})
	if lastHit < 0 {
		vs.msg = "E486: Pattern not found: " + pat
	}
}

// splitSubst splits pat/rep/flags on unescaped slashes.
func splitSubst(s string) []string {
	var parts []string
	var cur strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == '/':
			cur.WriteByte('/')
			i++
		case s[i] == '\\' && i+1 < len(s):
			cur.WriteString(s[i : i+2])
			i++
		case s[i] == '/':
			parts = append(parts, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(s[i])
		}
	}
	return append(parts, cur.String())
}

// vimPattern turns a vim (magic) pattern into a Go one: \( \) \| \+ \? are
// the operators, bare ( ) | + ? { } are literal, \< \> are word edges.
func vimPattern(p string) string {
	var sb strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '\\' && i+1 < len(p) {
			i++
			switch n := p[i]; n {
			case '(', ')', '|', '+', '?', '{', '}':
				sb.WriteByte(n)
			case '<', '>':
				sb.WriteString(`\b`)
			default:
				sb.WriteByte('\\')
				sb.WriteByte(n)
			}
			continue
		}
		if strings.IndexByte("()|+?{}", c) >= 0 {
			sb.WriteByte('\\')
		}
		sb.WriteByte(c)
	}
	return sb.String()
}

// vimReplacement turns & and \1…\9 into Go's ${0}…${9}.
func vimReplacement(r string) string {
	var sb strings.Builder
	for i := 0; i < len(r); i++ {
		c := r[i]
		switch {
		case c == '&':
			sb.WriteString("${0}")
		case c == '$':
			sb.WriteString("$$")
		case c == '\\' && i+1 < len(r):
			i++
			n := r[i]
			if n >= '0' && n <= '9' {
				sb.WriteString("${" + string(n) + "}")
			} else {
				sb.WriteByte(n)
			}
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}
