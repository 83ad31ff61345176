// Package words writes the small English phrases fawn's messages are made
// of, the same way wherever they are written — in what the agent tells the
// model and the user, and on the screen: a count with its noun ("1 file",
// "2 files") and a text cut to a length with its cut marked.
//
// Imports nothing of fawn. Imported by: agent, agent/provider, ui/render.
package words

import (
	"fmt"
	"strings"
)

// Plural counts n of a thing: "1 line", "2 lines".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Clip trims s and cuts it to n runes, marking the cut with "…".
func Clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
