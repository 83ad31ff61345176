// Package gitcmd owns running git. Every git command fawn runs (the system
// prompt's status, the checkpoints' reads of the index, and whatever comes
// next) goes through [Git.Command], and nothing else in fawn starts git.
//
// fawn opens repositories other people wrote, and a repository's git
// configuration names programs that git runs on its own: a file-system
// monitor (core.fsmonitor), hooks, clean and smudge filters that
// .gitattributes assigns, diff drivers, the ssh command of a lazy fetch. A
// repository can also hold, committed, a bare repository in a subdirectory
// whose config git would take up when fawn is opened there. So every
// command gets:
//
//   - an environment of its own: PATH (absolute entries only), HOME,
//     XDG_CONFIG_HOME, the locale, TZ and TMPDIR from fawn's, and nothing
//     else: no model key or other secret, no GIT_DIR or GIT_CONFIG_* of the
//     user's shell; GIT_OPTIONAL_LOCKS=0 (never take the index lock from
//     under the user), GIT_TERMINAL_PROMPT=0, GIT_NO_LAZY_FETCH=1;
//   - options that switch off what runs programs (safeConfig): no
//     file-system monitor, hooks from /dev/null, bare repositories only
//     when named (safe.bareRepository=explicit), no network protocol, no
//     submodule recursion, no pager, no automatic gc;
//   - every filter driver defined by the repository's own configuration
//     neutralised (its clean, smudge and process commands set empty), and,
//     unless [Git.UserFilters] is set, those of the user's configuration
//     too; so is every merge driver (merge.<driver>.driver, which a merge,
//     git merge-tree among them, runs for a file .gitattributes assigns
//     it to): its command becomes "exit 1", a conflict in that file;
//     diff commands get --no-ext-diff --no-textconv;
//   - internal/proc's care: its own process group, killed whole with what
//     is below it when the context ends, and a WaitDelay, so a child that
//     keeps git's pipes open cannot hold fawn.
//
// The system's git config (/etc/gitconfig) is read as git reads it: it is
// the administrator's, like the user's own, not the repository's.
//
// Where the directory is not trusted, callers run nothing that could read
// file contents through a filter and read what they need from .git's files
// instead ([ReadHead]).
//
// What the repository's own configuration and hooks would make the user's
// git run is a trust item ([Programs]): a directory that brings one is not
// trusted until the user says so, and until then the agent's git lines
// ask and its shell's git runs without them.
//
// Finding the drivers needs git 2.26 (config --show-scope); an older git
// fails that step and Command runs nothing. safe.bareRepository needs git
// 2.38; an older git takes up an embedded bare repository, but still runs
// none of its programs.
//
// It imports internal/proc and trust; agent, checkpoint, worktree and
// cmd/fawn import it.
package gitcmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fawn-ide/fawn/internal/proc"
)

// Git runs git commands in one directory.
type Git struct {
	// Dir is where git runs and finds its repository.
	Dir string
	// UserFilters lets the filter drivers of the user's own git
	// configuration (global and system scope: git-lfs, git-crypt) run. Set
	// it only for a directory the user trusted. Drivers that the
	// repository's configuration defines, or redefines, never run.
	UserFilters bool
	// Options are git's own options for every command, before the
	// subcommand ("-c", "core.quotePath=off", "--literal-pathspecs"). The
	// package's options come after them, so none can undo those.
	Options []string
}

// safeConfig is given to every command, before the caller's arguments. The
// command line outranks every configuration file, and git passes these on
// to the git processes it starts itself.
func safeConfig() []string {
	return []string{
		"--no-pager",
		"--no-optional-locks",
		"-c", "core.fsmonitor=false",
		"-c", "core.hooksPath=/dev/null",
		"-c", "safe.bareRepository=explicit",
		"-c", "core.pager=cat",
		"-c", "submodule.recurse=false",
		"-c", "diff.ignoreSubmodules=all",
		"-c", "log.showSignature=false",
		"-c", "gc.auto=0",
		"-c", "maintenance.auto=false",
		// No transport: a partial clone's lazy fetch would run the ssh
		// command or the ext:: helper the repository names. The
		// per-protocol keys outrank protocol.allow, so each is set too.
		"-c", "protocol.allow=never",
		"-c", "protocol.ext.allow=never",
		"-c", "protocol.file.allow=never",
		"-c", "protocol.git.allow=never",
		"-c", "protocol.ssh.allow=never",
		"-c", "protocol.http.allow=never",
		"-c", "protocol.https.allow=never",
	}
}

// subcommandArgs are the options a subcommand gets right after its name.
func subcommandArgs(sub string) []string {
	switch sub {
	case "diff", "log", "show":
		// A diff driver's command or textconv, or diff.external.
		return []string{"--no-ext-diff", "--no-textconv", "--ignore-submodules=all"}
	case "status":
		// submodule.<name>.ignore in the repository's config outranks
		// diff.ignoreSubmodules; only the option outranks it. A
		// submodule's own config is not neutralised, so git must not go
		// into it.
		return []string{"--ignore-submodules=all"}
	}
	return nil
}

// cleanEnv is the environment every git command runs in, built from environ
// (fawn's own): only what git needs to find itself, the user's own
// configuration and the locale.
func cleanEnv(environ []string) []string {
	var env []string
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		switch {
		case k == "PATH":
			env = append(env, "PATH="+absolutePath(v))
		case k == "HOME", k == "XDG_CONFIG_HOME", k == "LANG", k == "LANGUAGE", k == "TZ", k == "TMPDIR",
			strings.HasPrefix(k, "LC_"):
			env = append(env, kv)
		}
	}
	return append(env, "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0", "GIT_NO_LAZY_FETCH=1")
}

// absolutePath keeps the absolute entries of a PATH: an empty or relative
// entry would find programs in the project.
func absolutePath(path string) string {
	var keep []string
	for _, dir := range filepath.SplitList(path) {
		if filepath.IsAbs(dir) {
			keep = append(keep, dir)
		}
	}
	return strings.Join(keep, string(filepath.ListSeparator))
}

// Command returns the git command for args (the subcommand first) in g.Dir,
// made safe as the package doc says. It runs git once first, to find the
// filter drivers to neutralise; an error says that failed (the directory
// is not readable, or its git config is not).
func (g Git) Command(ctx context.Context, args ...string) (*exec.Cmd, error) {
	env := cleanEnv(os.Environ())
	if len(args) > 0 && args[0] == "config" {
		// git config reads configuration, never a file's content, so no
		// filter can run: the listing of drivers (itself a git config)
		// would only cost a second git on the way to the first frame.
		return g.command(ctx, env, args...), nil
	}
	drivers, merges, err := g.filterDrivers(ctx, env)
	if err != nil {
		return nil, err
	}
	return g.command(ctx, append(env, neutralise(drivers, merges)...), args...), nil
}

// Output runs the command for args and returns its standard output. An
// error holds what git wrote to standard error.
func (g Git) Output(ctx context.Context, args ...string) ([]byte, error) {
	cmd, err := g.Command(ctx, args...)
	if err != nil {
		return nil, err
	}
	out, err := cmd.Output()
	if err != nil {
		return out, commandError(args, err)
	}
	return out, nil
}

func commandError(args []string, err error) error {
	name := "git"
	if len(args) > 0 {
		name += " " + args[0]
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) && len(bytes.TrimSpace(ee.Stderr)) > 0 {
		return fmt.Errorf("%s: %w: %s", name, err, firstLine(ee.Stderr))
	}
	return fmt.Errorf("%s: %w", name, err)
}

func firstLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

func (g Git) command(ctx context.Context, env []string, args ...string) *exec.Cmd {
	full := append(append([]string(nil), g.Options...), safeConfig()...)
	if len(args) > 0 {
		full = append(full, args[0])
		full = append(full, subcommandArgs(args[0])...)
		full = append(full, args[1:]...)
	}
	// Its own process group, killed whole with what is below it: git's
	// children (a filter of the user's, a helper) go with it, even one
	// that left with setsid.
	cmd := proc.Command(ctx, "git", full...)
	cmd.Dir = g.Dir
	cmd.Env = env
	return cmd
}

// filterDrivers lists the filter drivers and the merge drivers that must
// not run: those the repository's configuration defines (local and
// worktree scope, with the files they include) and, without UserFilters,
// every one.
func (g Git) filterDrivers(ctx context.Context, env []string) (filters, merges []string, err error) {
	cmd := g.command(ctx, env, "config", "-z", "--show-scope", "--name-only", "--get-regexp", `^(filter\.|merge\..*\.driver$)`)
	out, err := cmd.Output()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 1 && len(out) == 0 {
		return nil, nil, nil // no such key anywhere
	}
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read the git configuration in %s: %w", g.Dir, commandError([]string{"config"}, err))
	}
	seen := map[string]bool{}
	fields := strings.Split(string(out), "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		scope, key := fields[i], fields[i+1]
		if g.UserFilters && (scope == "global" || scope == "system") {
			continue
		}
		// filter.<driver>.<variable>; the driver's name may hold dots.
		first, last := strings.IndexByte(key, '.'), strings.LastIndexByte(key, '.')
		if first < 0 || last <= first {
			continue
		}
		d := key[first+1 : last]
		if seen[key[:last]] {
			continue
		}
		seen[key[:last]] = true
		if strings.HasPrefix(key, "merge.") {
			merges = append(merges, d)
		} else {
			filters = append(filters, d)
		}
	}
	return filters, merges, nil
}

// neutralise is the environment that empties each driver's commands. It is
// given as GIT_CONFIG_KEY_n, which, unlike -c, takes a driver name holding
// "=". An empty command is no command to git; required=false keeps git from
// failing a file the filter would have had to convert. A merge driver
// cannot be emptied (git would run the empty command and take our side
// unmerged): "exit 1", run by the shell, reports the file conflicted.
func neutralise(drivers, merges []string) []string {
	var env []string
	n := 0
	add := func(key, value string) {
		env = append(env, "GIT_CONFIG_KEY_"+strconv.Itoa(n)+"="+key, "GIT_CONFIG_VALUE_"+strconv.Itoa(n)+"="+value)
		n++
	}
	for _, d := range drivers {
		for _, v := range []string{"clean", "smudge", "process"} {
			add("filter."+d+"."+v, "")
		}
		add("filter."+d+".required", "false")
	}
	for _, d := range merges {
		add("merge."+d+".driver", "exit 1")
	}
	if n == 0 {
		return nil
	}
	return append(env, "GIT_CONFIG_COUNT="+strconv.Itoa(n))
}
