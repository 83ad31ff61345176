package background

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/internal/gitcmd"
)

// commitPrompt asks for a commit message.
const commitPrompt = `You write the commit message for a change to a git repository. The output of git diff HEAD (and the subject lines of the last commits, for their style) follows. Write the message only: a subject line of at most 72 characters in the style of the earlier commits, then, if the change needs it, a blank line and a short body saying what changed and why. No Markdown fences, no preamble, nothing else.`

// diffBudget bounds the diff a draft request reads, in characters.
const diffBudget = 40000

// DraftCommitMessage asks m for a commit message for diff (git diff's
// output) in the style of recent (subject lines of earlier commits, may be
// empty). Whatever else needs a message for a diff (a task's merge) can
// call it with the model of Session.Background().Model.
func DraftCommitMessage(ctx context.Context, m agent.BackgroundModel, diff, recent string) (string, error) {
	if len(diff) > diffBudget {
		diff = diff[:diffBudget*2/3] + "\n[… the diff is cut here …]\n" + diff[len(diff)-diffBudget/3:]
	}
	user := "git diff HEAD:\n\n" + diff
	if strings.TrimSpace(recent) != "" {
		user = "The last commits:\n" + recent + "\n\n" + user
	}
	text, err := ask(ctx, m, commitPrompt, user)
	if err != nil {
		return "", err
	}
	return cleanMessage(text), nil
}

// cleanMessage drops the fences a model may wrap a message in.
func cleanMessage(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "```") {
		s = strings.TrimPrefix(s, "```")
		if i := strings.IndexByte(s, '\n'); i >= 0 && !strings.Contains(s[:i], " ") {
			s = s[i+1:]
		}
		s = strings.TrimSuffix(strings.TrimSpace(s), "```")
	}
	return strings.TrimSpace(s)
}

// Drafter keeps a draft commit message for the project's git diff HEAD,
// drafted again when the diff changes. It never commits on its own:
// [Drafter.Commit] is the user's Enter in /commit's dialog.
type Drafter struct {
	git   gitcmd.Git
	model func(ctx context.Context) (agent.BackgroundModel, error)

	mu       sync.Mutex
	diffHash string // the diff the draft (or the draft being written) is of
	draft    string
	err      error
	busy     bool
	waiters  []chan struct{}
	changed  func()
}

// Draft is what /commit shows: the message drafted for the diff whose
// stat is Stat.
type Draft struct {
	Message string
	Stat    string
}

// ErrClean is Draft's error when the working tree is as HEAD.
var ErrClean = errors.New("nothing to commit: the working tree is as HEAD")

// diff is the project's git diff HEAD, its stat, and the recent subjects.
func (d *Drafter) diff(ctx context.Context) (diff, stat, recent string, err error) {
	// Files git does not track yet are part of what a commit takes; the
	// index is not touched to show them (a background read never takes
	// the user's index lock), their names are listed after the diff.
	var untracked []string
	if out, err := d.git.Output(ctx, "ls-files", "--others", "--exclude-standard", "-z"); err == nil {
		for p := range strings.SplitSeq(strings.TrimRight(string(out), "\x00"), "\x00") {
			if p != "" {
				untracked = append(untracked, p)
			}
		}
	}
	b, err := d.git.Output(ctx, "diff", "HEAD")
	if err != nil {
		return "", "", "", err
	}
	s, err := d.git.Output(ctx, "diff", "HEAD", "--stat")
	if err != nil {
		return "", "", "", err
	}
	r, _ := d.git.Output(ctx, "log", "-8", "--format=%s")
	diff, stat = string(b), string(s)
	if len(untracked) > 0 {
		diff += "\nNew files, not yet tracked:\n" + strings.Join(untracked, "\n") + "\n"
		stat += strings.Join(untracked, " (new)\n") + " (new)\n"
	}
	return diff, stat, string(r), nil
}

// refresh drafts a message again if the diff changed since the last
// draft; run runs the request in the background.
func (d *Drafter) refresh(ctx context.Context, run func(func())) {
	run(func() { _, _ = d.current(ctx, false) })
}

// Current is the draft for the diff as it is now, drafting it (and
// waiting) when the one kept is of another diff.
func (d *Drafter) Current(ctx context.Context) (Draft, error) { return d.current(ctx, true) }

func (d *Drafter) current(ctx context.Context, wait bool) (Draft, error) {
	diff, stat, recent, err := d.diff(ctx)
	if err != nil {
		return Draft{}, fmt.Errorf("reading git diff HEAD: %w", err)
	}
	if strings.TrimSpace(diff) == "" {
		d.mu.Lock()
		d.diffHash, d.draft, d.err = "", "", nil
		d.mu.Unlock()
		return Draft{}, ErrClean
	}
	h := fmt.Sprintf("%x", sha256.Sum256([]byte(diff)))
	for {
		d.mu.Lock()
		if d.diffHash == h && !d.busy {
			draft, err := d.draft, d.err
			d.mu.Unlock()
			return Draft{Message: draft, Stat: stat}, err
		}
		if d.busy {
			if !wait {
				d.mu.Unlock()
				return Draft{}, nil // the draft under way is refreshed by the next turn's end
			}
			ch := make(chan struct{})
			d.waiters = append(d.waiters, ch)
			d.mu.Unlock()
			select {
			case <-ch:
				continue
			case <-ctx.Done():
				return Draft{}, ctx.Err()
			}
		}
		d.busy, d.diffHash = true, h
		d.mu.Unlock()
		d.tell()
		msg, err := d.write(ctx, diff, recent)
		d.mu.Lock()
		d.draft, d.err, d.busy = msg, err, false
		for _, ch := range d.waiters {
			close(ch)
		}
		d.waiters = nil
		d.mu.Unlock()
		d.tell()
		return Draft{Message: msg, Stat: stat}, err
	}
}

func (d *Drafter) write(ctx context.Context, diff, recent string) (string, error) {
	m, err := d.model(ctx)
	if err != nil {
		return "", err
	}
	return DraftCommitMessage(ctx, m, diff, recent)
}

// Busy reports whether a draft is being written.
func (d *Drafter) Busy() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.busy
}

func (d *Drafter) tell() {
	if d.changed != nil {
		d.changed()
	}
}

// Commit commits everything in the working tree with exactly message (the
// user's, from /commit's dialog) and returns the new commit's short ID.
func (d *Drafter) Commit(ctx context.Context, message string) (string, error) {
	if strings.TrimSpace(message) == "" {
		return "", errors.New("the commit message is empty: write one, or Esc")
	}
	if _, err := d.git.Output(ctx, "add", "--all"); err != nil {
		return "", err
	}
	cmd, err := d.git.Command(ctx, "commit", "--no-verify", "--cleanup=verbatim", "-F", "-")
	if err != nil {
		return "", err
	}
	cmd.Stdin = strings.NewReader(message)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("git commit: %v: %s", err, strings.TrimSpace(string(out)))
	}
	id, err := d.git.Output(ctx, "rev-parse", "--short", "HEAD")
	if err != nil {
		return "", err
	}
	d.mu.Lock()
	d.diffHash, d.draft, d.err = "", "", nil
	d.mu.Unlock()
	return strings.TrimSpace(string(id)), nil
}
