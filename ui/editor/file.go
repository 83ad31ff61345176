package editor

import (
	"bytes"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"io/fs"
	"os"
	"unicode/utf8"
)

// DefaultMaxFileSize is the size above which a file opens read-only,
// showing only its first DefaultMaxFileSize bytes.
const DefaultMaxFileSize = 16 << 20

// loaded is a file as read for a tab.
type loaded struct {
	data      []byte
	size      int64 // on disk, which is more than len(data) when truncated
	truncated bool
	binary    bool
	stamp     stamp
}

// stamp is what the editor last knew of a file on disk, to tell its own
// writes (and the agent's, already shown) from someone else's.
type stamp struct {
	exists bool
	size   int
	sum    uint64
}

// stamper fingerprints contents. The stamps are only compared within one
// run, so a fast seeded hash does (a 3 MB file takes a fraction of a
// millisecond, where sha256 took several).
type stamper struct{ seed maphash.Seed }

func newStamper() stamper { return stamper{seed: maphash.MakeSeed()} }

func (s stamper) of(data []byte) stamp {
	return stamp{exists: true, size: len(data), sum: maphash.Bytes(s.seed, data)}
}

// readFile reads path for display: at most limit bytes (cut at a line
// break), and says whether the content looks binary.
func readFile(path string, limit int64, fp stamper) (loaded, error) {
	f, err := os.Open(path)
	if err != nil {
		return loaded{}, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return loaded{}, err
	}
	if info.IsDir() {
		return loaded{}, errors.New("it is a directory")
	}
	if !info.Mode().IsRegular() {
		return loaded{}, errors.New("it is not a regular file (a device or a pipe)")
	}
	l := loaded{size: info.Size()}
	if limit > 0 && info.Size() > limit {
		l.data = make([]byte, limit)
		n, err := io.ReadFull(f, l.data)
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
			return loaded{}, err
		}
		l.data = l.data[:n]
		if i := bytes.LastIndexByte(l.data, '\n'); i >= 0 {
			l.data = l.data[:i+1]
		}
		l.truncated = true
		l.binary = looksBinary(l.data)
		return l, nil
	}
	// Read what stat promised in one go; a file still growing is read to its end.
	l.data = make([]byte, info.Size(), info.Size()+512)
	n, err := io.ReadFull(f, l.data)
	l.data = l.data[:n]
	if errors.Is(err, io.ErrUnexpectedEOF) || err == nil {
		var rest []byte
		rest, err = io.ReadAll(f)
		l.data = append(l.data, rest...)
	}
	if err != nil {
		return loaded{}, err
	}
	l.size = int64(len(l.data))
	l.stamp = fp.of(l.data)
	l.binary = looksBinary(l.data)
	return l, nil
}

// looksBinary says whether data is not text: a NUL byte, or mostly bytes
// that are not UTF-8, in its first 8 KiB.
func looksBinary(data []byte) bool {
	sample := data[:min(len(data), 8192)]
	if bytes.IndexByte(sample, 0) >= 0 {
		return true
	}
	bad := 0
	for i := 0; i < len(sample); {
		r, n := utf8.DecodeRune(sample[i:])
		if r == utf8.RuneError && n == 1 && len(sample)-i >= utf8.UTFMax {
			bad++
		}
		i += n
	}
	return bad*10 > len(sample)
}

// diskStamp reads path again to compare it with what the editor knows.
func diskStamp(path string, fp stamper) (stamp, []byte, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return stamp{}, nil, nil
	}
	if err != nil {
		return stamp{}, nil, err
	}
	return fp.of(data), data, nil
}

// humanSize formats a byte count for notices.
func humanSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}
