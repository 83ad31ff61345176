package ui

import (
	"context"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/agent"
)

// endlessStream is a turn that streams an answer at about 1,000 tokens/s
// until it is cancelled.
func endlessStream(ctx context.Context, emit func(agent.Event)) {
	words := strings.SplitAfter(strings.Repeat(answerText(3)+"\n\n", 20), " ")
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	for w := 0; ; w += 2 {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		emit(agent.Event{Type: agent.EventText, Text: words[w%len(words)] + words[(w+1)%len(words)]})
	}
}

// tasksApp runs an App on a simulation screen with the project's task and
// n more, each holding a 300-item session; running starts a turn that
// streams without end in each of the n.
func tasksApp(b *testing.B, n int, running bool) (*App, tcell.SimulationScreen, func()) {
	b.Helper()
	s := tcell.NewSimulationScreen("UTF-8")
	a, err := New(Options{Agent: newScriptAgent(), Screen: s, Root: "/proj"})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < n; i++ {
		ag := newScriptAgent()
		if running {
			ag = newScriptAgent(endlessStream)
		}
		t := a.newTask(TaskOptions{Name: "t" + string(rune('1'+i)), Agent: ag, Root: "/proj"})
		for _, e := range sessionEvents(300) {
			t.router.Handle(e)
		}
	}
	done := make(chan error, 1)
	go func() { done <- a.Run(context.Background()) }()
	waitFrames(b, a)
	s.SetSize(benchW, benchH)
	_ = s.PostEvent(tcell.NewEventResize(benchW, benchH))
	if running {
		a.post(func() {
			for _, t := range a.tasks[1:] {
				t.submit("go on")
			}
		})
	}
	return a, s, func() {
		a.Stop()
		<-done
	}
}

// BenchmarkTaskSwitch measures, with three tasks streaming answers at
// once, the time from an Alt-. to the end of the frame that shows the
// next task: p50 and p99 over 60 switches per run.
func BenchmarkTaskSwitch(b *testing.B) {
	for i := 0; i < b.N; i++ {
		a, s, stop := tasksApp(b, 3, true)
		shown := make(chan *Task, 1)
		a.frameHook = func(time.Duration) {
			select {
			case shown <- a.task: // the UI goroutine: a.task is its own
			default:
			}
		}
		time.Sleep(500 * time.Millisecond) // all three streaming
		var lat []time.Duration
		for k := 0; k < 60; k++ {
			var want *Task
			ch := make(chan struct{})
			a.post(func() {
				i := (indexOf(a.tasks, a.task) + 1) % len(a.tasks)
				want = a.tasks[i]
				close(ch)
			})
			<-ch
			// Frames drawn before the key are not the one.
			for len(shown) > 0 {
				<-shown
			}
			start := time.Now()
			s.InjectKey(tcell.KeyRune, '.', tcell.ModAlt)
			deadline := time.After(10 * time.Second)
		wait:
			for {
				select {
				case t := <-shown:
					if t == want {
						lat = append(lat, time.Since(start))
						break wait
					}
				case <-deadline:
					b.Fatal("no frame showed the next task")
				}
			}
			time.Sleep(30 * time.Millisecond)
		}
		stop()
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "ms/switch-p50")
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "ms/switch-p99")
	}
}

func indexOf(ts []*Task, t *Task) int {
	for i, x := range ts {
		if x == t {
			return i
		}
	}
	return -1
}

// BenchmarkIdleTasks is BenchmarkIdle with three tasks open beside the
// project's, none working: the CPU of 10 s (it should be 0: nothing ticks
// in a task that is not working, shown or not) and the frames drawn (0).
func BenchmarkIdleTasks(b *testing.B) {
	a, _, stop := tasksApp(b, 3, false)
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
	frames := a.frames.Load() - frames0
	stop()
	b.ReportMetric(float64(cpu.Microseconds())/1000, "cpu-ms/10s")
	b.ReportMetric(float64(frames), "frames/10s")
}
