package ui

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/project"
	"github.com/fawn-ide/fawn/ui/chat"
	"github.com/fawn-ide/fawn/ui/picker"
	"github.com/fawn-ide/fawn/ui/render"
)

// @-mentions: "@path" in a message attaches that file as the agent's view
// would show it (and opens it in a tab), "@dir/" a listing of the directory,
// "@shot.png" the image. Typing "@" offers the project's files, fuzzy
// matched; a path with spaces is written @"my file.txt". A pasted path of an
// image file (what a terminal's drag and drop types) becomes a mention.

// fileIndex lists the project's files and directories once, in the
// background, for the @ completion; ignore files are honoured.
type fileIndex struct {
	root string
	mu   sync.Mutex
	// paths are relative, with "/" after directories; done is set when the
	// walk finished.
	paths   []string
	done    bool
	started bool
	when    time.Time // the last walk's start
}

// maxIndexed bounds the walk on a huge tree; indexFresh is how long a
// listing is used before the next @ lists again.
const (
	maxIndexed = 200_000
	indexFresh = 5 * time.Second
)

// start lists the files on a goroutine of the app's, calling changed (from
// that goroutine) as results arrive.
func (x *fileIndex) start(a *App, changed func()) {
	x.mu.Lock()
	// A finished list is walked again after a while: files come and go.
	if x.root == "" || (x.started && !(x.done && time.Since(x.when) > indexFresh)) {
		x.mu.Unlock()
		return
	}
	x.started, x.when = true, time.Now()
	fresh := true
	x.mu.Unlock()
	a.Go(func() {
		var batch []string
		flush := func(done bool) {
			x.mu.Lock()
			if fresh {
				x.paths, fresh = nil, false
			}
			x.paths = append(x.paths, batch...)
			x.done = done
			x.mu.Unlock()
			batch = nil
			changed()
		}
		n := 0
		_ = project.WalkFiles(a.runCtx, x.root, "", func(rel string, d fs.DirEntry) error {
			if n++; n > maxIndexed {
				return context.Canceled
			}
			rel = filepath.ToSlash(rel)
			if d.IsDir() {
				rel += "/"
			}
			batch = append(batch, rel)
			if len(batch) >= 5000 {
				flush(false)
			}
			return nil
		})
		flush(true)
	})
}

// match returns the best paths for query, at most n.
func (x *fileIndex) match(query string, n int) (hits []string, loading bool) {
	x.mu.Lock()
	paths := x.paths
	loading = !x.done
	x.mu.Unlock()
	q := []rune(strings.ToLower(query))
	type scored struct {
		path  string
		score int
	}
	var best []scored
	for _, p := range paths {
		s, ok := picker.Score(p, q, nil)
		if !ok {
			continue
		}
		best = append(best, scored{p, s})
	}
	slices.SortStableFunc(best, func(a, b scored) int {
		if a.score != b.score {
			return b.score - a.score
		}
		return len(a.path) - len(b.path)
	})
	for i := 0; i < len(best) && i < n; i++ {
		hits = append(hits, best[i].path)
	}
	return hits, loading
}

// attachAndRun resolves the mentions of item's text off the UI goroutine,
// then shows what was attached, opens the files in tabs, and starts the
// turn (or queues it).
func (t *Task) attachAndRun(at backend.Attacher, item *chat.User, ms []chat.Mention) {
	item.Attaching = true
	ctx := t.app.runCtx
	text := item.Text
	t.app.Go(func() {
		type got struct {
			m   chat.Mention
			att agent.Attachment
			err error
		}
		var res []got
		for _, m := range ms {
			att, err := at.Attach(ctx, m.Path)
			res = append(res, got{m, att, err})
		}
		t.app.post(func() {
			item.Attaching = false
			item.Ver++
			in := agent.Input{Text: text}
			var blocks []string
			seen := map[string]bool{}
			for _, r := range res {
				if r.err != nil {
					if r.m.Path != "" && chat.LooksLikePath(r.m.Path) {
						item.Chips = append(item.Chips, chat.Chip{Text: render.Clean(r.err.Error()), Err: true})
					}
					continue
				}
				if seen[r.att.Path] {
					continue
				}
				seen[r.att.Path] = true
				rel := render.RelPath(t.root, r.att.Path)
				switch {
				case r.att.Image != nil:
					in.Images = append(in.Images, *r.att.Image)
					item.Chips = append(item.Chips, chat.Chip{Text: rel + " · " + r.att.Image.String()})
				case r.att.Dir:
					blocks = append(blocks, fmt.Sprintf("<attached path=%q kind=\"directory listing\">\n%s\n</attached>", rel+"/", strings.TrimRight(r.att.Text, "\n")))
					item.Chips = append(item.Chips, chat.Chip{Text: strings.TrimSuffix(rel, "/") + "/ · listing"})
				default:
					blocks = append(blocks, fmt.Sprintf("<attached path=%q>\n%s\n</attached>", rel, strings.TrimRight(r.att.Text, "\n")))
					item.Chips = append(item.Chips, chat.Chip{Text: rel + " · " + chat.ViewedRange(r.att.Viewed)})
					if ed := t.EditorPane(); ed != nil && r.att.Viewed != nil {
						ed.AgentViewed(*r.att.Viewed)
					}
				}
			}
			if len(blocks) > 0 {
				in.Text += "\n\n(The user attached these with @-mentions; they are shown as text_editor view shows files.)\n" + strings.Join(blocks, "\n")
			}
			if len(in.Images) > 0 && !at.AcceptsImages() {
				t.list.Remove(item)
				t.input.SetText(text, true)
				t.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: fmt.Sprintf(
					"%s does not take images, so the message was not sent (it is back in the input): /model switches to a model that does, or set vision: yes for this model in the configuration if it does",
					t.agent.ModelName())})
				return
			}
			item.Input = &in
			if t.turnRunning() {
				item.Queued = true
				t.queued = append(t.queued, item)
				return
			}
			t.startTurn(item)
		})
	})
}
