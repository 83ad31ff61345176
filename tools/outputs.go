package tools

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// Outputs keeps the whole output of the agent's commands in files beside
// the session, one per call, so that what a result leaves out of a long
// output (its middle) can still be read: the card says where the file
// is, and view_output pages through it. Only outputs that were cut are
// kept; the oldest files go when there are too many or they take too
// much room.
type Outputs struct {
	dir string
	// redact takes secrets out of each line before it is written (nil:
	// lines are written as they are).
	redact func(string) string
	// Limits: one file's size (the rest is counted, not kept), and the
	// files kept at once.
	maxFile, maxTotal int64
	maxFiles          int

	mu sync.Mutex // rotation
}

// Default limits of the kept outputs.
const (
	outputMaxFile  = 64 << 20
	outputMaxTotal = 256 << 20
	outputMaxFiles = 200
)

// NewOutputs keeps outputs in dir (created on the first one), passing
// each line through redact.
func NewOutputs(dir string, redact func(string) string) *Outputs {
	return &Outputs{dir: dir, redact: redact, maxFile: outputMaxFile, maxTotal: outputMaxTotal, maxFiles: outputMaxFiles}
}

// isOutputID reports whether id may name a file: a model chooses it, so
// 1 to 128 of A-Z a-z 0-9 _ . - and nothing that could leave the
// directory (a function: the regular expression's {1,128} compiled at
// start cost every start of fawn).
func isOutputID(id string) bool {
	if len(id) == 0 || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		switch c := id[i]; {
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '_', c == '.', c == '-':
		default:
			return false
		}
	}
	return true
}

// Path returns the file that keeps the output of call id.
func (o *Outputs) Path(id string) (string, error) {
	if !isOutputID(id) || strings.Trim(id, ".") == "" {
		return "", fmt.Errorf("%q is not the id of a command's output: give the id the command's result names", id)
	}
	return filepath.Join(o.dir, id+".txt"), nil
}

// spill is the file one command's output goes to as it runs.
type spill struct {
	o       *Outputs
	f       *os.File
	path    string
	written int64
	cut     bool
	err     error
}

// create starts the file for call id's output.
func (o *Outputs) create(id string) (*spill, error) {
	path, err := o.Path(id)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(o.dir, 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, err
	}
	return &spill{o: o, f: f, path: path}, nil
}

// Write keeps b (one line of output, or a piece of a long one) until the
// file is full; then it counts it only.
func (s *spill) Write(b []byte) (int, error) {
	if s.err != nil || s.cut {
		return len(b), nil
	}
	text := b
	if s.o.redact != nil {
		text = []byte(s.o.redact(string(b)))
	}
	if s.written+int64(len(text)) > s.o.maxFile {
		s.cut = true
		text = fmt.Appendf(nil, "[… fawn kept the first %d bytes of this output; the rest is left out …]\n", s.written)
	}
	n, err := s.f.Write(text)
	s.written += int64(n)
	if err != nil {
		s.err = err
	}
	return len(b), nil
}

// finish closes the file, keeping it when keep is set (and it could be
// written), and makes room among the kept files.
func (s *spill) finish(keep bool) (string, error) {
	err := errors.Join(s.err, s.f.Close())
	if !keep || err != nil {
		os.Remove(s.path)
		return "", err
	}
	s.o.rotate(s.path)
	return s.path, nil
}

// rotate removes the oldest kept files beyond the limits, never keep (the
// file just written).
func (o *Outputs) rotate(keep string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	ents, err := os.ReadDir(o.dir)
	if err != nil {
		return
	}
	type kept struct {
		path string
		size int64
		mod  int64
	}
	var files []kept
	var total int64
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".txt") || !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		files = append(files, kept{filepath.Join(o.dir, e.Name()), info.Size(), info.ModTime().UnixNano()})
		total += info.Size()
	}
	sort.Slice(files, func(i, j int) bool { return files[i].mod < files[j].mod })
	for _, f := range files {
		if len(files) <= o.maxFiles && total <= o.maxTotal {
			break
		}
		if f.path == keep {
			continue
		}
		if os.Remove(f.path) == nil {
			files = files[1:]
			total -= f.size
		}
	}
}

// readLines returns lines [offset, offset+limit) (1-based) of the output
// of call id, at most maxBytes of them, and how many lines it has.
func (o *Outputs) readLines(id string, offset, limit, maxBytes int) (lines []string, total int, err error) {
	path, err := o.Path(id)
	if err != nil {
		return nil, 0, err
	}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, 0, fmt.Errorf("no output is kept for %q: only the outputs of commands whose result left lines out are kept, and the oldest go after %d", id, o.maxFiles)
	}
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	size := 0
	for {
		l, err := r.ReadString('\n')
		if err != nil && err != io.EOF {
			return nil, 0, err
		}
		if l == "" && err == io.EOF {
			break
		}
		total++
		if total >= offset && total < offset+limit && size < maxBytes {
			l = strings.TrimSuffix(l, "\n")
			size += len(l) + 1
			lines = append(lines, l)
		}
		if err == io.EOF {
			break
		}
	}
	return lines, total, nil
}
