package chat

import (
	"strings"
	"testing"
)

func TestMentionsIn(t *testing.T) {
	for text, want := range map[string]string{
		"look at @main.go and @pkg/, please": "main.go|pkg/",
		"mail me@example.com":                "",
		`see @"my notes.md" (and @a.go).`:    "my notes.md|a.go",
		"@x":                                 "x",
		"no mentions":                        "",
	} {
		var got []string
		for _, m := range MentionsIn(text) {
			got = append(got, m.Path)
		}
		if strings.Join(got, "|") != want {
			t.Errorf("%q: %q, want %q", text, got, want)
		}
	}
	if start, q, ok := mentionToken("fix @ui/cha", 11); !ok || start != 4 || q != "ui/cha" {
		t.Errorf("mentionToken = %d %q %v", start, q, ok)
	}
}
