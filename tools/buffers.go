package tools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
)

// Buffers is where text_editor reads and writes file content when that is
// not the disk: an editor holding the project's files in buffers (fawn acp,
// a client that offers fs/read_text_file and fs/write_text_file), so the
// agent sees unsaved changes and the editor shows the agent's edits.
//
// Only the content goes through it. Whether a file exists, is a directory,
// a regular file or too large, and whether it is binary, is still read
// from the disk; a write is checked against project.WriteFile's rules
// before it is handed over; the walking tools (grep, glob, ls, tree) walk
// the disk.
type Buffers interface {
	// ReadFile returns abs's content as the editor has it.
	ReadFile(ctx context.Context, abs string) ([]byte, error)
	// WriteFile makes data abs's content (creating the file); the editor
	// decides when it reaches the disk.
	WriteFile(ctx context.Context, abs string, data []byte) error
}

// readContent reads the file at abs whole: from Buffers when set (a file
// missing on disk is missing, fs.ErrNotExist), else from the disk.
func (e *Env) readContent(ctx context.Context, abs string) ([]byte, error) {
	if e.Buffers == nil {
		return os.ReadFile(abs)
	}
	if _, err := os.Stat(abs); err != nil {
		return nil, err
	}
	return e.bufferRead(ctx, abs)
}

// bufferRead reads abs through Buffers, saying so when it fails.
func (e *Env) bufferRead(ctx context.Context, abs string) ([]byte, error) {
	data, err := e.Buffers.ReadFile(ctx, abs)
	if err != nil {
		return nil, fmt.Errorf("%s: the editor could not read it: %w", e.Rel(abs), err)
	}
	return data, nil
}

// openText opens the regular file at abs (of size size) for text_editor
// view. With Buffers, a text file's content comes from them; a binary
// file, or one too large to edit, is read from the disk, where view finds
// what it is (and editors hold no such buffer).
func (e *Env) openText(ctx context.Context, abs string, size int64) (io.ReadCloser, error) {
	f, err := os.Open(abs)
	if err != nil || e.Buffers == nil || size > maxEditSize {
		return f, err
	}
	_, bin, err := binaryOnDisk(f)
	if err == nil && bin {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil || bin {
		if err != nil {
			f.Close()
			return nil, err
		}
		return f, nil
	}
	f.Close()
	data, err := e.bufferRead(ctx, abs)
	if err != nil {
		return nil, err
	}
	return io.NopCloser(bytes.NewReader(data)), nil
}

// binaryOnDisk sniffs the start of f as git does; it returns what it read.
func binaryOnDisk(f *os.File) ([]byte, bool, error) {
	head := make([]byte, sniffSize)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, false, err
	}
	return head[:n], isBinary(head[:n]), nil
}
