package agent

import (
	"context"
	"errors"
	"path/filepath"
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
}

// What mentions attach goes after the message, a file once however often
// it is named, a failed mention left out, and Typed keeps what was typed.
func TestWithMentions(t *testing.T) {
	root := t.TempDir()
	attach := func(_ context.Context, p string) (Attachment, error) {
		switch p {
		case "a.go":
			return Attachment{Path: filepath.Join(root, "a.go"), Text: "1\tpackage a\n"}, nil
		case "pkg/":
			return Attachment{Path: filepath.Join(root, "pkg"), Dir: true, Text: "x.go\n"}, nil
		}
		return Attachment{}, errors.New(p + ": no such file or directory")
	}
	text := "see @a.go, @pkg/ and @a.go; ask @alice"
	res := ResolveMentions(context.Background(), attach, MentionsIn(text))
	in := Input{Text: text}.WithMentions(root, res)
	if in.Typed != text || len(in.Attached) != 2 {
		t.Fatalf("typed %q, attached %+v", in.Typed, in.Attached)
	}
	if strings.Count(in.Text, `<attached path="a.go">`) != 1 || !strings.Contains(in.Text, `<attached path="pkg/" kind="directory listing">`) {
		t.Errorf("text:\n%s", in.Text)
	}
	if res[3].Err == nil || LooksLikePath(res[3].Path) || !LooksLikePath(res[0].Path) {
		t.Errorf("@alice: %+v", res[3])
	}
	if none := (Input{Text: "plain"}).WithMentions(root, nil); none.Typed != "" || none.Text != "plain" {
		t.Errorf("no mentions: %+v", none)
	}
}
