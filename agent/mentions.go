package agent

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"unicode"
)

// Mention is one "@path" in what the user typed: "@path" attaches that
// file as the text_editor's view shows it, "@dir/" a listing of the
// directory, "@shot.png" the image; a path with spaces is written
// @"my file.txt". The chat and headless mode read mentions the same way.
type Mention struct {
	Path string
}

// MentionsIn finds the @-mentions of text: an "@" at the start or after a
// space, then a path up to the next space, or a quoted path. Trailing
// punctuation that ends a sentence is not part of the path.
func MentionsIn(text string) []Mention {
	var out []Mention
	for i := 0; i < len(text); i++ {
		if text[i] != '@' || (i > 0 && !unicode.IsSpace(rune(text[i-1])) && text[i-1] != '(') {
			continue
		}
		j := i + 1
		var path string
		if j < len(text) && text[j] == '"' {
			k := strings.IndexByte(text[j+1:], '"')
			if k < 0 {
				continue
			}
			path = text[j+1 : j+1+k]
			j = j + 1 + k + 1
		} else {
			for j < len(text) && !unicode.IsSpace(rune(text[j])) {
				j++
			}
			path = strings.TrimRight(text[i+1:j], ".,;:!?)'\"")
			j = i + 1 + len(path)
		}
		if path != "" {
			out = append(out, Mention{Path: path})
		}
		i = j - 1
	}
	return out
}

// LooksLikePath tells a failed mention that was meant as a file ("@src/x.go")
// from an @ that was not ("@alice"): only the first is worth a word.
func LooksLikePath(p string) bool {
	return strings.ContainsAny(p, "/.~")
}

// Mentioned is one mention resolved: what it attached, or why it could not.
type Mentioned struct {
	Mention
	Att Attachment
	Err error
}

// ResolveMentions reads what each mention names with attach (a session's
// or a hosted agent's Attach). It reads files: call it off the UI
// goroutine.
func ResolveMentions(ctx context.Context, attach func(context.Context, string) (Attachment, error), ms []Mention) []Mentioned {
	out := make([]Mentioned, 0, len(ms))
	for _, m := range ms {
		att, err := attach(ctx, m.Path)
		out = append(out, Mentioned{Mention: m, Att: att, Err: err})
	}
	return out
}

// WithMentions returns in with what res attached: each file's or
// directory's text in a block after the message, images beside it, and
// all of them in Attached; a path mentioned twice is attached once and a
// mention that failed is left out. Typed keeps what the user typed.
func (in Input) WithMentions(root string, res []Mentioned) Input {
	var blocks []string
	seen := map[string]bool{}
	for _, r := range res {
		if r.Err != nil || seen[r.Att.Path] {
			continue
		}
		seen[r.Att.Path] = true
		in.Attached = append(in.Attached, r.Att)
		rel := relPath(root, r.Att.Path)
		switch {
		case r.Att.Image != nil:
			in.Images = append(in.Images, *r.Att.Image)
		case r.Att.Dir:
			blocks = append(blocks, fmt.Sprintf("<attached path=%q kind=\"directory listing\">\n%s\n</attached>", rel+"/", strings.TrimRight(r.Att.Text, "\n")))
		default:
			blocks = append(blocks, fmt.Sprintf("<attached path=%q>\n%s\n</attached>", rel, strings.TrimRight(r.Att.Text, "\n")))
		}
	}
	if len(blocks) > 0 {
		if in.Typed == "" {
			in.Typed = in.Text
		}
		in.Text += "\n\n(The user attached these with @-mentions; they are shown as text_editor view shows files.)\n" + strings.Join(blocks, "\n")
	}
	return in
}

// relPath is p relative to root when it is inside it, else p.
func relPath(root, p string) string {
	if root == "" || !filepath.IsAbs(p) {
		return p
	}
	if r, err := filepath.Rel(root, p); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return r
	}
	return p
}
