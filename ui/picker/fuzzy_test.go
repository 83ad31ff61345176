package picker

import "testing"

// Best puts the closest matches first and a shorter path before a longer
// one that matches as well.
func TestBestRanksMatches(t *testing.T) {
	got := Best([]string{"ui/chat/view.go", "README.md", "ui/chat.go", "cmd/fawn/chat_test.go"}, "chat", 2)
	if len(got) != 2 || got[0] != "ui/chat.go" {
		t.Fatalf("Best = %v, want ui/chat.go first and two results", got)
	}
	if got := Best([]string{"a", "b"}, "zzz", 5); len(got) != 0 {
		t.Fatalf("Best with no match = %v", got)
	}
}
