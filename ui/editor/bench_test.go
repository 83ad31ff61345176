package editor

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/ui/theme"
)

// The editor benchmarks. Each measures one thing a user feels on a generated
// 100,000-line Go file, first in process (the editor's own work: handling
// the key and drawing into a tcell screen), then end to end in a real pty —
// fawn's editor (internal/fawnedit) beside micro opening the same file in
// the same terminal size — reported as milliseconds and a ratio
// (fawn/micro: below 1 is faster than micro).

const (
	benchLines = 100_000
	benchCols  = 120
	benchRows  = 40
)

var benchFileOnce struct {
	sync.Once
	path string
	err  error
}

// benchFile writes the 100k-line Go file once per run.
func benchFile(b *testing.B) string {
	b.Helper()
	benchFileOnce.Do(func() {
		dir, err := os.MkdirTemp("", "fawn-editor-bench-")
		if err != nil {
			benchFileOnce.err = err
			return
		}
		var sb strings.Builder
		sb.WriteString("// Code generated for the fawn editor benchmark. DO NOT EDIT.\n\npackage bench\n\nimport \"fmt\"\n\n")
		lines := 6
		for n := 0; lines+9 <= benchLines; n++ {
			lines += 9
			fmt.Fprintf(&sb, "// f%d returns a value derived from its argument.\nfunc f%d(a int) (int, error) {\n\tv := a*%d + 7 // step %d\n\tif v > 1000 {\n\t\treturn 0, fmt.Errorf(\"value %%d too large at %d\", v)\n\t}\n\treturn v, nil\n}\n\n", n, n, n, n, n)
		}
		for ; lines < benchLines; lines++ {
			sb.WriteString("// padding\n")
		}
		benchFileOnce.path = filepath.Join(dir, "big.go")
		benchFileOnce.err = os.WriteFile(benchFileOnce.path, []byte(sb.String()), 0o644)
	})
	if benchFileOnce.err != nil {
		b.Fatal(benchFileOnce.err)
	}
	return benchFileOnce.path
}

// benchTabs is a Tabs on a simulation screen for in-process measurements.
func benchTabs(b *testing.B, root string) (*Tabs, tcell.SimulationScreen, chan struct{}) {
	s := tcell.NewSimulationScreen("UTF-8")
	if err := s.Init(); err != nil {
		b.Fatal(err)
	}
	s.SetSize(benchCols, benchRows)
	redraw := make(chan struct{}, 1)
	t := New(root, theme.Get("dark"), nil, WithRedraw(func() {
		select {
		case redraw <- struct{}{}:
		default:
		}
	}))
	t.SetRect(0, 0, benchCols, benchRows)
	t.Focus(func(tview.Primitive) {})
	b.Cleanup(func() { t.Close(); s.Fini() })
	return t, s, redraw
}

func paint(t *Tabs, s tcell.Screen) {
	t.Draw(s)
	s.Show()
}

// waitHighlighted draws until the visible lines are highlighted.
func waitHighlighted(b *testing.B, t *Tabs, s tcell.Screen, redraw chan struct{}) {
	deadline := time.After(20 * time.Second)
	for !t.current().shown().highlighted() {
		select {
		case <-redraw:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			b.Fatal("highlighting never arrived")
		}
		paint(t, s)
	}
}

// BenchmarkOpen100k: open the 100k-line file and paint the first screen;
// highlighted-ms is until that screen is highlighted too.
func BenchmarkOpen100k(b *testing.B) {
	path := benchFile(b)
	b.Run("inprocess", func(b *testing.B) {
		var hl time.Duration
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			t, s, redraw := benchTabs(b, filepath.Dir(path))
			b.StartTimer()
			start := time.Now()
			if err := t.Open(path, 1); err != nil {
				b.Fatal(err)
			}
			paint(t, s)
			b.StopTimer()
			waitHighlighted(b, t, s, redraw)
			hl += time.Since(start)
			b.StartTimer()
		}
		b.ReportMetric(float64(hl.Microseconds())/1000/float64(b.N), "highlighted-ms")
	})
	b.Run("vs-micro", func(b *testing.B) {
		fawn, micro := ptyEditors(b)
		var f, m []time.Duration
		for i := 0; i < b.N; i++ {
			f = append(f, openLatency(b, fawn.argv(path, 1), fawn.env))
			m = append(m, openLatency(b, micro.argv(path, 1), micro.env))
		}
		reportRatio(b, f, m)
	})
}

// BenchmarkKeystrokeAt90k: type one character at line 90,000 and redraw.
func BenchmarkKeystrokeAt90k(b *testing.B) {
	path := benchFile(b)
	b.Run("inprocess", func(b *testing.B) {
		t, s, redraw := benchTabs(b, filepath.Dir(path))
		if err := t.Open(path, 90_000); err != nil {
			b.Fatal(err)
		}
		paint(t, s)
		waitHighlighted(b, t, s, redraw)
		key := tcell.NewEventKey(tcell.KeyRune, 'x', tcell.ModNone)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			t.HandleKey(key)
			paint(t, s)
		}
		b.StopTimer()
		if got := t.current().buf.Line(89_999); !strings.HasPrefix(got, "xx") && b.N > 1 {
			b.Fatalf("line 90,000 is %q after typing", got)
		}
	})
	b.Run("vs-micro", func(b *testing.B) {
		fawn, micro := ptyEditors(b)
		f := keyLatencies(b, fawn.argv(path, 90_000), fawn.env, "x", max(b.N, 1)*10)
		m := keyLatencies(b, micro.argv(path, 90_000), micro.env, "x", max(b.N, 1)*10)
		reportRatio(b, f, m)
	})
}

// BenchmarkScrollPage: one Page Down and the redraw, from the top.
func BenchmarkScrollPage(b *testing.B) {
	path := benchFile(b)
	b.Run("inprocess", func(b *testing.B) {
		t, s, _ := benchTabs(b, filepath.Dir(path))
		if err := t.Open(path, 1); err != nil {
			b.Fatal(err)
		}
		paint(t, s)
		key := tcell.NewEventKey(tcell.KeyPgDn, 0, tcell.ModNone)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			t.HandleKey(key)
			paint(t, s)
		}
	})
	b.Run("vs-micro", func(b *testing.B) {
		fawn, micro := ptyEditors(b)
		f := keyLatencies(b, fawn.argv(path, 1), fawn.env, "\x1b[6~", max(b.N, 1)*10)
		m := keyLatencies(b, micro.argv(path, 1), micro.env, "\x1b[6~", max(b.N, 1)*10)
		reportRatio(b, f, m)
	})
}

// reportRatio reports the medians and fawn/micro.
func reportRatio(b *testing.B, fawn, micro []time.Duration) {
	f, m := median(fawn), median(micro)
	b.ReportMetric(ms(f), "fawn-ms")
	b.ReportMetric(ms(m), "micro-ms")
	if m > 0 {
		b.ReportMetric(float64(f)/float64(m), "fawn/micro")
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// ptyEditor is how to start one editor in a pty.
type ptyEditor struct {
	argv func(path string, line int) []string
	env  []string
}

// ptyEditors builds fawnedit and finds micro, or skips.
func ptyEditors(b *testing.B) (ptyEditor, ptyEditor) {
	b.Helper()
	microPath, err := exec.LookPath("micro")
	if err != nil {
		b.Skip("micro is not installed (apt-get install -y micro); skipping the comparison")
	}
	bin := filepath.Join(b.TempDir(), "fawnedit")
	if out, err := exec.Command("go", "build", "-o", bin, "./internal/fawnedit").CombinedOutput(); err != nil {
		b.Fatalf("building fawnedit: %v\n%s", err, out)
	}
	env := append(os.Environ(), "TERM=xterm-256color", "COLORTERM=truecolor")
	microEnv := append(slices.Clone(env), "MICRO_CONFIG_HOME="+b.TempDir())
	fawn := ptyEditor{
		argv: func(path string, line int) []string { return []string{bin, fmt.Sprintf("+%d", line), path} },
		env:  env,
	}
	micro := ptyEditor{
		argv: func(path string, line int) []string { return []string{microPath, fmt.Sprintf("+%d", line), path} },
		env:  microEnv,
	}
	return fawn, micro
}

// ptyRun is an editor running in a pty whose output is read as it comes.
type ptyRun struct {
	cmd    *exec.Cmd
	f      *os.File
	chunks chan chunk
	done   chan struct{}
}

type chunk struct {
	data []byte
	at   time.Time
}

func startPty(b *testing.B, argv, env []string) (*ptyRun, time.Time) {
	b.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	cmd.Dir = os.TempDir()
	start := time.Now()
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: benchRows, Cols: benchCols})
	if err != nil {
		b.Fatal(err)
	}
	r := &ptyRun{cmd: cmd, f: f, chunks: make(chan chunk, 4096), done: make(chan struct{})}
	go func() {
		defer close(r.chunks)
		buf := make([]byte, 64<<10)
		for {
			n, err := f.Read(buf)
			if n > 0 {
				r.chunks <- chunk{data: slices.Clone(buf[:n]), at: time.Now()}
			}
			if err != nil {
				return
			}
		}
	}()
	return r, start
}

// until reads output until it contains marker and returns when the chunk
// that completed it arrived.
func (r *ptyRun) until(b *testing.B, marker string) time.Time {
	b.Helper()
	var seen []byte
	deadline := time.After(30 * time.Second)
	for {
		select {
		case c, ok := <-r.chunks:
			if !ok {
				b.Fatalf("%s exited before showing %q", r.cmd.Path, marker)
			}
			seen = append(seen, c.data...)
			if bytes.Contains(seen, []byte(marker)) {
				return c.at
			}
		case <-deadline:
			b.Fatalf("%s did not show %q in 30 s; output tail: %q", r.cmd.Path, marker, seen[max(0, len(seen)-400):])
		}
	}
}

// quiet reads until nothing has come for d.
func (r *ptyRun) quiet(d time.Duration) {
	for {
		select {
		case _, ok := <-r.chunks:
			if !ok {
				return
			}
		case <-time.After(d):
			return
		}
	}
}

// next waits for the first output after now.
func (r *ptyRun) next(b *testing.B) time.Time {
	b.Helper()
	select {
	case c, ok := <-r.chunks:
		if !ok {
			b.Fatalf("%s exited", r.cmd.Path)
		}
		return c.at
	case <-time.After(30 * time.Second):
		b.Fatalf("%s did not answer a key in 30 s", r.cmd.Path)
	}
	return time.Time{}
}

func (r *ptyRun) stop() {
	r.cmd.Process.Kill()
	r.cmd.Wait()
	r.f.Close()
	for range r.chunks {
	}
}

// openLatency is the time from starting the editor to the first screen
// showing the file's first line.
func openLatency(b *testing.B, argv, env []string) time.Duration {
	r, start := startPty(b, argv, env)
	defer r.stop()
	at := r.until(b, "Code generated for the fawn editor benchmark")
	return at.Sub(start)
}

// keyLatencies opens the file, waits for the editor to settle, then sends
// key n times and measures each time to the first output that answers it.
func keyLatencies(b *testing.B, argv, env []string, key string, n int) []time.Duration {
	r, _ := startPty(b, argv, env)
	defer r.stop()
	r.next(b)
	r.quiet(800 * time.Millisecond)
	var out []time.Duration
	for i := 0; i < n; i++ {
		sent := time.Now()
		if _, err := r.f.Write([]byte(key)); err != nil {
			if errors.Is(err, os.ErrClosed) {
				b.Fatal("pty closed")
			}
			b.Fatal(err)
		}
		out = append(out, r.next(b).Sub(sent))
		r.quiet(60 * time.Millisecond) // let the frame (and late highlighting) finish
	}
	return out
}

// BenchmarkFinderFilter50k: rank 50,000 project paths for a query typed
// one key at a time, as the Ctrl-P finder does on each key.
func BenchmarkFinderFilter50k(b *testing.B) {
	files := make([]string, 0, 50_000)
	dirs := []string{"ui/editor", "ui/chat", "tools", "agent/internal", "terminal", "cmd/fawn", "vendor/github.com/x/y"}
	for i := 0; len(files) < 50_000; i++ {
		files = append(files, fmt.Sprintf("%s/pkg%d/file_%d_view.go", dirs[i%len(dirs)], i%97, i))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f := &finder{files: files}
		for _, q := range []string{"e", "ed", "edi", "edit", "editv", "editvi", "editvie", "editview"} {
			f.query = q
			f.filter()
		}
		if len(f.matches) == 0 {
			b.Fatal("no match")
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N)/8, "ms/key")
}

// BenchmarkVimKeyAt90k: at line 90,000, a character typed in vim's insert
// mode and the redraw (the normal-mode i before it untimed), beside the
// same character typed with the standard keys, timed alternately in one
// run: vim-ms, standard-ms and vim/standard.
func BenchmarkVimKeyAt90k(b *testing.B) {
	path := benchFile(b)
	vimTabs, vs, _ := benchTabs(b, filepath.Dir(path))
	vimTabs.vimKeys = true
	stdTabs, ss, _ := benchTabs(b, filepath.Dir(path))
	for _, t := range []*Tabs{vimTabs, stdTabs} {
		if err := t.Open(path, 90_000); err != nil {
			b.Fatal(err)
		}
	}
	vimTabs.HandleKey(tcell.NewEventKey(tcell.KeyRune, 'i', tcell.ModNone))
	paint(vimTabs, vs)
	paint(stdTabs, ss)
	x := tcell.NewEventKey(tcell.KeyRune, 'x', tcell.ModNone)
	var vimT, stdT []time.Duration
	n := max(b.N, 1) * 200
	b.ResetTimer()
	for i := 0; i < n; i++ {
		start := time.Now()
		vimTabs.HandleKey(x)
		paint(vimTabs, vs)
		vimT = append(vimT, time.Since(start))
		start = time.Now()
		stdTabs.HandleKey(x)
		paint(stdTabs, ss)
		stdT = append(stdT, time.Since(start))
	}
	b.StopTimer()
	if vimTabs.current().view.VimMode() != "INSERT" || vimTabs.current().buf.Line(89_999) != stdTabs.current().buf.Line(89_999) {
		b.Fatalf("the two editors differ at line 90,000: %q and %q",
			vimTabs.current().buf.Line(89_999), stdTabs.current().buf.Line(89_999))
	}
	v, s := median(vimT), median(stdT)
	b.ReportMetric(float64(v.Nanoseconds())/1e6, "vim-ms")
	b.ReportMetric(float64(s.Nanoseconds())/1e6, "standard-ms")
	if s > 0 {
		b.ReportMetric(float64(v)/float64(s), "vim/standard")
	}
}

// BenchmarkVimNormalKeyAt90k: at line 90,000, a motion in vim's normal
// mode (l, then h, alternately) and the redraw, beside the same move with
// the standard keys (Right, Left), timed alternately in one run: vim-ms,
// standard-ms and vim/standard.
func BenchmarkVimNormalKeyAt90k(b *testing.B) {
	path := benchFile(b)
	vimTabs, vs, _ := benchTabs(b, filepath.Dir(path))
	vimTabs.vimKeys = true
	stdTabs, ss, _ := benchTabs(b, filepath.Dir(path))
	for _, t := range []*Tabs{vimTabs, stdTabs} {
		if err := t.Open(path, 90_000); err != nil {
			b.Fatal(err)
		}
	}
	paint(vimTabs, vs)
	paint(stdTabs, ss)
	vimKeys := []*tcell.EventKey{tcell.NewEventKey(tcell.KeyRune, 'l', tcell.ModNone), tcell.NewEventKey(tcell.KeyRune, 'h', tcell.ModNone)}
	stdKeys := []*tcell.EventKey{tcell.NewEventKey(tcell.KeyRight, 0, tcell.ModNone), tcell.NewEventKey(tcell.KeyLeft, 0, tcell.ModNone)}
	var vimT, stdT []time.Duration
	n := max(b.N, 1) * 200
	b.ResetTimer()
	for i := 0; i < n; i++ {
		start := time.Now()
		vimTabs.HandleKey(vimKeys[i%2])
		paint(vimTabs, vs)
		vimT = append(vimT, time.Since(start))
		start = time.Now()
		stdTabs.HandleKey(stdKeys[i%2])
		paint(stdTabs, ss)
		stdT = append(stdT, time.Since(start))
	}
	b.StopTimer()
	vv, sv := vimTabs.current().view, stdTabs.current().view
	if vv.VimMode() != "NORMAL" || vv.cursor != sv.cursor || vv.cursor.Line != 89_999 {
		b.Fatalf("the two editors differ: vim %s at %v, standard at %v", vv.VimMode(), vv.cursor, sv.cursor)
	}
	v, s := median(vimT), median(stdT)
	b.ReportMetric(float64(v.Nanoseconds())/1e6, "vim-ms")
	b.ReportMetric(float64(s.Nanoseconds())/1e6, "standard-ms")
	if s > 0 {
		b.ReportMetric(float64(v)/float64(s), "vim/standard")
	}
}
