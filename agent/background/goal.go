package background

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/internal/words"
)

// judgePrompt is the judge's own prompt: it sees the goal and the
// conversation, never the agent's tools.
const judgePrompt = `You judge whether a coding agent has reached a goal the user set. You are given the goal and the transcript of the conversation so far; the agent's tool calls are marked "→ call", their results "Result of". Judge by the evidence in the transcript (files written, commands run and their output), not by the agent's claims alone.

Answer with one line, in exactly one of these forms:
MET
NOT MET: <what is still missing, as an instruction to the agent>
IMPOSSIBLE: <why the goal cannot be reached>`

// DefaultMaxTurns is goal.max_turns when unset.
const DefaultMaxTurns = 10

// State is a judge's verdict.
type State string

const (
	// Set: the goal was set (the goal's own card).
	Set        State = "set"
	Met        State = "met"
	NotMet     State = "not met"
	Impossible State = "impossible"
	// Failed: the judge could not be asked or its answer not read; the
	// loop stops (it fails open: the turn's work stands).
	Failed State = "failed"
	// Exhausted: goal.max_turns turns ran without the goal being met.
	Exhausted State = "exhausted"
)

// Verdict is a goal card: the goal set, or a judge's answer after a turn.
type Verdict struct {
	Goal  string
	State State
	// Why is what is missing (not met), why not (impossible), or the
	// judge's error (failed).
	Why string
	// Turn is the turn judged (1-based); Max is goal.max_turns.
	Turn, Max int
}

// Line is the card's text.
func (v Verdict) Line() string {
	switch v.State {
	case Set:
		return fmt.Sprintf("◎ goal: %s — judged after each turn, up to %s", v.Goal, words.Plural(v.Max, "turn", "turns"))
	case Met:
		return fmt.Sprintf("◎ goal met after %s", words.Plural(v.Turn, "turn", "turns"))
	case NotMet:
		return fmt.Sprintf("◎ goal not met (turn %d of %d): %s — going on", v.Turn, v.Max, v.Why)
	case Impossible:
		return "◎ goal impossible: " + v.Why + " — stopped"
	case Exhausted:
		return fmt.Sprintf("◎ goal not met after %s (goal.max_turns): %s — stopped", words.Plural(v.Turn, "turn", "turns"), v.Why)
	}
	return "◎ the goal's judge failed: " + v.Why + " — stopped; the goal is still set (/goal clear drops it)"
}

// ErrGoalImpossible ends a run whose judge found the goal impossible, and
// ErrGoalNotMet one that used goal.max_turns.
var (
	ErrGoalImpossible = errors.New("the judge found the goal impossible")
	ErrGoalNotMet     = errors.New("the goal was not met within goal.max_turns")
)

// parseVerdict reads the judge's answer.
func parseVerdict(text string) (State, string, error) {
	line := strings.TrimSpace(text)
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = strings.TrimSpace(line[:i])
	}
	line = strings.Trim(line, "*` ")
	up := strings.ToUpper(line)
	rest := func(p string) string {
		return strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line[len(p):]), ":—- "))
	}
	switch {
	case strings.HasPrefix(up, "NOT MET"):
		why := rest("NOT MET")
		if why == "" {
			why = "the judge did not say what is missing"
		}
		return NotMet, why, nil
	case strings.HasPrefix(up, "IMPOSSIBLE"):
		return Impossible, rest("IMPOSSIBLE"), nil
	case strings.HasPrefix(up, "MET"):
		return Met, "", nil
	}
	return "", "", fmt.Errorf("the judge's answer is none of MET, NOT MET or IMPOSSIBLE: %q", words.Clip(line, 80))
}

// judge asks m whether goal is met by the conversation msgs shows.
func judge(ctx context.Context, m agent.BackgroundModel, goal, transcript string) (State, string, error) {
	text, err := ask(ctx, m, judgePrompt, "The goal:\n"+goal+"\n\nThe conversation:\n\n"+transcript)
	if err != nil {
		return "", "", err
	}
	return parseVerdict(text)
}

// RunFunc starts one turn, as backend.Agent.Run does.
type RunFunc func(ctx context.Context, prompt string) <-chan agent.Event

// runGoal runs prompt, then, while the judge says the goal is not met and
// fewer than max turns ran, a turn with what is missing. The turns' events
// pass through; each turn's EventTurnEnded waits for the judge, so the
// verdict's card comes before it and Esc (ctx) stops the judge as it does
// a turn. The last EventTurnEnded carries ErrGoalImpossible or
// ErrGoalNotMet when the run ends so; a judge that fails ends the run
// without an error (fails open) and says so.
func (w *Work) runGoal(ctx context.Context, run RunFunc, goal string, max int, prompt string, out chan<- agent.Event) {
	defer close(out)
	send := func(v Verdict) {
		out <- agent.Event{Type: agent.EventGoal, Text: v.Line(), Data: v}
	}
	send(Verdict{Goal: goal, State: Set, Max: max})
	for turn := 1; ; turn++ {
		var end *agent.Event
		for ev := range run(ctx, prompt) {
			if ev.Type == agent.EventTurnEnded {
				e := ev
				end = &e
				continue
			}
			out <- ev
		}
		if end == nil {
			return
		}
		if end.Err != nil || ctx.Err() != nil {
			out <- *end // a failed or cancelled turn ends the run; nothing to judge
			return
		}
		state, why, err := w.judge(ctx, goal)
		if ctx.Err() != nil {
			end.Err = agent.ErrCancelled
			out <- *end
			return
		}
		v := Verdict{Goal: goal, State: state, Why: why, Turn: turn, Max: max}
		if err != nil {
			v.State, v.Why = Failed, err.Error()
		}
		if v.State == NotMet && turn >= max {
			v.State = Exhausted
		}
		send(v)
		switch v.State {
		case NotMet:
			out <- *end
			prompt = "[fawn: the goal set for this session is not met yet; the judge says what is missing:]\n" + why
			continue
		case Impossible:
			end.Err = fmt.Errorf("%w: %s", ErrGoalImpossible, why)
		case Exhausted:
			end.Err = fmt.Errorf("%w (%d): %s", ErrGoalNotMet, max, why)
		}
		out <- *end
		return
	}
}
