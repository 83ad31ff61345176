package termview

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/terminal"
	"github.com/fawn-ide/fawn/ui/theme"
)

// TestInsideAnApplication runs the view as an application's root, wired
// the way fawn wires it: OnDamage schedules a draw without blocking, and
// the input capture hands Ctrl-C to the focused primitive and swallows it,
// so tview does not stop.
func TestInsideAnApplication(t *testing.T) {
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, ".bashrc"), []byte("PS1='$ '\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	redraw := make(chan struct{}, 1)
	term, err := terminal.Start(terminal.Options{
		Dir: t.TempDir(), Env: []string{"HOME=" + home},
		OnDamage: func() {
			select {
			case redraw <- struct{}{}:
			default:
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer term.Close()

	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	scr.SetSize(80, 20)
	app := tview.NewApplication().SetScreen(scr)
	view := New(term, theme.Get("dark"), nil)
	app.SetRoot(view, true).SetFocus(view)
	app.SetInputCapture(func(ev *tcell.EventKey) *tcell.EventKey {
		if ev.Key() == tcell.KeyCtrlC {
			if p := app.GetFocus(); p != nil {
				if h := p.InputHandler(); h != nil {
					h(ev, func(p tview.Primitive) { app.SetFocus(p) })
				}
			}
			return nil
		}
		return ev
	})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		if err := app.Run(); err != nil {
			t.Error(err)
		}
	}()
	stopDraws := make(chan struct{})
	drawsDone := make(chan struct{})
	go func() {
		defer close(drawsDone)
		for {
			select {
			case <-stopDraws:
				return
			case <-redraw:
				app.QueueUpdateDraw(func() {})
			}
		}
	}()
	defer func() {
		close(stopDraws)
		<-drawsDone
		app.Stop()
		<-stopped
	}()

	// The simulation screen's cells belong to the UI goroutine: read them
	// there. Rows are given without the border.
	screenText := func() string {
		var sb strings.Builder
		app.QueueUpdate(func() {
			cells, w, h := scr.GetContents()
			for y := 1; y < h-1; y++ {
				var row strings.Builder
				for x := 1; x < w-1; x++ {
					if r := cells[y*w+x].Runes; len(r) > 0 {
						row.WriteRune(r[0])
					} else {
						row.WriteByte(' ')
					}
				}
				sb.WriteString(strings.TrimRight(row.String(), " "))
				sb.WriteByte('\n')
			}
		})
		return sb.String()
	}
	waitScreen := func(s string) {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for !strings.Contains(screenText(), s) {
			if time.Now().After(deadline) {
				t.Fatalf("screen never showed %q:\n%s", s, screenText())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	typeText := func(s string) {
		for _, r := range s {
			if r == '\n' {
				scr.InjectKey(tcell.KeyEnter, 0, tcell.ModNone)
			} else {
				scr.InjectKey(tcell.KeyRune, r, tcell.ModNone)
			}
		}
	}

	waitScreen("$")
	typeText("echo ready; read -r line\n") // a builtin: no fork to race with Ctrl-C
	// Its output on a line of its own, not the "ready" of the typed line:
	// a Ctrl-C before bash has read the Enter flushes it with the line.
	waitScreen("read -r line\nready\n")
	scr.InjectKey(tcell.KeyCtrlC, 'c', tcell.ModCtrl)
	waitScreen("^C")
	waitScreen("^C\n$\n")
	typeText("echo app-still-runs\n")
	waitScreen("app-still-runs\n")
	select {
	case <-stopped:
		t.Fatal("Ctrl-C stopped the application")
	default:
	}
}
