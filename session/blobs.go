package session

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Blobs is a session's content-addressed store: each content is kept once,
// under the hex SHA-256 of its bytes, written whole or not at all. Images of
// messages live here; so can anything else a session must keep the bytes of
// (checkpoints of files).
type Blobs struct {
	dir string
}

// Dir is where the blobs are kept.
func (b *Blobs) Dir() string { return b.dir }

// Hash is the name data is kept under: its SHA-256 in hex.
func Hash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

func validHash(h string) bool {
	if len(h) != 64 {
		return false
	}
	_, err := hex.DecodeString(h)
	return err == nil
}

func (b *Blobs) path(h string) string { return filepath.Join(b.dir, h[:2], h[2:]) }

// Put keeps data and returns its hash. Content already kept is not written
// again.
func (b *Blobs) Put(data []byte) (string, error) {
	h := Hash(data)
	p := b.path(h)
	if _, err := os.Stat(p); err == nil {
		return h, nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return "", fmt.Errorf("session: blobs: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".put-*")
	if err != nil {
		return "", fmt.Errorf("session: blobs: %w", err)
	}
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), p)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("session: blobs: %w", err)
	}
	return h, nil
}

// Get returns the content kept under hash h.
func (b *Blobs) Get(h string) ([]byte, error) {
	if !validHash(h) {
		return nil, fmt.Errorf("session: %q is not a blob hash", h)
	}
	data, err := os.ReadFile(b.path(h))
	if err != nil {
		return nil, fmt.Errorf("session: blob %s: %w", h[:12], err)
	}
	return data, nil
}

// Has reports whether h is kept.
func (b *Blobs) Has(h string) bool {
	if !validHash(h) {
		return false
	}
	_, err := os.Stat(b.path(h))
	return err == nil
}

// copyFrom keeps blob h of src here too (a hard link when it can).
func (b *Blobs) copyFrom(src *Blobs, h string) error {
	if !validHash(h) || b.Has(h) {
		return nil
	}
	from, to := src.path(h), b.path(h)
	if err := os.MkdirAll(filepath.Dir(to), 0o700); err != nil {
		return err
	}
	if os.Link(from, to) == nil {
		return nil
	}
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	data, err := io.ReadAll(in)
	if err != nil {
		return err
	}
	got, err := b.Put(data)
	if err == nil && got != h {
		err = errors.New("session: a blob's content does not match its name")
	}
	return err
}
