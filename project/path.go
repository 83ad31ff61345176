package project

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// maxLinkHops bounds symlink chains while resolving, as the kernel does.
const maxLinkHops = 40

// Real resolves the symlinks of the clean absolute path p. Where p does not
// exist, the missing tail is appended to its resolved parent; a dangling
// symlink on the way is followed to where it points, because whatever is
// created there lands at its target.
func Real(p string) (string, error) { return realPath(p, 0) }

func realPath(p string, hops int) (string, error) {
	real, err := filepath.EvalSymlinks(p)
	if err == nil {
		return real, nil
	}
	if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
		if strings.Contains(err.Error(), "too many links") {
			return "", errors.New("too many levels of symbolic links")
		}
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return "", pe.Err
		}
		return "", err
	}
	dir, base := filepath.Split(p)
	dir = filepath.Clean(dir)
	if base == "" || dir == p {
		return p, nil
	}
	parent, err := realPath(dir, hops)
	if err != nil {
		return "", err
	}
	joined := filepath.Join(parent, base)
	fi, err := os.Lstat(joined)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return joined, nil
	}
	if hops >= maxLinkHops {
		return "", errors.New("too many levels of symbolic links")
	}
	target, err := os.Readlink(joined)
	if err != nil {
		return "", err
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(parent, target)
	}
	return realPath(filepath.Clean(target), hops+1)
}

// Within reports whether p is root or inside it; both must be clean and
// absolute.
func Within(root, p string) bool {
	if p == root {
		return true
	}
	if root == string(filepath.Separator) {
		return strings.HasPrefix(p, root)
	}
	return strings.HasPrefix(p, root+string(filepath.Separator))
}

// realRoot is root absolute and with its symlinks resolved, so it compares
// with a resolved path; a root that cannot be resolved is kept as given.
func realRoot(root string) string {
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		return r
	}
	return filepath.Clean(root)
}
