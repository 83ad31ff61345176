package ui

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/config"
)

// syncBuffer is a bytes.Buffer safe for the crashing goroutine and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// crashOpts returns options whose Exit records the code instead of exiting.
func crashOpts(t *testing.T) (Options, *syncBuffer, chan int) {
	stderr := &syncBuffer{}
	codes := make(chan int, 4)
	return Options{Agent: newScriptAgent(), Config: &config.Config{DataDir: t.TempDir()}, Stderr: stderr,
		Exit: func(code int) { codes <- code }}, stderr, codes
}

func checkCrashLog(t *testing.T, stderr string, panicText string) {
	t.Helper()
	m := regexp.MustCompile(`The crash log is (\S+)`).FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("stderr does not name the crash log: %q", stderr)
	}
	log, err := os.ReadFile(m[1])
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"panic: " + panicText, "goroutine", "crash_test.go"} {
		if !strings.Contains(string(log), want) {
			t.Errorf("the crash log lacks %q", want)
		}
	}
}

func TestPanicInAGoroutineRestoresAndLogs(t *testing.T) {
	opts, stderr, codes := crashOpts(t)
	r := startApp(t, opts, 100, 30)
	r.app.Go(func() { panic("boom in a worker") })
	select {
	case code := <-codes:
		if code != 1 {
			t.Errorf("exit code %d, want 1", code)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the panic did not end fawn")
	}
	checkCrashLog(t, stderr.String(), "boom in a worker")
	select {
	case <-r.done:
		r.done <- nil
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not return after the crash")
	}
}

func TestPanicOnTheUIGoroutineRestoresAndLogs(t *testing.T) {
	opts, stderr, codes := crashOpts(t)
	r := startApp(t, opts, 100, 30)
	r.app.post(func() { panic("boom on the UI goroutine") })
	select {
	case err := <-r.done:
		if err == nil {
			t.Error("Run returned nil after a panic")
		}
		r.done <- nil
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not return after the panic")
	}
	if code := <-codes; code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	checkCrashLog(t, stderr.String(), "boom on the UI goroutine")
}

func TestKeyOverrides(t *testing.T) {
	cfg := &config.Config{DataDir: t.TempDir()}
	cfg.UI.Keys = map[string][]string{
		"app.quit":     {"ctrl+x"},
		"bogus.action": {"x"},
		"pane.zoom":    {"hyper+z"},
	}
	r := startApp(t, Options{Agent: newScriptAgent(), Config: cfg}, 120, 30)
	r.waitScreen("unknown action bogus.action")
	r.waitScreen("ui.keys.pane.zoom")
	r.onUI(func() {
		if help := linesText(r.app.help.Lines(100)); !strings.Contains(help, "Ctrl-X") || strings.Contains(help, "Ctrl-Q  ") {
			t.Errorf("the help does not show the override:\n%s", help)
		}
	})
	r.screen.InjectKey(tcell.KeyCtrlQ, 0, tcell.ModCtrl)
	r.sync()
	select {
	case <-r.done:
		t.Fatal("the old quit key still quits")
	default:
	}
	r.screen.InjectKey(tcell.KeyCtrlX, 0, tcell.ModCtrl)
	select {
	case <-r.done:
		r.done <- nil
	case <-time.After(20 * time.Second):
		t.Fatal("the new quit key does not quit")
	}
}

func TestIdleDrawsNothingAndRequestsCoalesce(t *testing.T) {
	r := startApp(t, Options{Agent: newScriptAgent()}, 100, 30)
	r.sync()
	before := r.app.frames.Load()
	time.Sleep(300 * time.Millisecond)
	if n := r.app.frames.Load() - before; n != 0 {
		t.Errorf("%d frames drawn while nothing happened", n)
	}
	start := time.Now()
	before = r.app.frames.Load()
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 500; i++ {
				r.app.RequestDraw()
			}
		}()
	}
	wg.Wait()
	r.sync()
	elapsed := time.Since(start)
	n := r.app.frames.Load() - before
	if limit := uint64(elapsed/frameInterval) + 3; n > limit {
		t.Errorf("2000 requests over %v drew %d frames; at most %d (one per frame)", elapsed, n, limit)
	}
	if n == 0 {
		t.Error("the requests drew nothing")
	}
}
