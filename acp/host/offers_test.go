package host_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/acp/host"
	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/secret"
)

// The tests of what fawn offers of a hosted agent beyond its turns: its
// log, slash commands, sign-in, past conversations and @-mentions.

// TestTrace: the log keeps the protocol both ways beside the agent's
// stderr, with the secrets fawn knows hidden.
func TestTrace(t *testing.T) {
	f := newFixture(t, "edit", func(o *host.Options) { o.Redactor = secret.NewRedactor("sk-trace-secret") })
	if err := os.WriteFile(filepath.Join(f.root, "hello.txt"), []byte("hello, wrld\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	collect(t, f.h.Run(context.Background(), "use sk-trace-secret"))
	f.h.Close()
	tail, err := host.LogTail(f.h.LogPath(), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`> {"jsonrpc":"2.0"`, `"method":"initialize"`, `"method":"session/prompt"`, `< {"jsonrpc":"2.0"`, `"sessionUpdate":"tool_call"`, "use [redacted]", "scripted agent up"} {
		if !strings.Contains(tail, want) {
			t.Errorf("the log lacks %q:\n%s", want, tail)
		}
	}
	if strings.Contains(tail, "sk-trace-secret") {
		t.Errorf("the log shows the secret:\n%s", tail)
	}
	if short, _ := host.LogTail(f.h.LogPath(), 200); len(short) > 200 || strings.Contains(tail, short) == false {
		t.Errorf("LogTail(200) = %q", short)
	}
}

// TestAgentCommands: the slash commands the agent offers (sent before any
// prompt) are kept, those a slash and a word cannot name left out; a
// prompt naming one goes to the agent as it is.
func TestAgentCommands(t *testing.T) {
	f := newFixture(t, "commands", nil)
	if got := f.h.AgentCommands(); len(got) != 0 {
		t.Errorf("commands before the agent started: %+v", got)
	}
	collect(t, f.h.Run(context.Background(), "hello"))
	got := f.h.AgentCommands()
	if len(got) != 2 || got[0].Name != "review" || got[0].Hint != "what to review" || got[0].Description != "Review the changes" || got[1].Name != "compact" {
		t.Errorf("AgentCommands() = %+v", got)
	}
	collect(t, f.h.Run(context.Background(), "/review the diff"))
	if r := f.reportText(t); !strings.Contains(r, "prompt 2: /review the diff") {
		t.Errorf("report: %q", r)
	}
}

// TestAuthenticate: an agent that wants the user signed in fails the turn
// saying so and naming its ways; its own way (Authenticate) signs in, and
// the next message goes through.
func TestAuthenticate(t *testing.T) {
	f := newFixture(t, "auth", nil)
	evs := collect(t, f.h.Run(context.Background(), "hello"))
	err := last(evs).Err
	if !errors.Is(err, host.ErrAuthRequired) {
		t.Fatalf("the turn's error: %v", err)
	}
	for _, want := range []string{"Scripted sign-in", "API key (set SCRIPTED_API_KEY under agents.scripted.env", "/agent login"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error %q does not say %q", err, want)
		}
	}
	ms := f.h.AuthMethods()
	if len(ms) != 2 || ms[0].ID != "token" || ms[0].Kind != "agent" || ms[1].Kind != "env_var" {
		t.Fatalf("AuthMethods() = %+v", ms)
	}
	if err := f.h.Authenticate(context.Background(), "nope"); err == nil || !strings.Contains(err.Error(), "did not sign in") {
		t.Errorf("a way the agent refuses: %v", err)
	}
	if err := f.h.Authenticate(context.Background(), "token"); err != nil {
		t.Fatal(err)
	}
	evs = collect(t, f.h.Run(context.Background(), "hello again"))
	if err := last(evs).Err; err != nil {
		t.Fatalf("after signing in: %v", err)
	}
	if r := f.reportText(t); !strings.Contains(r, "authenticate token") || !strings.Contains(r, "prompt 1: hello again") {
		t.Errorf("report: %q", r)
	}
}

// TestEnvSignIn: an agent whose env_var way to sign in names variables
// its environment sets is signed in that way without asking (Codex asks
// to be told to use OPENAI_API_KEY); headless, the error says what to do
// without /agent login.
func TestEnvSignIn(t *testing.T) {
	f := newFixture(t, "auth", func(o *host.Options) { o.Agent.Env["SCRIPTED_API_KEY"] = "sk-given" })
	evs := collect(t, f.h.Run(context.Background(), "hello"))
	if err := last(evs).Err; err != nil {
		t.Fatalf("with the key set: %v", err)
	}
	if r := f.reportText(t); !strings.Contains(r, "authenticate key") || !strings.Contains(r, "prompt 1: hello") {
		t.Errorf("report: %q", r)
	}
	g := newFixture(t, "auth", func(o *host.Options) { o.Interactive = false })
	err := last(collect(t, g.h.Run(context.Background(), "hello"))).Err
	if !errors.Is(err, host.ErrAuthRequired) || strings.Contains(err.Error(), "/agent login") {
		t.Errorf("headless: %v", err)
	}
}

// TestLoad: a conversation the agent had before is loaded (session/load):
// its history comes back as a resumed session's transcript — the user's
// messages, the agent's thought and words, its calls under the message
// that made them with their results — and the next prompt carries it on.
// A new conversation's ID is told to OnSession.
func TestLoad(t *testing.T) {
	var opened []string
	f := newFixture(t, "load", func(o *host.Options) { o.OnSession = func(id string) { opened = append(opened, id) } })
	res, err := f.h.Load(context.Background(), "s-old")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range res.Log.Transcript {
		m := e.Message
		s := m.Role + ":" + m.Content
		if m.Reasoning != "" {
			s += " (" + m.Reasoning + ")"
		}
		for _, c := range m.ToolCalls {
			s += " [" + c.Name + " " + c.ID + "]"
		}
		got = append(got, s)
	}
	want := []string{"user:fix the greeting", "assistant:I fixed the greeting. (the greeting is wrong) [text_editor e1] [execute x1]",
		"user:thanks", "assistant:You are welcome.", "tool:Edit hello.txt", "tool:error: make: no rule"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("transcript:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if res.Log.Info.ID != "s-old" || f.h.ID() != "s-old" {
		t.Errorf("session %q, host %q", res.Log.Info.ID, f.h.ID())
	}
	evs := collect(t, f.h.Run(context.Background(), "and the tests?"))
	if err := last(evs).Err; err != nil {
		t.Fatal(err)
	}
	if r := f.reportText(t); !strings.Contains(r, "load s-old") || !strings.Contains(r, "prompt in s-old") {
		t.Errorf("report: %q", r)
	}
	if len(opened) != 0 {
		t.Errorf("a loaded conversation is not a new one: %q", opened)
	}
	f.h.Clear()
	collect(t, f.h.Run(context.Background(), "start over"))
	if len(opened) != 1 || opened[0] != "s1" {
		t.Errorf("OnSession got %q", opened)
	}

	g := newFixture(t, "edit", nil)
	if _, err := g.h.Load(context.Background(), "s-old"); !errors.Is(err, host.ErrNoLoad) {
		t.Errorf("an agent without session/load: %v", err)
	}
	if evs := collect(t, g.h.Run(context.Background(), "hello")); last(evs).Err != nil {
		t.Errorf("after a refused load, a new conversation: %v", last(evs).Err)
	}
}

// TestMentions: what the user @-mentioned goes to the agent as resources
// of the prompt, not pasted into its text: a file embedded where the agent
// takes embedded context, else linked; a directory linked; an image as an
// image where the agent takes images, and refused where it does not.
func TestMentions(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\xff\xff?\x00\x05\xfe\x02\xfe\xa7\x35\x81\x84\x00\x00\x00\x00IEND\xaeB`\x82")
	send := func(scenario string, withImage bool) (*fixture, []agent.Event) {
		f := newFixture(t, scenario, nil)
		if err := os.MkdirAll(filepath.Join(f.root, "src"), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile := func(rel, text string) {
			if err := os.WriteFile(filepath.Join(f.root, rel), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		writeFile("notes.txt", "first\nsecond\n")
		writeFile("src/a.go", "package a\n")
		writeFile("dot.png", string(png))
		in := agent.Input{Text: "look at @notes.txt and @src\n\n<attached ...pasted...>", Typed: "look at @notes.txt and @src"}
		paths := []string{"notes.txt", "src"}
		if withImage {
			paths = append(paths, "dot.png")
		}
		for _, p := range paths {
			a, err := f.h.Attach(context.Background(), p)
			if err != nil {
				t.Fatalf("Attach(%s): %v", p, err)
			}
			if a.Image != nil {
				in.Images = append(in.Images, *a.Image)
			}
			in.Attached = append(in.Attached, a)
		}
		return f, collect(t, f.h.RunInput(context.Background(), in))
	}
	f, evs := send("mention-embed", true)
	if err := last(evs).Err; err != nil {
		t.Fatal(err)
	}
	r := f.reportText(t)
	for _, want := range []string{`block text "look at @notes.txt and @src"`, `block resource file://` + f.root + `/notes.txt "first\nsecond\n"`,
		"block link src file://" + f.root + "/src", "block image image/png"} {
		if !strings.Contains(r, want) {
			t.Errorf("report lacks %q:\n%s", want, r)
		}
	}
	if strings.Contains(r, "pasted") {
		t.Errorf("the pasted text reached the agent:\n%s", r)
	}
	g, evs := send("mention", false)
	if err := last(evs).Err; err != nil {
		t.Fatal(err)
	}
	if r := g.reportText(t); !strings.Contains(r, "block link notes.txt file://"+g.root+"/notes.txt") || strings.Contains(r, "block resource") {
		t.Errorf("an agent without embedded context gets links:\n%s", r)
	}
	_, evs = send("mention", true)
	if err := last(evs).Err; err == nil || !strings.Contains(err.Error(), "does not take images") {
		t.Errorf("an image to an agent that takes none: %v", err)
	}
	if _, err := f.h.Attach(context.Background(), "/etc/hostname"); err == nil || !strings.Contains(err.Error(), "outside the project") {
		t.Errorf("a file outside the project: %v", err)
	}
}
