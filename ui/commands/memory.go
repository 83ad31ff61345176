package commands

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/fawn-ide/fawn/project"
	"github.com/fawn-ide/fawn/trust"
	"github.com/fawn-ide/fawn/ui/render"
)

// MemoryFile is the name of the instruction file the agent reads at the
// start of every turn, in the project and in the user's configuration
// directory.
const MemoryFile = "AGENTS.md"

// maxMemoryFile is the largest AGENTS.md a note is appended to: a bigger
// one is not rewritten (the agent reads only its first 40 kB anyway).
const maxMemoryFile = 4 << 20

// Remember is "#note" typed in the chat: it asks where the note goes —
// the project's AGENTS.md, or the user's own one in the configuration
// directory, which every project's sessions read — appends it there as a
// list item, and says in the chat where it went. The user typed the note
// and chose the file, so nothing else asks.
func Remember(h Host, note string) {
	note = strings.TrimSpace(note)
	if note == "" {
		h.Error("# needs a note after it: #always run go vet before committing — it goes in AGENTS.md, which the agent reads every turn")
		return
	}
	root, userDir := h.Root(), h.Config().ConfigDir
	choices := []Choice{{Key: "p", Label: "project " + MemoryFile, Do: func() { appendNote(h, root, note, "the project's "+MemoryFile) }}}
	if userDir != "" {
		choices = append(choices, Choice{Key: "u", Label: "your " + MemoryFile + " (every project)", Do: func() {
			appendNote(h, userDir, note, "your "+MemoryFile+" ("+filepath.Join(userDir, MemoryFile)+")")
		}})
	}
	choices = append(choices, Choice{Key: "esc", Label: "cancel", Do: func() { h.Flash("the note was not saved") }})
	h.Ask("Remember", "“"+render.Clean(note)+"”\n\nThe agent reads the file you choose at the start of every turn.", choices...)
}

// appendNote adds note as a list item at the end of dir's AGENTS.md
// (made when there is none), off the UI goroutine, and says where.
func appendNote(h Host, dir, note, where string) {
	h.Go(func() {
		err := AppendNote(dir, note)
		h.Post(func() {
			if err != nil {
				h.Error(fmt.Sprintf("the note was not saved in %s: %v", where, err))
				return
			}
			h.Info("noted in " + where + ": " + render.Clean(note))
		})
	})
}

// AppendNote appends note as a list item to dir/AGENTS.md, through
// project.WriteFile confined to dir (a link in it that leads out is
// refused); lines after the first are indented under the item.
func AppendNote(dir, note string) error {
	path := filepath.Join(dir, MemoryFile)
	old, err := trust.ReadProjectFile(dir, path, maxMemoryFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	text := string(old)
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	lines := strings.Split(strings.ReplaceAll(strings.TrimSpace(note), "\r\n", "\n"), "\n")
	text += "- " + strings.Join(lines, "\n  ") + "\n"
	_, err = project.WriteFile(dir, path, []byte(text), project.WriteOptions{})
	return err
}
