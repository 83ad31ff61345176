package commands

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/session"
	"github.com/fawn-ide/fawn/ui/picker"
	"github.com/fawn-ide/fawn/ui/render"
	"github.com/fawn-ide/fawn/ui/sessions"
)

// keeper is the Sessions service when sessions are kept on disk.
func keeper(h Host) (backend.SessionKeeper, bool) {
	k := h.Services().Sessions
	if k == nil || k.Store() == nil {
		return nil, false
	}
	return k, true
}

// Resume is /resume: a picker of this project's saved sessions, or the
// one named by ID.
func Resume() Command {
	return Command{Name: "resume", Args: "[id]", Help: "Resume a saved session of this project (a picker, or by ID)", Run: func(h Host, args string) {
		k, ok := keeper(h)
		if !ok {
			h.Error("sessions are not kept (fawn has no data directory)")
			return
		}
		if h.TurnRunning() {
			h.Error("a turn is running — press Esc to cancel it, then /resume")
			return
		}
		if args != "" {
			resumeSession(h, k, args)
			return
		}
		PickSession(h, k)
	}}
}

// NewSession is /new: a new session; the one in use is kept.
func NewSession() Command {
	return Command{Name: "new", Help: "Start a new session (this one is kept: /resume brings it back)", Run: func(h Host, _ string) {
		if h.TurnRunning() {
			h.Error("a turn is running — press Esc to cancel it, then /new")
			return
		}
		k, ok := keeper(h)
		if !ok {
			h.Agent().Clear()
			h.ResetChat()
			return
		}
		h.RecordWorkspace()
		old := k.ID()
		k.NewConversation(false)
		h.ResetChat()
		h.Info(fmt.Sprintf("new session %s — the last one (%s) is kept: /resume brings it back", short(k.ID()), short(old)))
	}}
}

// Export is /export: the session as Markdown in a file.
func Export() Command {
	return Command{Name: "export", Args: "[file]", Help: "Write this session as Markdown (default: fawn-session-ID.md in the project)", Run: func(h Host, args string) {
		k, ok := keeper(h)
		if !ok {
			h.Error("sessions are not kept (fawn has no data directory)")
			return
		}
		exportSession(h, k, args)
	}}
}

func short(id string) string { return id[:min(8, len(id))] }

// PickSession opens the /resume picker (also at start, for --resume
// without an ID).
func PickSession(h Host, k backend.SessionKeeper) {
	p := h.Pick("Resume a session", nil, func(it picker.Item) {
		in := it.Value.(session.Info)
		if in.ID == k.ID() {
			h.Flash("that is the session in use")
			return
		}
		resumeSession(h, k, in.ID)
	})
	p.SetLoading(true)
	h.Go(func() {
		infos, err := k.Sessions()
		h.Post(func() {
			p.SetItems(sessions.Items(infos, k.ID(), time.Now()))
			p.SetLoading(false)
			switch {
			case err != nil:
				p.SetNote(render.Clean(err.Error()))
			case len(infos) == 0:
				p.SetNote("no saved sessions of this project yet")
			}
		})
	})
}

// resumeSession loads session id off the UI goroutine, then shows it.
func resumeSession(h Host, k backend.SessionKeeper, id string) {
	h.RecordWorkspace()
	h.Flash("resuming…")
	h.Go(func() {
		res, err := k.Resume(id)
		h.Post(func() {
			if err != nil {
				h.Error("could not resume: " + err.Error())
				return
			}
			h.Restore(res)
		})
	})
}

// exportSession writes the session as Markdown to file (relative to the
// project), asking before it replaces a file.
func exportSession(h Host, k backend.SessionKeeper, file string) {
	id := k.ID()
	root := h.Root()
	if file == "" {
		file = "fawn-session-" + short(id) + ".md"
	}
	if !filepath.IsAbs(file) {
		file = filepath.Join(root, file)
	}
	write := func() {
		h.Go(func() {
			err := writeExport(k.Store(), id, file)
			h.Post(func() {
				if err != nil {
					h.Error("could not export: " + err.Error())
					return
				}
				h.Info("wrote the session as Markdown to " + render.RelPath(root, file))
			})
		})
	}
	if _, err := os.Stat(file); err == nil {
		h.Ask("Export", render.RelPath(root, file)+" exists.",
			Choice{Key: "o", Label: "overwrite it", Do: write},
			Choice{Key: "esc", Label: "keep it", Do: func() {}})
		return
	}
	write()
}

func writeExport(st *session.Store, id, file string) error {
	l, err := st.Load(id)
	if errors.Is(err, session.ErrNotFound) {
		return errors.New("nothing to export yet: the session has no messages")
	}
	if err != nil {
		return err
	}
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	err = session.WriteMarkdown(f, l)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
