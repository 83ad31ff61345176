package gitcmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// ErrNoRepository says a directory is in no git repository fawn would use.
var ErrNoRepository = errors.New("not in a git repository")

// ErrBareRepository says the directory is (in) a bare repository, one with
// no work tree. It is an ErrNoRepository too.
var ErrBareRepository = fmt.Errorf("a bare git repository: %w", ErrNoRepository)

// Head is what HEAD names: a branch, or a commit when it is detached.
type Head struct {
	// Branch is the branch's name ("main"), or "" when HEAD is detached.
	Branch string
	// Commit is the detached HEAD's commit.
	Commit string
}

// String is the branch, or "detached at <commit>".
func (h Head) String() string {
	if h.Branch != "" {
		return h.Branch
	}
	c := h.Commit
	if len(c) > 12 {
		c = c[:12]
	}
	return "detached at " + c
}

// maxGitFile bounds what is read of a .git file or HEAD: both are one short
// line.
const maxGitFile = 4 << 10

// ReadHead finds the repository around dir the way git does, and reads its
// HEAD, from the files alone: it runs nothing, so it is what an untrusted
// directory gets. Like git with safe.bareRepository=explicit, it refuses a
// directory that is itself a bare repository (ErrNoRepository).
func ReadHead(dir string) (Head, error) {
	gitDir, err := findGitDir(dir)
	if err != nil {
		return Head{}, err
	}
	b, err := readSmall(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return Head{}, fmt.Errorf("cannot read HEAD: %w", err)
	}
	line, _, _ := strings.Cut(string(b), "\n")
	line = strings.TrimSpace(line)
	if ref, ok := strings.CutPrefix(line, "ref:"); ok {
		ref = strings.TrimSpace(ref)
		name := strings.TrimPrefix(ref, "refs/heads/")
		if name == "" || !printable(name) {
			return Head{}, fmt.Errorf("HEAD in %s names no usable branch", gitDir)
		}
		if name == ".invalid" { // the reftable backend keeps HEAD elsewhere
			return Head{}, fmt.Errorf("HEAD in %s is kept in a reftable, which fawn does not read", gitDir)
		}
		return Head{Branch: name}, nil
	}
	if isHex(line) && (len(line) == 40 || len(line) == 64) {
		return Head{Commit: line}, nil
	}
	return Head{}, fmt.Errorf("HEAD in %s is neither a branch nor a commit", gitDir)
}

// findGitDir walks up from dir: a .git directory, or a .git file naming
// the directory ("gitdir: …", worktrees and submodules), is the
// repository; a directory that is itself a git directory is a bare
// repository and is refused, as git refuses it.
func findGitDir(dir string) (string, error) {
	gd, bare, err := locateGitDir(dir)
	if err == nil && bare {
		return "", fmt.Errorf("%s is a bare git repository, which fawn uses only when git is pointed at it: %w", gd, ErrBareRepository)
	}
	return gd, err
}

// locateGitDir walks up from dir as findGitDir does, and returns a bare
// repository too, saying it is one.
func locateGitDir(dir string) (gitDir string, bare bool, err error) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", false, err
	}
	for {
		dot := filepath.Join(d, ".git")
		if fi, err := os.Stat(dot); err == nil {
			switch {
			case fi.IsDir() && isGitDir(dot):
				return dot, false, nil
			case fi.Mode().IsRegular():
				if gd, err := readGitFile(d, dot); err == nil && isGitDir(gd) {
					return gd, false, nil
				}
			}
		}
		if isGitDir(d) {
			return d, true, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", false, ErrNoRepository
		}
		d = parent
	}
}

// readGitFile reads a .git file: "gitdir: <path>", relative to its directory.
func readGitFile(dir, path string) (string, error) {
	b, err := readSmall(path)
	if err != nil {
		return "", err
	}
	line, _, _ := strings.Cut(string(b), "\n")
	gd, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return "", fmt.Errorf("%s is not a gitdir file", path)
	}
	gd = strings.TrimSpace(gd)
	if !filepath.IsAbs(gd) {
		gd = filepath.Join(dir, gd)
	}
	return gd, nil
}

// isGitDir is git's test of a git directory: HEAD, objects/ and refs/, the
// last two in the directory its commondir file names (a linked work tree's).
func isGitDir(d string) bool {
	head, err := os.Stat(filepath.Join(d, "HEAD"))
	if err != nil || !head.Mode().IsRegular() {
		return false
	}
	common := d
	if b, err := readSmall(filepath.Join(d, "commondir")); err == nil {
		common = strings.TrimSpace(string(b))
		if !filepath.IsAbs(common) {
			common = filepath.Join(d, common)
		}
	}
	for _, sub := range []string{"objects", "refs"} {
		if fi, err := os.Stat(filepath.Join(common, sub)); err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}

// readSmall reads a regular file of at most maxGitFile bytes. It opens
// without blocking, so a FIFO in place of the file cannot hang fawn.
func readSmall(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	if fi.Size() > maxGitFile {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, maxGitFile)
	}
	return io.ReadAll(io.LimitReader(f, maxGitFile))
}

func printable(s string) bool {
	if len(s) > 255 {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\uFFFD' {
			return false
		}
	}
	return true
}

func isHex(s string) bool {
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return s != ""
}
