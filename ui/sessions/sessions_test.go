package sessions

import (
	"testing"
	"time"

	"github.com/fawn-ide/fawn/session"
)

// A session's title and model come from a file (and, first, from a
// prompt or a server): their control characters show, on one line.
func TestItemsShowControlCharacters(t *testing.T) {
	now := time.Now()
	items := Items([]session.Info{{ID: "0123456789", Title: "fix\n the \x1b]52;c;eA==\a\u202ebug", Model: "m\u009b2J", Updated: now}}, "", now)
	if got, want := items[0].Label, "fix the ␛]52;c;eA==␇<U+202E>bug"; got != want {
		t.Errorf("label %q, want %q", got, want)
	}
	if got, want := items[0].Detail, "just now · 0 messages · m<U+009B>2J · 01234567"; got != want {
		t.Errorf("detail %q, want %q", got, want)
	}
}
