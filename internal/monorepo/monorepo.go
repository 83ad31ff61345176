// Package monorepo makes the big project fawn is measured on: a tree of a
// given number of files and directories and a given total size, a third of
// it hidden by .gitignore files (a node_modules tree, build outputs, logs,
// with a nested .gitignore and a negation here and there), one flat
// directory of a tenth of the files (what a code generator leaves), some
// 10 MB files and binaries, and a git history. The same Options and seed
// make the same tree, byte for byte, and the same commits.
//
// `make bench` makes Default() (200,000 files, 20,000 directories, 2 GiB,
// 50 commits) with cmd/monorepo and removes it after; tests make Small()
// (5,000 files) in a temporary directory, so what the benchmarks measure
// is also checked for being right on every `make test`.
//
// Generate writes only into a directory that is empty, missing, or one it
// made itself (its marker file says so): it never deletes anything else.
// git runs through internal/gitcmd, with fixed names and dates.
//
// It imports internal/gitcmd and internal/proc; the benchmarks and tests of project, tools,
// checkpoint and ui/explorer, and cmd/monorepo, import it.
package monorepo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/fawn-ide/fawn/internal/gitcmd"
	"github.com/fawn-ide/fawn/internal/proc"
)

// Options say what to make.
type Options struct {
	Files   int    `json:"files"`   // every file, ignored ones included (not .gitignore files)
	Dirs    int    `json:"dirs"`    // every directory below the root
	Bytes   int64  `json:"bytes"`   // the files' sizes together (apparent: binaries are sparse)
	Commits int    `json:"commits"` // 0: no repository
	Seed    uint64 `json:"seed"`
}

// Default is the monorepo of `make bench`.
func Default() Options {
	return Options{Files: 200_000, Dirs: 20_000, Bytes: 2 << 30, Commits: 50, Seed: 1}
}

// Small is the same shape at 5,000 files, for tests.
func Small() Options {
	return Options{Files: 5_000, Dirs: 500, Bytes: 24 << 20, Commits: 5, Seed: 1}
}

// Stats say what was made.
type Stats struct {
	Files   int   `json:"files"`
	Kept    int   `json:"kept"` // files the ignore rules keep
	Dirs    int   `json:"dirs"`
	Bytes   int64 `json:"bytes"`
	Big     int   `json:"big"`     // the big files (half text, half binary)
	BigSize int64 `json:"bigSize"` // the size of each
	// Wide is the flat directory (relative), WideFiles its entry count.
	Wide      string `json:"wide"`
	WideFiles int    `json:"wideFiles"`
	// Needle is a word found in NeedleFiles kept text files, for searches.
	Needle      string `json:"needle"`
	NeedleFiles int    `json:"needleFiles"`
}

// Marker is the file at the root that says Generate made the directory:
// "incomplete" while it works, then the options and stats as JSON. The
// root .gitignore hides it.
const Marker = ".fawn-monorepo"

const needle = "needleHandler"

// Generate makes the tree o describes in dir, unless the marker there says
// it is already made with the same options; it returns what is there.
func Generate(ctx context.Context, dir string, o Options) (Stats, error) {
	if o.Files < 100 || o.Dirs < 10 || o.Dirs > o.Files || o.Bytes < int64(o.Files) {
		return Stats{}, fmt.Errorf("monorepo: %d files in %d directories of %d bytes: give at least 100 files, 10 directories (no more than files) and a byte a file", o.Files, o.Dirs, o.Bytes)
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return Stats{}, err
	}
	if st, ok := readMarker(dir); ok && st.opt == o {
		return st.Stats, nil
	}
	if err := prepare(dir); err != nil {
		return Stats{}, err
	}
	if err := checkSpace(dir, o.Bytes); err != nil {
		return Stats{}, err
	}
	if err := os.WriteFile(filepath.Join(dir, Marker), []byte("incomplete\n"), 0o644); err != nil {
		return Stats{}, err
	}
	g := newGen(dir, o)
	st, err := g.write(ctx)
	if err != nil {
		return Stats{}, err
	}
	if o.Commits > 0 {
		if err := g.history(ctx); err != nil {
			return Stats{}, err
		}
	}
	b, _ := json.Marshal(marker{Options: o, Stats: st})
	return st, os.WriteFile(filepath.Join(dir, Marker), b, 0o644)
}

type marker struct {
	Options Options `json:"options"`
	Stats   Stats   `json:"stats"`
}

type found struct {
	opt Options
	Stats
}

func readMarker(dir string) (found, bool) {
	b, err := os.ReadFile(filepath.Join(dir, Marker))
	if err != nil {
		return found{}, false
	}
	var m marker
	if json.Unmarshal(b, &m) != nil {
		return found{}, false
	}
	return found{m.Options, m.Stats}, true
}

// prepare empties dir if Generate made it (another fixture, or one left
// half made), makes it if missing, and refuses anything else.
func prepare(dir string) error {
	ents, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return os.MkdirAll(dir, 0o755)
	case err != nil:
		return err
	case len(ents) == 0:
		return nil
	}
	if _, err := os.Lstat(filepath.Join(dir, Marker)); err != nil {
		return fmt.Errorf("monorepo: %s is not empty and was not made by this generator (no %s): give an empty or new directory", dir, Marker)
	}
	for _, e := range ents {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// checkSpace refuses when the disk has not room for the files and git's
// copy of them, with a margin.
func checkSpace(dir string, bytes int64) error {
	var fs syscall.Statfs_t
	if err := syscall.Statfs(dir, &fs); err != nil {
		return nil // cannot tell: try
	}
	free := int64(fs.Bavail) * int64(fs.Bsize)
	need := 2*bytes + 512<<20 // the files take whole blocks; git keeps a compressed copy
	if free < need {
		return fmt.Errorf("monorepo: %s has %d MiB free, the fixture needs about %d MiB: free some space or give a smaller size", dir, free>>20, need>>20)
	}
	return nil
}

// gen holds the plan of one tree.
type gen struct {
	root string
	o    Options
	rng  *rand.Rand
	// dirs are relative; kept[i] says whether the rules keep dirs[i].
	dirs []string
	kept []bool
	// the text the files are cut from: lines of Go-like code.
	text []byte
	// files, in order of writing: path, size, kind.
	files []file
}

type fileKind uint8

const (
	textFile fileKind = iota
	logFile           // ignored by *.log
	bigText
	bigBinary
	smallBinary
)

type file struct {
	rel  string
	size int64
	kind fileKind
	kept bool
}

func newGen(root string, o Options) *gen {
	return &gen{root: root, o: o, rng: rand.New(rand.NewPCG(o.Seed, 0x6d6f6e6f))}
}

var words = strings.Fields("func return if else for range var const type struct interface map chan go defer select case switch package import string int error nil true false ctx err value result handler config server client request response buffer index cache")

var dirWords = strings.Fields("api auth billing cache client core data db docs events gateway http infra internal jobs lib log metrics models net orders payments pkg proto queue search server service shared storage sync tools ui users util web worker")

// plan lays the tree out: 70% of the directories under src (one of them
// the wide one), 20% under node_modules, 10% build directories that a
// nested .gitignore hides; files go round the directories, a tenth to the
// wide one; one in ten of src's is a .log.
func (g *gen) plan() {
	o := g.o
	add := func(rel string, kept bool) int {
		g.dirs = append(g.dirs, rel)
		g.kept = append(g.kept, kept)
		return len(g.dirs) - 1
	}
	nNode := o.Dirs / 5
	nBuild := o.Dirs / 10
	nSrc := o.Dirs - nNode - nBuild
	// A tree with a fan-out of 8: depth about log8(n).
	tree := func(top string, n int, kept bool) []int {
		var ids []int
		first := add(top, kept)
		ids = append(ids, first)
		for i := 1; i < n; i++ {
			parent := g.dirs[ids[(i-1)/8]]
			name := fmt.Sprintf("%s%d", dirWords[g.rng.IntN(len(dirWords))], i)
			ids = append(ids, add(parent+"/"+name, kept))
		}
		return ids
	}
	src := tree("src", nSrc-2, true)
	wide := add("src/generated", true)
	add("src/assets", true)
	node := tree("node_modules", nNode, false)
	// Build directories sit inside src directories whose .gitignore has "build/".
	var build []int
	for i := range nBuild { // nBuild < len(src)
		build = append(build, add(g.dirs[src[i]]+"/build", false))
	}

	nWide := o.Files / 10
	nBig := max(2, o.Files/10_000)
	bigSize := min(int64(10<<20), o.Bytes/int64(10*nBig))
	rest := o.Bytes - int64(nBig)*bigSize
	nRest := o.Files - nBig
	avg := rest / int64(nRest)
	// Ignored: node_modules and build files, and a .log in ten of src's, so
	// that about 30% of the files are hidden.
	nNodeFiles := o.Files / 5
	nBuildFiles := o.Files / 20
	nSrcFiles := o.Files - nWide - nNodeFiles - nBuildFiles - nBig
	size := func() int64 { return max(1, avg/2+g.rng.Int64N(max(1, avg))) }
	for i := range nBig {
		kind := bigText
		name := fmt.Sprintf("src/assets/dump%d.txt", i)
		if i%2 == 1 {
			kind = bigBinary
			name = fmt.Sprintf("src/assets/blob%d.bin", i)
		}
		g.files = append(g.files, file{rel: name, size: bigSize, kind: kind, kept: true})
	}
	for i := range nWide {
		g.files = append(g.files, file{rel: fmt.Sprintf("%s/gen_%06d.go", g.dirs[wide], i), size: size(), kept: true})
	}
	exts := []string{".go", ".go", ".ts", ".py", ".md", ".go", ".rs", ".json"}
	for i := range nSrcFiles {
		d := src[i%len(src)]
		f := file{rel: fmt.Sprintf("%s/f%06d%s", g.dirs[d], i, exts[i%len(exts)]), size: size(), kept: true}
		switch {
		case i%20 == 9:
			f.rel, f.kind, f.kept = fmt.Sprintf("%s/run%06d.log", g.dirs[d], i), logFile, false
		case i%20 == 19:
			f.rel = fmt.Sprintf("%s/keep%06d.log", g.dirs[d], i) // kept by a negation: !keep*.log
			f.kind = logFile
		case i%200 == 3:
			f.rel, f.kind = fmt.Sprintf("%s/icon%06d.png", g.dirs[d], i), smallBinary
		}
		g.files = append(g.files, f)
	}
	for i := range nNodeFiles {
		g.files = append(g.files, file{rel: fmt.Sprintf("%s/index%06d.js", g.dirs[node[i%len(node)]], i), size: size()})
	}
	for i := range nBuildFiles {
		g.files = append(g.files, file{rel: fmt.Sprintf("%s/obj%06d.o", g.dirs[build[i%len(build)]], i), size: size(), kind: smallBinary})
	}
	g.text = g.makeText()
}

// makeText is 256 KiB of code-like lines, the pool every text file is cut
// from at a place of its own.
func (g *gen) makeText() []byte {
	var b strings.Builder
	for b.Len() < 256<<10 {
		k := 3 + g.rng.IntN(8)
		b.WriteString(strings.Repeat("\t", g.rng.IntN(3)))
		for i := range k {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[g.rng.IntN(len(words))])
		}
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// write makes the directories, the .gitignore files and the files.
func (g *gen) write(ctx context.Context) (Stats, error) {
	g.plan()
	st := Stats{Dirs: len(g.dirs), Needle: needle}
	for _, d := range g.dirs {
		if err := os.MkdirAll(filepath.Join(g.root, filepath.FromSlash(d)), 0o755); err != nil {
			return st, err
		}
	}
	root := "# made by internal/monorepo\nnode_modules/\n*.log\n!keep*.log\n" + Marker + "\n"
	if err := g.put(".gitignore", []byte(root)); err != nil {
		return st, err
	}
	// Each build directory's parent says "build/" in its own .gitignore.
	seen := map[string]bool{}
	for i, d := range g.dirs {
		if g.kept[i] || !strings.Contains(d, "/build") {
			continue
		}
		parent := d[:strings.Index(d, "/build")]
		if !seen[parent] {
			seen[parent] = true
			if err := g.put(parent+"/.gitignore", []byte("build/\n")); err != nil {
				return st, err
			}
		}
	}
	buf := make([]byte, 0, 1<<20)
	for n, f := range g.files {
		if n%1000 == 0 && ctx.Err() != nil {
			return st, ctx.Err()
		}
		var err error
		switch f.kind {
		case bigBinary:
			err = g.sparse(f)
		case smallBinary:
			buf = g.binary(buf[:0], f.size)
			err = g.put(f.rel, buf)
		default:
			hasNeedle := f.kept && f.kind == textFile && n%997 == 5
			buf = g.textOf(buf[:0], f, n, hasNeedle)
			if hasNeedle {
				st.NeedleFiles++
			}
			err = g.put(f.rel, buf)
		}
		if err != nil {
			return st, err
		}
		st.Files++
		st.Bytes += f.size
		if f.kept {
			st.Kept++
		}
		switch f.kind {
		case bigText, bigBinary:
			st.Big++
			st.BigSize = f.size
		}
		if strings.HasPrefix(f.rel, "src/generated/") {
			st.WideFiles++
		}
	}
	st.Wide = "src/generated"
	return st, nil
}

// textOf is file number n's content: a header line, then the pool from a
// place of its own, wrapping, cut to the size.
func (g *gen) textOf(buf []byte, f file, n int, hasNeedle bool) []byte {
	buf = fmt.Appendf(buf, "// %s: file %d of the fixture\n", f.rel, n)
	if hasNeedle {
		buf = append(buf, "func "+needle+"(ctx context.Context) error { return nil }\n"...)
	}
	off := (n * 7919) % len(g.text)
	if i := indexNewline(g.text, off); i >= 0 {
		off = i
	}
	for int64(len(buf)) < f.size {
		k := min(int64(len(g.text)-off), f.size-int64(len(buf)))
		buf = append(buf, g.text[off:off+int(k)]...)
		off = 0
	}
	if int64(len(buf)) > f.size {
		buf = buf[:f.size]
	}
	return buf
}

func indexNewline(b []byte, from int) int {
	for i := from; i < len(b); i++ {
		if b[i] == '\n' {
			return i + 1
		}
	}
	return -1
}

// binary is size bytes of seeded noise with NULs, as an image or an object
// file is.
func (g *gen) binary(buf []byte, size int64) []byte {
	for int64(len(buf)) < size {
		v := g.rng.Uint64()
		if v%5 == 0 {
			v &^= 0xff // a NUL in every few words
		}
		for i := 0; i < 8 && int64(len(buf)) < size; i++ {
			buf = append(buf, byte(v>>(8*i)))
		}
	}
	return buf
}

// sparse writes a binary of f.size bytes that takes a page of disk: a
// header, then a hole.
func (g *gen) sparse(f file) error {
	p := filepath.Join(g.root, filepath.FromSlash(f.rel))
	out, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return err
	}
	if _, err := out.Write(g.binary(nil, 4096)); err != nil {
		out.Close()
		return err
	}
	if err := out.Truncate(f.size); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// put writes a file of the tree; it never follows a symlink (there are
// none, unless someone made one while it ran).
func (g *gen) put(rel string, data []byte) error {
	p := filepath.Join(g.root, filepath.FromSlash(rel))
	out, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return err
	}
	if _, err := out.Write(data); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// history commits the tree, then Commits-1 commits that each change a few
// kept files; the tree ends as the last commit has it.
func (g *gen) history(ctx context.Context) error {
	git := gitcmd.Git{Dir: g.root, Options: []string{
		"-c", "user.name=fawn fixture", "-c", "user.email=fixture@fawn.invalid",
		"-c", "commit.gpgsign=false", "-c", "core.autocrlf=false", "-c", "core.looseCompression=1",
		"-c", "init.defaultBranch=main", "-c", "gc.auto=0",
	}}
	run := func(when int, args ...string) error {
		cmd, err := git.Command(ctx, args...)
		if err != nil {
			return err
		}
		date := fmt.Sprintf("%d +0000", 1_700_000_000+when*3600)
		cmd.Env = append(cmd.Env, "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("monorepo: git %s: %v: %s", args[0], err, strings.TrimSpace(string(out)))
		}
		return nil
	}
	if err := run(0, "init", "-q"); err != nil {
		return err
	}
	if err := run(0, "add", "-A"); err != nil {
		return err
	}
	if err := run(0, "commit", "-q", "-m", "the fixture"); err != nil {
		return err
	}
	per := max(1, g.o.Files/2000)
	for c := 1; c < g.o.Commits; c++ {
		for k := range per {
			f := g.files[(c*per+k)*7919%len(g.files)]
			if !f.kept || f.kind == bigBinary || f.kind == bigText {
				continue
			}
			p := filepath.Join(g.root, filepath.FromSlash(f.rel))
			out, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|syscall.O_NOFOLLOW, 0)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(out, "\n// changed in commit %d\n", c)
			if cerr := out.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		}
		if err := run(c, "commit", "-q", "-a", "-m", fmt.Sprintf("change %d", c)); err != nil {
			return err
		}
	}
	return nil
}

// Tree is a project a benchmark measures on.
type Tree struct {
	Name string
	Root string
	// Stats are the fixture's; zero for a real tree.
	Stats Stats
	// Why says why the tree is not there to measure ("" when it is).
	Why string
}

// BenchTrees are the trees the monorepo benchmarks run on: the fixture
// that `make bench` made in $FAWN_MONOREPO, and Go's own source
// ($(go env GOROOT)/src) as a real tree. One that is not there has its
// Why: the benchmark prints it as skipped.
func BenchTrees() []Tree {
	mono := Tree{Name: "monorepo", Root: os.Getenv("FAWN_MONOREPO")}
	if mono.Root == "" {
		mono.Why = "FAWN_MONOREPO is not set: `make bench` makes the 200,000-file fixture and sets it"
	} else if st, ok := readMarker(mono.Root); !ok {
		mono.Why = "FAWN_MONOREPO=" + mono.Root + " holds no finished fixture: make it with go run ./internal/monorepo/cmd/monorepo -o " + mono.Root
	} else {
		mono.Stats = st.Stats
		if real, err := filepath.EvalSymlinks(mono.Root); err == nil {
			mono.Root = real
		}
	}
	src := Tree{Name: "goroot"}
	out, err := proc.Command(context.Background(), "go", "env", "GOROOT").Output()
	if err != nil {
		src.Why = "go env GOROOT: " + err.Error()
	} else {
		src.Root = filepath.Join(strings.TrimSpace(string(out)), "src")
		if real, err := filepath.EvalSymlinks(src.Root); err == nil {
			src.Root = real
		}
		if fi, err := os.Stat(src.Root); err != nil || !fi.IsDir() {
			src.Why = "no Go source tree at " + src.Root
		}
	}
	return []Tree{mono, src}
}
