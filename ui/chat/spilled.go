package chat

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"slices"
	"strings"
)

// spilled is a finished command's output that its card left in the file
// the bash tool kept the whole output in (tools.CommandDone.Spill): the
// card keeps only the last lines it shows folded, and reads the output
// back — the head and tail the model saw, around the line on what was
// left out — when it is expanded or copied. A long session keeps
// hundreds of finished cards; a cut output is tens of KiB, its tail
// line a few bytes.
type spilled struct {
	path string
	// head and tail are how many bytes of the output come from the file's
	// start and end; mid is the line between them that says what was
	// left out.
	head, tail int
	mid        string
	// sum is the output's FNV-1a hash: a file written again (another
	// command with the same call ID) or cut short is not read as it.
	sum uint64
	// lines is how many lines the output has; last are the last of them
	// (at most cardBodyLines), which the folded card shows.
	lines int
	last  []string
}

// outputSum is the hash spilled.sum keeps.
func outputSum(parts ...string) uint64 {
	h := fnv.New64a()
	for _, p := range parts {
		io.WriteString(h, p)
	}
	return h.Sum64()
}

// leaveInSpill lets a command's output go from memory when the command
// ran to its end (done or failed) and its spill file holds the same text:
// the file is read once here, and the output is kept as it was when it
// does not match (a redacted secret, a line the head cut, a file gone
// already).
func (c *Card) leaveInSpill() {
	d := c.cmd
	if (c.Status != StatusDone && c.Status != StatusFailed) || d == nil || d.Spill == "" || d.OmittedLines <= 0 || d.Binary || d.Output == "" || c.spill != nil {
		return
	}
	out := d.Output
	// The output is its head, the "[… omitted …]" line (line HeadLines)
	// and its tail.
	i := 0
	for range d.HeadLines {
		j := strings.IndexByte(out[i:], '\n')
		if j < 0 {
			return
		}
		i += j + 1
	}
	j := strings.IndexByte(out[i:], '\n')
	if j < 0 || !strings.HasPrefix(out[i:], "[… ") {
		return
	}
	head, mid, tail := out[:i], out[i:i+j+1], out[i+j+1:]
	if got, err := readEnds(d.Spill, len(head), len(tail)); err != nil || got != head+tail {
		return
	}
	text := strings.TrimSuffix(out, "\n")
	n := strings.Count(text, "\n") + 1
	// The last lines, each a string of its own: a piece of the output
	// would keep all of it.
	last := make([]string, 0, min(n, cardBodyLines))
	for k := 0; k < min(n, cardBodyLines); k++ {
		i := strings.LastIndexByte(text, '\n')
		last = append(last, strings.Clone(text[i+1:]))
		text = text[:max(i, 0)]
	}
	slices.Reverse(last)
	c.spill = &spilled{path: d.Spill, head: len(head), tail: len(tail), mid: strings.Clone(mid),
		sum: outputSum(head, tail), lines: n, last: last}
	// The result is the output and how it ended: only the ending stays.
	if strings.HasPrefix(c.Result, out) {
		c.Result = strings.Clone(c.Result[len(out):])
	}
	d.Output = ""
}

// readEnds returns the first head and last tail bytes of the file at
// path, one after the other.
func readEnds(path string, head, tail int) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", err
	}
	size := info.Size()
	if int64(head+tail) > size {
		return "", fmt.Errorf("%s holds %d bytes, fewer than the output's %d", path, size, head+tail)
	}
	b := make([]byte, head+tail)
	if _, err := f.ReadAt(b[:head], 0); err != nil {
		return "", err
	}
	if _, err := f.ReadAt(b[head:], size-int64(tail)); err != nil {
		return "", err
	}
	return string(b), nil
}

// errSpillChanged: the file holds other text than the output it kept.
var errSpillChanged = errors.New("it holds another output now")

// output reads the output back from the file.
func (s *spilled) output() (string, error) {
	ends, err := readEnds(s.path, s.head, s.tail)
	if err == nil && outputSum(ends[:s.head], ends[s.head:]) != s.sum {
		err = errSpillChanged
	}
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			err = errors.New("it is gone (fawn keeps only the latest outputs)")
		}
		return "", fmt.Errorf("the rest of this output was in %s: %w", s.path, err)
	}
	return ends[:s.head] + s.mid + ends[s.head:], nil
}

// spilledLines are the output lines of a card whose output is in its
// spill file: read back, or when that fails the lines it kept, after a
// line that says why (gone is its index, -1 when read).
func (c *Card) spilledLines() (lines []string, gone int) {
	text, err := c.spill.output()
	if err != nil {
		return append([]string{err.Error() + "; its last lines:"}, c.spill.last...), 0
	}
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n"), -1
}
