// Package rules owns fawn's permission rules: permissions.allow, ask and
// deny, in the shape Claude Code users already write (`Bash(npm run:*)`,
// `Edit(docs/**)`). It parses them and decides a tool call against them;
// the agent applies the decision before the permission mode.
//
// A rule is `tool` or `tool(specifier)`:
//
//	bash(go test:*)       a command whose words start with go, test
//	bash(make lint)       exactly this command (the words make, lint)
//	bash                  every command
//	text_editor(docs/**)  an edit (or read) of a path matching the pattern,
//	                      gitignore-style, relative to the project
//	mcp__github           every tool of the MCP server github
//	mcp__github__create_issue
//	web_fetch(domain:go.dev)  a fetch from go.dev or any host under it
//	                      (pkg.go.dev); domain:*.go.dev only those under it
//	web_search            every search
//
// Claude Code's names are aliases: Bash is bash; Edit, Write and MultiEdit
// are text_editor's edits; Read is any read of a file; WebFetch is
// web_fetch and WebSearch web_search.
//
// Deny beats ask beats allow. A command is read with a real shell parser
// (mvdan.cc/sh) and rules are compared with its words as bash passes them,
// quotes removed. An allow rule allows only a plain command line: simple
// commands joined by ;, newlines, &&, || or |, each allowed on its own,
// with literal words only — no $VAR, $(…), `…`, <(…), glob, ~ or {a,b},
// no VAR=value prefix, no redirection but to /dev/null or between
// descriptors (2>&1), no here-document, subshell, block, function or &.
// Anything else is left to the permission mode, which asks; a ! or a %
// job, a line not valid UTF-8 or with control characters too.
//
// Two things hold a plain line back from an allow rule (Verdict.Caution;
// the line asks, and headless it is refused with the reason):
//
//   - In a project that is not trusted (Call.Untrusted), any line that
//     runs git anywhere (behind env, command, xargs, in bash -c, …): git
//     reads the repository's own .git/config, and a tarball or an embedded
//     bare repository brings one whose core.fsmonitor, hooks or aliases
//     run programs. (The agent's shell also runs git there with
//     core.fsmonitor=false, core.hooksPath=/dev/null and
//     safe.bareRepository=explicit: see package terminal.)
//   - An argument that makes the command write a file its argument names
//     or run a program (the cautions table): git --output (log, diff,
//     show, …), format-patch -o, archive -o, grep -O, --upload-pack,
//     --receive-pack, --exec, rebase -x, difftool -x; git's global -c,
//     --config-env, --exec-path= and --git-dir; go -o, -coverprofile and
//     the other profile flags, -outputdir, -modfile (also as -test.…);
//     find -delete, -fprint, -fprint0, -fprintf, -fls; sort -o, --output,
//     --compress-program; rg --pre, --hostname-bin; sed -i / --in-place,
//     -f, and a script with an e, w, W, r or R command or s flag (unless
//     --sandbox); curl -o, -O, -D, -c, -K and their long forms,
//     --output-dir, --trace, --stderr, …; wget -o, -O, -a, -P, -e; tar
//     unless it only lists (-t) or compares (-d), and tar's program
//     options (-I, --to-command, --checkpoint-action, …). Long options
//     are matched by any prefix where the program takes abbreviations,
//     short ones inside a cluster (-uo F).
//
// A bare bash rule still allows every line. Deny and ask
// rules speak of a command wherever it sits: inside substitutions,
// subshells and functions, behind command, env, sudo, xargs, …, in the
// strings of eval and bash -c, and in every part of the raw text.
//
// It imports nothing of fawn; agent, config and ui import it.
package rules

import (
	"fmt"
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"mvdan.cc/sh/v3/syntax"
)

// Effect is what a rule says about a call.
type Effect int

const (
	// None: no rule speaks of the call; the permission mode decides.
	None Effect = iota
	Allow
	Ask
	Deny
)

func (e Effect) String() string {
	switch e {
	case Allow:
		return "allow"
	case Ask:
		return "ask"
	case Deny:
		return "deny"
	}
	return "none"
}

// Rule is one parsed rule.
type Rule struct {
	Raw    string // as written
	Effect Effect
	// Tool is the tool name (lower-cased alias resolved: "bash",
	// "text_editor", "read", "mcp__server", "mcp__server__tool").
	Tool string
	// Spec is the specifier without its parentheses ("" for none); Prefix
	// is set for a bash "…:*" rule, Spec then being the prefix.
	Spec   string
	Prefix bool
	// Domain is a "domain:…" specifier's host, lower-cased ("*.go.dev"
	// keeps its star): the rule speaks of calls to that host (see
	// domainMatches).
	Domain string
	// words are a bash Spec's words as the shell reads them.
	words []string
	// Source says where the rule came from ("~/.config/fawn/config.yaml:12").
	Source string
}

// Call is what a rule is matched against.
type Call struct {
	// Tool is the tool's name: bash, text_editor, mcp__server__tool, …
	Tool string
	// Edit and Read say what a file tool does; Exec is a command.
	Edit, Read, Exec bool
	// Command is a command's text; Path a file's path relative to the
	// project (slash-separated).
	Command string
	Path    string
	// Domain is the host a web tool reaches (lower case, no port).
	Domain string
	// Untrusted: the project is not trusted (trust.Decision). git reads a
	// repository's own configuration, which can name programs it runs
	// (core.fsmonitor, hooks, aliases, filters), so no allow rule lets a
	// line that runs git through.
	Untrusted bool
}

// Verdict is what the rules say of a call.
type Verdict struct {
	Effect Effect
	// Rule is the rule that said it (nil for None).
	Rule *Rule
	// Caution, for a command, says why it asks even where an allow rule
	// would let it through (Effect is then None, unless a deny or ask rule
	// or a bare bash rule speaks): it runs git in a project that is not
	// trusted, or has an argument that writes a file or runs a program
	// (see cautions). It is set whether or not a rule matched, for the
	// permission dialog to say.
	Caution string
}

// aliases map Claude Code's tool names to fawn's.
var aliases = map[string]string{
	"bash":      "bash",
	"edit":      "edit",
	"write":     "edit",
	"multiedit": "edit",
	"read":      "read",
	"webfetch":  "web_fetch",
	"websearch": "web_search",
}

// Parse reads one rule.
func Parse(raw string, effect Effect, source string) (Rule, error) {
	r := Rule{Raw: raw, Effect: effect, Source: source}
	s := strings.TrimSpace(raw)
	name, spec, hasSpec := s, "", false
	if i := strings.IndexByte(s, '('); i >= 0 {
		if !strings.HasSuffix(s, ")") {
			return r, fmt.Errorf("%q: a specifier ends with \")\"", raw)
		}
		name, spec, hasSpec = strings.TrimSpace(s[:i]), s[i+1:len(s)-1], true
	}
	if name == "" {
		return r, fmt.Errorf("%q: no tool name", raw)
	}
	if strings.ContainsAny(name, " \t()") {
		return r, fmt.Errorf("%q: %q is not a tool name", raw, name)
	}
	if a, ok := aliases[strings.ToLower(name)]; ok {
		name = a
	}
	r.Tool = name
	if hasSpec {
		spec = strings.TrimSpace(spec)
		if spec == "" {
			return r, fmt.Errorf("%q: an empty specifier (write %s for every call)", raw, name)
		}
		if name == "bash" {
			if p, ok := strings.CutSuffix(spec, ":*"); ok {
				spec, r.Prefix = strings.TrimSpace(p), true
			}
			r.words = specWords(spec)
		} else if name == "web_search" {
			return r, fmt.Errorf("%q: web_search takes no specifier: write web_search (the backend is the one in your config)", raw)
		} else if d, ok := strings.CutPrefix(spec, "domain:"); ok && name == "web_fetch" {
			d = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(d)), ".")
			if d == "" || d == "*." || strings.ContainsAny(d, " \t/:@?#") || strings.Contains(strings.TrimPrefix(d, "*."), "*") {
				return r, fmt.Errorf("%q: %q is not a domain (write domain:example.com, or domain:*.example.com for the hosts under it)", raw, spec)
			}
			r.Domain = d
		} else if name == "web_fetch" {
			return r, fmt.Errorf("%q: a web_fetch rule names a domain: web_fetch(domain:example.com)", raw)
		} else {
			if !doublestar.ValidatePattern(spec) {
				return r, fmt.Errorf("%q: %q is not a valid path pattern", raw, spec)
			}
		}
		r.Spec = spec
	}
	return r, nil
}

// Set is the effective rules.
type Set struct {
	Rules []Rule
}

// Add parses raw rules of one effect; it returns the errors of the ones it
// could not read (and skips them).
func (s *Set) Add(raw []string, effect Effect, source func(string) string) []error {
	var errs []error
	for _, r := range raw {
		src := ""
		if source != nil {
			src = source(r)
		}
		rule, err := Parse(r, effect, src)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		s.Rules = append(s.Rules, rule)
	}
	return errs
}

// Decide is what the rules say of c, and the rule that said it (nil for
// None).
func (s *Set) Decide(c Call) (Effect, *Rule) {
	v := s.Check(c)
	return v.Effect, v.Rule
}

// Check is Decide with the caution that holds a command back.
func (s *Set) Check(c Call) Verdict {
	if c.Exec && c.Tool == "bash" {
		return s.decideCommand(c)
	}
	if s == nil || len(s.Rules) == 0 {
		return Verdict{}
	}
	e, r := s.strongest(func(r *Rule) bool { return r.matches(c, c.Command) })
	return Verdict{Effect: e, Rule: r}
}

// UntrustedGit is the caution for a line that runs git in a project that
// is not trusted.
const UntrustedGit = "git reads this repository's own configuration (.git/config), which can make it run programs, and the project is not trusted"

// lineCaution is why the parsed line asks even under an allow rule, or "".
func lineCaution(c Call, sc shellCommand) string {
	// An argument first: trusting the project does not change that one.
	for _, w := range sc.found {
		if why := argCaution(w); why != "" {
			return why
		}
	}
	if c.Untrusted {
		for _, w := range sc.found {
			if path.Base(w[0]) == "git" {
				return UntrustedGit
			}
		}
	}
	return ""
}

// decideCommand decides a command line. Deny and ask rules speak of any
// command found anywhere in it, read by the shell parser (inside
// substitutions, behind wrappers such as sudo or env, in eval and bash -c
// strings) and, so that no deny rule ever matches less than it did, of
// every part of the raw text split at ;, &&, |, …. An allow rule allows
// the line only when the parser proves it plain (see shellCommand) and
// every command of it is allowed, and no caution holds it back; anything
// else is left to the mode, which asks.
func (s *Set) decideCommand(c Call) Verdict {
	sc := parseShell(c.Command)
	v := Verdict{Caution: lineCaution(c, sc)}
	if s == nil || len(s.Rules) == 0 {
		return v
	}
	worst := None
	var worstRule *Rule
	consider := func(match func(*Rule) bool) {
		if e, r := s.strongest(func(r *Rule) bool { return r.Effect >= Ask && match(r) }); e > worst {
			worst, worstRule = e, r
		}
	}
	for _, w := range sc.found {
		consider(func(r *Rule) bool { return r.matchesWords(c, w) })
	}
	parts := Split(c.Command)
	if len(parts) == 0 {
		parts = []string{strings.TrimSpace(c.Command)}
	}
	for _, p := range parts {
		consider(func(r *Rule) bool { return r.matches(c, p) })
	}
	if worst != None {
		v.Effect, v.Rule = worst, worstRule
		return v
	}
	// A bare bash rule allows every command, plain or not.
	if e, r := s.strongest(func(r *Rule) bool { return r.Effect == Allow && r.Tool == "bash" && r.Spec == "" && c.Tool == "bash" }); e == Allow {
		v.Effect, v.Rule = Allow, r
		return v
	}
	if !sc.plain || v.Caution != "" {
		return v
	}
	var first *Rule
	for _, w := range append(sc.cmds[:len(sc.cmds):len(sc.cmds)], sc.runs...) {
		e, r := s.strongest(func(r *Rule) bool { return r.Effect == Allow && r.matchesWords(c, w) })
		if e != Allow {
			return v
		}
		if first == nil {
			first = r
		}
	}
	v.Effect, v.Rule = Allow, first
	return v
}

// matchesWords reports whether bash rule r speaks of the command words.
func (r *Rule) matchesWords(c Call, words []string) bool {
	if r.Tool != "bash" || c.Tool != "bash" {
		return false
	}
	if r.Spec == "" {
		return true
	}
	spec := r.words
	if spec == nil {
		spec = specWords(r.Spec)
	}
	return wordsMatch(spec, words, r.Prefix)
}

// ReadDenied is the deny rule that forbids reading the file or directory
// rel (slash-separated, relative to the project), or nil: what Decide says
// of a read, which is what text_editor view meets. The tools that search
// and list ask it of every entry they meet, so that Read(.env) hides .env
// from grep, glob, ls and tree too.
func (s *Set) ReadDenied(rel string) *Rule {
	if e, r := s.Decide(Call{Tool: "read", Read: true, Path: rel}); e == Deny {
		return r
	}
	return nil
}

// strongest is the strongest effect of the rules that match.
func (s *Set) strongest(match func(*Rule) bool) (Effect, *Rule) {
	best := None
	var by *Rule
	for i := range s.Rules {
		r := &s.Rules[i]
		if r.Effect > best && match(r) {
			best, by = r.Effect, r
		}
	}
	return best, by
}

// matches reports whether r speaks of call c (for a command, of its part
// cmd).
func (r *Rule) matches(c Call, cmd string) bool {
	switch {
	case r.Tool == "bash":
		if c.Tool != "bash" {
			return false
		}
		if r.Spec == "" {
			return true
		}
		cmd = strings.Join(strings.Fields(cmd), " ")
		spec := strings.Join(strings.Fields(r.Spec), " ")
		if r.Prefix {
			return cmd == spec || strings.HasPrefix(cmd, spec+" ")
		}
		return cmd == spec
	case r.Tool == "edit":
		return c.Edit && r.pathMatches(c.Path)
	case r.Tool == "read":
		return c.Read && c.Path != "" && r.pathMatches(c.Path)
	case strings.HasPrefix(r.Tool, "mcp__"):
		if c.Tool == r.Tool {
			return true
		}
		// mcp__server names every tool of the server.
		return strings.Count(r.Tool, "__") == 1 && strings.HasPrefix(c.Tool, r.Tool+"__")
	}
	if r.Tool != c.Tool {
		return false
	}
	if r.Spec == "" {
		return true
	}
	if r.Domain != "" {
		return domainMatches(r.Domain, c.Domain)
	}
	if c.Path != "" {
		return r.pathMatches(c.Path)
	}
	return false
}

// domainMatches reports whether a rule's domain speaks of host: the
// domain itself and every host under it ("go.dev" speaks of pkg.go.dev:
// whoever holds a domain holds its subdomains), or, written "*.go.dev",
// only the hosts under it.
func domainMatches(domain, host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "" {
		return false
	}
	if sub, ok := strings.CutPrefix(domain, "*."); ok {
		return strings.HasSuffix(host, "."+sub)
	}
	return host == domain || strings.HasSuffix(host, "."+domain)
}

// pathMatches matches a gitignore-style pattern: one without a slash
// matches the name at any depth; "dir/" matches everything under dir.
func (r *Rule) pathMatches(rel string) bool {
	if r.Spec == "" {
		return true
	}
	if rel == "" {
		return false
	}
	p := strings.TrimPrefix(r.Spec, "/")
	if d, ok := strings.CutSuffix(p, "/"); ok {
		p = d + "/**"
	}
	if !strings.Contains(strings.TrimSuffix(p, "/**"), "/") && !strings.HasPrefix(r.Spec, "/") {
		if ok, _ := doublestar.Match(p, path.Base(rel)); ok && !strings.Contains(p, "/") {
			return true
		}
		p = "**/" + p
	}
	ok, _ := doublestar.Match(p, rel)
	if !ok && strings.HasSuffix(p, "/**") {
		ok, _ = doublestar.Match(strings.TrimSuffix(p, "/**"), rel)
	}
	return ok
}

// Split cuts a shell command's raw text at &&, ||, ;, |, & and newlines
// outside quotes; the insides of $(…) and `…` are parts of their own.
// It is not how bash reads a line (the parser is): deny and ask rules are
// matched against its parts as well, so that none matches less than it
// did when this was the only reading, and what it cannot read (an
// unclosed quote) stays one part.
func Split(cmd string) []string {
	var parts []string
	var cur strings.Builder
	flush := func() {
		if p := strings.TrimSpace(cur.String()); p != "" {
			parts = append(parts, p)
		}
		cur.Reset()
	}
	var quote byte
	for i := 0; i < len(cmd); i++ {
		ch := cmd[i]
		switch {
		case quote == '\'':
			cur.WriteByte(ch)
			if ch == '\'' {
				quote = 0
			}
		case ch == '\\' && i+1 < len(cmd):
			cur.WriteByte(ch)
			cur.WriteByte(cmd[i+1])
			i++
		case quote == '"' && ch == '"':
			cur.WriteByte(ch)
			quote = 0
		case ch == '$' && i+1 < len(cmd) && cmd[i+1] == '(':
			end := closing(cmd, i+2)
			if end < 0 {
				cur.WriteString(cmd[i:])
				i = len(cmd)
				continue
			}
			parts = append(parts, Split(cmd[i+2:end])...)
			cur.WriteString("$(…)")
			i = end
		case ch == '`':
			end := strings.IndexByte(cmd[i+1:], '`')
			if end < 0 {
				cur.WriteString(cmd[i:])
				i = len(cmd)
				continue
			}
			parts = append(parts, Split(cmd[i+1:i+1+end])...)
			cur.WriteString("`…`")
			i += end + 1
		case quote == '"':
			cur.WriteByte(ch)
		case ch == '\'' || ch == '"':
			quote = ch
			cur.WriteByte(ch)
		case ch == ';' || ch == '\n' || ch == '|' || ch == '&':
			flush()
			if i+1 < len(cmd) && (cmd[i+1] == '&' || cmd[i+1] == '|') && ch != ';' && ch != '\n' {
				i++
			}
		default:
			cur.WriteByte(ch)
		}
	}
	flush()
	return parts
}

// closing finds the ")" that closes a "$(" whose inside starts at i.
func closing(s string, i int) int {
	depth := 1
	var quote byte
	for ; i < len(s); i++ {
		ch := s[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			}
		case ch == '\'' || ch == '"':
			quote = ch
		case ch == '(':
			depth++
		case ch == ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// Suggest is the rule that would allow c: for a command its first word
// (two for a tool such as git or go with subcommands) with ":*", for a
// file its path.
func Suggest(c Call) string {
	switch {
	case c.Exec && c.Tool == "bash":
		// The first command as the parser reads it: the one the line starts
		// with, not one inside its substitutions, and never an assignment.
		var w []string
		if sc := parseShell(c.Command); len(sc.cmds) > 0 {
			w = sc.cmds[0]
		} else if len(sc.found) > 0 {
			w = sc.found[0]
		} else if parts := Split(c.Command); len(parts) > 0 {
			w = strings.Fields(parts[0])
		}
		if len(w) == 0 {
			return "bash"
		}
		n := 1
		if len(w) > 1 && subcommands[w[0]] && !strings.HasPrefix(w[1], "-") {
			n = 2
		}
		words := make([]string, n)
		for i, x := range w[:n] {
			// A word with a blank or a quote is written as the shell
			// would read it back, so the rule names the same word.
			words[i] = x
			if q, err := syntax.Quote(x, syntax.LangBash); err == nil {
				words[i] = q
			}
		}
		return "bash(" + strings.Join(words, " ") + ":*)"
	case c.Domain != "":
		return c.Tool + "(domain:" + c.Domain + ")"
	case c.Path != "":
		return c.Tool + "(" + c.Path + ")"
	}
	return c.Tool
}

// subcommands are programs whose first argument says what they do.
var subcommands = map[string]bool{"git": true, "go": true, "npm": true, "pnpm": true, "yarn": true, "cargo": true, "make": true, "docker": true, "kubectl": true, "pip": true, "uv": true, "bun": true, "npx": true}
