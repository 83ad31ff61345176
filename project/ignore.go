package project

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/fawn-ide/fawn/trust"
)

// The ignore rules the walks honour, the way git and ripgrep do:
// .gitignore files at every level (nested, with negations), .ignore files
// (which take precedence over .gitignore, as in ripgrep), and the
// repository's .git/info/exclude. Pattern matching itself is doublestar's;
// this file only translates the gitignore line format (comments, escapes,
// negation, trailing slash, anchoring) into doublestar patterns.

// maxIgnoreFileSize bounds how much of one ignore file is read; a larger one
// is almost certainly not an ignore file a person wrote.
const maxIgnoreFileSize = 1 << 20

// ignoreRule is one pattern line of an ignore file.
type ignoreRule struct {
	glob     string // doublestar pattern, without the leading "/" or trailing "/"
	negate   bool   // "!pattern": re-include
	dirOnly  bool   // "pattern/": directories only
	anchored bool   // contains a "/" before its end: matched against the path below the file's directory
	// insideOnly is set for "dir/**": it matches everything inside dir but not dir itself.
	insideOnly string
	// literal, when not empty, is the whole glob without any metacharacter,
	// which allows a plain comparison instead of a pattern match.
	literal string
	// suffix, when not empty, means the glob is "*" followed by this literal ("*.log").
	suffix string
}

// parseIgnore reads the rules of one ignore file's content. Lines that are
// not valid patterns are skipped, as git does.
func parseIgnore(data []byte) []ignoreRule {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var rules []ignoreRule
	for len(data) > 0 {
		var line []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			line, data = data, nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if r, ok := parseIgnoreLine(string(line)); ok {
			rules = append(rules, r)
		}
	}
	return rules
}

// parseIgnoreLine translates one gitignore line (see gitignore(5)).
func parseIgnoreLine(line string) (ignoreRule, bool) {
	var r ignoreRule
	if line == "" || line[0] == '#' {
		return r, false
	}
	line = trimIgnoreTrailingSpace(line)
	if line == "" {
		return r, false
	}
	if line[0] == '!' {
		r.negate = true
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") && !strings.HasSuffix(line, `\/`) {
		r.dirOnly = true
		line = strings.TrimRight(line, "/")
	}
	if line == "" {
		return r, false
	}
	if strings.Contains(line, "/") {
		r.anchored = true
		line = strings.TrimPrefix(line, "/")
		if line == "" {
			return r, false
		}
	}
	// gitignore has no brace alternatives: a "{" is a literal character.
	line = strings.NewReplacer("{", `\{`, "}", `\}`).Replace(line)
	if !doublestar.ValidatePattern(line) {
		return r, false
	}
	r.glob = line
	if r.anchored && strings.HasSuffix(line, "/**") {
		r.insideOnly = strings.TrimSuffix(line, "/**")
	}
	if !strings.ContainsAny(line, `*?[\`) {
		r.literal = line
	} else if !r.anchored && strings.HasPrefix(line, "*") && !strings.ContainsAny(line[1:], `*?[\`) {
		r.suffix = line[1:]
	}
	return r, true
}

// trimIgnoreTrailingSpace drops trailing spaces unless escaped with a backslash.
func trimIgnoreTrailingSpace(s string) string {
	end := len(s)
	for end > 0 && s[end-1] == ' ' {
		// Count the backslashes before this space: an odd number escapes it.
		bs := 0
		for i := end - 2; i >= 0 && s[i] == '\\'; i-- {
			bs++
		}
		if bs%2 == 1 {
			break
		}
		end--
	}
	return s[:end]
}

// match reports whether the rule matches an entry. name is the entry's base
// name; rel is its slash-separated path below the ignore file's directory.
func (r *ignoreRule) match(rel, name string, isDir bool) bool {
	if r.dirOnly && !isDir {
		return false
	}
	subject := name
	if r.anchored {
		subject = rel
	}
	switch {
	case r.literal != "":
		return subject == r.literal
	case r.suffix != "":
		return strings.HasSuffix(subject, r.suffix)
	}
	if !doublestar.MatchUnvalidated(r.glob, subject) {
		return false
	}
	if r.insideOnly != "" && doublestar.MatchUnvalidated(r.insideOnly, subject) {
		return false
	}
	return true
}

// ignoreNode holds the rules of one directory, linked to its parent's.
type ignoreNode struct {
	parent *ignoreNode
	// prefix is the directory's slash path below the matching base, "" for
	// the base itself, otherwise ending in "/".
	prefix string
	ignore []ignoreRule // from .ignore
	git    []ignoreRule // from .gitignore
}

// ignoreSet decides which entries are ignored below a base directory: the
// enclosing git repository's top when there is one, else the project root.
type ignoreSet struct {
	base    string
	exclude []ignoreRule // .git/info/exclude of the repository
}

// newIgnoreSet prepares matching for walks inside root.
func newIgnoreSet(root string) *ignoreSet {
	s := &ignoreSet{base: root}
	for dir := root; ; {
		fi, err := os.Lstat(filepath.Join(dir, ".git"))
		if err == nil {
			s.base = dir
			if fi.IsDir() {
				s.exclude = parseIgnore(readIgnoreFile(filepath.Join(dir, ".git", "info", "exclude")))
			}
			break
		}
		up := filepath.Dir(dir)
		if up == dir {
			break
		}
		dir = up
	}
	return s
}

// readIgnoreFile returns a bounded prefix of the file, or nil when it cannot be read.
func readIgnoreFile(path string) []byte {
	// A repository's .gitignore may be a FIFO: os.Open would wait for a
	// writer forever, and grep, glob and the explorer with it.
	f, err := trust.OpenFile(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxIgnoreFileSize))
	if err != nil {
		return nil
	}
	return data
}

// node returns the node for dir (absolute, at or below s.base) with the rules
// of every directory from the base down to dir loaded.
func (s *ignoreSet) node(dir string) *ignoreNode {
	rel, err := filepath.Rel(s.base, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return s.load(nil, dir, "")
	}
	n := s.load(nil, s.base, "")
	if rel == "." {
		return n
	}
	cur, prefix := s.base, ""
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		cur = filepath.Join(cur, part)
		prefix += part + "/"
		n = s.load(n, cur, prefix)
	}
	return n
}

// load returns the node of directory dir below parent. When dir has no
// ignore files it still gets its own node, so prefixes stay right.
func (s *ignoreSet) load(parent *ignoreNode, dir, prefix string) *ignoreNode {
	return &ignoreNode{
		parent: parent,
		prefix: prefix,
		ignore: parseIgnore(readIgnoreFile(filepath.Join(dir, ".ignore"))),
		git:    parseIgnore(readIgnoreFile(filepath.Join(dir, ".gitignore"))),
	}
}

// ignored reports whether the entry name, directly inside the directory of
// n, is ignored. As in ripgrep, a match in a .ignore file (at any level)
// decides before .gitignore files, which decide before .git/info/exclude;
// within each kind the deepest file decides, and within a file the last
// matching line.
func (s *ignoreSet) ignored(n *ignoreNode, name string, isDir bool) bool {
	rel := n.prefix + name
	for _, pick := range [2]func(*ignoreNode) []ignoreRule{
		func(n *ignoreNode) []ignoreRule { return n.ignore },
		func(n *ignoreNode) []ignoreRule { return n.git },
	} {
		for m := n; m != nil; m = m.parent {
			rules := pick(m)
			for i := len(rules) - 1; i >= 0; i-- {
				if rules[i].match(rel[len(m.prefix):], name, isDir) {
					return !rules[i].negate
				}
			}
		}
	}
	for i := len(s.exclude) - 1; i >= 0; i-- {
		if s.exclude[i].match(rel, name, isDir) {
			return !s.exclude[i].negate
		}
	}
	return false
}
