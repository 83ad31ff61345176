// Package sessions owns the /resume picker: the project's saved sessions as
// a fuzzy list, newest first — each with its title (its first prompt), how
// long ago it was used, how many messages it has and its model — the one in
// use marked. It gives a ui/picker its items (Items), and Age says how
// long ago for the Changes tab and /rewind too; the app opens the picker
// and resumes the session picked. It gives the chat's prompt history
// search (Ctrl-R) its items too — what the user sent in every session
// (HistoryItems) — and runs that search (SearchPrompts) against a narrow
// SearchHost.
//
// It imports session, ui/picker and internal/safetext, never ui; ui,
// ui/changes, ui/commands and ui/panes import it.
package sessions

import (
	"fmt"
	"strings"
	"time"

	"github.com/fawn-ide/fawn/internal/safetext"
	"github.com/fawn-ide/fawn/session"
	"github.com/fawn-ide/fawn/ui/picker"
)

// Items are the picker's choices for infos (newest first), current marked.
// Each item's Value is its session.Info.
func Items(infos []session.Info, current string, now time.Time) []picker.Item {
	items := make([]picker.Item, 0, len(infos))
	for _, in := range infos {
		title := clean(in.Title)
		if title == "" {
			title = "(no prompt yet)"
		}
		detail := fmt.Sprintf("%s · %s", Age(in.Updated, now), count(in.Messages, "message", "messages"))
		if in.Model != "" {
			detail += " · " + clean(in.Model)
		}
		detail += " · " + in.ID[:min(8, len(in.ID))]
		items = append(items, picker.Item{Label: title, Detail: detail, Current: in.ID == current, Value: in})
	}
	return items
}

// Age says how long ago t was: "just now", "5m ago", "3h ago", "2d ago",
// then the date.
func Age(t, now time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	case d < 14*24*time.Hour:
		return fmt.Sprintf("%dd ago", int(d.Hours()/24))
	}
	return t.Local().Format("2 Jan 2006")
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// clean makes text from a session file safe to draw: one line, runs of
// white space as one space, control characters shown (safetext), not too
// long.
func clean(s string) string {
	s = safetext.Line(strings.Join(strings.Fields(s), " "))
	if r := []rune(s); len(r) > 100 {
		s = string(r[:99]) + "…"
	}
	return s
}
