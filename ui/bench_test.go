package ui

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/ui/display"
	"github.com/fawn-ide/fawn/ui/panes"
	"github.com/fawn-ide/fawn/ui/render/screentest"
)

// The benchmarks measure what a user feels: frame time while an answer
// streams at 2,000 tokens/s, draw and keystroke time in a 1,000-message
// session, a width change in that session (beside tview.TextView holding
// the same text, the widget the chat does not use), idle CPU, and memory.

const benchW, benchH = 200, 60

// answerText is a realistic answer: prose, a list, a code block.
func answerText(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Step %d: I looked at **ui/chat.go** and the `wrap` function. ", i)
	b.WriteString("The problem is that the last word of a line is dropped when the line ends exactly at the width, ")
	b.WriteString("because the break opportunity is recorded after the cluster is placed.\n\n")
	if i%3 == 0 {
		b.WriteString("- keep the break position\n- place the cluster\n- then decide\n\n")
	}
	if i%4 == 0 {
		b.WriteString("```go\nfunc (w *wrapper) place(g string, width int) {\n\tif w.curW+width > w.width {\n\t\tw.flush(false)\n\t}\n\tw.cur = append(w.cur, g)\n}\n```\n\n")
	}
	b.WriteString("Next I will run the tests.")
	return b.String()
}

// sessionEvents returns the events of n chat items: user messages, answers
// and tool calls with output, edits and searches.
func sessionEvents(n int) []agent.Event {
	var evs []agent.Event
	var out strings.Builder
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&out, "ok  \tgithub.com/fawn-ide/fawn/pkg%d\t0.%03ds\n", i, i*7)
	}
	items := 0
	for call := 0; items < n; call++ {
		id := "c" + strconv.Itoa(call)
		evs = append(evs, agent.Event{Type: agent.EventTurnStarted},
			agent.Event{Type: agent.EventText, Text: answerText(call)})
		items++
		switch call % 3 {
		case 0:
			evs = append(evs, agent.Event{Type: agent.EventToolCallStarted, ID: id, Name: "bash"},
				agent.Event{Type: agent.EventToolCallReady, ID: id, Name: "bash", Args: `{"command":"go test ./..."}`},
				agent.Event{Type: agent.EventToolRunStarted, ID: id, Name: "bash"},
				agent.Event{Type: agent.EventToolOutput, ID: id, Text: out.String()},
				agent.Event{Type: agent.EventToolRunEnded, ID: id, Name: "bash", Result: "exit code 0", Duration: time.Second})
		case 1:
			before := []byte("package ui\n\nfunc a() {}\n")
			evs = append(evs, agent.Event{Type: agent.EventToolCallStarted, ID: id, Name: "text_editor"},
				agent.Event{Type: agent.EventToolCallReady, ID: id, Name: "text_editor", Args: `{"command":"str_replace","path":"/proj/ui/chat.go"}`},
				agent.Event{Type: agent.EventToolRunStarted, ID: id, Name: "text_editor"},
				agent.Event{Type: agent.EventToolUpdate, ID: id, Data: tools.FileChanged{Path: "/proj/ui/chat.go", Before: before,
					After: []byte("package ui\n\nfunc a() { b() }\n\nfunc b() {}\n")}},
				agent.Event{Type: agent.EventToolRunEnded, ID: id, Name: "text_editor", Result: "ok", Duration: 30 * time.Millisecond})
		default:
			evs = append(evs, agent.Event{Type: agent.EventToolCallStarted, ID: id, Name: "grep"},
				agent.Event{Type: agent.EventToolCallReady, ID: id, Name: "grep", Args: `{"pattern":"TODO"}`},
				agent.Event{Type: agent.EventToolRunStarted, ID: id, Name: "grep"},
				agent.Event{Type: agent.EventToolRunEnded, ID: id, Name: "grep", Result: "ui/a.go\nui/b.go\nui/c.go", Duration: 8 * time.Millisecond})
		}
		items++
		evs = append(evs, agent.Event{Type: agent.EventTurnEnded})
	}
	return evs
}

// benchApp is an App on a simulation screen with a 1,000-item session.
func benchApp(b *testing.B, items int) (*App, tcell.SimulationScreen) {
	b.Helper()
	s := simScreen(b, benchW, benchH)
	a, err := New(Options{Agent: newScriptAgent(), Screen: s, Root: "/proj"})
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range sessionEvents(items) {
		a.task.router.Handle(e)
	}
	a.draw()
	return a, s
}

func BenchmarkSessionDraw(b *testing.B) {
	a, _ := benchApp(b, 1000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a.draw()
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/draw")
}

func BenchmarkSessionKeystroke(b *testing.B) {
	a, _ := benchApp(b, 1000)
	a.focusOn(panes.Chat)
	key := tcell.NewEventKey(tcell.KeyRune, 'x', tcell.ModNone)
	bs := tcell.NewEventKey(tcell.KeyBackspace2, 0, tcell.ModNone)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// A key as the loop handles it, then the frame that shows it.
		if i%50 == 49 {
			a.handleKey(bs)
		} else {
			a.handleKey(key)
		}
		a.draw()
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/key")
}

func BenchmarkSessionScroll(b *testing.B) {
	a, _ := benchApp(b, 1000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// Page through the whole session, up and back down.
		if (i/400)%2 == 0 {
			a.task.list.ScrollBy(-(benchH - 6))
		} else {
			a.task.list.ScrollBy(benchH - 6)
		}
		a.draw()
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/page")
}

// BenchmarkSessionWidthChange resizes the screen between two widths and
// draws; beside it, the same transcript in a tview.TextView re-laid out at
// the same widths.
func BenchmarkSessionWidthChange(b *testing.B) {
	a, s := benchApp(b, 1000)
	widths := []int{benchW, benchW - 37}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.SetSize(widths[i%2], benchH)
		a.draw()
	}
	b.StopTimer()
	ours := float64(b.Elapsed().Nanoseconds()) / float64(b.N)

	// Reference: tview.TextView with the same text (plain), same widths.
	var text strings.Builder
	for i := 0; i < a.task.list.Len(); i++ {
		text.WriteString(a.task.list.Item(i).CopyText())
		text.WriteString("\n\n")
	}
	tv := tview.NewTextView().SetWrap(true).SetWordWrap(true).SetDynamicColors(false)
	tv.SetText(text.String())
	tv.ScrollToEnd()
	const refRounds = 6
	start := time.Now()
	for i := 0; i < refRounds; i++ {
		w := widths[i%2] * 3 / 7
		tv.SetRect(0, 0, w, benchH)
		tv.Draw(s)
	}
	ref := float64(time.Since(start).Nanoseconds()) / refRounds
	b.ReportMetric(ours/1e3, "µs/resize")
	b.ReportMetric(ref/1e3, "textview-µs/resize")
	b.ReportMetric(ref/ours, "x-faster-than-textview")
}

// BenchmarkStreaming runs the real loop while a turn streams text at 2,000
// tokens/s (about 4 bytes a token, in chunks of 2 tokens) into a session of
// 1,000 items, and reports the frames drawn, their time, and the CPU used.
func BenchmarkStreaming(b *testing.B) {
	const tokensPerSecond = 2000
	const seconds = 2
	for i := 0; i < b.N; i++ {
		var mu sync.Mutex
		var frames []time.Duration
		stream := func(ctx context.Context, emit func(agent.Event)) {
			answer := strings.Repeat(answerText(4)+"\n\n", 40)
			words := strings.SplitAfter(answer, " ")
			tick := time.NewTicker(time.Second / (tokensPerSecond / 2))
			defer tick.Stop()
			end := time.Now().Add(seconds * time.Second)
			for w := 0; time.Now().Before(end); w += 2 {
				<-tick.C
				chunk := words[w%len(words)] + words[(w+1)%len(words)]
				emit(agent.Event{Type: agent.EventText, Text: chunk})
			}
		}
		s := tcell.NewSimulationScreen("UTF-8")
		ag := newScriptAgent(stream)
		a, err := New(Options{Agent: ag, Screen: s, Root: "/proj"})
		if err != nil {
			b.Fatal(err)
		}
		a.frameHook = func(d time.Duration) {
			mu.Lock()
			frames = append(frames, d)
			mu.Unlock()
		}
		for _, e := range sessionEvents(1000) {
			a.task.router.Handle(e)
		}
		done := make(chan error, 1)
		go func() { done <- a.Run(context.Background()) }()
		waitFrames(b, a)
		s.SetSize(benchW, benchH)
		_ = s.PostEvent(tcell.NewEventResize(benchW, benchH))
		cpu0 := cpuTime()
		start := time.Now()
		a.post(func() { a.task.submit("explain the bug") })
		for {
			time.Sleep(20 * time.Millisecond)
			var running bool
			ch := make(chan struct{})
			a.post(func() { running = a.task.turnRunning(); close(ch) })
			<-ch
			if !running {
				break
			}
		}
		wall := time.Since(start)
		cpu := cpuTime() - cpu0
		a.Stop()
		<-done
		mu.Lock()
		sort.Slice(frames, func(i, j int) bool { return frames[i] < frames[j] })
		var sum time.Duration
		for _, f := range frames {
			sum += f
		}
		n := len(frames)
		mu.Unlock()
		if n == 0 {
			b.Fatal("no frames drawn")
		}
		b.ReportMetric(float64(sum.Microseconds())/float64(n), "µs/frame-mean")
		b.ReportMetric(float64(frames[n*99/100].Microseconds()), "µs/frame-p99")
		b.ReportMetric(float64(n)/wall.Seconds(), "frames/s")
		b.ReportMetric(100*cpu.Seconds()/wall.Seconds(), "%cpu")
	}
}

func waitFrames(b *testing.B, a *App) {
	deadline := time.Now().Add(20 * time.Second)
	for a.frames.Load() == 0 {
		if time.Now().After(deadline) {
			b.Fatal("no first frame")
		}
		time.Sleep(time.Millisecond)
	}
}

// cpuTime is the process's user+system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// rssMB reads the resident set size from /proc (0 where there is none).
func rssMB() float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "VmRSS:") {
			f := strings.Fields(l)
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return 0
}

// BenchmarkIdle runs the app with nothing happening for 10 s and reports the
// CPU it used (it should be ~0: nothing ticks when nothing moves) and the
// frames it drew (0).
func BenchmarkIdle(b *testing.B) {
	s := tcell.NewSimulationScreen("UTF-8")
	a, err := New(Options{Agent: newScriptAgent(), Screen: s, Root: "/proj"})
	if err != nil {
		b.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- a.Run(context.Background()) }()
	waitFrames(b, a)
	time.Sleep(200 * time.Millisecond)
	runtime.GC()
	frames0 := a.frames.Load()
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		time.Sleep(10 * time.Second / time.Duration(b.N))
	}
	b.StopTimer()
	cpu := cpuTime() - cpu0
	a.Stop()
	<-done
	b.ReportMetric(float64(cpu.Microseconds())/1000, "cpu-ms/10s")
	b.ReportMetric(float64(a.frames.Load()-frames0), "frames/10s")
}

// BenchmarkMemory reports the resident memory of an idle app and of the
// same app after a 1,000-item session was scrolled through end to end (every
// item rendered and cached).
func BenchmarkMemory(b *testing.B) {
	for i := 0; i < b.N; i++ {
		runtime.GC()
		base := rssMB()
		s := simScreen(b, benchW, benchH)
		a, err := New(Options{Agent: newScriptAgent(), Screen: s, Root: "/proj"})
		if err != nil {
			b.Fatal(err)
		}
		a.draw()
		runtime.GC()
		idle := rssMB()
		for _, e := range sessionEvents(1000) {
			a.task.router.Handle(e)
		}
		a.draw()
		a.task.list.ScrollToTop()
		for !a.task.list.Following() {
			a.task.list.ScrollBy(benchH)
			a.draw()
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(idle, "MB-rss-idle")
		b.ReportMetric(rssMB(), "MB-rss-session")
		b.ReportMetric(rssMB()-base, "MB-rss-growth")
		b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "MB-heap-session")
		runtime.KeepAlive(a)
	}
}

// BenchmarkStreamFrame is one frame while an answer streams into a chat of
// 40 items, at the end-to-end benchmark's rate (880 tokens/s of 5 bytes at
// 30 frames/s: ~150 bytes of Markdown a frame): the text reaches the
// answer and the chat-only frame is drawn and shown on a 120×40 screen.
func BenchmarkStreamFrame(b *testing.B) {
	a, tty := ttyApp(b, 40)
	var text strings.Builder
	for i := 0; text.Len() < 1<<20; i++ {
		text.WriteString(answerText(i) + "\n\n")
	}
	streamFrames(b, a, tty, text.String())
}

// BenchmarkStreamCodeFrame is one frame while an answer streams a long
// code block (a 400-line Go file, as when the model shows a whole file),
// 150 bytes a frame, as BenchmarkStreamFrame: a frame's work must not grow
// with the lines of the block already shown.
func BenchmarkStreamCodeFrame(b *testing.B) {
	a, tty := ttyApp(b, 10)
	streamFrames(b, a, tty, "Here is the whole file:\n\n```go\n"+screentest.GoSource(400)+"```\n\nThat is all.")
}

// streamFrames is the loop of the stream benchmarks: each op, 150 more
// bytes of answer reach the chat and a chat-only frame is drawn and shown;
// the answer starts over in a new turn (not timed) when it is all shown.
func streamFrames(b *testing.B, a *App, tty *nullTty, answer string) {
	const perFrame = 150
	off := len(answer) // start a turn at the first op
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if off+perFrame > len(answer) {
			b.StopTimer()
			a.task.router.Handle(agent.Event{Type: agent.EventTurnEnded})
			a.task.router.Handle(agent.Event{Type: agent.EventTurnStarted, Text: "explain"})
			off = 0
			a.draw()
			b.StartTimer()
		}
		a.task.router.Handle(agent.Event{Type: agent.EventText, Text: answer[off : off+perFrame]})
		off += perFrame
		a.drawChanged()
	}
	if a.partialFrames.Load() == 0 {
		b.Fatal("no chat-only frame drawn")
	}
	b.ReportMetric(float64(tty.n.Load())/float64(b.N), "tty-bytes/op")
}

// ttyApp is an App on a real tScreen over a nullTty (xterm-256color, UTF-8,
// trimmed and guarded as display.Open makes it) holding a session of n
// chat items; the screen is closed when b ends.
func ttyApp(b *testing.B, n int) (*App, *nullTty) {
	b.Setenv("LC_ALL", "en_US.UTF-8")
	ti, err := tcell.LookupTerminfo("xterm-256color")
	if err != nil {
		b.Fatal(err)
	}
	tty := &nullTty{closed: make(chan struct{})}
	s, err := tcell.NewTerminfoScreenFromTtyTerminfo(tty, display.Lean(ti))
	if err != nil {
		b.Fatal(err)
	}
	s = display.Guard(s) // as display.Open makes it
	if err := s.Init(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(s.Fini)
	a, err := New(Options{Agent: newScriptAgent(), Screen: s, Root: "/proj"})
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range sessionEvents(n) {
		a.task.router.Handle(e)
	}
	return a, tty
}

// nullTty is a 120×40 terminal that counts what it is sent: the real
// tScreen draws on it as on a pty.
type nullTty struct {
	n      atomic.Int64
	closed chan struct{}
	once   sync.Once
}

func (t *nullTty) Start() error                { return nil }
func (t *nullTty) Stop() error                 { return nil }
func (t *nullTty) Drain() error                { return t.Close() }
func (t *nullTty) NotifyResize(func())         {}
func (t *nullTty) Read([]byte) (int, error)    { <-t.closed; return 0, io.EOF }
func (t *nullTty) Close() error                { t.once.Do(func() { close(t.closed) }); return nil }
func (t *nullTty) Write(p []byte) (int, error) { t.n.Add(int64(len(p))); return len(p), nil }
func (t *nullTty) WindowSize() (tcell.WindowSize, error) {
	return tcell.WindowSize{Width: benchW, Height: benchH}, nil
}
