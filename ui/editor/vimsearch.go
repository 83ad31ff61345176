package editor

import "regexp"

// Search: / and ? type a pattern (vim's magic patterns, as :s reads them)
// on the command line; n and N repeat it; * and # search for the word
// under the cursor. Searches wrap around the buffer, as vim's wrapscan.

// vimSearch is the last search.
type vimSearch struct {
	pat      string
	re       *regexp.Regexp
	backward bool
}

// vimStartSearch opens the command line for / or ?; c is the command
// (an operator, a count) the pattern completes.
func (v *CodeView) vimStartSearch(c vimCmd) {
	vs := v.vim
	vs.searchCmd = c
	vs.searchCmd.pending = vs.mode
	vs.cmdKind, vs.cmdline = c.key[0], ""
	vs.mode = vimCmdline
}

// vimSearchDone runs the search the command line typed.
func (v *CodeView) vimSearchDone(pat string) {
	vs := v.vim
	c := vs.searchCmd
	vs.mode = c.pending
	if pat != "" || vs.search.re == nil {
		if i := unescapedSlash(pat, c.key[0]); i >= 0 {
			if pat[i+1:] != "" {
				vs.notBuilt("a search offset (" + pat[i:] + ")")
				v.vimSearchAbort()
				return
			}
			pat = pat[:i]
		}
		if pat == "" {
			vs.msg = "E35: No previous regular expression"
			v.vimSearchAbort()
			return
		}
		re, err := regexp.Compile(vimPattern(pat))
		if err != nil {
			vs.msg = "vim: pattern " + pat + ": " + err.Error()
			v.vimSearchAbort()
			return
		}
		vs.search.pat, vs.search.re = pat, re
	}
	vs.search.backward = c.key == "?"
	c.search = vs.search.pat
	if vs.mode == vimNormal {
		v.vimNormal(c)
		return
	}
	v.vimVisualCmd(c)
}

// vimSearchAbort ends a search typed after an operator without running it.
func (v *CodeView) vimSearchAbort() {
	vs := v.vim
	vs.mode = vs.searchCmd.pending
	vs.stopRecording(false)
	if vs.mode != vimNormal {
		v.vimShowSelection()
	}
}

// unescapedSlash is the index of the first unescaped sep (the start of a
// search offset), or -1.
func unescapedSlash(s string, sep byte) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case sep:
			return i
		}
	}
	return -1
}

// vimSearchMotion is / ? n N * #: the count-th match from the cursor.
func (v *CodeView) vimSearchMotion(c vimCmd) (Pos, bool) {
	vs := v.vim
	from := v.cursor
	switch c.key {
	case "*", "#":
		word, start, ok := wordUnder(v.buf.Line(from.Line), from.Col)
		if !ok {
			vs.msg = "E348: No string under cursor"
			return from, false
		}
		// Word edges where the text starts or ends with a keyword
		// character.
		pat, vpat := regexp.QuoteMeta(word), word
		if rs := []rune(word); isWordRune(rs[0]) {
			pat, vpat = `\b`+pat, `\<`+vpat
		}
		if rs := []rune(word); isWordRune(rs[len(rs)-1]) {
			pat, vpat = pat+`\b`, vpat+`\>`
		}
		vs.search = vimSearch{pat: vpat, re: regexp.MustCompile(pat), backward: c.key == "#"}
		from.Col = start
	}
	if vs.search.re == nil {
		vs.msg = "E35: No previous regular expression"
		return from, false
	}
	back := vs.search.backward
	if c.key == "N" {
		back = !back
	}
	p := from
	for n := c.n(); n > 0; n-- {
		var ok, wrapped bool
		if p, ok, wrapped = v.searchFrom(p, back); !ok {
			vs.msg = "E486: Pattern not found: " + vs.search.pat
			return v.cursor, false
		}
		if wrapped {
			vs.msg = map[bool]string{false: "search hit BOTTOM, continuing at TOP", true: "search hit TOP, continuing at BOTTOM"}[back]
		}
	}
	return p, true
}

// searchFrom finds the next match after p (before p when back), wrapping
// around the buffer.
func (v *CodeView) searchFrom(p Pos, back bool) (Pos, bool, bool) {
	re := v.vim.search.re
	n := v.buf.LineCount()
	for i := 0; i <= n; i++ {
		l := p.Line + i
		if back {
			l = p.Line - i
		}
		wrapped := l < 0 || l >= n
		l = ((l % n) + n) % n
		ms := re.FindAllStringIndex(v.buf.Line(l), -1)
		if back {
			for k := len(ms) - 1; k >= 0; k-- {
				if i > 0 || ms[k][0] < p.Col {
					return Pos{l, ms[k][0]}, true, wrapped
				}
			}
			continue
		}
		for _, m := range ms {
			if i > 0 || m[0] > p.Col {
				if i == n && m[0] > p.Col {
					break
				}
				return Pos{l, m[0]}, true, wrapped
			}
		}
	}
	return p, false, false
}

// wordUnder is what * and # search for, as vim's find_ident_under_cursor
// takes it: the keyword under or after col, else the non-blank text there
// (from where its class starts, to the next blank); where it starts.
func wordUnder(line string, col int) (string, int, bool) {
	rs := []rune(line)
	ri := len([]rune(line[:min(col, len(line))]))
	class := func(r rune) int {
		switch {
		case r == ' ' || r == '\t':
			return 0
		case isWordRune(r):
			return 2
		}
		return 1
	}
	for pass := 2; pass >= 1; pass-- {
		i := ri
		for i < len(rs) && class(rs[i]) != pass && (pass == 2 || class(rs[i]) == 0) {
			i++
		}
		if i == len(rs) || pass == 2 && class(rs[i]) != 2 {
			continue
		}
		s := i
		for s > 0 && class(rs[s-1]) == class(rs[i]) {
			s--
		}
		e := i
		for e < len(rs) && (pass == 2 && class(rs[e]) == 2 || pass == 1 && class(rs[e]) != 0) {
			e++
		}
		return string(rs[s:e]), len(string(rs[:s])), true
	}
	return "", 0, false
}

// searchCmdKeys are the keys of a search command for . to repeat.
func searchCmdKeys(c vimCmd) []string {
	var out []string
	for _, r := range c.search {
		out = append(out, string(r))
	}
	return append(out, "<CR>")
}
