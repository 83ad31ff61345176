package chat

// @-mentions: "@path" in a message attaches that file as the agent's view
// would show it (and opens it in a tab), "@dir/" a listing of the directory,
// "@shot.png" the image. Typing "@" offers the project's files, fuzzy
// matched; a path with spaces is written @"my file.txt". A pasted path of an
// image file (what a terminal's drag and drop types) becomes a mention.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/trust"
)

// Mention is one "@path" in a message.
type Mention struct {
	start, end int // byte range of the whole token, "@" included
	Path       string
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
			out = append(out, Mention{start: i, end: j, Path: path})
		}
		i = j - 1
	}
	return out
}

// mentionToken returns the @-token that ends at the cursor (at offset end
// of text): where its "@" is and the query after it.
func mentionToken(text string, end int) (start int, query string, ok bool) {
	if end > len(text) {
		end = len(text)
	}
	i := end
	for i > 0 && !unicode.IsSpace(rune(text[i-1])) {
		i--
	}
	tok := text[i:end]
	if !strings.HasPrefix(tok, "@") || strings.HasPrefix(tok, "@\"") {
		return 0, "", false
	}
	return i, tok[1:], true
}

// Chip is what a user message shows of one attachment.
type Chip struct {
	Text string
	Err  bool
}

// LooksLikePath tells a failed mention that was meant as a file ("@src/x.go")
// from an @ that was not ("@alice").
func LooksLikePath(p string) bool {
	return strings.ContainsAny(p, "/.~")
}

func ViewedRange(v *tools.FileViewed) string {
	switch {
	case v == nil:
		return "attached"
	case v.End == -1 && v.Start <= 1:
		return "whole file"
	case v.End == -1:
		return fmt.Sprintf("lines %d–end", v.Start)
	}
	return fmt.Sprintf("lines %d–%d", v.Start, v.End)
}

// PastedImagePath recognises a paste that is the path of one image file —
// what dropping a file on a terminal types — and returns it.
func PastedImagePath(text, root string) (string, bool) {
	p := strings.TrimSpace(text)
	if p == "" || strings.ContainsAny(p, "\n\r") {
		return "", false
	}
	p = strings.TrimPrefix(p, "file://")
	if len(p) >= 2 && (p[0] == '\'' || p[0] == '"') && p[len(p)-1] == p[0] {
		p = p[1 : len(p)-1]
	}
	p = strings.ReplaceAll(p, `\ `, " ")
	if strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			p = filepath.Join(home, p[2:])
		}
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	st, err := os.Stat(p)
	if err != nil || !st.Mode().IsRegular() {
		return "", false
	}
	head := make([]byte, 512)
	f, err := trust.OpenFile(p) // never blocks, should p have become a FIFO since the Stat
	if err != nil {
		return "", false
	}
	n, _ := f.Read(head)
	f.Close()
	if _, ok := agent.ImageOf(p, head[:n]); !ok {
		return "", false
	}
	return p, true
}

// mentionText writes a path as a mention, quoted when it has spaces.
func mentionText(p string) string {
	if strings.ContainsAny(p, " \t") {
		return `@"` + p + `"`
	}
	return "@" + p
}
