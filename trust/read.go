package trust

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Every file fawn reads to configure or instruct itself — the user's and
// the project's config.yaml, custom commands, skills, subagents,
// AGENTS.md, the trust store — is read by ReadFile or ReadProjectFile.
// A repository decides what its files are: .fawn/config.yaml may be a
// symlink to /dev/zero (an endless read) or a FIFO (an open that never
// returns). So only a regular file is read, it is checked before it is
// opened (opening a device can itself act), opened so that it cannot
// block, checked again through the open descriptor (it may have been
// swapped in between), and read no further than the limit.

// FileError says why fawn did not read a file.
type FileError struct {
	// Path is the file as it was named to fawn.
	Path string
	// Reason is what is wrong with it, without the path: "is a named
	// pipe, not a regular file; fawn reads only regular files".
	Reason string
}

// Error names the file by its base name: callers say where it is
// ("/review cannot run: /p/.fawn/commands/review.md: review.md is a
// named pipe…").
func (e *FileError) Error() string { return filepath.Base(e.Path) + " " + e.Reason }

// ReadFile reads the regular file at path (symlinks followed), of at
// most max bytes. Anything else — a FIFO, a device, a directory, a file
// larger than max — is a *FileError naming the file; a missing file is
// an error that errors.Is(err, fs.ErrNotExist). It never blocks on what
// the file is.
func ReadFile(path string, max int64) ([]byte, error) {
	return readRegular(path, path, max, 0)
}

// ReadProjectFile reads a file of the project at project, as ReadFile
// does, and only when it lies inside the project: a symlink in the
// project must not pull in a file from outside it (a key, a credentials
// file, /dev/zero). A symlink to a file inside the project is read
// (CLAUDE.md → AGENTS.md is common); what it points to must be a regular
// file like any other.
func ReadProjectFile(project, path string, max int64) ([]byte, error) {
	root, err := Resolve(project)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, err
	}
	if rel, err := filepath.Rel(root, real); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return nil, &FileError{Path: path, Reason: fmt.Sprintf("links outside the project (to %s); fawn does not read it", real)}
	}
	// real has no symlink left in it; O_NOFOLLOW keeps one put there
	// since from being followed.
	return readRegular(path, real, max, syscall.O_NOFOLLOW)
}

// OpenFile opens the regular file at path (symlinks followed) for
// reading, as ReadFile does, for a reader that reads only part of it (an
// ignore file's first MiB): anything but a regular file is a *FileError,
// and the open never blocks on what the file is.
func OpenFile(path string) (*os.File, error) {
	return openRegular(path, path, -1, 0)
}

// readRegular reads real (named path to the user) as described above.
func readRegular(path, real string, max int64, flags int) ([]byte, error) {
	f, err := openRegular(path, real, max, flags)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// A regular file may still grow while it is read (or be a file of
	// /proc whose size says 0): read one byte past the limit to know.
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(len(data)) > max {
		return nil, tooLarge(path, max)
	}
	return data, nil
}

// openRegular opens real if it is a regular file of at most max bytes
// (max < 0: any size), checked before the open (opening a device can
// itself act) and again through the descriptor (it may have been swapped
// in between); O_NONBLOCK keeps a FIFO swapped in from blocking the open.
func openRegular(path, real string, max int64, flags int) (*os.File, error) {
	info, err := os.Stat(real)
	if err != nil {
		return nil, err
	}
	if err := regular(path, info, max); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(real, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY|flags, 0)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, &FileError{Path: path, Reason: "became a symlink while fawn read it; fawn does not read it"}
		}
		return nil, err
	}
	now, err := f.Stat()
	if err == nil {
		err = regular(path, now, max)
	}
	if err == nil && !os.SameFile(info, now) {
		err = &FileError{Path: path, Reason: "was replaced while fawn read it; fawn does not read it"}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// regular refuses what is not a regular file of at most max bytes.
func regular(path string, info fs.FileInfo, max int64) error {
	if !info.Mode().IsRegular() {
		return &FileError{Path: path, Reason: "is " + fileKind(info.Mode()) + ", not a regular file; fawn reads only regular files"}
	}
	if max >= 0 && info.Size() > max {
		return tooLarge(path, max)
	}
	return nil
}

func tooLarge(path string, max int64) error {
	return &FileError{Path: path, Reason: fmt.Sprintf("is larger than %s; fawn reads at most that much of it", sizeOf(max))}
}

func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "an irregular file"
}

func sizeOf(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d KiB", n>>10)
}
