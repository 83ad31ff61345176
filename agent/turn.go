package agent

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/secret"
)

// ErrCancelled ends a turn whose context was cancelled (the user's Esc,
// Ctrl-C in headless mode).
var ErrCancelled = errors.New("cancelled by the user")

// ErrBusy is the error of a Run started while another turn of the same
// session is still running.
var ErrBusy = errors.New("a turn is already running in this session; wait for it to end or cancel it")

// turn is what one Run knows while it runs. The graph runs its nodes one at
// a time on one goroutine, so only the queue is shared with other goroutines.
type turn struct {
	q *queue
	// relay, when set, takes the turn's events instead of q: a subagent's
	// turn passes them on to the main turn (Session.relay).
	relay func(Event)
	// redact hides secrets in the errors the turn reports (a nil one only
	// what looks like a key).
	redact *secret.Redactor
	// mu guards the counts the calls of a batch update, which may run in
	// parallel (task calls).
	mu    sync.Mutex
	gen   int       // the conversation generation this turn appends to
	rec   *recorder // the transcript of that conversation
	start time.Time
	// batch is the calls of the model's last response, run now.
	batch []schema.ToolCall

	steps       int // model responses received
	toolCalls   int // calls that ended (ran, failed, or were refused)
	toolRan     bool
	dropRetried bool
	limitHit    bool
	// input is the user's message that began the turn (nil for /compact):
	// a compaction in the turn keeps it.
	input *schema.Message
	// compactedAt is the step (1-based) before which the turn last
	// compacted: at most one compaction a step.
	compactedAt int
	// repeats counts the calls of this turn by tool and arguments; stuck
	// says why the turn must stop (the model repeats itself).
	repeats map[string]int
	stuck   string
	cutOff  bool // the last answer stopped at the output limit

	err     error           // why the turn failed, in words for the user
	partial *schema.Message // the text of an answer that broke off
	// lastText is the text of the last complete model response: the answer.
	lastText string

	usage   Usage
	genTime time.Duration // time models spent streaming, for tokens/s
	// subSteps and subCalls count the steps and tool calls of the
	// subagents the turn ran.
	subSteps, subCalls int

	// images the tools of the running batch returned, for the model.
	imgMu  sync.Mutex
	images []toolImage
}

// toolImage is an image a tool call returned.
type toolImage struct {
	call, tool string
	img        Image
}

func (t *turn) keepImages(call, tool string, imgs []Image) {
	t.imgMu.Lock()
	defer t.imgMu.Unlock()
	for _, im := range imgs {
		t.images = append(t.images, toolImage{call, tool, im})
	}
}

func (t *turn) takeImages() []toolImage {
	t.imgMu.Lock()
	defer t.imgMu.Unlock()
	out := t.images
	t.images = nil
	return out
}

func (t *turn) emit(ev Event) {
	if ev.Err != nil {
		// Every error the user sees or a session records passes here: a
		// server's words, a tool's, a hook's, whatever their origin.
		ev.Err = t.redact.Error(ev.Err)
	}
	if t.relay != nil {
		t.relay(ev)
		return
	}
	t.q.push(ev)
}

// callEnded counts a call that ended.
func (t *turn) callEnded() {
	t.mu.Lock()
	t.toolCalls++
	t.mu.Unlock()
}

func (t *turn) failWith(err error) error {
	t.err = err
	return err
}

func (t *turn) keepPartial(m *schema.Message) {
	if m != nil {
		t.partial = m
	}
}

type turnKey struct{}

func withTurn(ctx context.Context, t *turn) context.Context {
	return context.WithValue(ctx, turnKey{}, t)
}

// turnOf returns the turn ctx belongs to. Every node of the graph runs under
// a turn; a missing one is a programming error, answered with a turn whose
// events go nowhere rather than a crash.
func turnOf(ctx context.Context) *turn {
	if t, ok := ctx.Value(turnKey{}).(*turn); ok {
		return t
	}
	q := newQueue(nil)
	q.close()
	return &turn{q: q, gen: -1}
}

// repeated counts a call of name with args (compared as JSON values, so
// spacing and key order do not matter) and returns how many there have
// been in this turn.
func (t *turn) repeated(name, args string) int {
	key := name + "\x00" + canonicalJSON(args)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.repeats == nil {
		t.repeats = map[string]int{}
	}
	t.repeats[key]++
	return t.repeats[key]
}

// canonicalJSON is args re-encoded (sorted keys, no spacing), or args as
// given when it is not JSON.
func canonicalJSON(args string) string {
	var v any
	if json.Unmarshal([]byte(args), &v) != nil {
		return args
	}
	b, err := json.Marshal(v)
	if err != nil {
		return args
	}
	return string(b)
}
