package rules

import (
	"path"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// A command is matched against bash rules as bash would run it, read by a
// real shell parser: splitting the text at ; or && by hand let a quote
// that bash reads differently ($'\''), a comment that swallows a quote or
// a redirection through a rule that meant one command. What the parser
// cannot prove to be a plain list of plain commands is never allowed by a
// rule; deny and ask rules are looked for in every command it finds,
// wherever it sits.

// shellCommand is what the parser proves of a command line.
type shellCommand struct {
	// plain: the line is simple commands joined by ;, newlines, &&, || or
	// |, each a command word and literal arguments, with no substitution,
	// expansion, assignment, here-document, background job or redirection
	// but to /dev/null or between descriptors. Only then may allow rules
	// allow it: each of cmds must be allowed.
	plain bool
	cmds  [][]string
	// runs is every command a command of cmds runs through its arguments
	// (find -exec, go test -exec): allow rules must allow each of these
	// too, since a rule about find or go test does not speak of them.
	runs [][]string
	// found is every command anywhere in the line (inside substitutions,
	// subshells, functions, here-documents, eval and bash -c too), as the
	// literal words it starts with, and each with its wrappers (command,
	// env, sudo, …) taken off: what deny and ask rules are matched against.
	found [][]string
}

// maxNesting bounds how deep eval and bash -c strings are read.
const maxNesting = 4

// parseShell reads cmd. A line the parser cannot read is not plain and
// finds nothing: the raw-text split still looks for deny rules in it.
func parseShell(cmd string) shellCommand {
	var sc shellCommand
	f, ok := parseFile(cmd)
	if !ok {
		return sc
	}
	sc.plain = len(f.Stmts) > 0 && utf8.ValidString(cmd) && !hasControl(cmd)
	for _, st := range f.Stmts {
		if !sc.plainStmt(st) {
			sc.plain = false
		}
	}
	if !sc.plain {
		sc.cmds, sc.runs = nil, nil
	}
	sc.find(f, 0)
	return sc
}

func parseFile(cmd string) (*syntax.File, bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), "")
	return f, err == nil
}

// hasControl reports control characters other than tab and newline, which
// terminals and shells may read otherwise than the parser does.
func hasControl(s string) bool {
	for _, r := range s {
		if (r < 0x20 && r != '\t' && r != '\n') || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return true
		}
	}
	return false
}

// plainStmt checks one statement and collects its simple commands.
func (sc *shellCommand) plainStmt(st *syntax.Stmt) bool {
	if st == nil || st.Negated || st.Background || st.Coprocess || st.Disown {
		return false
	}
	for _, r := range st.Redirs {
		if !harmlessRedirect(r) {
			return false
		}
	}
	switch c := st.Cmd.(type) {
	case *syntax.CallExpr:
		if len(c.Assigns) > 0 || len(c.Args) == 0 {
			return false
		}
		words := make([]string, len(c.Args))
		for i, w := range c.Args {
			s, lit := wordValue(w)
			if !lit {
				return false
			}
			words[i] = s
		}
		if strings.HasPrefix(words[0], "%") {
			return false // a job: %1 is fg %1
		}
		sc.cmds = append(sc.cmds, words)
		sc.runs = append(sc.runs, argCommands(words)...)
		return true
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.AndStmt, syntax.OrStmt, syntax.Pipe, syntax.PipeAll:
			// Both sides must be checked: no short cut.
			x := sc.plainStmt(c.X)
			y := sc.plainStmt(c.Y)
			return x && y
		}
	}
	return false
}

// harmlessRedirect: a redirection that writes and reads no file: between
// descriptors (2>&1, >&2, 2>&-) or to and from /dev/null.
func harmlessRedirect(r *syntax.Redirect) bool {
	if r.N != nil && !isDigits(r.N.Value) {
		return false // {var}>…: assigns a variable
	}
	target, lit := wordValue(r.Word)
	if !lit {
		return false
	}
	switch r.Op {
	case syntax.DplOut, syntax.DplIn:
		// >&word with a word that is no descriptor is bash's &>word.
		return isDigits(target) || target == "-"
	case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrIn:
		return target == "/dev/null"
	}
	return false
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// wordValue is w after quote removal, and whether that is exactly the
// argument bash passes: no expansion of any kind (parameter, command,
// arithmetic, process, tilde, brace, pathname), no $'…' escapes, no $"…".
func wordValue(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", false
	}
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if !unquoted(&b, p.Value) {
				return "", false
			}
		case *syntax.SglQuoted:
			if p.Dollar && strings.ContainsRune(p.Value, '\\') {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false
			}
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				if !inDouble(&b, l.Value) {
					return "", false
				}
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// unquoted removes the backslashes of an unquoted literal; it reports
// false when bash would expand it (a glob, a brace, a tilde).
func unquoted(b *strings.Builder, s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			if i+1 == len(s) {
				return false // a backslash ending the line joins the next
			}
			i++
			if s[i] != '\n' {
				b.WriteByte(s[i])
			}
		case strings.IndexByte("*?[]{}~!", c) >= 0:
			// ! is history expansion where the user's shell has it on.
			return false
		default:
			b.WriteByte(c)
		}
	}
	return true
}

// inDouble removes the backslashes bash removes inside double quotes; it
// reports false for a ! (history expansion happens inside them too).
func inDouble(b *strings.Builder, s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '!' {
			return false
		}
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
			i++
			if s[i] != '\n' {
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return true
}

// literalPrefix is the words of a command up to the first that is not
// literal: a rule about those words speaks of the command, whatever the
// rest expands to.
func literalPrefix(args []*syntax.Word) []string {
	var words []string
	for _, w := range args {
		s, ok := wordValue(w)
		if !ok {
			break
		}
		words = append(words, s)
	}
	return words
}

// find collects every command in node, for deny and ask rules.
func (sc *shellCommand) find(node syntax.Node, depth int) {
	syntax.Walk(node, func(n syntax.Node) bool {
		switch c := n.(type) {
		case *syntax.CallExpr:
			words := literalPrefix(c.Args)
			sc.addFound(words)
			for _, inner := range argCommands(words) {
				sc.addFound(inner)
				if depth < maxNesting {
					sc.findNested(inner, depth)
				}
			}
			if depth < maxNesting {
				sc.findNested(words, depth)
			}
		case *syntax.DeclClause:
			words := []string{c.Variant.Value}
			for _, a := range c.Args {
				if a.Name != nil {
					words = append(words, a.Name.Value)
				} else if s, ok := wordValue(a.Value); ok {
					words = append(words, s)
				}
			}
			sc.addFound(words)
		case *syntax.LetClause:
			sc.addFound([]string{"let"})
		}
		return true
	})
}

// findNested reads the strings that eval and bash -c run as commands of
// their own, wherever in the words they sit (sudo bash -c, env X=1 eval):
// reading one too many only finds more for deny rules to catch.
func (sc *shellCommand) findNested(words []string, depth int) {
	for i := 0; i < len(words); i++ {
		var script string
		switch name := path.Base(words[i]); name {
		case "eval":
			script = strings.Join(words[i+1:], " ")
		case "bash", "sh", "dash", "zsh", "ksh", "mksh", "busybox":
			for j := i + 1; j+1 < len(words); j++ {
				if strings.HasPrefix(words[j], "-") && !strings.HasPrefix(words[j], "--") && strings.Contains(words[j], "c") {
					script = words[j+1]
					break
				}
			}
		default:
			continue
		}
		if f, ok := parseFile(script); ok && script != "" {
			sc.find(f, depth+1)
		}
	}
}

// argCommands are the commands that a command's arguments make it run,
// where the command is not a wrapper that runs its arguments whole: find's
// -exec, -execdir, -ok and -okdir (up to ; or +), and the go command's
// -exec, -toolexec and -vettool (one argument, split at blanks as go
// splits it).
func argCommands(words []string) [][]string {
	if len(words) == 0 {
		return nil
	}
	var cmds [][]string
	switch path.Base(words[0]) {
	case "find":
		for i := 1; i < len(words); i++ {
			switch words[i] {
			case "-exec", "-execdir", "-ok", "-okdir":
				j := i + 1
				for j < len(words) && words[j] != ";" && words[j] != "+" {
					j++
				}
				if j > i+1 {
					cmds = append(cmds, words[i+1:j])
				}
				i = j
			}
		}
	case "go":
		for i := 1; i < len(words); i++ {
			flag := strings.TrimPrefix(words[i], "-")
			name, value, hasValue := strings.Cut(strings.TrimPrefix(flag, "-"), "=")
			if !strings.HasPrefix(words[i], "-") || (name != "exec" && name != "toolexec" && name != "vettool") {
				continue
			}
			if !hasValue {
				if i+1 == len(words) {
					break
				}
				i++
				value = words[i]
			}
			if inner := specWords(value); len(inner) > 0 {
				cmds = append(cmds, inner)
			}
		}
	}
	return cmds
}

// wrappers run the command their arguments name.
var wrappers = map[string]bool{
	"command": true, "builtin": true, "exec": true, "nohup": true, "time": true,
	"nice": true, "env": true, "sudo": true, "doas": true, "xargs": true,
	"timeout": true, "stdbuf": true, "setsid": true, "ionice": true, "chrt": true,
	"taskset": true, "unbuffer": true, "watch": true, "strace": true, "ltrace": true,
}

// addFound adds a command's words, and for a wrapper the words from each
// position after it (sudo -u root rm … speaks of rm: a few forms too many
// only give deny rules more to catch), each also by the base name of a
// command given by path (/bin/rm is rm).
func (sc *shellCommand) addFound(words []string) {
	if len(words) == 0 {
		return
	}
	forms := [][]string{words}
	if wrappers[path.Base(words[0])] {
		for i := 1; i < len(words); i++ {
			forms = append(forms, words[i:])
		}
	}
	for _, w := range forms {
		sc.found = append(sc.found, w)
		if strings.Contains(w[0], "/") {
			sc.found = append(sc.found, append([]string{path.Base(w[0])}, w[1:]...))
		}
	}
}

// specWords are the words of a bash rule's specifier, read as the shell
// reads a command ("go test", 'a b' one word), or split at blanks when it
// is not one plain command.
func specWords(spec string) []string {
	if f, ok := parseFile(spec); ok && len(f.Stmts) == 1 {
		if c, ok := f.Stmts[0].Cmd.(*syntax.CallExpr); ok && len(c.Assigns) == 0 && len(f.Stmts[0].Redirs) == 0 {
			if words := literalPrefix(c.Args); len(words) == len(c.Args) && len(words) > 0 {
				return words
			}
		}
	}
	return strings.Fields(spec)
}

// wordsMatch reports whether a command's words are what the rule names:
// the same words, or for a prefix rule, its words followed by any.
func wordsMatch(spec, words []string, prefix bool) bool {
	if len(words) < len(spec) || (!prefix && len(words) != len(spec)) {
		return false
	}
	for i, s := range spec {
		if words[i] != s {
			return false
		}
	}
	return true
}
