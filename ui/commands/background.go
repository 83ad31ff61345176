package commands

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/fawn-ide/fawn/agent/background"
	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/internal/words"
)

// Goal is /goal: /goal TEXT sets a stop condition that a judge checks
// after each turn (and sends TEXT as the prompt when no turn runs), /goal
// alone shows it, /goal clear drops it. It needs the Background service.
func Goal() Command {
	return Command{Name: "goal", Args: "[text | clear]", Help: "Set a goal a judge checks after each turn (not met: the next turn starts with what is missing); alone: show it; clear: drop it", Run: func(h Host, args string) {
		bg := h.Services().Background
		text := strings.TrimSpace(args)
		switch text {
		case "":
			if g := bg.Goal(); g != "" {
				h.Info("Goal: " + g + "\nA judge checks it after each turn, up to " + words.Plural(bg.MaxTurns(), "turn", "turns") + " (goal.max_turns); /goal clear drops it.")
			} else {
				h.Info("No goal is set. /goal TEXT sets one: a judge checks it after each turn, and a turn that has not met it is followed by one with what is missing.")
			}
		case "clear":
			if bg.Goal() == "" {
				h.Info("No goal is set.")
				return
			}
			bg.SetGoal("")
			h.Info("The goal is dropped: turns are no longer judged.")
		default:
			bg.SetGoal(text)
			if h.TurnRunning() {
				h.Info("Goal set: " + text + "\nThe turns you start from now on are judged against it (the running one is not).")
				return
			}
			h.Submit(text)
		}
	}}
}

// Commit is /commit: the message drafted in the background for git diff
// HEAD, editable in a box with the diff's stat beside it; Enter commits
// everything with exactly the message as it stands. It needs the
// Background service.
func Commit() Command {
	return Command{Name: "commit", Help: "Commit the working tree with the message drafted for git diff HEAD, edited in a box beside the diff stat", Run: func(h Host, _ string) {
		d := h.Services().Background.Drafter()
		if h.TurnRunning() {
			h.Error("a turn is running — wait for it to end (or press Esc), then /commit")
			return
		}
		h.Flash("drafting the commit message…")
		h.Go(func() {
			ctx, cancel := context.WithTimeout(h.Context(), 5*time.Minute)
			defer cancel()
			draft, err := d.Current(ctx)
			h.Post(func() {
				switch {
				case errors.Is(err, background.ErrClean):
					h.Info("Nothing to commit: the working tree is as HEAD.")
				case err != nil:
					h.Error("/commit: the commit message could not be drafted: " + err.Error())
				default:
					h.Edit("Commit message", draft.Message, draft.Stat, func(msg string) { commitWith(h, d, msg) })
				}
			})
		})
	}}
}

func commitWith(h Host, d *background.Drafter, msg string) {
	h.Go(func() {
		id, err := d.Commit(h.Context(), msg)
		h.Post(func() {
			if err != nil {
				h.Error("/commit: " + err.Error())
				return
			}
			subject, _, _ := strings.Cut(msg, "\n")
			h.Info("Committed " + id + ": " + subject)
		})
	})
}

// backgroundLine is what /context says of the background work.
func backgroundLine(bg backend.BackgroundWorker) string {
	if bg == nil {
		return ""
	}
	st := bg.Status()
	if st.Shared {
		return "\nBackground work (the goal's judge, /commit's draft) shares chat_model's slot and prompt cache, and turn notes are not written: name an entry of models.named in models.background to give it a slot of its own."
	}
	return "\nBackground work (turn notes, commit drafts, the goal's judge) goes to " + strings.Join(st.Entries, ", ") + " (models.background)."
}
