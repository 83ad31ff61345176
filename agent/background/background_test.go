package background

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/internal/llmtest"
	"github.com/fawn-ide/fawn/session"
	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/trust"
)

// deadline bounds every wait: generous for a loaded machine.
const deadline = 20 * time.Second

type rig struct {
	t        testing.TB
	root     string
	main, bg *llmtest.Server
	s        *agent.Session
	w        *Work
}

func texts(ss ...string) llmtest.Script {
	var rs []llmtest.Response
	for _, s := range ss {
		rs = append(rs, llmtest.Response{Text: s})
	}
	return llmtest.Script{Responses: rs}
}

// newRig starts a session whose chat_model is on main and whose one
// background entry ("spare") is on bg, with the background work hooked.
func newRig(t testing.TB, main, bg llmtest.Script, o Options, edit ...func(*agent.Options)) *rig {
	t.Helper()
	r := &rig{t: t, root: t.TempDir()}
	r.main = llmtest.Start(t, main)
	r.bg = llmtest.Start(t, bg)
	mc := func(model, url string) config.Model {
		return config.Model{Type: "openai", Model: model, BaseURL: url, Timeout: time.Minute, StallTimeout: 15 * time.Second}
	}
	cfg := &config.Config{
		Models: config.Models{
			Chat:       mc("llmtest", r.main.URL()),
			Named:      map[string]config.Model{"spare": mc("llmtest-spare", r.bg.URL())},
			Background: []string{"spare"},
		},
		Permissions: config.Permissions{Mode: string(agent.ModeAsk)},
		Agent:       config.Agent{MaxSteps: 20},
		ConfigDir:   t.TempDir(),
	}
	ao := agent.Options{Config: cfg, Env: &tools.Env{Root: r.root, Files: tools.NewFileTracker(), Todos: &tools.TodoStore{}}, Interactive: true, RetryBaseDelay: 5 * time.Millisecond}
	for _, e := range edit {
		e(&ao)
	}
	s, err := agent.NewSession(context.Background(), ao)
	if err != nil {
		t.Fatal(err)
	}
	r.s = s
	r.w = New(s.Background(), o)
	t.Cleanup(func() {
		r.w.Close()
		s.Close()
		r.main.Close()
		r.bg.Close()
	})
	return r
}

func collect(t testing.TB, ch <-chan agent.Event) []agent.Event {
	t.Helper()
	var evs []agent.Event
	timeout := time.After(deadline)
	for {
		select {
		case ev, ok := <-ch:
			if !ok {
				return evs
			}
			evs = append(evs, ev)
		case <-timeout:
			t.Fatalf("the run did not end within %s; %d events so far", deadline, len(evs))
		}
	}
}

func verdicts(evs []agent.Event) []Verdict {
	var out []Verdict
	for _, ev := range evs {
		if v, _ := ev.Data.(Verdict); ev.Type == agent.EventGoal && v.State != Set {
			out = append(out, v)
		}
	}
	return out
}

func turnEnds(evs []agent.Event) []agent.Event {
	var out []agent.Event
	for _, ev := range evs {
		if ev.Type == agent.EventTurnEnded {
			out = append(out, ev)
		}
	}
	return out
}

// lastUser is the text of the last user message of a request.
func lastUser(req *llmtest.ChatRequest) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == "user" {
			return string(req.Messages[i].Content)
		}
	}
	return ""
}

// A goal met on the third turn: the judge (on the background entry, never
// chat_model) says what is missing twice, each time the next turn starts
// with its words, and the run stops after the third turn.
func TestGoalMetOnTheThirdTurn(t *testing.T) {
	r := newRig(t, texts("wrote a.txt", "wrote b.txt", "wrote c.txt"),
		texts("NOT MET: b.txt is missing", "NOT MET: c.txt is missing", "MET"), Options{NoNotes: true})
	r.w.SetGoal("a.txt, b.txt and c.txt exist")
	evs := collect(t, r.w.Follow(context.Background(), r.s.Run(context.Background(), "write a.txt"), "write a.txt", r.s.Run))
	if v, _ := evs[0].Data.(Verdict); evs[0].Type != agent.EventGoal || v.State != Set {
		t.Errorf("the run does not start with the goal's card: %+v", evs[0])
	}
	ends := turnEnds(evs)
	if len(ends) != 3 {
		t.Fatalf("%d turns, want 3", len(ends))
	}
	if err := ends[2].Err; err != nil {
		t.Errorf("the run ended with %v", err)
	}
	var states []State
	for _, v := range verdicts(evs) {
		states = append(states, v.State)
	}
	if want := []State{NotMet, NotMet, Met}; !slicesEqual(states, want) {
		t.Errorf("verdicts %v, want %v", states, want)
	}
	reqs := r.main.ChatRequests()
	if len(reqs) != 3 {
		t.Fatalf("chat_model got %d requests, want the three turns' (the judge goes to the background entry)", len(reqs))
	}
	if got := lastUser(reqs[1]); !strings.Contains(got, "b.txt is missing") {
		t.Errorf("the second turn's prompt %q, want the judge's words", got)
	}
	if got := lastUser(reqs[2]); !strings.Contains(got, "c.txt is missing") {
		t.Errorf("the third turn's prompt %q, want the judge's words", got)
	}
	judged := r.bg.ChatRequests()
	if len(judged) != 3 {
		t.Fatalf("the background entry got %d requests, want the three verdicts", len(judged))
	}
	if j := judged[2]; len(j.Tools) != 0 || !strings.Contains(lastUser(j), "a.txt, b.txt and c.txt exist") || !strings.Contains(lastUser(j), "wrote c.txt") {
		t.Errorf("the judge's request (tools %d) does not hold the goal and the conversation: %q", len(j.Tools), lastUser(j))
	}
}

// An impossible goal stops at once: one turn, the run's error says why.
func TestGoalImpossibleStopsAtOnce(t *testing.T) {
	r := newRig(t, texts("I cannot reach the network.", "never sent"), texts("IMPOSSIBLE: there is no network here"), Options{NoNotes: true})
	evs := collect(t, r.w.RunGoal(context.Background(), r.s.Run, "download the dataset", "download it"))
	ends := turnEnds(evs)
	if len(ends) != 1 {
		t.Fatalf("%d turns, want 1", len(ends))
	}
	if !errors.Is(ends[0].Err, ErrGoalImpossible) || !strings.Contains(ends[0].Err.Error(), "no network") {
		t.Errorf("the run ended with %v, want the goal impossible", ends[0].Err)
	}
	if vs := verdicts(evs); len(vs) != 1 || vs[0].State != Impossible {
		t.Errorf("verdicts %+v", vs)
	}
	if n := len(r.main.ChatRequests()); n != 1 {
		t.Errorf("chat_model got %d requests, want 1", n)
	}
}

// A judge that cannot be reached stops the loop after the turn, without
// failing it, and says so.
func TestGoalDeadJudgeStopsWithAMessage(t *testing.T) {
	r := newRig(t, texts("done, I think", "never sent"), texts("MET"), Options{NoNotes: true})
	r.bg.Close()
	evs := collect(t, r.w.RunGoal(context.Background(), r.s.Run, "tests pass", "make the tests pass"))
	ends := turnEnds(evs)
	if len(ends) != 1 || ends[0].Err != nil {
		t.Fatalf("turns %d, end %v: want one turn that stands", len(ends), ends)
	}
	vs := verdicts(evs)
	if len(vs) != 1 || vs[0].State != Failed || !strings.Contains(vs[0].Line(), "judge failed") {
		t.Errorf("verdicts %+v, want the judge's failure", vs)
	}
	if n := len(r.main.ChatRequests()); n != 1 {
		t.Errorf("chat_model got %d requests, want 1", n)
	}
}

// The judge's answer is read in its three forms, and anything else is a
// failure.
func TestParseVerdict(t *testing.T) {
	for in, want := range map[string]State{"MET": Met, "**NOT MET**: x": NotMet, "Impossible — y": Impossible, "not met: z\nmore": NotMet} {
		if got, _, err := parseVerdict(in); err != nil || got != want {
			t.Errorf("%q: %v %v, want %v", in, got, err, want)
		}
	}
	if _, _, err := parseVerdict("I think so"); err == nil {
		t.Error("an answer in no form was read")
	}
}

func slicesEqual[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// waitNotes waits until no note is being written.
func waitNotes(t testing.TB, w *Work) {
	t.Helper()
	for end := time.Now().Add(deadline); w.Notes().Pending() > 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the notes were not written in time")
		}
	}
}

// After five turns with their notes written on the background entry,
// compaction sends no summary request, and the request after it holds
// the notes.
func TestCompactionUsesTheNotes(t *testing.T) {
	r := newRig(t, texts("one", "two", "three", "four", "five", "six"),
		texts("NOTE-1", "NOTE-2", "NOTE-3", "NOTE-4", "NOTE-5"), Options{})
	ctx := context.Background()
	for i := range 5 {
		evs := collect(t, r.s.Run(ctx, "step "+string(rune('1'+i))))
		if end := turnEnds(evs); len(end) != 1 || end[0].Err != nil {
			t.Fatalf("turn %d: %v", i+1, end)
		}
		waitNotes(t, r.w)
	}
	evs := collect(t, r.s.Compact(ctx, ""))
	var done *agent.Compaction
	for _, ev := range evs {
		if ev.Type == agent.EventCompacted {
			if ev.Err != nil {
				t.Fatal(ev.Err)
			}
			done = ev.Compact
		}
	}
	if done == nil || !done.FromNotes {
		t.Fatalf("the compaction %+v did not use the notes", done)
	}
	if n := len(r.main.ChatRequests()); n != 5 {
		t.Errorf("chat_model got %d requests, want the five turns' (no summary request)", n)
	}
	if n := len(r.bg.ChatRequests()); n != 5 {
		t.Errorf("the background entry got %d requests, want the five notes", n)
	}
	collect(t, r.s.Run(ctx, "go on"))
	reqs := r.main.ChatRequests()
	body := ""
	for _, m := range reqs[len(reqs)-1].Messages {
		body += string(m.Content) + "\n"
	}
	for i := 1; i <= 5; i++ {
		if want := "NOTE-" + string(rune('0'+i)); !strings.Contains(body, want) {
			t.Errorf("the request after the compaction lacks %s", want)
		}
	}
	if strings.Contains(body, "step 1") {
		t.Error("the request after the compaction still holds the first turn")
	}
}

// Notes not yet written: compaction asks for a summary, as without notes.
func TestCompactionWithoutNotesSummarises(t *testing.T) {
	r := newRig(t, texts("one", "SUMMARY"), llmtest.Script{Responses: []llmtest.Response{{Text: "late", Delay: llmtest.Duration(time.Second), ChunkSize: 1}}}, Options{})
	ctx := context.Background()
	collect(t, r.s.Run(ctx, "step 1"))
	for _, ev := range collect(t, r.s.Compact(ctx, "")) {
		if ev.Type == agent.EventCompacted && (ev.Err != nil || ev.Compact.FromNotes) {
			t.Fatalf("compaction %+v %v, want a summary", ev.Compact, ev.Err)
		}
	}
	if n := len(r.main.ChatRequests()); n != 2 {
		t.Errorf("chat_model got %d requests, want the turn's and the summary's", n)
	}
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v: %s", args, err, out)
	}
	return string(out)
}

// gitProject makes root a repository with one commit, its identity in a
// HOME of the test's.
func gitProject(t *testing.T, root string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[user]\n\tname = Test\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, root, "init", "-q")
	if err := os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, root, "add", ".")
	git(t, root, "commit", "-q", "-m", "first")
}

// The drafter drafts a message for git diff HEAD on the background entry
// (new files included), and Commit commits exactly the message given.
func TestDrafterCommitsExactlyTheMessage(t *testing.T) {
	const msg = "a: say hello\n\nThe greeting is in b.go, a new file."
	r := newRig(t, texts("unused"), texts("```\n"+msg+"\n```"), Options{NoNotes: true})
	gitProject(t, r.root)
	ctx := context.Background()
	if _, err := r.w.Drafter().Current(ctx); !errors.Is(err, ErrClean) {
		t.Fatalf("a clean tree: %v, want ErrClean", err)
	}
	if err := os.WriteFile(filepath.Join(r.root, "a.go"), []byte("package a\n\nvar Hello = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.root, "b.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := r.w.Drafter().Current(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d.Message != msg {
		t.Errorf("draft %q, want %q", d.Message, msg)
	}
	if !strings.Contains(d.Stat, "a.go") || !strings.Contains(d.Stat, "b.go") {
		t.Errorf("stat %q lacks the files", d.Stat)
	}
	reqs := r.bg.ChatRequests()
	if len(reqs) != 1 || !strings.Contains(lastUser(reqs[0]), "var Hello") || !strings.Contains(lastUser(reqs[0]), "b.go") {
		t.Fatalf("the draft request does not hold the diff")
	}
	if n := len(r.main.ChatRequests()); n != 0 {
		t.Errorf("chat_model got %d requests", n)
	}
	again, err := r.w.Drafter().Current(ctx)
	if err != nil || again.Message != msg || len(r.bg.ChatRequests()) != 1 {
		t.Errorf("the same diff drafted again: %v %q", err, again.Message)
	}
	id, err := r.w.Drafter().Commit(ctx, d.Message)
	if err != nil {
		t.Fatal(err)
	}
	if got := git(t, r.root, "log", "-1", "--format=%B", id); strings.TrimSuffix(got, "\n") != msg {
		t.Errorf("committed %q, want exactly %q", got, msg)
	}
	if st := git(t, r.root, "status", "--porcelain"); st != "" {
		t.Errorf("left uncommitted: %q", st)
	}
}

// The server says the request no longer fits (a 400 of context length):
// the reactive compaction in the turn takes the notes of the turns
// before, sends no summary request, and the turn goes on with its request.
func TestOverflowCompactionUsesTheNotes(t *testing.T) {
	main := texts("one", "two", "three", "four", "five")
	main.Responses = append(main.Responses, llmtest.Response{Fault: &llmtest.Fault{Kind: llmtest.ContextLength}}, llmtest.Response{Text: "fits now"})
	r := newRig(t, main, texts("NOTE-1", "NOTE-2", "NOTE-3", "NOTE-4", "NOTE-5", "NOTE-6"), Options{})
	ctx := context.Background()
	for i := range 5 {
		collect(t, r.s.Run(ctx, "step "+string(rune('1'+i))))
		waitNotes(t, r.w)
	}
	evs := collect(t, r.s.Run(ctx, "the big one"))
	var done *agent.Compaction
	for _, ev := range evs {
		if ev.Type == agent.EventCompacted && ev.Err == nil {
			done = ev.Compact
		}
	}
	if end := turnEnds(evs); len(end) != 1 || end[0].Err != nil {
		t.Fatalf("the turn ended %v", end)
	}
	if done == nil || !done.FromNotes || done.Reason != "overflow" {
		t.Fatalf("compaction %+v, want one from the notes on overflow", done)
	}
	reqs := r.main.ChatRequests()
	if len(reqs) != 7 {
		t.Fatalf("chat_model got %d requests, want 5 turns, the refused one and its retry (no summary)", len(reqs))
	}
	if got := lastUser(reqs[6]); !strings.Contains(got, "NOTE-5") || !strings.Contains(got, "the big one") {
		t.Errorf("the retried request's user message %q lacks the notes or the request", got)
	}
}

// Automatic compaction (agent.auto_compact) takes the notes too: the
// window fills over long answers, the conversation is compacted before a
// request, and no summary request is sent.
func TestAutoCompactionUsesTheNotes(t *testing.T) {
	long := strings.Repeat("A long answer line. ", 200)
	r := newRig(t, texts(long, long, long, long, long, long), texts("NOTE-1", "NOTE-2", "NOTE-3", "NOTE-4", "NOTE-5", "NOTE-6"), Options{},
		func(o *agent.Options) {
			o.Config.Agent.AutoCompact = 85
			o.Config.Models.Chat.ContextWindow = 4000
		})
	ctx := context.Background()
	var auto *agent.Compaction
	for i := range 5 {
		evs := collect(t, r.s.Run(ctx, "step "+string(rune('1'+i))))
		for _, ev := range evs {
			if ev.Type == agent.EventCompacted {
				if ev.Err != nil {
					t.Fatal(ev.Err)
				}
				auto = ev.Compact
			}
		}
		waitNotes(t, r.w)
	}
	if auto == nil || auto.Reason != "auto" || !auto.FromNotes {
		t.Fatalf("compaction %+v, want an automatic one from the notes", auto)
	}
	if n := len(r.main.ChatRequests()); n != 5 {
		t.Errorf("chat_model got %d requests, want the five turns' (no summary)", n)
	}
}

// Esc (the run's context) stops a goal while its judge thinks: the run
// ends cancelled after the one turn, and no next turn starts.
func TestGoalStopsOnEsc(t *testing.T) {
	slow := &llmtest.Fault{Kind: llmtest.Stall, Stall: llmtest.Duration(deadline)}
	r := newRig(t, texts("one", "never sent"), llmtest.Script{Responses: []llmtest.Response{{Text: "NOT MET: more", Fault: slow}}}, Options{NoNotes: true})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var evs []agent.Event
	for ev := range r.w.RunGoal(ctx, r.s.Run, "more", "start") {
		evs = append(evs, ev)
		if ev.Type == agent.EventText {
			go func() {
				for len(r.bg.Requests()) == 0 {
					time.Sleep(5 * time.Millisecond)
				}
				cancel() // the judge has been asked
			}()
		}
	}
	ends := turnEnds(evs)
	if len(ends) != 1 || !errors.Is(ends[0].Err, agent.ErrCancelled) {
		t.Fatalf("turns %v, want one, cancelled", ends)
	}
	if n := len(r.main.ChatRequests()); n != 1 {
		t.Errorf("chat_model got %d requests after Esc", n)
	}
}

// In a trusted project the draft is kept up to date in the background: a
// turn after which the tree differs from HEAD gets a draft on the
// background entry, /commit then shows it without asking again, and a turn
// that changed nothing drafts nothing.
func TestDrafterRefreshesAfterATurnThatChangedFiles(t *testing.T) {
	const msg = "a: the answer is 42"
	root := t.TempDir()
	gitProject(t, root)
	r := newRig(t, texts("changed a.go", "changed nothing"), texts(msg), Options{NoNotes: true}, func(o *agent.Options) {
		o.Env.Root = root
		o.Trust = &trust.Decision{Dir: root}
	})
	ctx := context.Background()
	if err := os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\n\nconst Answer = 42\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	collect(t, r.s.Run(ctx, "change a.go"))
	for end := time.Now().Add(deadline); len(r.bg.ChatRequests()) == 0 || r.w.Drafter().Busy(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("no draft was written after the turn")
		}
	}
	d, err := r.w.Drafter().Current(ctx)
	if err != nil || d.Message != msg {
		t.Fatalf("draft %q (%v), want %q", d.Message, err, msg)
	}
	collect(t, r.s.Run(ctx, "look only"))
	r.w.Close() // waits for what the turn's end started
	if n := len(r.bg.ChatRequests()); n != 1 {
		t.Errorf("the background entry got %d draft requests, want 1 (the second turn changed nothing)", n)
	}
}

// The notes are kept in the session: resumed in another fawn, the
// conversation compacts from them, with no request at all.
func TestNotesSurviveAResume(t *testing.T) {
	data, root := t.TempDir(), t.TempDir()
	st, err := session.New(data, root, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	withStore := func(o *agent.Options) {
		o.Env.Root = root
		o.Store = st
	}
	first := newRig(t, texts("one", "two"), texts("NOTE-1", "NOTE-2"), Options{}, withStore)
	ctx := context.Background()
	for _, p := range []string{"step 1", "step 2"} {
		collect(t, first.s.Run(ctx, p))
		waitNotes(t, first.w)
	}
	id := first.s.ID()
	first.s.Close()

	second := newRig(t, llmtest.Script{}, llmtest.Script{}, Options{}, withStore)
	if _, err := second.s.Resume(id); err != nil {
		t.Fatal(err)
	}
	var done *agent.Compaction
	for _, ev := range collect(t, second.s.Compact(ctx, "")) {
		if ev.Type == agent.EventCompacted {
			done = ev.Compact
		}
	}
	if done == nil || !done.FromNotes || !strings.Contains(done.Summary, "NOTE-1") || !strings.Contains(done.Summary, "NOTE-2") {
		t.Fatalf("compaction %+v, want one from the two notes kept", done)
	}
	if n := len(second.main.Requests()) + len(second.bg.Requests()); n != 0 {
		t.Errorf("%d requests after the resume, want none", n)
	}
}

// With the notes of the first turns written and the last one's not yet,
// the summary request sends those notes in place of their turns and the
// transcript of the rest only; the card says so.
func TestCompactionSendsTheNotesWrittenAndTheRest(t *testing.T) {
	r := newRig(t, texts("one", "two", "three", "SUMMARY"), llmtest.Script{Responses: []llmtest.Response{
		{Text: "NOTE-1"}, {Text: "NOTE-2"}, {Text: "late", Delay: llmtest.Duration(time.Second), ChunkSize: 1},
	}}, Options{})
	ctx := context.Background()
	for i := range 2 {
		collect(t, r.s.Run(ctx, "step "+string(rune('1'+i))))
		waitNotes(t, r.w)
	}
	collect(t, r.s.Run(ctx, "step 3"))
	var done *agent.Compaction
	for _, ev := range collect(t, r.s.Compact(ctx, "")) {
		if ev.Type == agent.EventCompacted {
			if ev.Err != nil {
				t.Fatal(ev.Err)
			}
			done = ev.Compact
		}
	}
	if done == nil || done.FromNotes || done.NotedMessages != 4 || done.Summary != "SUMMARY" {
		t.Fatalf("compaction %+v, want a summary of the two notes and the third turn", done)
	}
	reqs := r.main.ChatRequests()
	sent := string(reqs[len(reqs)-1].Messages[len(reqs[len(reqs)-1].Messages)-1].Content)
	for _, want := range []string{"<notes>", "NOTE-1", "NOTE-2", "step 3"} {
		if !strings.Contains(sent, want) {
			t.Errorf("the summary request lacks %q:\n%s", want, sent)
		}
	}
	if strings.Contains(sent, "step 1") || strings.Contains(sent, "step 2") {
		t.Errorf("the summary request still holds the noted turns:\n%s", sent)
	}
}
