package checkpoint

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/project"
	"github.com/fawn-ide/fawn/session"
	"github.com/fawn-ide/fawn/terminal"
	"github.com/fawn-ide/fawn/tools"
)

// testProject is a temporary project with a book, its tools' Env reporting to it.
type testProject struct {
	t     *testing.T
	root  string
	dir   string // where the book is kept
	blobs *session.Blobs
	env   *tools.Env
	book  *Book
}

func newProject(t *testing.T, o Options) *testProject {
	t.Helper()
	env, err := tools.NewEnv(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	st, err := session.New(t.TempDir(), env.Root, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := &testProject{t: t, root: env.Root, env: env, dir: filepath.Join(st.Dir(), "s1"), blobs: st.Blobs("s1")}
	if o.Watch == nil {
		// The project's one watcher, as cmd/fawn gives every book.
		o.Watch = project.NewWatcher(env.Root, project.WatchOptions{})
		t.Cleanup(o.Watch.Close)
	}
	p.book, err = Open(p.dir, env.Root, p.blobs, o)
	if err != nil {
		t.Fatal(err)
	}
	env.Changes = p.book
	t.Cleanup(func() { p.book.Close() })
	return p
}

func (p *testProject) write(rel, content string) {
	p.t.Helper()
	abs := filepath.Join(p.root, rel)
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(abs, []byte(content), 0o644); err != nil {
		p.t.Fatal(err)
	}
}

func (p *testProject) read(rel string) (string, bool) {
	p.t.Helper()
	b, err := os.ReadFile(filepath.Join(p.root, rel))
	if os.IsNotExist(err) {
		return "", false
	}
	if err != nil {
		p.t.Fatal(err)
	}
	return string(b), true
}

func (p *testProject) want(rel, content string) {
	p.t.Helper()
	got, ok := p.read(rel)
	if !ok {
		p.t.Fatalf("%s does not exist; want %q", rel, content)
	}
	if got != content {
		p.t.Fatalf("%s = %q, want %q", rel, got, content)
	}
}

func (p *testProject) gone(rel string) {
	p.t.Helper()
	if got, ok := p.read(rel); ok {
		p.t.Fatalf("%s exists (%q); want it gone", rel, got)
	}
}

func (p *testProject) edit(args string) {
	p.t.Helper()
	ed := tools.NewTextEditor(p.env)
	if _, err := ed.InvokableRun(context.Background(), args); err != nil {
		p.t.Fatalf("text_editor %s: %v", args, err)
	}
}

func (p *testProject) view(rel string) {
	p.t.Helper()
	p.edit(`{"command":"view","path":"` + rel + `"}`)
}

func (p *testProject) shell() *bashRunner {
	p.t.Helper()
	term, err := terminal.Start(terminal.Options{Dir: p.root, Env: []string{"HOME=" + p.t.TempDir()}})
	if err != nil {
		p.t.Fatal(err)
	}
	p.t.Cleanup(func() { term.Close() })
	return &bashRunner{p: p, tool: tools.NewBash(p.env, term)}
}

type bashRunner struct {
	p    *testProject
	tool tools.Tool
}

func (r *bashRunner) run(cmd string) string {
	r.p.t.Helper()
	args, _ := json.Marshal(map[string]string{"command": cmd})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := r.tool.InvokableRun(ctx, string(args))
	if err != nil {
		r.p.t.Fatalf("bash %s: %v", cmd, err)
	}
	return out
}

func changesOf(t Turn) map[string]Change {
	m := map[string]Change{}
	for _, c := range t.Changes {
		m[c.Path] = c
	}
	return m
}

func TestToolEditsRewindByteExact(t *testing.T) {
	p := newProject(t, Options{})
	crlf := "one\r\ntwo\r\nthree" // CRLF, no final newline
	p.write("a.txt", crlf)

	t1 := p.book.Begin("fix a", 0)
	p.view("a.txt")
	p.edit(`{"command":"str_replace","path":"a.txt","old_str":"two","new_str":"TWO"}`)
	p.edit(`{"command":"create","path":"new/b.go","file_text":"package b"}`)
	p.want("a.txt", "one\r\nTWO\r\nthree")

	t2 := p.book.Begin("more", 4)
	p.edit(`{"command":"str_replace","path":"a.txt","old_str":"one","new_str":"ONE"}`)

	turns := p.book.Turns()
	if len(turns) != 2 || len(turns[0].Changes) != 2 || len(turns[1].Changes) != 1 {
		t.Fatalf("turns: %+v", turns)
	}
	if c := changesOf(turns[0])["a.txt"]; c.By != ByTool || !c.Before.Kept || !c.After.Kept {
		t.Fatalf("a.txt change: %+v", c)
	}
	if c := changesOf(turns[0])["new/b.go"]; c.Before.Exists || !c.After.Exists {
		t.Fatalf("b.go change: %+v", c)
	}
	files := p.book.Files()
	if len(files) != 2 || files[0].Path != "a.txt" {
		t.Fatalf("files, newest first: %+v", files)
	}

	// Code only back to before turn 2, then before turn 1.
	res, err := p.book.Rewind(t2, nil)
	if err != nil || len(res.Restored) != 1 || len(res.Conflicts) != 0 {
		t.Fatalf("rewind %d: %+v %v", t2, res, err)
	}
	p.want("a.txt", "one\r\nTWO\r\nthree")
	res, err = p.book.Rewind(t1, nil)
	if err != nil || len(res.Restored) != 2 {
		t.Fatalf("rewind %d: %+v %v", t1, res, err)
	}
	p.want("a.txt", crlf)
	p.gone("new/b.go")

	// A rewind is a turn: undoing it brings the agent's work back.
	res2, err := p.book.Undo(res.Turn, nil)
	if err != nil || len(res2.Restored) != 2 {
		t.Fatalf("undo: %+v %v", res2, err)
	}
	p.want("a.txt", "one\r\nTWO\r\nthree")
	p.want("new/b.go", "package b")

	// The book survives a restart: reopened, it rewinds the same way.
	p.book.Close()
	again, err := Open(p.dir, p.root, p.blobs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if got := len(again.Turns()); got != 5 { // two prompts, two rewinds, an undo
		t.Fatalf("reloaded %d turns, want 5", got)
	}
	if _, err := again.Rewind(t1, nil); err != nil {
		t.Fatal(err)
	}
	p.want("a.txt", crlf)
	p.gone("new/b.go")
}

func TestUserEditAfterAgentConflicts(t *testing.T) {
	p := newProject(t, Options{})
	p.write("c.txt", "orig\n")
	p.book.Begin("edit c", 0)
	p.view("c.txt")
	p.edit(`{"command":"str_replace","path":"c.txt","old_str":"orig","new_str":"agent"}`)
	p.write("c.txt", "agent\nuser line\n") // by hand, outside fawn

	res, err := p.book.RevertFile("c.txt", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Conflicts) != 1 || len(res.Restored) != 0 {
		t.Fatalf("want one conflict and nothing written: %+v", res)
	}
	cf := res.Conflicts[0]
	want, _ := p.book.Content(cf.Want)
	rec, _ := p.book.Content(cf.Recorded)
	if string(want) != "orig\n" || string(rec) != "agent\n" || cf.Disk.Size != int64(len("agent\nuser line\n")) {
		t.Fatalf("three versions: want %q recorded %q disk %+v", want, rec, cf.Disk)
	}
	p.want("c.txt", "agent\nuser line\n")

	// The user answered: overwrite. The hand edit is kept by the revert's
	// turn, so undoing it brings the hand edit back.
	res, err = p.book.RevertFile("c.txt", true)
	if err != nil || len(res.Restored) != 1 {
		t.Fatalf("forced revert: %+v %v", res, err)
	}
	p.want("c.txt", "orig\n")
	if _, err := p.book.Undo(res.Turn, nil); err != nil {
		t.Fatal(err)
	}
	p.want("c.txt", "agent\nuser line\n")
}

func TestWriteRevertsAHunk(t *testing.T) {
	p := newProject(t, Options{})
	p.write("h.txt", "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n")
	p.book.Begin("two hunks", 0)
	p.view("h.txt")
	p.edit(`{"command":"str_replace","path":"h.txt","old_str":"b\n","new_str":"B\n"}`)
	p.edit(`{"command":"str_replace","path":"h.txt","old_str":"i\n","new_str":"I\n"}`)
	res, err := p.book.Write("h.txt", []byte("a\nb\nc\nd\ne\nf\ng\nh\nI\nj\n"), false)
	if err != nil || len(res.Restored) != 1 {
		t.Fatalf("write: %+v %v", res, err)
	}
	p.want("h.txt", "a\nb\nc\nd\ne\nf\ng\nh\nI\nj\n")
	// Rewinding the prompt still goes all the way back.
	if _, err := p.book.Rewind(1, nil); err != nil {
		t.Fatal(err)
	}
	p.want("h.txt", "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n")
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// A sed -i and a generator run through the real bash in a real pty: what
// they changed is found by the scan, with contents before from git's index
// and from the book's own records.
func TestCommandsFoundByScan(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	t.Run("watching", func(t *testing.T) { testCommandsFoundByScan(t, false) })
	t.Run("walking", func(t *testing.T) { testCommandsFoundByScan(t, true) })
}

// testCommandsFoundByScan: walk makes every scan walk the whole tree, as
// where the tree cannot be watched.
func testCommandsFoundByScan(t *testing.T, walk bool) {
	p := newProject(t, Options{})
	if walk {
		p.book.whyFull = "the test walks"
	}
	p.write("tracked.txt", "alpha\r\nbeta\r\ngamma") // CRLF, no final newline
	p.write("doomed.txt", "delete me\n")
	p.write(".gitignore", "build/\n")
	git(t, p.root, "init", "-q")
	git(t, p.root, "add", ".")
	git(t, p.root, "commit", "-qm", "x")
	sh := p.shell()

	p.book.Begin("run things", 0)
	p.edit(`{"command":"create","path":"seen.txt","file_text":"first\n"}`)
	sh.run(`sed -i 's/beta/BETA/' tracked.txt seen.txt && sed -i 's/first/second/' seen.txt`)
	sh.run(`mkdir -p gen build && for i in 1 2 3; do printf 'package gen\n// %d' $i > gen/g$i.go; done; rm doomed.txt; echo out > build/x.o; printf 'a\0b' > blob.bin`)

	tr := p.book.Turns()[0]
	cs := changesOf(tr)
	for _, path := range []string{"tracked.txt", "seen.txt", "gen/g1.go", "gen/g2.go", "gen/g3.go", "doomed.txt", "blob.bin"} {
		if _, ok := cs[path]; !ok {
			t.Errorf("no change recorded for %s: %+v", path, tr.Changes)
		}
	}
	if _, ok := cs["build/x.o"]; ok {
		t.Errorf("an ignored file was recorded")
	}
	if c := cs["tracked.txt"]; c.By != ByCommand || !c.Before.Kept {
		t.Errorf("tracked.txt: the content before should come from git's index: %+v", c)
	}
	if c := cs["blob.bin"]; !c.After.Binary || c.After.Kept || !strings.Contains(c.After.Note, "binary") {
		t.Errorf("blob.bin: want recorded by hash only, and said so: %+v", c.After)
	}
	if c := cs["doomed.txt"]; c.After.Exists || !c.Before.Kept {
		t.Errorf("doomed.txt: %+v", c)
	}

	if mode := p.book.ScanMode(); strings.HasPrefix(mode, "watching") == walk {
		t.Errorf("scan mode: %s", mode)
	}
	res, err := p.book.Rewind(tr.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	p.want("tracked.txt", "alpha\r\nbeta\r\ngamma")
	p.want("doomed.txt", "delete me\n")
	p.gone("seen.txt")
	p.gone("gen/g1.go")
	p.gone("blob.bin") // created by the command: taking it back is removing it
	p.want("build/x.o", "out\n")
	if len(res.Conflicts) != 0 || len(res.Lost) != 0 {
		t.Fatalf("rewind: %+v", res)
	}
}

func TestUnknownBeforeAndCaps(t *testing.T) {
	p := newProject(t, Options{MaxFile: 16})
	p.write("untracked.txt", "never seen by fawn\n")
	p.write("small.txt", "x\n")
	before, err := p.book.Scan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	p.book.Begin("cmd", 0)
	time.Sleep(10 * time.Millisecond)
	p.write("untracked.txt", "changed\n")
	p.write("small.txt", strings.Repeat("y", 40))
	after, err := p.book.Scan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	p.book.Compare(before, after, ByCommand, "")
	cs := changesOf(p.book.Turns()[0])
	if c := cs["untracked.txt"]; c.Before.Restorable() || !strings.Contains(c.Before.Note, "unknown") {
		t.Fatalf("untracked.txt: want an honest unknown: %+v", c.Before)
	}
	if c := cs["small.txt"]; c.After.Kept || !strings.Contains(c.After.Note, "larger than 16 B") {
		t.Fatalf("small.txt: want hash only over the cap: %+v", c.After)
	}
	res, err := p.book.Rewind(1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Lost) != 2 {
		t.Fatalf("want both files reported as not restorable: %+v", res)
	}
	p.want("untracked.txt", "changed\n")
}

func TestSessionCap(t *testing.T) {
	p := newProject(t, Options{MaxBytes: 10})
	p.book.Begin("p", 0)
	p.edit(`{"command":"create","path":"a","file_text":"12345678"}`)
	p.edit(`{"command":"create","path":"b","file_text":"abcdefgh"}`)
	cs := changesOf(p.book.Turns()[0])
	if !cs["a"].After.Kept || cs["b"].After.Kept || !strings.Contains(cs["b"].After.Note, "cap") {
		t.Fatalf("cap: %+v", cs)
	}
	if data, err := p.book.Content(cs["a"].After); err != nil || !bytes.Equal(data, []byte("12345678")) {
		t.Fatalf("content: %q %v", data, err)
	}
}

func TestRewindNeverWritesThroughASymlinkOutOfTheProject(t *testing.T) {
	p := newProject(t, Options{})
	p.write("sub/a.txt", "old")
	turn := p.book.Begin("edit", 0)
	p.view("sub/a.txt")
	p.edit(`{"command":"str_replace","path":"sub/a.txt","old_str":"old","new_str":"new"}`)

	// The directory is swapped for a link to a lookalike outside the project.
	outside := t.TempDir()
	victim := filepath.Join(outside, "a.txt")
	if err := os.WriteFile(victim, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(p.root, "sub")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(p.root, "sub")); err != nil {
		t.Fatal(err)
	}
	res, err := p.book.Rewind(turn, nil)
	if err == nil || !strings.Contains(err.Error(), "outside the project") {
		t.Errorf("rewind: %+v, err %v; want a refusal to write outside the project", res, err)
	}
	if got, _ := os.ReadFile(victim); string(got) != "new" {
		t.Errorf("the file outside the project was overwritten with %q", got)
	}
}
