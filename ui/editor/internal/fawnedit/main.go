// Command fawnedit runs fawn's editor pane on its own, full screen, for
// trying the editor by hand and for the benchmarks that compare it with
// other editors in a terminal.
//
//	fawnedit [+LINE] FILE...
//
// Ctrl-Q quits (it refuses while files have unsaved changes; Ctrl-Q twice
// quits anyway).
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/ui/display"
	"github.com/fawn-ide/fawn/ui/editor"
	"github.com/fawn-ide/fawn/ui/theme"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "fawnedit:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	line := 0
	var files []string
	for _, a := range args {
		if n, ok := strings.CutPrefix(a, "+"); ok {
			v, err := strconv.Atoi(n)
			if err != nil {
				return fmt.Errorf("%q is not a line number (+LINE)", a)
			}
			line = v
			continue
		}
		files = append(files, a)
	}
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	app := tview.NewApplication()
	// Background work asks for a frame; at most one request waits at a time.
	var pending atomic.Bool
	redraw := func() {
		if pending.CompareAndSwap(false, true) {
			go app.QueueUpdateDraw(func() { pending.Store(false) })
		}
	}
	tabs := editor.New(root, theme.Get("dark"), nil, editor.WithRedraw(redraw))
	defer tabs.Close()
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			return err
		}
		if err := tabs.Open(abs, line); err != nil {
			return err
		}
	}
	quitAsked := false
	app.SetInputCapture(func(ev *tcell.EventKey) *tcell.EventKey {
		switch ev.Key() {
		case tcell.KeyCtrlQ:
			if unsaved := tabs.Unsaved(); len(unsaved) > 0 && !quitAsked {
				quitAsked = true
				tabs.Flash("unsaved changes in "+strings.Join(unsaved, ", ")+"; Ctrl-Q again quits without saving", true)
				return nil
			}
			app.Stop()
			return nil
		case tcell.KeyCtrlC:
			// tview quits on Ctrl-C unless it gets another event object.
			return tcell.NewEventKey(ev.Key(), ev.Rune(), ev.Modifiers())
		}
		quitAsked = false
		return ev
	})
	screen, err := display.Open()
	if err != nil {
		return err
	}
	return app.SetScreen(screen).SetRoot(tabs, true).EnableMouse(true).EnablePaste(true).Run()
}
