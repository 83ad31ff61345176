package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// Three scripted servers: chat_model, a background entry (spare) and a
// fallback (rescue). After a prompt the status bar shows the turn's note
// being written and the entry it goes to; when chat_model fails, the card
// says it is down and which entry took over, and the turn finishes there.
func TestBackgroundWorkAndFailoverOnScreen(t *testing.T) {
	fail := &llmtest.Fault{Kind: llmtest.ServerError, Status: 503}
	main := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "Answered by chat_model."},
		{Fault: fail}, {Fault: fail}, {Fault: fail}, {Fault: fail}, {Fault: fail},
	}})
	// The note is answered after a pause, so that the status bar shows it.
	slow := &llmtest.Fault{Kind: llmtest.Stall, Stall: llmtest.Duration(1500 * time.Millisecond)}
	spare := llmtest.Start(t, llmtest.Script{Loop: true, Responses: []llmtest.Response{{Text: "## Goal\nnoted", Fault: slow}}})
	rescue := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: "Answered by the rescue."}}})
	conf := filepath.Join(t.TempDir(), "models.yaml")
	writeFile(t, conf, "models:\n  chat_model:\n    fallbacks: [rescue]\n  named:\n    spare:\n      model: spare\n      base_url: "+spare.URL()+
		"\n    rescue:\n      model: rescue\n      base_url: "+rescue.URL()+"\n  background: [spare]\n  retry_delay: 50ms\n")
	tm := startIDE(t, main, "", "--config", conf)
	statusHas := func(what, want string) {
		t.Helper()
		tm.WaitUntil(what, func(s string) bool {
			lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
			return strings.Contains(lines[len(lines)-1], want)
		})
	}
	tm.prompt("hello")
	tm.WaitFor("Answered by chat_model.")
	statusHas("the status bar to show the note under way on spare", "⟳ turn note → spare")
	tm.WaitUntil("the note to be written", func(s string) bool {
		lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
		return !strings.Contains(lines[len(lines)-1], "turn note")
	})

	tm.prompt("again")
	tm.WaitFor("default down (server error (503)) → using rescue")
	tm.WaitFor("Answered by the rescue.")
	statusHas("the status bar to name the model in use and the failover", "openai/rescue │ default down → using rescue")
	if n := len(spare.ChatRequests()); n < 1 {
		t.Errorf("the background entry got no request")
	}
	for _, r := range main.ChatRequests() {
		for _, m := range r.Messages {
			if strings.Contains(string(m.Content), "keep notes of a coding session") {
				t.Error("a note's request went to chat_model")
			}
		}
	}
}

// fawn -p --goal: the judge (on the background entry) says what is
// missing, the next turn starts with it, and the run ends after the turn
// the judge found the goal met, with that turn's answer; an impossible
// goal exits 1 after one turn.
func TestHeadlessGoal(t *testing.T) {
	main := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: "Wrote a.txt."}, {Text: "Wrote b.txt as well."}, {Text: "Cannot."}, {Text: "Plain."}}})
	// After each turn the spare gets the turn's note and the judge's
	// question, in either order: each pair answers alike.
	notMet, met, impossible := llmtest.Response{Text: "NOT MET: b.txt is missing"}, llmtest.Response{Text: "MET"}, llmtest.Response{Text: "IMPOSSIBLE: there is no such file system"}
	spare := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{notMet, notMet, met, met, impossible, impossible}})
	conf := filepath.Join(t.TempDir(), "models.yaml")
	writeFile(t, conf, "models:\n  named:\n    spare:\n      model: spare\n      base_url: "+spare.URL()+"\n  background: [spare]\n")
	dir := project(t)
	out, errOut, code := runHeadless(t, main, dir, "--config", conf, "-p", "write a.txt", "--goal", "a.txt and b.txt exist")
	if code != 0 || strings.TrimSpace(out) != "Wrote b.txt as well." {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, out, errOut)
	}
	for _, want := range []string{"◎ goal: a.txt and b.txt exist", "◎ goal not met (turn 1 of 10): b.txt is missing", "◎ goal met after 2 turns"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if reqs := main.ChatRequests(); len(reqs) != 2 {
		t.Fatalf("chat_model got %d requests, want the two turns'", len(reqs))
	}
	_, errOut, code = runHeadless(t, main, dir, "--config", conf, "-p", "write to /nowhere", "--goal", "the file is on the moon")
	if code != 1 || !strings.Contains(errOut, "goal impossible: there is no such file system") {
		t.Errorf("exit %d, stderr %s; want 1 and the judge's reason", code, errOut)
	}
	if reqs := main.ChatRequests(); len(reqs) != 3 {
		t.Errorf("chat_model got %d requests, want one more turn", len(reqs))
	}
	// Without a goal a run sends nothing to the background entry: a note
	// begun as the run ends would be lost.
	before := len(spare.Requests())
	if out, errOut, code := runHeadless(t, main, dir, "--config", conf, "-p", "plain"); code != 0 || strings.TrimSpace(out) != "Plain." {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, out, errOut)
	}
	if n := len(spare.Requests()) - before; n != 0 {
		t.Errorf("a run without a goal sent %d requests to the background entry", n)
	}
}
