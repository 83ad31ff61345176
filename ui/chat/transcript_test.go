package chat

import (
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/session"
)

// TestTranscriptShowsWhatTheUserTyped: a resumed chat shows the user's
// message as typed, with the attached files as chips, not the hook's
// context and the files' text the model got.
func TestTranscriptShowsWhatTheUserTyped(t *testing.T) {
	full := "explain @main.go\n\n(The user attached these with @-mentions.)\n<attached path=\"main.go\">\n1\tpackage main\n</attached>\n\n[fawn: the user's hooks add this context]\nHOOK-CONTEXT"
	l := &session.Log{Transcript: []session.Entry{
		{Message: &session.Message{Role: "user", Content: full, Typed: "explain @main.go"}},
		{Message: &session.Message{Role: "assistant", Content: "It is a main package."}},
		{Message: &session.Message{Role: "user", Content: "plain"}},
	}}
	items := Transcript(NewRegistry(), l, nil)
	var users []*User
	for _, it := range items {
		if u, ok := it.(*User); ok {
			users = append(users, u)
		}
	}
	if len(users) != 2 || users[0].Text != "explain @main.go" || users[1].Text != "plain" {
		t.Fatalf("user items: %+v", users)
	}
	if len(users[0].Chips) != 1 || users[0].Chips[0].Text != "main.go · attached" || strings.Contains(users[0].Text, "HOOK") {
		t.Errorf("chips %+v", users[0].Chips)
	}
}
