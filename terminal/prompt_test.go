package terminal

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// OnPrompt is called once the screen shows each new prompt, primary and
// continued, so that the UI can draw it at once.
func TestOnPromptSeesThePrompt(t *testing.T) {
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, ".bashrc"), []byte("PS1='first> '\nPS2='more> '\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var (
		mu    sync.Mutex
		seen  []string
		termp atomic.Pointer[Terminal]
	)
	term := startTerm(t, Options{Env: []string{"HOME=" + home}, OnPrompt: func() {
		for termp.Load() == nil {
			runtime.Gosched() // Start has not returned yet
		}
		text := termp.Load().ScreenText()
		mu.Lock()
		seen = append(seen, text)
		mu.Unlock()
	}})
	termp.Store(term)
	saw := func(prompt string) func() bool {
		return func() bool {
			mu.Lock()
			defer mu.Unlock()
			for _, text := range seen {
				// The prompt is the last line shown, the cursor after it.
				lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
				if lines[len(lines)-1] == prompt {
					return true
				}
			}
			return false
		}
	}
	waitFor(t, "OnPrompt with the first prompt on the screen", saw("first>"))
	// Each next prompt a few frames later: one within a frame of the one
	// before is drawn at the frame's pace (TestPromptsInABurstArePaced).
	waitIdle(t, term)
	time.Sleep(3 * frameInterval)
	term.Write([]byte("PS1='second> '\r"))
	waitFor(t, "OnPrompt with the next prompt on the screen", saw("second>"))
	waitIdle(t, term)
	time.Sleep(3 * frameInterval)
	term.Write([]byte("echo 'open\r"))
	waitFor(t, "OnPrompt with the continued prompt on the screen", saw("more>"))
}

// Prompts that come faster than a frame apart (Enter held down, a pasted
// here-document's continuation lines) are not each drawn at once: at most
// one a frame is passed on by OnPrompt, the rest by OnDamage, at the pace
// of other output.
func TestPromptsInABurstArePaced(t *testing.T) {
	var (
		mu      sync.Mutex
		prompts []time.Time
		damaged atomic.Int64
	)
	term := startTerm(t, Options{
		OnPrompt: func() {
			mu.Lock()
			prompts = append(prompts, time.Now())
			mu.Unlock()
		},
		OnDamage: func() { damaged.Add(1) },
	})
	waitIdle(t, term)
	time.Sleep(3 * frameInterval)
	mu.Lock()
	before := len(prompts)
	mu.Unlock()
	damagedBefore := damaged.Load()
	const enters = 100
	for i := range enters {
		term.Write([]byte(fmt.Sprintf("# %d\r", i)))
		time.Sleep(time.Millisecond)
	}
	waitScreen(t, term, fmt.Sprintf("# %d", enters-1))
	waitIdle(t, term)
	mu.Lock()
	defer mu.Unlock()
	burst := prompts[before:]
	if len(burst) == 0 {
		t.Fatal("no prompt of the burst was passed on at once")
	}
	// At most one a frame over the time they took, and the first.
	limit := int(burst[len(burst)-1].Sub(burst[0])/frameInterval) + 2
	if len(burst) > limit {
		t.Errorf("%d prompts passed on at once over %v; at most %d (one a frame)", len(burst), burst[len(burst)-1].Sub(burst[0]), limit)
	}
	if damaged.Load() == damagedBefore {
		t.Error("the burst's other prompts were not passed on as damage")
	}
}
