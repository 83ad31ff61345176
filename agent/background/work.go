package background

import (
	"context"
	"strings"
	"sync"

	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/internal/gitcmd"
)

// Work is one session's background work: its turn notes, its commit
// drafter and its goal.
type Work struct {
	bg       agent.Background
	ctx      context.Context
	cancel   context.CancelFunc
	wg       sync.WaitGroup
	maxTurns int

	notes    *Notes
	drafter  *Drafter
	noDrafts bool

	mu      sync.Mutex
	goal    string
	running int      // background requests under way
	what    []string // what they are, for the status bar
	watch   []func()
}

// Options configure a Work.
type Options struct {
	// MaxTurns is goal.max_turns (0: DefaultMaxTurns).
	MaxTurns int
	// NoNotes leaves the turn notes out (compaction then always asks for
	// a summary).
	NoNotes bool
	// NoDrafts keeps the commit draft from being refreshed after each
	// turn (/commit still drafts one when asked).
	NoDrafts bool
}

// New starts the background work of the session bg is the face of, and
// hooks it to the session's turns and compaction. Close stops it.
func New(bg agent.Background, o Options) *Work {
	ctx, cancel := context.WithCancel(context.Background())
	w := &Work{bg: bg, ctx: ctx, cancel: cancel, maxTurns: o.MaxTurns, noDrafts: o.NoDrafts}
	if w.maxTurns <= 0 {
		w.maxTurns = bg.GoalMaxTurns()
	}
	if w.maxTurns <= 0 {
		w.maxTurns = DefaultMaxTurns
	}
	if !o.NoNotes {
		w.notes = &Notes{
			write: func(ctx context.Context, msgs []*schema.Message) (string, error) {
				m, err := bg.Model(ctx)
				if err != nil {
					return "", err
				}
				return writeNote(ctx, m, msgs)
			},
			record:  bg.RecordNote,
			changed: w.tell,
		}
		bg.SetNotes(w.notes)
	}
	w.drafter = &Drafter{git: gitcmd.Git{Dir: bg.Root(), UserFilters: bg.Trusted()}, model: bg.Model, changed: w.tell}
	bg.OnTurnEnd(w.turnEnded)
	bg.OnClose(w.Close)
	return w
}

// Close stops the work under way and waits for it (the session's Close
// does).
func (w *Work) Close() {
	w.cancel()
	w.wg.Wait()
}

// turnEnded starts the work a turn's end asks for.
func (w *Work) turnEnded(te agent.TurnEnd) {
	if _, shared := w.bg.Entries(); shared || w.ctx.Err() != nil {
		// Without a background entry nothing is sent after every turn:
		// it would queue on chat_model and double its requests. The
		// judge and /commit's draft, asked for, still run there.
		return
	}
	if w.notes != nil && len(te.History) > te.Skip {
		w.notes.turnEnded(w.ctx, te, w.goRun)
	}
	if w.bg.Trusted() && !w.noDrafts {
		// In a project not trusted git runs only when the user asks
		// (/commit), not after every turn.
		w.drafter.refresh(w.ctx, w.goRun)
	}
}

// goRun runs f in the background; Close waits for it.
func (w *Work) goRun(f func()) {
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		f()
	}()
}

// For is the background work of the session bg is the face of, started
// on first use (New, with the configured goal.max_turns).
func For(bg agent.Background) *Work { return ForWith(bg, Options{}) }

// ForWith is For with o for the work when it is started here.
func ForWith(bg agent.Background, o Options) *Work {
	return bg.Worker(func() any { return New(bg, o) }).(*Work)
}

// Drafter is the commit drafter.
func (w *Work) Drafter() *Drafter { return w.drafter }

// Notes is the turn notes (nil when left out).
func (w *Work) Notes() *Notes { return w.notes }

// Goal is the goal set ("" for none).
func (w *Work) Goal() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.goal
}

// SetGoal sets the goal ("" drops it) and returns its card.
func (w *Work) SetGoal(goal string) Verdict {
	goal = strings.TrimSpace(goal)
	w.mu.Lock()
	w.goal = goal
	w.mu.Unlock()
	return Verdict{Goal: goal, State: Set, Max: w.maxTurns}
}

// MaxTurns is goal.max_turns.
func (w *Work) MaxTurns() int { return w.maxTurns }

// Follow returns the events of a turn that run started with prompt: those
// of events when no goal is set, else those of the turns the goal runs
// (events first), each judged.
func (w *Work) Follow(ctx context.Context, events <-chan agent.Event, prompt string, run RunFunc) <-chan agent.Event {
	goal := w.Goal()
	if goal == "" {
		return events
	}
	first := true
	out := make(chan agent.Event, 64)
	go w.runGoal(ctx, func(ctx context.Context, p string) <-chan agent.Event {
		if first {
			first = false
			return events
		}
		return run(ctx, p)
	}, goal, w.maxTurns, prompt, out)
	return out
}

// RunGoal runs prompt under goal (headless -p --goal).
func (w *Work) RunGoal(ctx context.Context, run RunFunc, goal, prompt string) <-chan agent.Event {
	out := make(chan agent.Event, 64)
	go w.runGoal(ctx, run, strings.TrimSpace(goal), w.maxTurns, prompt, out)
	return out
}

// judge asks the judge about goal, counted as background work.
func (w *Work) judge(ctx context.Context, goal string) (State, string, error) {
	done := w.begin("goal judge")
	defer done()
	m, err := w.bg.Model(ctx)
	if err != nil {
		return "", "", err
	}
	h := w.bg.History()
	return judge(ctx, m, goal, agent.Transcript(h, transcriptBudget))
}

// begin counts a background request under way until the returned
// function runs.
func (w *Work) begin(what string) func() {
	w.mu.Lock()
	w.running++
	w.what = append(w.what, what)
	w.mu.Unlock()
	w.tell()
	return func() {
		w.mu.Lock()
		w.running--
		for i, x := range w.what {
			if x == what {
				w.what = append(w.what[:i], w.what[i+1:]...)
				break
			}
		}
		w.mu.Unlock()
		w.tell()
	}
}

// Watch makes f run (on any goroutine) whenever background work starts or
// ends.
func (w *Work) Watch(f func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.watch = append(w.watch, f)
}

func (w *Work) tell() {
	w.mu.Lock()
	fs := append([]func(){}, w.watch...)
	w.mu.Unlock()
	for _, f := range fs {
		f()
	}
}

// Status is the background work under way, and the conversation's
// failover, for the status bar.
type Status struct {
	// What is the work under way ("turn note", "commit draft", "goal
	// judge"), empty when none.
	What []string
	// Entries are the entries of models it goes to; Shared is set when
	// that is chat_model's (no models.background).
	Entries []string
	Shared  bool
	// Failover, when set, says that the conversation's entry is down and
	// which one it uses ("default down → using rescue").
	Failover string
}

// Status says what runs in the background and where.
func (w *Work) Status() Status {
	w.mu.Lock()
	st := Status{What: append([]string(nil), w.what...)}
	w.mu.Unlock()
	if n := w.notes; n != nil && n.Pending() > 0 {
		st.What = append(st.What, "turn note")
	}
	if w.drafter.Busy() {
		st.What = append(st.What, "commit draft")
	}
	st.Entries, st.Shared = w.bg.Entries()
	if from, to := w.bg.Failover(); from != "" {
		st.Failover = from + " down → using " + to
	}
	return st
}
