package vt

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"hash"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	uv "github.com/charmbracelet/ultraviolet"
)

var updateScroll = flag.Bool("update-scroll", false, "rewrite testdata/scroll.txt from the emulator's states")

// scrollCases is how many random streams TestScrollingStates replays.
const scrollCases = 400

// TestScrollingStates replays random output that scrolls in every way the
// emulator knows (line feeds at the bottom of full and partial regions,
// DECSTBM, DECSLRM, IL, DL, SU, SD, RI, wide characters, a coloured
// background, the alternate screens, resizes, a small scrollback that
// drops its oldest lines, a host draining it) and compares a digest of
// every state on the way (cells, cursor, wrap marks, touched rows, the
// scrollback and its marks, Work) with the one recorded in
// testdata/scroll.txt. The record was made before scrolling moved rows
// instead of cells, so the two ways give the same states.
func TestScrollingStates(t *testing.T) {
	var got strings.Builder
	got.WriteString("# digest of every state of random scrolling output, one case a line.\n")
	got.WriteString("# go test ./internal/vt -run TestScrollingStates -update-scroll\n")
	for i := range scrollCases {
		fmt.Fprintf(&got, "%d %s\n", i, scrollCase(uint64(i)))
	}
	path := filepath.Join("testdata", "scroll.txt")
	if *updateScroll {
		if err := os.WriteFile(path, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./internal/vt -run TestScrollingStates -update-scroll writes it)", err)
	}
	wl, gl := strings.Split(string(want), "\n"), strings.Split(got.String(), "\n")
	if len(wl) != len(gl) {
		t.Fatalf("%d lines recorded, %d made", len(wl), len(gl))
	}
	for i := range wl {
		if wl[i] != gl[i] {
			t.Errorf("state differs from the record: got %q, want %q", gl[i], wl[i])
		}
	}
}

// scrollCase feeds one random stream, in random pieces, and returns the
// digest of the states after each piece.
func scrollCase(seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 39))
	w, h := 2+r.IntN(30), 2+r.IntN(14)
	e := NewEmulator(w, h)
	if r.IntN(3) == 0 {
		e.SetScrollbackSize(1 + r.IntN(20))
	}
	d := sha256.New()
	for range 20 + r.IntN(40) {
		var b strings.Builder
		for range 1 + r.IntN(30) {
			b.WriteString(scrollToken(r, w, h))
		}
		_, _ = e.WriteString(b.String())
		switch r.IntN(12) {
		case 0:
			w, h = 2+r.IntN(30), 2+r.IntN(14)
			e.Resize(w, h)
		case 1: // a host taking the scrollback's lines, as fawn's does
			sb := e.Scrollback()
			for i, l := range sb.Lines() {
				fmt.Fprintf(d, "drain %d %t ", i, sb.Wrapped(i))
				digestLine(d, l)
			}
			sb.Clear()
		case 2:
			e.scr.ClearTouched()
		}
		digestState(d, e)
	}
	return hex.EncodeToString(d.Sum(nil))[:32]
}

// scrollToken is one piece of output: text or a control function that
// moves lines or sets where they move.
func scrollToken(r *rand.Rand, w, h int) string {
	n := func(m int) string { return strconv.Itoa(r.IntN(m + 2)) }
	switch r.IntN(26) {
	case 0, 1, 2, 3:
		return "\n"
	case 4:
		return "\r\n"
	case 5:
		return strings.Repeat(string(rune('a'+r.IntN(26))), 1+r.IntN(2*w))
	case 6:
		return []string{"世", "界", "❤️", "é", "e\u0301", "🙂"}[r.IntN(6)]
	case 7:
		return "\x1b[" + n(h) + ";" + n(h) + "r"
	case 8:
		return "\x1b[r"
	case 9:
		return "\x1b[?69" + []string{"h", "l"}[r.IntN(2)]
	case 10:
		return "\x1b[" + n(w) + ";" + n(w) + "s"
	case 11:
		return "\x1b[" + n(h) + "L"
	case 12:
		return "\x1b[" + n(h) + "M"
	case 13:
		return "\x1b[" + n(h) + "S"
	case 14:
		return "\x1b[" + n(h) + "T"
	case 15:
		return "\x1bM"
	case 16:
		return []string{"\x1bD", "\x1bE", "\v", "\f"}[r.IntN(4)]
	case 17:
		return "\x1b[" + n(h) + ";" + n(w) + "H"
	case 18:
		return []string{"\x1b[41m", "\x1b[0m", "\x1b[1;32m", "\x1b[48;5;100m", "\x1b[48;2;1;2;3m", "\x1b[7m"}[r.IntN(6)]
	case 19:
		return []string{"\x1b[?1049h", "\x1b[?1049l", "\x1b[?47h", "\x1b[?47l", "\x1b[?1047h", "\x1b[?1047l"}[r.IntN(6)]
	case 20:
		return []string{"\x1b[2J", "\x1b[3J", "\x1b[J", "\x1b[1J", "\x1b[K", "\x1b[2K"}[r.IntN(6)]
	case 21:
		return []string{"\x1b[?6h", "\x1b[?6l", "\x1b[?7l", "\x1b[?7h", "\x1b7", "\x1b8"}[r.IntN(6)]
	case 22:
		return "\x1b[" + n(w) + []string{"@", "P", "X", "b"}[r.IntN(4)]
	case 23:
		return "\x1b]8;;http://x/" + n(9) + "\x1b\\"
	case 24:
		return "\r\b\t"
	default:
		return "\x1b[" + n(h) + []string{"A", "B", "C", "D", "d", "G"}[r.IntN(6)]
	}
}

// digestState writes everything the emulator shows a host.
func digestState(d hash.Hash, e *Emulator) {
	c := e.scr.Cursor()
	fmt.Fprintf(d, "%dx%d alt=%t cur=%d,%d %t work=%d\n", e.Width(), e.Height(), e.IsAltScreen(), c.X, c.Y, e.atPhantom, e.Work())
	for y := range e.Height() {
		fmt.Fprintf(d, "%d %t ", y, e.Wrapped(y))
		digestLine(d, e.scr.buf.Line(y))
	}
	for y, t := range e.scr.Touched() {
		if t != nil {
			fmt.Fprintf(d, "touched %d %d %d\n", y, t.FirstCell, t.LastCell)
		}
	}
	sb := e.Scrollback()
	fmt.Fprintf(d, "scrollback %d\n", sb.Len())
	for i := range sb.Len() {
		fmt.Fprintf(d, "%t ", sb.Wrapped(i))
		digestLine(d, sb.Line(i))
	}
}

func digestLine(d hash.Hash, l uv.Line) {
	fmt.Fprintf(d, "%d:", len(l))
	for i := range l {
		c := &l[i]
		fmt.Fprintf(d, "%q %d %v %v|", c.Content, c.Width, c.Style, c.Link)
	}
	d.Write([]byte{'\n'})
}

// BenchmarkLineFeeds writes 100,000 line feeds at the bottom of a 120×40
// screen, each scrolling it up a row: output streaming. "text" prints a
// line of text before each, "bare" only scrolls. "kept" leaves the lines
// in a full scrollback, which drops its oldest for each; "drained" takes
// them out every 100 lines, as fawn's terminal does.
func BenchmarkLineFeeds(b *testing.B) {
	var text strings.Builder
	for i := range 100 {
		fmt.Fprintf(&text, "%06d the quick brown fox jumps over the lazy dog, again and again\r\n", i)
	}
	chunks := map[string][]byte{"text": []byte(text.String()), "bare": []byte(strings.Repeat("\n", 100))}
	for _, kind := range []string{"text", "bare"} {
		for _, drain := range []bool{false, true} {
			b.Run(kind+"/"+map[bool]string{false: "kept", true: "drained"}[drain], func(b *testing.B) {
				e := NewEmulator(120, 40)
				_, _ = e.WriteString(strings.Repeat("\n", 39))
				chunk := chunks[kind]
				b.SetBytes(int64(len(chunk) * 1000))
				for b.Loop() {
					for range 1000 {
						_, _ = e.Write(chunk)
						if drain {
							e.Scrollback().Clear()
						}
					}
				}
			})
		}
	}
}
