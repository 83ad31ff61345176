package chat

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/fawn-ide/fawn/internal/words"
	"github.com/fawn-ide/fawn/ui/panes"
	"github.com/fawn-ide/fawn/ui/render"
)

// webBodyLines is how much of what came back a web card shows: a
// summary, not the page (the model has the page).
const webBodyLines = 6

// webFetchKind: "Fetch go.dev/doc → Title", and a body with the status,
// size and the first lines of the text.
func webFetchKind() *ToolKind {
	return &ToolKind{
		Icon:   "⇣",
		Drives: panes.Chat,
		Summary: func(c *Card, rc *Ctx) string {
			raw := c.arg("url")
			if raw == "" {
				if !c.ready {
					return "Fetch …"
				}
				return ""
			}
			s := "Fetch " + shortURL(raw)
			if c.Status == StatusDone {
				if title := webTitle(c.Result); title != "" {
					s += " → " + title
				}
			}
			return s
		},
		Body: func(c *Card, rc *Ctx) []render.Line {
			if c.IsError || c.Status != StatusDone {
				return resultLines(c, rc)
			}
			return webSummary(c, rc, fetchedLines(c.Result))
		},
	}
}

// webSearchKind: `Search "query" → 8 results`, and the results' titles.
func webSearchKind() *ToolKind {
	return &ToolKind{
		Icon:   "⌕",
		Drives: panes.Chat,
		Summary: func(c *Card, rc *Ctx) string {
			q := c.arg("query")
			if q == "" {
				if !c.ready {
					return "Search the web …"
				}
				return ""
			}
			s := "Search the web for " + strconv.Quote(q)
			if c.Status == StatusDone {
				first, _, _ := strings.Cut(c.Result, " for ")
				if n, err := strconv.Atoi(strings.Fields(first + " x")[0]); err == nil {
					s += " → " + words.Plural(n, "result", "results")
				} else if strings.HasPrefix(c.Result, "No results") {
					s += " → no results"
				}
			}
			return s
		},
		Body: func(c *Card, rc *Ctx) []render.Line {
			if c.IsError || c.Status != StatusDone {
				return resultLines(c, rc)
			}
			var titles []string
			for _, l := range between(c.Result) {
				if i := strings.Index(l, ". "); i > 0 && i < 4 && !strings.HasPrefix(l, " ") {
					titles = append(titles, l)
				}
			}
			return webSummary(c, rc, titles)
		},
	}
}

// webSummary styles up to webBodyLines lines of a web card's body.
func webSummary(c *Card, rc *Ctx, lines []string) []render.Line {
	st := rc.style().Foreground(rc.Th.Dim)
	var out []render.Line
	for i, l := range lines {
		if i == webBodyLines {
			break
		}
		out = append(out, render.Line{{Text: render.Sanitize(l, 4), Style: st}})
	}
	return out
}

// fetchedLines are what a card says of a page: fawn's line about it
// (status, type, size) and the first lines of its text.
func fetchedLines(result string) []string {
	var out []string
	if head, _, ok := strings.Cut(result, "\n"); ok && strings.HasPrefix(head, "Fetched ") {
		if _, rest, ok := strings.Cut(head, ": "); ok {
			out = append(out, strings.TrimSuffix(rest, "."))
		}
	} else {
		// A redirect to another host, said in one paragraph.
		return []string{strings.TrimSpace(result)}
	}
	for i, l := range between(result) {
		if t := strings.TrimSpace(l); t != "" && (i > 0 || webTitle(result) == "") {
			out = append(out, t)
		}
	}
	return out
}

// between is the lines inside the result's <web_content> markers.
func between(result string) []string {
	// The marker that opens the content starts a line; the explanation
	// above it names the markers too.
	start := strings.Index(result, "\n<web_content ")
	end := strings.LastIndex(result, "\n</web_content>")
	if start < 0 || end < start {
		return nil
	}
	inner := result[start+1 : end+1]
	if i := strings.IndexByte(inner, '\n'); i >= 0 {
		inner = inner[i+1:]
	} else {
		return nil
	}
	return strings.Split(strings.TrimRight(inner, "\n"), "\n")
}

// webTitle is the "Title:" line that opens a fetch's content.
func webTitle(result string) string {
	if ls := between(result); len(ls) > 0 {
		if t, ok := strings.CutPrefix(ls[0], "Title: "); ok {
			return t
		}
	}
	return ""
}

// shortURL is a URL as a card shows it: host and path, no scheme or query.
func shortURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return raw
	}
	s := u.Host + strings.TrimSuffix(u.EscapedPath(), "/")
	return s
}
