//go:build !race

package terminal

const raceEnabled = false
