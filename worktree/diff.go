package worktree

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Change is one file a task changed against the merge-base with its base:
// what its review shows.
type Change struct {
	// Path is the file's path relative to the worktree's root,
	// slash-separated; OldPath is where a renamed file was.
	Path, OldPath string
	// Status is 'A' added, 'M' modified, 'D' deleted, 'R' renamed, 'T' type
	// changed.
	Status byte
	// Added and Deleted count lines; Binary says they mean nothing.
	Added, Deleted int
	Binary         bool
	// From is the merge-base commit the old content is read from.
	From string
}

// maxContent bounds what Content reads of a file.
const maxContent = 16 << 20

// Diff is every file the task changed since the merge-base with its base:
// its commits and, when its worktree is there, what is not committed yet
// (untracked files not ignored included), as the review shows the task's
// whole work.
func (m *Manager) Diff(ctx context.Context, t Tree) ([]Change, error) {
	base, err := m.baseRev(ctx, t)
	if err != nil {
		return nil, err
	}
	out, err := m.git(ctx, m.top, "merge-base", base, "refs/heads/"+t.Branch)
	if err != nil {
		return nil, fmt.Errorf("%s and %s have no common commit: %w", base, t.Branch, err)
	}
	from := strings.TrimSpace(string(out))
	dir, args := m.top, []string{from, "refs/heads/" + t.Branch}
	if t.State == OK || t.State == Locked {
		dir, args = t.Dir, []string{from} // against the working tree
	}
	diff := func(format string) ([]byte, error) {
		return m.git(ctx, dir, append([]string{"diff", "-z", "-M", "--no-color", format}, append(args, "--")...)...)
	}
	names, err := diff("--name-status")
	if err != nil {
		return nil, err
	}
	nums, err := diff("--numstat")
	if err != nil {
		return nil, err
	}
	changes := parseNameStatus(names, from)
	counts := parseNumstat(nums)
	for i := range changes {
		if n, ok := counts[changes[i].Path]; ok {
			changes[i].Added, changes[i].Deleted, changes[i].Binary = n.added, n.deleted, n.binary
		}
	}
	if dir == t.Dir {
		out, err := m.git(ctx, t.Dir, "ls-files", "-z", "--others", "--exclude-standard")
		if err != nil {
			return nil, err
		}
		for _, p := range strings.Split(string(out), "\x00") {
			if p == "" {
				continue
			}
			c := Change{Path: p, Status: 'A', From: from}
			if b, err := readWorktreeFile(t.Dir, p); err == nil {
				c.Added, c.Binary = countLines(b)
			}
			changes = append(changes, c)
		}
	}
	return changes, nil
}

// parseNameStatus reads git diff --name-status -z: a status, then the
// path, or for a rename the old path and the new.
func parseNameStatus(out []byte, from string) []Change {
	var changes []Change
	f := strings.Split(string(out), "\x00")
	for i := 0; i+1 < len(f); i += 2 {
		st := f[i]
		if st == "" {
			break
		}
		c := Change{Status: st[0], Path: f[i+1], From: from}
		if (st[0] == 'R' || st[0] == 'C') && i+2 < len(f) {
			c.OldPath, c.Path = f[i+1], f[i+2]
			i++
		}
		changes = append(changes, c)
	}
	return changes
}

type numstat struct {
	added, deleted int
	binary         bool
}

// parseNumstat reads git diff --numstat -z: "added\tdeleted\tpath", or for
// a rename "added\tdeleted\t" then the old path and the new; binary files
// count "-".
func parseNumstat(out []byte) map[string]numstat {
	counts := map[string]numstat{}
	f := strings.Split(string(out), "\x00")
	for i := 0; i < len(f); i++ {
		parts := strings.SplitN(f[i], "\t", 3)
		if len(parts) != 3 {
			continue
		}
		path := parts[2]
		if path == "" && i+2 < len(f) { // a rename: old, new
			path = f[i+2]
			i += 2
		}
		n := numstat{binary: parts[0] == "-"}
		n.added, _ = strconv.Atoi(parts[0])
		n.deleted, _ = strconv.Atoi(parts[1])
		counts[path] = n
	}
	return counts
}

// countLines counts b's lines, or says it is binary (a NUL in its start).
func countLines(b []byte) (int, bool) {
	head := b[:min(len(b), 8000)]
	for _, c := range head {
		if c == 0 {
			return 0, true
		}
	}
	n := strings.Count(string(b), "\n")
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n, false
}

// Content is a change's old content (at the merge-base; nil when added)
// and new content (in the worktree, or at the branch's tip when the
// worktree is gone; nil when deleted), each at most 16 MiB. A symbolic
// link's content is its target, as git keeps it.
func (m *Manager) Content(ctx context.Context, t Tree, c Change) (old, new []byte, err error) {
	if c.Status != 'A' {
		p := c.Path
		if c.OldPath != "" {
			p = c.OldPath
		}
		if old, err = m.git(ctx, m.top, "cat-file", "blob", c.From+":"+p); err != nil {
			return nil, nil, err
		}
	}
	if c.Status == 'D' {
		return old, nil, nil
	}
	if t.State == OK || t.State == Locked {
		new, err = readWorktreeFile(t.Dir, c.Path)
	} else {
		new, err = m.git(ctx, m.top, "cat-file", "blob", "refs/heads/"+t.Branch+":"+c.Path)
	}
	return old, new, err
}

// readWorktreeFile reads path (relative, slash-separated) in dir: a
// regular file, or a symbolic link's target; never through a link, and
// never blocking on a FIFO.
func readWorktreeFile(dir, path string) ([]byte, error) {
	full := filepath.Join(dir, filepath.FromSlash(path))
	if !inside(full, dir) {
		return nil, fmt.Errorf("%s is outside the worktree", path)
	}
	fi, err := os.Lstat(full)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		target, err := os.Readlink(full)
		return []byte(target), err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	f, err := os.OpenFile(full, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxContent+1))
	if len(b) > maxContent {
		return nil, errors.New(path + " is larger than 16 MiB")
	}
	return b, err
}
