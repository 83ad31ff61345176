package tools

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/project"
)

//go:embed grep.md
var grepDoc string

// Bounds of one search.
const (
	grepTimeLimit      = 20 * time.Second
	grepMaxFileSize    = 64 << 20
	grepDefaultFiles   = 200
	grepDefaultLines   = 300
	grepMaxHeadLimit   = 5000
	grepMaxContext     = 20
	grepMaxLineDisplay = 400
)

// Grep is the grep tool: an RE2 search over the project's files, walking
// them as git and ripgrep do and agreeing with ripgrep on what it finds.
type Grep struct {
	toolInfo
	env *Env
	// timeLimit bounds a search; past it the results so far are returned.
	timeLimit time.Duration
	// maxFileSize is the largest file searched; larger ones are counted and named in a note.
	maxFileSize int64
}

// NewGrep returns the grep tool working in env.
func NewGrep(env *Env) *Grep {
	env.ensureState()
	return &Grep{
		env:         env,
		timeLimit:   grepTimeLimit,
		maxFileSize: grepMaxFileSize,
		toolInfo: toolInfo{
			name: "grep",
			desc: grepDoc,
			params: map[string]*schema.ParameterInfo{
				"pattern": {Type: schema.String, Required: true, Desc: "RE2 regular expression to search for (a leading - is part of the pattern)."},
				"path":    {Type: schema.String, Desc: "File or directory to search, relative to the project root; default: the whole project."},
				"glob":    {Type: schema.String, Desc: `Only files matching this glob, e.g. "*.go", "*.{ts,tsx}", "src/**/*.rs"; a leading ! excludes.`},
				"type":    {Type: schema.String, Desc: "Only files of this type: go, py, js, ts, rust, java, c, cpp, md, json, yaml, sh, …"},
				"output_mode": {Type: schema.String, Enum: []string{"files_with_matches", "content", "count"},
					Desc: "files_with_matches (default): matching file paths; content: matching lines; count: matches per file."},
				"A":          {Type: schema.Integer, Desc: "content: lines of context after each match."},
				"B":          {Type: schema.Integer, Desc: "content: lines of context before each match."},
				"C":          {Type: schema.Integer, Desc: "content: lines of context before and after each match."},
				"n":          {Type: schema.Boolean, Desc: "content: show line numbers (default true)."},
				"i":          {Type: schema.Boolean, Desc: "Case-insensitive search."},
				"head_limit": {Type: schema.Integer, Desc: "Show at most this many lines, files or counts."},
				"multiline":  {Type: schema.Boolean, Desc: "Let the pattern span lines; . also matches newlines."},
			},
		},
	}
}

type grepArgs struct {
	Pattern    *string   `json:"pattern"`
	Path       string    `json:"path"`
	Glob       string    `json:"glob"`
	Type       string    `json:"type"`
	OutputMode string    `json:"output_mode"`
	After      flexInt   `json:"A"`
	Before     flexInt   `json:"B"`
	Context    flexInt   `json:"C"`
	DashA      flexInt   `json:"-A"`
	DashB      flexInt   `json:"-B"`
	DashC      flexInt   `json:"-C"`
	Numbers    *flexBool `json:"n"`
	DashN      *flexBool `json:"-n"`
	IgnoreCase flexBool  `json:"i"`
	DashI      flexBool  `json:"-i"`
	HeadLimit  flexInt   `json:"head_limit"`
	Multiline  flexBool  `json:"multiline"`
}

// grepQuery is a checked search.
type grepQuery struct {
	pattern       string
	re            *regexp.Regexp // per line, or on the whole file when multiline
	prefilter     *regexp.Regexp // whole-file test that must pass for any line to match; nil: none
	literal       []byte         // a literal every match contains; nil: none
	literalFold   bool           // literal is lower-case and compared ignoring ASCII case
	abs, rel      string         // what to search
	isFile        bool
	glob          string
	globNeg       bool
	globAnchored  bool
	typeGlobs     []string
	mode          string
	before, after int
	numbers       bool
	limit         int
	limitSet      bool
	multiline     bool
}

func (g *Grep) parse(argsJSON string) (*grepQuery, error) {
	var a grepArgs
	if err := decodeArgs(g.name, argsJSON, &a); err != nil {
		return nil, err
	}
	if a.Pattern == nil || *a.Pattern == "" {
		return nil, errors.New("grep needs a pattern: an RE2 regular expression such as \"func \\w+\\(\" or a plain word")
	}
	q := &grepQuery{pattern: *a.Pattern, numbers: true, multiline: bool(a.Multiline)}
	flags := ""
	if a.IgnoreCase || a.DashI {
		flags += "i"
	}
	if q.multiline {
		flags += "s"
	}
	expr := q.pattern
	if flags != "" {
		expr = "(?" + flags + ")" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("pattern %q is not a valid RE2 regular expression: %s. Escape literal ( ) [ ] { } . * + ? | with a backslash; RE2 has no lookaround or backreferences",
			q.pattern, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	q.re = re
	q.literal, q.literalFold = requiredLiteral(expr)
	if !q.multiline && !strings.Contains(q.pattern, `\A`) && !strings.Contains(q.pattern, `\z`) && !strings.Contains(q.pattern, "(?") {
		// A line's match is also a match of the whole file with ^ and $
		// at line breaks, so one pass over the file rules most files out.
		q.prefilter, _ = regexp.Compile("(?m" + flags + ")" + q.pattern)
	}

	switch strings.ToLower(strings.TrimSpace(a.OutputMode)) {
	case "", "files_with_matches", "files", "files_with_match", "l":
		q.mode = "files_with_matches"
	case "content", "lines":
		q.mode = "content"
	case "count", "c":
		q.mode = "count"
	default:
		return nil, fmt.Errorf("unknown output_mode %q: use files_with_matches, content or count", a.OutputMode)
	}
	pick := func(vs ...flexInt) (int, bool) {
		for _, v := range vs {
			if v.Set {
				return v.N, true
			}
		}
		return 0, false
	}
	if c, ok := pick(a.Context, a.DashC); ok {
		q.before, q.after = c, c
	}
	if b, ok := pick(a.Before, a.DashB); ok {
		q.before = b
	}
	if n, ok := pick(a.After, a.DashA); ok {
		q.after = n
	}
	if q.before < 0 || q.after < 0 {
		return nil, errors.New("context lines (A, B, C) cannot be negative")
	}
	q.before, q.after = min(q.before, grepMaxContext), min(q.after, grepMaxContext)
	if a.Numbers != nil {
		q.numbers = bool(*a.Numbers)
	} else if a.DashN != nil {
		q.numbers = bool(*a.DashN)
	}
	if a.HeadLimit.Set {
		if a.HeadLimit.N < 0 {
			return nil, errors.New("head_limit cannot be negative")
		}
		if a.HeadLimit.N > 0 {
			q.limit, q.limitSet = min(a.HeadLimit.N, grepMaxHeadLimit), true
		}
	}
	if !q.limitSet {
		q.limit = grepDefaultFiles
		if q.mode == "content" {
			q.limit = grepDefaultLines
		}
	}

	if g := strings.TrimSpace(a.Glob); g != "" {
		if strings.HasPrefix(g, "!") {
			q.globNeg, g = true, g[1:]
		}
		g = strings.TrimPrefix(g, "./")
		q.globAnchored = strings.Contains(strings.TrimSuffix(g, "/"), "/")
		g = strings.TrimPrefix(strings.TrimSuffix(g, "/"), "/")
		if g == "" || !doublestar.ValidatePattern(g) {
			return nil, fmt.Errorf("glob %q is not a valid glob: use patterns like *.go, *.{ts,tsx} or src/**/*.rs", a.Glob)
		}
		q.glob = g
	}
	if t := strings.TrimSpace(a.Type); t != "" {
		q.typeGlobs = fileTypeGlobs(t)
		if q.typeGlobs == nil {
			return nil, fmt.Errorf("unknown type %q: use one of %s (or glob for anything else)", a.Type, fileTypeNames())
		}
	}

	abs, err := g.env.Resolve(orRoot(a.Path))
	if err != nil {
		return nil, err
	}
	if err := g.env.checkReadable(abs); err != nil {
		return nil, err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, g.env.notFound(abs, g.env.Rel(abs))
		}
		return nil, pathError(g.env.Rel(abs), err)
	}
	q.abs, q.rel, q.isFile = abs, g.env.Rel(abs), !fi.IsDir()
	return q, nil
}

// Plan says what the search is; grep only reads.
func (g *Grep) Plan(ctx context.Context, argsJSON string) (Action, error) {
	q, err := g.parse(argsJSON)
	if err != nil {
		return Action{}, err
	}
	sum := fmt.Sprintf("Search %q", q.pattern)
	if q.rel != "." {
		sum += " in " + q.rel
	}
	if q.glob != "" {
		neg := ""
		if q.globNeg {
			neg = "!"
		}
		sum += " (" + neg + q.glob + ")"
	}
	return Action{Kind: KindRead, Summary: sum, Path: q.abs}, nil
}

// grepHit is what one file contributed.
type grepHit struct {
	key   string // pathKey of rel: the order of the results
	rel   string
	count int        // matching lines
	lines []grepLine // content mode: matches and context, in order
}

type grepLine struct {
	n     int
	text  string
	match bool
	sep   bool // a "--" break before this line
}

// InvokableRun runs the search.
func (g *Grep) InvokableRun(ctx context.Context, argsJSON string, _ ...tool.Option) (string, error) {
	q, err := g.parse(argsJSON)
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, g.timeLimit)
	defer cancel()
	s := &grepSearch{q: q, ctx: ctx, maxFileSize: g.maxFileSize, deny: g.env.denyFilter()}
	if q.isFile {
		data, tooLarge, err := readInto(q.abs, nil, g.maxFileSize)
		if err != nil {
			return "", pathError(q.rel, err)
		}
		if tooLarge {
			return fmt.Sprintf("%s is over %s; grep searches files up to that size: use bash (rg or grep) for this one.", q.rel, humanSize(g.maxFileSize)), nil
		}
		if bytes.IndexByte(data, 0) >= 0 {
			return fmt.Sprintf("%s is a binary file; grep searches text files.", q.rel), nil
		}
		s.searched = 1
		if h := s.searchData(pathKey(q.rel), q.rel, data); h != nil {
			s.keep(h)
		}
	} else {
		err = s.run(g.env.Root)
	}
	timedOut := errors.Is(ctx.Err(), context.DeadlineExceeded)
	if err != nil && !timedOut {
		if errors.Is(err, context.Canceled) {
			return "", err
		}
		return "", pathError(q.rel, err)
	}
	return s.report(timedOut, g.timeLimit), nil
}

// grepSearch is one running search.
type grepSearch struct {
	q           *grepQuery
	ctx         context.Context
	maxFileSize int64
	deny        *denyFilter // the user's Read deny rules

	bufs       sync.Pool // *[]byte read buffers, reused across files
	mu         sync.Mutex
	hits       []*grepHit
	stored     int // content lines held in hits
	files      int // files with a match
	lines      int // matching lines in all
	searched   int
	skipped    int // over grepMaxFileSize
	binary     int
	unreadable int
}

// run walks the tree and searches its files, both spread over workers.
func (s *grepSearch) run(root string) error {
	q := s.q
	// Reading files is mostly waiting on system calls: more workers than
	// processors keep the processors busy.
	workers := 2 * max(runtime.GOMAXPROCS(0), 2)
	return project.WalkParallel(s.ctx, root, q.abs, project.WalkOptions{WithIgnored: q.glob != "" && !q.globNeg, Hide: s.deny.hide()}, workers, func(e project.Entry) error {
		relSearch := e.Rel
		if q.rel != "." {
			relSearch = strings.TrimPrefix(strings.TrimPrefix(e.Rel, q.rel), string(filepath.Separator))
		}
		name := e.D.Name()
		if e.D.IsDir() {
			if q.glob != "" && q.globNeg && q.globMatch(filepath.ToSlash(relSearch), name) {
				return fs.SkipDir
			}
			return nil
		}
		if !e.D.Type().IsRegular() {
			return nil // symlinks are not followed, as in ripgrep
		}
		if q.glob != "" {
			m := q.globMatch(filepath.ToSlash(relSearch), name)
			if m == q.globNeg {
				return nil
			}
		}
		if e.Ignored && (q.glob == "" || q.globNeg) {
			return nil // ignored, and no glob asked for it
		}
		if q.typeGlobs != nil && !matchesAny(q.typeGlobs, name) {
			return nil
		}
		if err := s.ctx.Err(); err != nil {
			return err
		}
		bp, _ := s.bufs.Get().(*[]byte)
		if bp == nil {
			bp = new([]byte)
		}
		*bp = s.searchFile(pathKey(e.Rel), e.Abs, e.Rel, *bp)
		if cap(*bp) <= 4<<20 {
			s.bufs.Put(bp) // a big file's buffer is not kept for the small ones
		}
		return nil
	})
}

// pathKey orders paths as a walk sorted by name meets them, directory by
// directory ("a/b" before "a.txt"): the separator sorts before any byte of
// a name.
func pathKey(rel string) string {
	return strings.ReplaceAll(filepath.ToSlash(rel), "/", "\x00")
}

func (q *grepQuery) globMatch(rel, name string) bool {
	if q.globAnchored {
		return doublestar.MatchUnvalidated(q.glob, rel)
	}
	return doublestar.MatchUnvalidated(q.glob, name)
}

// searchFile reads and searches one file, reading into buf (the worker's
// own, reused) and returning it, grown if need be.
func (s *grepSearch) searchFile(key, abs, rel string, buf []byte) []byte {
	data, tooLarge, err := readInto(abs, buf, s.maxFileSize)
	switch {
	case tooLarge:
		s.mu.Lock()
		s.skipped++
		s.mu.Unlock()
		return buf
	case err != nil:
		s.mu.Lock()
		s.searched++
		s.unreadable++
		s.mu.Unlock()
		return buf
	}
	s.mu.Lock()
	s.searched++
	s.mu.Unlock()
	// Binary: a NUL byte anywhere, as ripgrep judges files it walks to.
	if bytes.IndexByte(data, 0) >= 0 {
		s.mu.Lock()
		s.binary++
		s.mu.Unlock()
		return data[:0]
	}
	if h := s.searchData(key, rel, data); h != nil {
		s.keep(h)
	}
	return data[:0]
}

// readInto reads the file at abs into buf's storage: one open, one fstat,
// the reads and a close, and no allocation when buf is big enough. A file
// over limit bytes is not read: tooLarge is set instead.
func readInto(abs string, buf []byte, limit int64) (data []byte, tooLarge bool, err error) {
	f, err := os.Open(abs)
	if err != nil {
		return buf, false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return buf, false, err
	}
	if fi.Size() > limit {
		return buf, true, nil
	}
	need := int(fi.Size()) + 1 // +1 to see EOF without another grow
	if cap(buf) < need {
		buf = make([]byte, 0, max(need, 64<<10))
	}
	buf = buf[:0]
	for {
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, false, nil
		}
		if err != nil {
			return buf, false, err
		}
		if len(buf) == cap(buf) {
			if int64(len(buf)) > limit {
				return buf[:0], true, nil
			}
			buf = append(buf, 0)[:len(buf)] // the file grew: make room
		}
	}
}

// searchData finds the matching lines of data; nil when there are none.
func (s *grepSearch) searchData(key, rel string, data []byte) *grepHit {
	q := s.q
	if q.literal != nil && !containsLiteral(data, q.literal, q.literalFold) {
		return nil
	}
	if q.prefilter != nil && !q.prefilter.Match(data) {
		return nil
	}
	var matchLines []int // 1-based, ascending, unique
	if q.multiline {
		last, line, pos := 0, 1, 0
		for _, m := range q.re.FindAllIndex(data, -1) {
			line += bytes.Count(data[pos:m[0]], []byte("\n"))
			pos = m[0]
			from := line
			end := m[1]
			if end > m[0] && data[end-1] == '\n' {
				end-- // a match ending with its line break does not take the next line
			}
			to := from + bytes.Count(data[m[0]:end], []byte("\n"))
			for l := max(from, last+1); l <= to; l++ {
				matchLines = append(matchLines, l)
			}
			last = max(last, to)
		}
	} else {
		n := 0
		for off := 0; off < len(data); {
			n++
			end := bytes.IndexByte(data[off:], '\n')
			var line []byte
			if end < 0 {
				line, off = data[off:], len(data)
			} else {
				line, off = data[off:off+end], off+end+1
			}
			if q.re.Match(line) {
				matchLines = append(matchLines, n)
			}
		}
	}
	if len(matchLines) == 0 {
		return nil
	}
	h := &grepHit{key: key, rel: rel, count: len(matchLines)}
	if q.mode == "content" && s.wantLines(key) {
		h.lines = contentLines(data, matchLines, q.before, q.after, q.limit)
	}
	return h
}

// wantLines reports whether a file's lines could still be shown: files
// before it in path order may already fill the output.
func (s *grepSearch) wantLines(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stored < s.q.limit {
		return true
	}
	n := 0
	for _, h := range s.hits {
		if h.key < key {
			n += len(h.lines)
		}
	}
	return n < s.q.limit
}

// keep adds a file's result, dropping stored lines that can no longer show.
func (s *grepSearch) keep(h *grepHit) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files++
	s.lines += h.count
	s.hits = append(s.hits, h)
	s.stored += len(h.lines)
	if s.q.mode == "content" && s.stored > 2*s.q.limit+1000 {
		sort.Slice(s.hits, func(i, j int) bool { return s.hits[i].key < s.hits[j].key })
		n := 0
		for _, x := range s.hits {
			if n >= s.q.limit {
				s.stored -= len(x.lines)
				x.lines = nil
			}
			n += len(x.lines)
		}
	}
}

// contentLines renders the matches of a file with their context, at most
// limit lines.
func contentLines(data []byte, matches []int, before, after, limit int) []grepLine {
	isMatch := make(map[int]bool, len(matches))
	for _, m := range matches {
		isMatch[m] = true
	}
	// Which lines to show: each match and its context, merged.
	var show []int
	last := 0
	for _, m := range matches {
		for l := max(m-before, last+1, 1); l <= m+after; l++ {
			show = append(show, l)
			last = l
		}
		if len(show) > limit+after {
			break
		}
	}
	var out []grepLine
	n, off, si, prev := 0, 0, 0, 0
	for off < len(data) && si < len(show) && len(out) < limit {
		n++
		end := bytes.IndexByte(data[off:], '\n')
		var line []byte
		if end < 0 {
			line, off = data[off:], len(data)
		} else {
			line, off = data[off:off+end], off+end+1
		}
		if n != show[si] {
			continue
		}
		si++
		out = append(out, grepLine{n: n, text: displayLine(line), match: isMatch[n], sep: prev != 0 && n != prev+1})
		prev = n
	}
	return out
}

// displayLine cuts a line for the result and drops a CR.
func displayLine(line []byte) string {
	line = bytes.TrimSuffix(line, []byte("\r"))
	if len(line) <= grepMaxLineDisplay {
		return string(line)
	}
	cut := grepMaxLineDisplay
	for cut > 0 && line[cut]&0xC0 == 0x80 {
		cut--
	}
	return string(line[:cut]) + " [… " + strconv.Itoa(len(line)-cut) + " more bytes]"
}

// report formats the results, sorted by path.
func (s *grepSearch) report(timedOut bool, limit time.Duration) string {
	q := s.q
	sort.Slice(s.hits, func(i, j int) bool { return s.hits[i].key < s.hits[j].key })
	var b strings.Builder
	var notes []string
	if s.files == 0 {
		where := q.rel
		if where == "." {
			where = "the project"
		}
		fmt.Fprintf(&b, "No matches for %q in %s", q.pattern, where)
		if q.glob != "" || q.typeGlobs != nil {
			b.WriteString(" (with the glob/type filter)")
		}
		b.WriteString(".")
	}
	switch {
	case s.files == 0:
	case q.mode == "files_with_matches":
		shown := min(len(s.hits), q.limit)
		for _, h := range s.hits[:shown] {
			b.WriteString(filepath.ToSlash(h.rel))
			b.WriteByte('\n')
		}
		if shown < len(s.hits) {
			notes = append(notes, fmt.Sprintf("[%d of %d matching files shown; narrow path, glob or type, or set head_limit]", shown, len(s.hits)))
		} else {
			notes = append(notes, fmt.Sprintf("[%s]", plural(len(s.hits), "file", "files")))
		}
	case q.mode == "count":
		shown := min(len(s.hits), q.limit)
		for _, h := range s.hits[:shown] {
			fmt.Fprintf(&b, "%s:%d\n", filepath.ToSlash(h.rel), h.count)
		}
		if shown < len(s.hits) {
			notes = append(notes, fmt.Sprintf("[%d of %d files shown]", shown, len(s.hits)))
		}
		notes = append(notes, fmt.Sprintf("[%s in %s]", plural(s.lines, "matching line", "matching lines"), plural(s.files, "file", "files")))
	default:
		shown := 0
		for _, h := range s.hits {
			if shown >= q.limit {
				break
			}
			ctxLines := q.before > 0 || q.after > 0
			if shown > 0 && ctxLines {
				b.WriteString("--\n") // as ripgrep: groups are set apart only when there is context
			}
			p := filepath.ToSlash(h.rel)
			for _, l := range h.lines {
				if shown >= q.limit {
					break
				}
				if l.sep && ctxLines {
					b.WriteString("--\n")
				}
				sep := "-"
				if l.match {
					sep = ":"
				}
				b.WriteString(p)
				b.WriteString(sep)
				if q.numbers {
					b.WriteString(strconv.Itoa(l.n))
					b.WriteString(sep)
				}
				b.WriteString(l.text)
				b.WriteByte('\n')
				shown++
			}
		}
		if s.lines > 0 {
			notes = append(notes, fmt.Sprintf("[%s in %s]", plural(s.lines, "matching line", "matching lines"), plural(s.files, "file", "files")))
		}
		if shown >= q.limit {
			notes = append(notes, fmt.Sprintf("[output stopped at %s; narrow the search or set head_limit]", plural(q.limit, "line", "lines")))
		}
	}
	if timedOut {
		notes = append(notes, fmt.Sprintf("[the search stopped after %s with %s searched: results are partial; narrow path, glob or type]",
			limit, plural(s.searched, "file", "files")))
	}
	if s.skipped > 0 {
		notes = append(notes, fmt.Sprintf("[%s over %s not searched; use bash (rg or grep) for those]", plural(s.skipped, "file", "files"), humanSize(s.maxFileSize)))
	}
	if s.unreadable > 0 {
		notes = append(notes, fmt.Sprintf("[%s could not be read]", plural(s.unreadable, "file", "files")))
	}
	if n := s.deny.note(); n != "" {
		notes = append(notes, n)
	}
	out := strings.TrimSuffix(b.String(), "\n")
	if len(notes) > 0 {
		out += "\n" + strings.Join(notes, "\n")
	}
	return Truncate(out, 0, maxResultBytes)
}
