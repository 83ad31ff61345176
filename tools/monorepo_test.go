package tools

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/monorepo"
)

// TestSearchesOnSmallMonorepo: on the small monorepo fixture (5,000 files,
// 30% ignored, nested .gitignore files with a negation), grep finds the
// needle in as many files as the fixture put it in and as rg finds, and
// glob lists as many files as fd (or rg --files) for the same patterns.
func TestSearchesOnSmallMonorepo(t *testing.T) {
	o := monorepo.Small()
	o.Commits = 0
	root := t.TempDir()
	st, err := monorepo.Generate(context.Background(), root, o)
	if err != nil {
		t.Fatal(err)
	}
	env, err := NewEnv(root)
	if err != nil {
		t.Fatal(err)
	}
	// rg and fd read .gitignore files only inside a repository.
	if out, err := exec.Command("git", "-C", env.Root, "init", "-q").CombinedOutput(); err != nil {
		t.Skipf("skipped: git init: %v: %s", err, out)
	}
	res, err := NewGrep(env).InvokableRun(context.Background(), argsJSON(t, map[string]any{"pattern": st.Needle, "head_limit": 5000}))
	if err != nil {
		t.Fatal(err)
	}
	if got := len(resultLines(res)); got != st.NeedleFiles {
		t.Errorf("grep found %s in %d files, the fixture put it in %d", st.Needle, got, st.NeedleFiles)
	}
	count := func(argv ...string) int {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir = env.Root
		out, err := cmd.Output()
		if err != nil {
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
				t.Fatalf("%v: %v", argv, err)
			}
		}
		return strings.Count(string(out), "\n")
	}
	rg, _ := exec.LookPath("rg")
	if rg != "" {
		if want := count(rg, "-l", "--hidden", "--no-ignore-global", "--no-ignore-parent", "--glob", "!.git", st.Needle); want != st.NeedleFiles {
			t.Errorf("rg finds %s in %d files, the fixture says %d", st.Needle, want, st.NeedleFiles)
		}
	}
	fd := fdBinary()
	if fd == "" && rg == "" {
		t.Skip("skipped: neither fd nor rg is installed to compare glob with (apt-get install -y fd-find ripgrep)")
	}
	for _, pat := range []string{"**/*.rs", "**/*.log", "src/generated/*.go", "**/*.png"} {
		res, err := NewGlob(env).InvokableRun(context.Background(), argsJSON(t, map[string]any{"pattern": pat, "limit": 5000}))
		if err != nil {
			t.Fatal(err)
		}
		argv := []string{rg, "--files", "--hidden", "--no-ignore-global", "--no-ignore-parent", "--glob", "!.git", "--glob", pat}
		if fd != "" {
			argv = []string{fd, "--hidden", "--no-ignore-parent", "--type", "f", "--exclude", ".git", "--glob", "--full-path", "--base-directory", env.Root, "**/" + strings.TrimPrefix(pat, "**/")}
		}
		if got, want := globTotal(res), count(argv...); got != want || got == 0 {
			t.Errorf("glob %s: %d files, %s: %d", pat, got, argv[0], want)
		}
	}
}
