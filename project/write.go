package project

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// WriteOptions tune WriteFile.
type WriteOptions struct {
	// Mode is the new file's mode. 0 keeps the mode of the file being
	// replaced (permissions and the setuid, setgid and sticky bits), or
	// 0644 for a new file.
	Mode fs.FileMode
	// InPlace lets a write whose directory cannot take a new file (no
	// permission) rewrite the existing file in place instead. That write is
	// not atomic; the editor allows it so the user can still save a writable
	// file in a read-only directory.
	InPlace bool
}

// keptMode is the part of a file's mode a write carries over.
const keptMode = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// WriteFile replaces the file at path (absolute, or relative to root) with
// data so that a reader sees the old or the new content and never half of
// it: a temporary file in the same directory is written, given the old
// file's mode and (where allowed) owner, synced, and renamed over the old
// one. Missing parent directories are created. It returns the written
// file's info.
//
// A symlink is written through to its target, so the link stays a link, but
// only when the target is inside the project at root: a link, or a
// symlinked directory on the way, that leads out of the project is refused,
// since a checked-out repository can plant one. An existing target that is
// not a regular file (a directory, a FIFO, a device) is refused too.
func WriteFile(root, path string, data []byte, o WriteOptions) (fs.FileInfo, error) {
	target, old, err := writeTarget(root, path)
	if err != nil {
		return nil, err
	}
	mode := o.Mode & keptMode
	uid, gid := -1, -1
	dir := filepath.Dir(target)
	switch {
	case old != nil:
		if mode == 0 {
			mode = old.Mode() & keptMode
		}
		if st, ok := old.Sys().(*syscall.Stat_t); ok {
			uid, gid = int(st.Uid), int(st.Gid)
		}
	default:
		if mode == 0 {
			mode = 0o644
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(target)+".fawn-*")
	if err != nil {
		if o.InPlace && old != nil && errors.Is(err, fs.ErrPermission) {
			if err := os.WriteFile(target, data, mode); err != nil {
				return nil, err
			}
			return os.Stat(target)
		}
		return nil, err
	}
	committed := false
	defer func() {
		if !committed {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return nil, err
	}
	if uid >= 0 && (uid != os.Getuid() || gid != os.Getgid()) {
		_ = tmp.Chown(uid, gid) // best effort: only root may give a file away
	}
	// After the chown, which clears the setuid and setgid bits.
	if err := tmp.Chmod(mode); err != nil {
		return nil, err
	}
	if err := tmp.Sync(); err != nil {
		return nil, err
	}
	if err := tmp.Close(); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return nil, err
	}
	committed = true
	return os.Stat(target)
}

// WriteTarget checks, without writing, that WriteFile(root, path, …)
// would be allowed to write, and returns the file it would write (path
// with every symlink resolved): inside the project, not through a symlink
// out of it, and a regular file when it exists. It is for a write made
// elsewhere (an editor that holds the file), which must obey the same
// rules.
func WriteTarget(root, path string) (string, error) {
	target, _, err := writeTarget(root, path)
	return target, err
}

// writeTarget is WriteFile's checks: the file path leads to and its info
// (nil when it does not exist yet).
func writeTarget(root, path string) (string, fs.FileInfo, error) {
	root = realRoot(root)
	if !filepath.IsAbs(path) {
		path = filepath.Join(root, path)
	}
	target, err := Real(filepath.Clean(path))
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", path, err)
	}
	if !Within(root, target) {
		return "", nil, fmt.Errorf("%s leads to %s, outside the project %s: fawn writes only inside the project; remove the symlink or write the file where it lives", path, target, root)
	}
	old, err := os.Stat(target)
	switch {
	case err == nil:
		if !old.Mode().IsRegular() {
			return "", nil, fmt.Errorf("%s is not a regular file (%s): fawn writes only regular files", path, old.Mode().Type())
		}
		return target, old, nil
	case errors.Is(err, fs.ErrNotExist):
		return target, nil, nil
	}
	return "", nil, err
}
