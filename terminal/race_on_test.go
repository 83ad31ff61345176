//go:build race

package terminal

// raceEnabled: the race detector slows the read path about tenfold, so
// volume tests print less under it.
const raceEnabled = true
