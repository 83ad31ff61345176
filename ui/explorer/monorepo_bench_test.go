package explorer

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/internal/monorepo"
	"github.com/fawn-ide/fawn/ui/theme"
)

// pump runs posted work until cond holds.
func pump(b *testing.B, queue chan func(), what string, cond func() bool) {
	b.Helper()
	deadline := time.After(60 * time.Second)
	for !cond() {
		select {
		case fn := <-queue:
			fn()
		case <-deadline:
			b.Fatalf("timed out waiting for %s", what)
		}
	}
}

// BenchmarkMonorepoExplorer opens the fixture's flat directory (a tenth of
// its files: 20,000 entries) in the explorer, from the key to the frame
// that shows it, and scrolls it a row per frame, beside `ls` listing the
// same directory in the same run (goals: open ≤ 50 ms, a frame ≤ 16 ms).
func BenchmarkMonorepoExplorer(b *testing.B) {
	tr := monorepo.BenchTrees()[0]
	if tr.Why != "" {
		fmt.Printf("%s skipped: %s\n", b.Name(), tr.Why)
		b.Skip(tr.Why)
	}
	scr := tcell.NewSimulationScreen("UTF-8")
	scr.Init()
	defer scr.Fini()
	scr.SetSize(40, 50)
	wide := filepath.FromSlash(tr.Stats.Wide)
	var open, frames, ls time.Duration
	nframes := 0
	for range b.N {
		queue := make(chan func(), 1024)
		ex := New(tr.Root, theme.Get("dark"), nil, func(fn func()) { queue <- fn })
		ex.SetRect(0, 0, 40, 50)
		pump(b, queue, "the root", func() bool { return ex.tree.loaded })
		// Down to the wide directory's parent, then open it.
		parts := strings.Split(filepath.ToSlash(wide), "/")
		n := ex.tree
		for i, part := range parts {
			var next *node
			for _, c := range n.children {
				if c.name == part {
					next = c
				}
			}
			if next == nil {
				b.Fatalf("no %s in the explorer", part)
			}
			n = next
			if i == len(parts)-1 {
				break
			}
			ex.toggle(n, true)
			pump(b, queue, n.rel, func() bool { return n.loaded })
		}
		ex.selectRel(n.rel)
		t0 := time.Now()
		ex.HandleKey(tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone))
		pump(b, queue, "the wide directory", func() bool { return n.loaded })
		ex.Draw(scr)
		scr.Show()
		open += time.Since(t0)
		if len(n.children) < tr.Stats.WideFiles {
			b.Fatalf("%d entries shown of %d", len(n.children), tr.Stats.WideFiles)
		}
		t0 = time.Now()
		for range 200 {
			ex.HandleKey(tcell.NewEventKey(tcell.KeyDown, 0, tcell.ModNone))
			ex.Draw(scr)
			scr.Show()
		}
		ex.HandleKey(tcell.NewEventKey(tcell.KeyEnd, 0, tcell.ModNone))
		ex.Draw(scr)
		scr.Show()
		frames += time.Since(t0)
		nframes += 201
		ex.Close()

		cmd := exec.Command("ls", "-a", filepath.Join(tr.Root, wide))
		t0 = time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		ls += time.Since(t0)
	}
	n := float64(b.N)
	b.ReportMetric(float64(open.Microseconds())/1000/n, "open-ms")
	b.ReportMetric(float64(ls.Microseconds())/1000/n, "ls-ms")
	b.ReportMetric(float64(open)/float64(ls), "open/ls")
	b.ReportMetric(float64(frames.Microseconds())/1000/float64(nframes), "frame-ms")
}
