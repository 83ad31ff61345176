package ui

import (
	"runtime"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// When a turn ends and fawn waits for the user, the memory the turn no
// longer needs goes back to the system (a forced collection with
// FreeOSMemory), so a long session's resident size follows what it keeps.
func TestTurnEndGivesMemoryBack(t *testing.T) {
	r := startApp(t, Options{Agent: newScriptAgent()}, 100, 30)
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	r.typeText("hello")
	r.key(tcell.KeyEnter, 0, tcell.ModNone)
	waitFor(t, "a collection after the turn", func() bool {
		var now runtime.MemStats
		runtime.ReadMemStats(&now)
		return now.NumForcedGC > before.NumForcedGC && !r.app.releasing.Load()
	})
}
