package ui

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/internal/llmtest"
	"github.com/fawn-ide/fawn/tools"
)

// mentionParts is a session with the text_editor on a project with files
// and an image, against a scripted server, and the app on it.
func mentionParts(t *testing.T, model string, responses ...llmtest.Response) (*running, *llmtest.Server, *agent.Session, *recordingEditor, string) {
	t.Helper()
	srv := llmtest.Start(t, llmtest.Script{Responses: responses})
	root := t.TempDir()
	write := func(name string, data []byte) {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("main.go", []byte("package main\n\nfunc main() {}\n"))
	write("pkg/util.go", []byte("package pkg\n"))
	img := image.NewRGBA(image.Rect(0, 0, 20, 10))
	var b bytes.Buffer
	png.Encode(&b, img)
	write("shot.png", b.Bytes())
	env, err := tools.NewEnv(root)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &config.Config{DataDir: t.TempDir(), ConfigDir: t.TempDir()}
	cfg.Models.Chat = config.Model{Type: "openai", Model: model, BaseURL: srv.URL(), Timeout: time.Minute, StallTimeout: 15 * time.Second}
	sess, err := agent.NewSession(context.Background(), agent.Options{Config: cfg, Env: env, Tools: []tools.Tool{tools.NewTextEditor(env)}, Interactive: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sess.Close)
	ed := newRecordingEditor()
	r := startApp(t, Options{Agent: sess, Services: backend.SessionServices(sess), Config: cfg, Root: env.Root, Editor: ed}, 120, 30)
	return r, srv, sess, ed, env.Root
}

// Typing @ offers the project's files; a mentioned file goes to the model as
// view shows it and opens in a tab; @dir/ attaches a listing.
func TestMentionAttachesFilesAndListings(t *testing.T) {
	r, srv, _, ed, root := mentionParts(t, "scripted", llmtest.Response{Text: "Seen them."})
	r.typeText("look at @mai")
	r.waitScreen("@main.go")
	r.key(tcell.KeyTab, 0, 0)
	r.onUI(func() {
		if got := r.app.task.input.GetText(); got != "look at @main.go " {
			t.Errorf("Tab gave %q", got)
		}
	})
	r.typeText("and @pkg/")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("Seen them.")
	s := r.text()
	for _, want := range []string{"↳ main.go · whole file", "↳ pkg/ · listing"} {
		if !strings.Contains(s, want) {
			t.Errorf("the message does not show %q:\n%s", want, s)
		}
	}
	msgs := srv.ChatRequests()[0].Messages
	sent := string(msgs[len(msgs)-1].Content)
	for _, want := range []string{"look at @main.go and @pkg/", `<attached path="main.go">`, "3\tfunc main() {}", `<attached path="pkg/"`, "util.go"} {
		if !strings.Contains(sent, want) {
			t.Errorf("the model was not sent %q:\n%s", want, sent)
		}
	}
	r.onUI(func() {
		if len(ed.viewed) != 1 || ed.viewed[0].Path != filepath.Join(root, "main.go") {
			t.Errorf("the editor was shown %+v", ed.viewed)
		}
	})
}

// An @-mentioned (or pasted) image goes to a model that takes images as an
// image; a model that does not gets nothing, and the user is told why.
func TestMentionedImages(t *testing.T) {
	r, srv, sess, _, root := mentionParts(t, "gpt-4o", llmtest.Response{Text: "A black rectangle."})
	r.onUI(func() { r.app.handlePaste(filepath.Join(root, "shot.png")) })
	r.onUI(func() {
		if got := r.app.task.input.GetText(); got != "@shot.png " {
			t.Errorf("pasting an image's path gave %q", got)
		}
	})
	r.typeText("what is it?")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("A black rectangle.")
	r.waitScreen("↳ shot.png · [image 20×10 PNG]")
	msgs := srv.ChatRequests()[0].Messages
	if m := msgs[len(msgs)-1]; len(m.Images) != 1 || !strings.HasPrefix(m.Images[0], "data:image/png;base64,") {
		t.Errorf("the image was not sent: %+v", m)
	}

	mc := sess.ModelConfig()
	mc.Model = "qwen2.5-coder"
	if err := sess.SetModel(context.Background(), mc); err != nil {
		t.Fatal(err)
	}
	r.typeText("and @shot.png?")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("does not take images")
	r.onUI(func() {
		if got := r.app.task.input.GetText(); got != "and @shot.png?" {
			t.Errorf("the message is not back in the input: %q", got)
		}
	})
	if n := len(srv.ChatRequests()); n != 1 {
		t.Errorf("%d requests: the image went to a model that does not take images", n)
	}
}
