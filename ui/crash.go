package ui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"time"
)

var (
	errRunning = errors.New("ui: Run called twice")
	errCrashed = errors.New("ui: fawn crashed; see the crash log named on stderr")
)

func errScreen(err error) error {
	return fmt.Errorf("ui: cannot open the terminal (%v); run fawn in a terminal, or use -p for headless mode", err)
}

// Go runs f on a new goroutine that recovers a panic the way Run does:
// terminal restored, crash log written, its path printed, exit status 1.
func (a *App) Go(f func()) {
	go func() {
		defer a.Recover()
		f()
	}()
}

// Recover, deferred at the top of a goroutine, turns a panic into a clean
// crash: `defer app.Recover()`.
func (a *App) Recover() {
	if p := recover(); p != nil {
		a.crash(p)
	}
}

// crash restores the terminal, writes the crash log and exits. It runs once;
// a second panicking goroutine waits for the first to finish exiting.
func (a *App) crash(p any) {
	stack := debug.Stack()
	first := false
	a.crashOnce.Do(func() {
		first = true
		func() {
			// Unsaved buffers first: a crash loses no typing. A failure
			// here must not stop the crash report.
			defer func() { _ = recover() }()
			a.keepUnsaved(true)
		}()
		if a.screen != nil {
			a.screen.Fini()
		}
		path, err := a.writeCrashLog(p, stack)
		if err != nil {
			fmt.Fprintf(a.opts.Stderr, "fawn crashed: %v\n(the crash log could not be written: %v)\n%s\n", p, err, stack)
		} else {
			fmt.Fprintf(a.opts.Stderr, "fawn crashed: %v\nThe crash log is %s — please attach it to a bug report.\n", p, path)
		}
		a.opts.Exit(1)
	})
	if !first {
		return
	}
	a.Stop()
}

// writeCrashLog writes what is known about the panic under DataDir (or the
// temp directory when DataDir is not set) and returns the file's path.
func (a *App) writeCrashLog(p any, stack []byte) (string, error) {
	dir := a.cfg.DataDir
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "fawn")
	}
	dir = filepath.Join(dir, "crash")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	now := time.Now()
	name := fmt.Sprintf("crash-%s-%d.log", now.Format("20060102-150405"), os.Getpid())
	path := filepath.Join(dir, name)
	all := make([]byte, 1<<20)
	all = all[:runtime.Stack(all, true)]
	text := fmt.Sprintf("fawn crash at %s\npanic: %v\n\n%s\n\nall goroutines:\n%s\n",
		now.Format(time.RFC3339), p, stack, all)
	if bi, ok := debug.ReadBuildInfo(); ok {
		text += "\nbuild:\n" + bi.String()
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		return "", err
	}
	return path, nil
}
