package chat

// @-mentions (agent.MentionsIn reads them): typing "@" offers the project's
// files, fuzzy matched, and a chosen file opens in a tab when sent. A
// pasted path of an image file (what a terminal's drag and drop types)
// becomes a mention.

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
