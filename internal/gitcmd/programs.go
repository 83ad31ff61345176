package gitcmd

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/fawn-ide/fawn/trust"
)

// Programs are the trust items of the repository around dir: every key of
// its own git configuration (local and worktree scope, with the files they
// include) whose value is a program git would run, and every executable
// hook in its hooks directory other than git's samples. A repository
// brought by a tarball, a shared directory or a committed bare repository
// can carry them, where a plain clone carries none; the user's own git, in
// the agent's shell, would run them as soon as it is asked anything. So
// they are trusted like a project's .fawn/config.yaml, and while they are
// not the agent's git lines ask and the shell's git ignores them.
//
// It reads the configuration with git config, which runs no program, under
// the package's protections, and the hooks directory from the files. A
// directory in no repository has none; so has a machine without git.
func Programs(ctx context.Context, dir string) ([]trust.Item, error) {
	gitDir, _, err := locateGitDir(dir)
	if errors.Is(err, ErrNoRepository) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if _, err := exec.LookPath("git"); err != nil {
		return nil, nil
	}
	// Named explicitly, a bare repository (one committed in a
	// subdirectory, fawn opened inside it) is read too: the user's own
	// git takes it up there.
	g := Git{Dir: dir, Options: []string{"--git-dir=" + gitDir}}
	out, err := g.Output(ctx, "config", "--list", "--includes", "--show-scope", "--show-origin", "-z")
	if err != nil {
		return nil, fmt.Errorf("cannot read the git configuration of %s, so nothing in it is trusted: %w", gitDir, err)
	}
	items := configPrograms(out)
	hooks, err := hookPrograms(gitDir)
	return append(items, hooks...), err
}

// configPrograms reads git config --list --show-scope --show-origin -z:
// scope, origin, then key and value separated by a newline, each
// NUL-terminated.
func configPrograms(out []byte) []trust.Item {
	var items []trust.Item
	fields := strings.Split(string(out), "\x00")
	for i := 0; i+2 < len(fields); i += 3 {
		scope, origin := fields[i], fields[i+1]
		if scope != "local" && scope != "worktree" {
			continue // the user's, the system's, or fawn's own -c
		}
		key, value, hasValue := strings.Cut(fields[i+2], "\n")
		if !runsProgram(key, value, hasValue) {
			continue
		}
		items = append(items, trust.Item{
			Kind:   trust.KindGitConfig,
			Name:   key,
			Detail: value,
			Source: strings.TrimPrefix(origin, "file:"),
		})
	}
	return items
}

// runsProgram reports whether git (or a program it starts, as git
// difftool, git send-email, git web--browse) would run the value of key as
// a command. key is as git lists it: section and variable in lower case,
// the subsection as written.
func runsProgram(key, value string, hasValue bool) bool {
	section, rest, _ := strings.Cut(key, ".")
	sub, variable := "", rest
	if i := strings.LastIndexByte(rest, '.'); i >= 0 {
		sub, variable = rest[:i], rest[i+1:]
	}
	command := strings.HasPrefix(strings.TrimLeft(value, " \t"), "!")
	switch section {
	case "alias":
		// An alias's name may hold dots: all after "alias." is the name.
		return command
	case "pager":
		// pager.<command>: a boolean chooses whether to page, anything
		// else is the pager's command line.
		return hasValue && !isBool(value)
	}
	if sub == "" {
		switch section + "." + variable {
		case "core.fsmonitor":
			// true starts git's own monitor; a boolean runs nothing of
			// the repository's.
			return hasValue && !isBool(value)
		case "core.hookspath", "core.sshcommand", "core.askpass", "core.editor", "core.pager",
			"core.gitproxy", "core.alternaterefscommand",
			"sequence.editor", "diff.external", "credential.helper", "gpg.program",
			"uploadpack.packobjectshook", "web.browser",
			"sendemail.sendmailcmd", "sendemail.smtpserver", "sendemail.tocmd", "sendemail.cccmd",
			// The ext:: transport runs a command; a repository may not
			// switch it, or every protocol, on.
			"protocol.allow":
			return true
		}
		return false
	}
	switch section + "." + variable {
	case "diff.command", "diff.textconv", "filter.clean", "filter.smudge", "filter.process",
		"merge.driver", "credential.helper", "gpg.program",
		"remote.uploadpack", "remote.receivepack",
		"difftool.cmd", "difftool.path", "mergetool.cmd", "mergetool.path",
		"browser.cmd", "browser.path", "man.cmd", "man.path":
		return true
	case "submodule.update":
		return command
	case "protocol.allow":
		return sub == "ext"
	}
	return false
}

// isBool is git's boolean: true, yes, on, false, no, off (any case), an
// integer, or empty.
func isBool(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "yes", "on", "false", "no", "off", "":
		return true
	}
	v = strings.TrimSpace(v)
	v = strings.TrimPrefix(strings.TrimPrefix(v, "-"), "+")
	if v == "" {
		return false
	}
	for _, r := range v {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// maxHook bounds what is read of a hook to hash it; maxHookText is the
// largest hook shown as its text.
const (
	maxHook     = 16 << 20
	maxHookText = 4 << 10
)

// hookPrograms are the executable hooks in the repository's hooks
// directory (the common one of a linked work tree), git's *.sample files
// aside: a clone has only those, so any other is the work of whoever made
// the directory. The Detail is the hook's text (a script the user can
// read), or its size and SHA-256 (a binary, or a long script), so a hook
// that changes is asked about again.
func hookPrograms(gitDir string) ([]trust.Item, error) {
	common := gitDir
	if b, err := readSmall(filepath.Join(gitDir, "commondir")); err == nil {
		common = strings.TrimSpace(string(b))
		if !filepath.IsAbs(common) {
			common = filepath.Join(gitDir, common)
		}
	}
	dir := filepath.Join(common, "hooks")
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot list the git hooks in %s, so none is trusted: %w", dir, err)
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	var items []trust.Item
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".sample") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		fi, err := os.Stat(path)
		if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
			continue // git runs only an executable file
		}
		detail, err := hookDetail(path)
		if err != nil {
			return items, fmt.Errorf("cannot read the git hook %s, so it is not trusted: %w", path, err)
		}
		items = append(items, trust.Item{Kind: trust.KindGitHook, Name: e.Name(), Detail: detail, Source: path})
	}
	return items, nil
}

// hookDetail is the hook's text when it is a short script, else its size
// and SHA-256.
func hookDetail(path string) (string, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file", path)
	}
	h := sha256.New()
	var head bytes.Buffer
	n, err := io.Copy(io.MultiWriter(h, &limitWriter{&head, maxHookText + 1}), io.LimitReader(f, maxHook))
	if err != nil {
		return "", err
	}
	if b := head.Bytes(); n <= maxHookText && utf8.Valid(b) && !bytes.ContainsRune(b, 0) {
		return string(b), nil
	}
	return fmt.Sprintf("a program of %d bytes, sha256 %s", n, hex.EncodeToString(h.Sum(nil))), nil
}

// limitWriter keeps the first n bytes written to it.
type limitWriter struct {
	buf *bytes.Buffer
	n   int
}

func (w *limitWriter) Write(p []byte) (int, error) {
	if room := w.n - w.buf.Len(); room > 0 {
		w.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}
