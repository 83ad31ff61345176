package ui

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/fawn-ide/fawn/internal/words"
	"github.com/fawn-ide/fawn/session"
	"github.com/fawn-ide/fawn/ui/chat"
	"github.com/fawn-ide/fawn/ui/dialogs"
	"github.com/fawn-ide/fawn/ui/editor"
	"github.com/fawn-ide/fawn/ui/render"
)

// recoveryEditor is an editor whose unsaved buffers can be kept and
// brought back (*editor.Tabs is one).
type recoveryEditor interface {
	UnsavedBuffers(seen map[string]uint64) []editor.Unsaved
	Recover(path string, data []byte) error
}

// keepDelay is how long after an edit its buffer is written to its
// recovery file: a kill -9 loses at most this much typing.
const keepDelay = 2 * time.Second

// recovery keeps the editor's unsaved buffers in recovery files (see
// session.Recovery): a few seconds after each edit, and at once on SIGTERM,
// SIGHUP or a crash. A clean quit (the user saved or chose to discard)
// removes them. Nothing runs while nothing is edited.
type recovery struct {
	rc    *session.Recovery
	seen  map[string]uint64 // path → buffer version kept (UI goroutine)
	timer *time.Timer       // a keep is scheduled (UI goroutine)
	io    sync.Mutex        // one write at a time
	err   string            // the last write error told (UI goroutine)
	// last is closed when the newest background write has finished; each
	// background write waits for the one before it, and a write "now" (a
	// signal, a crash) waits for them all, so an older version never lands
	// over a newer one, and nothing a background write was to keep is lost
	// to the process ending first.
	lastMu sync.Mutex
	last   chan struct{}
}

// pendingWrites returns what is closed once the background writes started
// so far have finished (nil: none).
func (r *recovery) pendingWrites() chan struct{} {
	r.lastMu.Lock()
	defer r.lastMu.Unlock()
	return r.last
}

// scheduleKeep asks for the unsaved buffers to be kept soon; it is called
// after every key and paste, and does nothing while a keep is pending.
func (a *App) scheduleKeep() {
	r := a.task.recovery
	if r == nil || r.timer != nil {
		return
	}
	if _, ok := a.task.editor.(recoveryEditor); !ok {
		return
	}
	r.timer = time.AfterFunc(keepDelay, func() {
		a.post(func() {
			r.timer = nil
			a.keepUnsaved(false)
		})
	})
}

// keepUnsaved writes the buffers changed since they were last kept, and
// removes the recovery files of buffers no longer unsaved. now writes on
// this goroutine (a signal, a crash); otherwise in the background.
func (a *App) keepUnsaved(now bool) {
	r := a.task.recovery
	ed, ok := a.task.editor.(recoveryEditor)
	if r == nil || !ok {
		return
	}
	if now {
		// A keep a moment ago may still be writing, or not have begun: its
		// version counts as kept below, so it must land first.
		if prev := r.pendingWrites(); prev != nil {
			select {
			case <-prev:
			case <-time.After(3 * time.Second):
			}
		}
	}
	bufs := ed.UnsavedBuffers(r.seen)
	cur := make(map[string]uint64, len(bufs))
	var save []editor.Unsaved
	for _, u := range bufs {
		cur[u.Path] = u.Version
		if u.Data != nil {
			save = append(save, u)
		}
	}
	var drop []string
	for p := range r.seen {
		if _, ok := cur[p]; !ok {
			drop = append(drop, p)
		}
	}
	r.seen = cur
	if len(save) == 0 && len(drop) == 0 {
		return
	}
	write := func() error {
		r.io.Lock()
		defer r.io.Unlock()
		var errs []string
		for _, u := range save {
			if err := r.rc.Save(u.Path, u.Data); err != nil {
				errs = append(errs, err.Error())
			}
		}
		for _, p := range drop {
			if err := r.rc.Drop(p); err != nil {
				errs = append(errs, err.Error())
			}
		}
		if len(errs) > 0 {
			return fmt.Errorf("%s", strings.Join(errs, "; "))
		}
		return nil
	}
	if now {
		_ = write()
		return
	}
	r.lastMu.Lock()
	prev, done := r.last, make(chan struct{})
	r.last = done
	r.lastMu.Unlock()
	go func() {
		defer close(done)
		if prev != nil {
			<-prev
		}
		if err := write(); err != nil {
			a.post(func() {
				msg := "unsaved changes could not be kept for recovery: " + err.Error()
				if msg != r.err {
					r.err = msg
					a.task.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: msg + " — save with Ctrl-S"})
				}
			})
		}
	}()
}

// dropUnsaved removes every recovery file this fawn wrote: it quits cleanly,
// with its buffers saved or discarded by the user's choice.
func (a *App) dropUnsaved() {
	r := a.task.recovery
	if r == nil {
		return
	}
	if r.timer != nil {
		r.timer.Stop()
		r.timer = nil
	}
	r.io.Lock()
	defer r.io.Unlock()
	for p := range r.seen {
		_ = r.rc.Drop(p)
	}
	r.seen = nil
}

// offerRecovery looks for buffers a fawn that ended without saving left
// behind, and offers them back. It runs after the first frame.
func (a *App) offerRecovery() {
	r := a.task.recovery
	if r == nil {
		return
	}
	if _, ok := a.task.editor.(recoveryEditor); !ok {
		return
	}
	go func() {
		pending, err := r.rc.Pending()
		if err != nil || len(pending) == 0 {
			return
		}
		a.post(func() { a.askRecovery(pending) })
	}()
}

func (a *App) askRecovery(pending []session.Recovered) {
	names := make([]string, len(pending))
	for i, p := range pending {
		names[i] = render.RelPath(a.task.root, p.Path)
	}
	age := time.Since(pending[len(pending)-1].Saved).Round(time.Second)
	what := fmt.Sprintf("fawn ended without saving %s: %s (kept %s ago).", words.Plural(len(pending), "file", "files"), strings.Join(names, ", "), render.HumanDuration(age))
	a.ask.Ask("Unsaved changes from before", what,
		dialogs.Choice{Key: "r", Label: "restore them in tabs", Do: func() {
			ed := a.task.editor.(recoveryEditor)
			restored := 0
			for _, p := range pending {
				if err := ed.Recover(p.Path, p.Content()); err != nil {
					a.task.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: "could not restore " + render.RelPath(a.task.root, p.Path) + ": " + err.Error()})
					continue
				}
				restored++
			}
			// Kept again at once, under this fawn: the files are the same.
			a.keepUnsaved(true)
			if restored > 0 {
				a.task.list.Append(&chat.Notice{Kind: chat.NoticeInfo, Text: fmt.Sprintf("restored the unsaved changes of %s: Ctrl-S saves, Ctrl-Z goes back to the file", words.Plural(restored, "file", "files"))})
			}
		}},
		dialogs.Choice{Key: "d", Label: "discard them", Do: func() {
			for _, p := range pending {
				_ = a.task.recovery.rc.Drop(p.Path)
			}
		}},
		dialogs.Choice{Key: "esc", Label: "decide at the next start", Do: func() {}},
	)
}
