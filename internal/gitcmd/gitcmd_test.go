package gitcmd

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// deadline bounds every wait: generous on a loaded machine, far below the
// 300 s the fixtures' sleeps would take.
const deadline = 30 * time.Second

// isolate gives the test a home of its own (no ~/.gitconfig of the
// machine's) and returns it.
func isolate(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	return home
}

// plainGit runs git as a user's shell would, with no protection: to build
// fixtures, and to show that a fixture's programs do run without gitcmd.
func plainGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func write(t *testing.T, path, text string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
}

// markers lists the files in dir: each is a program of a fixture that ran.
func markers(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// newRepo is a repository on branch main with two committed files and a
// .gitattributes that gives every file the filter and diff driver "evil".
func newRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	plainGit(t, dir, "init", "-q", "-b", "main")
	plainGit(t, dir, "config", "user.email", "u@example.com")
	plainGit(t, dir, "config", "user.name", "u")
	write(t, filepath.Join(dir, "a.txt"), "alpha\n", 0o644)
	write(t, filepath.Join(dir, "b.txt"), "beta\n", 0o644)
	write(t, filepath.Join(dir, "c.txt"), "gamma\n", 0o644)
	write(t, filepath.Join(dir, ".gitattributes"), "*.txt filter=evil diff=evil\nc.txt filter=evilproc\n", 0o644)
	plainGit(t, dir, "add", ".")
	plainGit(t, dir, "commit", "-q", "-m", "init")
	return dir
}

// hostile makes the repository's own config name a program for every way
// git has of running one on a read: the file-system monitor, hooks, clean,
// smudge and process filters, a diff driver, textconv and diff.external.
// Each program creates a file named after it in the returned directory.
func hostile(t *testing.T, repo string) (markerDir string) {
	t.Helper()
	markerDir = t.TempDir()
	script := func(name string) string {
		p := filepath.Join(t.TempDir(), name)
		write(t, p, "#!/bin/sh\ntouch '"+filepath.Join(markerDir, name)+"'\ncat\n", 0o755)
		return p
	}
	hooks := t.TempDir()
	for _, h := range []string{"pre-commit", "commit-msg", "post-commit", "post-index-change", "reference-transaction", "post-checkout", "pre-auto-gc"} {
		write(t, filepath.Join(hooks, h), "#!/bin/sh\ntouch '"+filepath.Join(markerDir, "hook-"+h)+"'\n", 0o755)
	}
	for k, v := range map[string]string{
		"core.fsmonitor":          script("fsmonitor"),
		"core.hooksPath":          hooks,
		"filter.evil.clean":       script("clean"),
		"filter.evil.smudge":      script("smudge"),
		"filter.evil.required":    "true",
		"filter.evilproc.process": script("process"),
		"diff.evil.textconv":      script("textconv"),
		"diff.evil.command":       script("diff-command"),
		"diff.external":           script("diff-external"),
		"log.showSignature":       "true",
		"gpg.program":             script("gpg"),
	} {
		plainGit(t, repo, "config", k, v)
	}
	return markerDir
}

// dirty changes b.txt and gives every file a new mtime, so that git must
// read each file (through its clean filter) to know whether it changed.
func dirty(t *testing.T, repo string) {
	t.Helper()
	write(t, filepath.Join(repo, "b.txt"), "beta, changed\n", 0o644)
	later := time.Now().Add(time.Hour)
	for _, f := range []string{"a.txt", "b.txt", "c.txt"} {
		if err := os.Chtimes(filepath.Join(repo, f), later, later); err != nil {
			t.Fatal(err)
		}
	}
}

// Every command fawn runs, and the ones a later feature may, run none of
// the programs a repository's config names; the same commands run with
// plain git do run them (the fixture is live).
func TestRepositoryConfigRunsNothing(t *testing.T) {
	isolate(t)
	repo := newRepo(t)
	m := hostile(t, repo)
	dirty(t, repo)
	ctx := context.Background()
	for _, trusted := range []bool{false, true} {
		g := Git{Dir: repo, UserFilters: trusted}
		out, err := g.Output(ctx, "status", "--porcelain")
		if err != nil {
			t.Fatalf("status: %v", err)
		}
		if !strings.Contains(string(out), " M b.txt") {
			t.Errorf("status does not see the change to b.txt: %q", out)
		}
		for _, args := range [][]string{
			{"diff"}, {"diff", "HEAD"}, {"log", "-p", "-1"}, {"show", "HEAD"},
			{"ls-files", "-s", "--debug"}, {"ls-files", "-m"},
			{"checkout", "--", "a.txt"},
			{"commit", "--allow-empty", "-q", "-m", "empty"},
		} {
			if out, err := g.Output(ctx, args...); err != nil {
				t.Errorf("%v: %v\n%s", args, err, out)
			}
		}
		if got := markers(t, m); len(got) > 0 {
			t.Fatalf("UserFilters %v: the repository's programs ran: %v", trusted, got)
		}
	}

	// The same commands as a user's shell runs them.
	dirty(t, repo)
	plainGit(t, repo, "status", "--porcelain")
	plainGit(t, repo, "diff")
	plainGit(t, repo, "diff", "--no-ext-diff")
	plainGit(t, repo, "checkout", "--", "a.txt")
	plainGit(t, repo, "commit", "--allow-empty", "-q", "-m", "plain")
	got := strings.Join(markers(t, m), " ")
	for _, want := range []string{"fsmonitor", "clean", "smudge", "process", "textconv", "diff-command", "hook-pre-commit"} {
		if !strings.Contains(got, want) {
			t.Errorf("plain git did not run %s (ran: %s): the fixture proves nothing", want, got)
		}
	}
}

// A bare repository committed in a subdirectory, with a work tree of its
// own and a file-system monitor, is not taken up when git runs there; the
// HEAD of the enclosing repository is not read through it either.
func TestEmbeddedBareRepositoryIsRefused(t *testing.T) {
	isolate(t)
	repo := newRepo(t)
	m := t.TempDir()
	bare := filepath.Join(repo, "vendor", "evil")
	plainGit(t, repo, "init", "-q", "--bare", bare)
	mon := filepath.Join(t.TempDir(), "fsmonitor")
	write(t, mon, "#!/bin/sh\ntouch '"+filepath.Join(m, "bare-fsmonitor")+"'\nexit 1\n", 0o755)
	plainGit(t, bare, "config", "core.bare", "false")
	plainGit(t, bare, "config", "core.worktree", ".")
	plainGit(t, bare, "config", "core.fsmonitor", mon)

	ctx := context.Background()
	if out, err := (Git{Dir: bare, UserFilters: true}).Output(ctx, "status", "--porcelain"); err == nil {
		t.Errorf("git took up the embedded bare repository: %q", out)
	}
	if _, err := ReadHead(bare); !errors.Is(err, ErrNoRepository) {
		t.Errorf("ReadHead in the bare repository: %v, want ErrNoRepository", err)
	}
	if h, err := ReadHead(filepath.Join(repo, "vendor")); err != nil || h.Branch != "main" {
		t.Errorf("ReadHead beside it: %+v, %v", h, err)
	}
	if got := markers(t, m); len(got) > 0 {
		t.Fatalf("the embedded repository's monitor ran: %v", got)
	}
	plainGit(t, bare, "status", "--porcelain")
	if got := markers(t, m); len(got) == 0 {
		t.Fatal("plain git did not run the embedded repository's monitor: the fixture proves nothing")
	}
}

// git sees none of fawn's environment but what it needs: the user's filter
// (allowed with UserFilters) writes the environment it got.
func TestEnvironmentHasNoSecrets(t *testing.T) {
	home := isolate(t)
	repo := newRepo(t)
	got := filepath.Join(t.TempDir(), "env")
	write(t, filepath.Join(home, ".gitconfig"), "[filter \"evil\"]\n\tclean = env > '"+got+"'; cat\n", 0o644)
	t.Setenv("OPENAI_API_KEY", "sk-test-secret-4242")
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-secret-4242")
	t.Setenv("GIT_DIR", "/nonexistent/git-dir")
	t.Setenv("GIT_WORK_TREE", "/nonexistent/work-tree")
	t.Setenv("GIT_CONFIG_PARAMETERS", "'core.fsmonitor'='/nonexistent/monitor'")
	t.Setenv("PATH", "relative-bin:"+os.Getenv("PATH")+"::.")
	dirty(t, repo)
	ctx := context.Background()

	if _, err := (Git{Dir: repo}).Output(ctx, "status", "--porcelain"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(got); err == nil {
		t.Fatal("the user's filter ran without UserFilters")
	}
	if _, err := (Git{Dir: repo, UserFilters: true}).Output(ctx, "status", "--porcelain"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(got)
	if err != nil {
		t.Fatalf("the user's filter did not run with UserFilters: %v", err)
	}
	env := string(b)
	for _, bad := range []string{"sk-test-secret", "sk-ant-secret", "/nonexistent", "relative-bin", ":.\n", "::"} {
		if strings.Contains(env, bad) {
			t.Errorf("git's environment holds %q:\n%s", bad, env)
		}
	}
	for _, want := range []string{"HOME=" + home, "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0"} {
		if !strings.Contains(env, want) {
			t.Errorf("git's environment lacks %q:\n%s", want, env)
		}
	}
}

// pidGone reports whether pid is gone (or a zombie nobody reaped yet).
func pidGone(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return true
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return strings.HasPrefix(rest, "Z")
}

func readPID(t *testing.T, path string) int {
	t.Helper()
	for end := time.Now().Add(deadline); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		b, _ := os.ReadFile(path)
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			return pid
		}
	}
	t.Fatalf("%s was never written", path)
	return 0
}

// slowFilter gives the user's config a filter that starts a sleep in the
// background (its output redirected by redir), writes its pid, and then
// runs then.
func slowFilter(t *testing.T, redir, then string) (repo, pidFile string) {
	t.Helper()
	home := isolate(t)
	repo = newRepo(t)
	pidFile = filepath.Join(t.TempDir(), "pid")
	write(t, filepath.Join(home, ".gitconfig"), "[filter \"evil\"]\n\tclean = \"sleep 300 "+redir+" & echo $! > '"+pidFile+"'; "+then+"\"\n", 0o644)
	dirty(t, repo)
	return repo, pidFile
}

// A cancelled command takes git's children with it: the group is killed.
func TestCancelKillsTheProcessGroup(t *testing.T) {
	repo, pidFile := slowFilter(t, "", "wait")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := (Git{Dir: repo, UserFilters: true}).Output(ctx, "status", "--porcelain")
		done <- err
	}()
	pid := readPID(t, pidFile)
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	cancel()
	select {
	case err := <-done:
		if err == nil {
			t.Error("a cancelled status reported success")
		}
	case <-time.After(deadline):
		t.Fatal("a cancelled git did not return")
	}
	for end := time.Now().Add(deadline); !pidGone(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the filter's child outlived the cancelled git")
		}
	}
}

// A child that keeps git's stderr open after git is done does not hold
// the caller (WaitDelay).
func TestChildHoldingThePipeDoesNotHold(t *testing.T) {
	repo, pidFile := slowFilter(t, ">&2", "cat")
	done := make(chan error, 1)
	go func() {
		_, err := (Git{Dir: repo, UserFilters: true}).Output(context.Background(), "status", "--porcelain")
		done <- err
	}()
	pid := readPID(t, pidFile)
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	select {
	case <-done:
	case <-time.After(deadline):
		t.Fatal("a child holding git's stderr held the caller")
	}
}

// A caller's Options come before the package's and cannot undo them.
func TestOptionsCannotUndoTheProtections(t *testing.T) {
	isolate(t)
	repo := newRepo(t)
	m := hostile(t, repo)
	dirty(t, repo)
	get := func(key string) string { return strings.TrimSpace(plainGit(t, repo, "config", key)) }
	g := Git{Dir: repo, Options: []string{"-c", "core.fsmonitor=" + get("core.fsmonitor"), "-c", "core.hooksPath=" + get("core.hooksPath")}}
	if _, err := g.Output(context.Background(), "commit", "-q", "-a", "-m", "all"); err != nil {
		t.Fatal(err)
	}
	if got := markers(t, m); len(got) > 0 {
		t.Fatalf("the repository's programs ran: %v", got)
	}
}

// A merge driver the repository's config names for a file .gitattributes
// assigns it to does not run when fawn merges (git merge-tree, as a task's
// merge does): the file is reported conflicted instead. Plain git runs it.
func TestMergeDriverDoesNotRun(t *testing.T) {
	isolate(t)
	repo := t.TempDir()
	plainGit(t, repo, "init", "-q", "-b", "main")
	plainGit(t, repo, "config", "user.email", "u@example.com")
	plainGit(t, repo, "config", "user.name", "u")
	write(t, filepath.Join(repo, ".gitattributes"), "a.txt merge=evil\n", 0o644)
	write(t, filepath.Join(repo, "a.txt"), "a\n", 0o644)
	plainGit(t, repo, "add", ".")
	plainGit(t, repo, "commit", "-q", "-m", "init")
	plainGit(t, repo, "checkout", "-q", "-b", "side")
	write(t, filepath.Join(repo, "a.txt"), "side\n", 0o644)
	plainGit(t, repo, "commit", "-q", "-a", "-m", "side")
	plainGit(t, repo, "checkout", "-q", "main")
	write(t, filepath.Join(repo, "a.txt"), "main\n", 0o644)
	plainGit(t, repo, "commit", "-q", "-a", "-m", "main")
	m := t.TempDir()
	plainGit(t, repo, "config", "merge.evil.driver", "touch '"+filepath.Join(m, "merge-driver")+"'; exit 0")

	for _, trusted := range []bool{false, true} {
		out, err := (Git{Dir: repo, UserFilters: trusted}).Output(context.Background(), "merge-tree", "--write-tree", "--name-only", "main", "side")
		if err == nil || !strings.Contains(string(out), "a.txt") {
			t.Errorf("UserFilters %v: merge-tree did not report a.txt conflicted: %v\n%s", trusted, err, out)
		}
		if got := markers(t, m); len(got) > 0 {
			t.Fatalf("UserFilters %v: the repository's merge driver ran: %v", trusted, got)
		}
	}
	cmd := exec.Command("git", "merge-tree", "--write-tree", "main", "side")
	cmd.Dir = repo
	_ = cmd.Run()
	if got := markers(t, m); len(got) == 0 {
		t.Fatal("plain git did not run the merge driver: the fixture proves nothing")
	}
}
