package agent

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/internal/llmtest"
	"github.com/fawn-ide/fawn/tools"
)

// pngOf makes a w×h PNG.
func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	img.Set(1, 1, color.RGBA{255, 0, 0, 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestImagesGoToAModelThatTakesThem(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{{Text: "A red dot."}}}, ModeYolo, func(o *Options) {
		o.Config.Models.Chat.Vision = "yes"
	})
	im, ok := ImageOf("dot.png", pngOf(t, 32, 32))
	if !ok || im.String() != "[image 32×32 PNG]" {
		t.Fatalf("ImageOf: %v %q", ok, im)
	}
	evs := collect(t, h.s.RunInput(context.Background(), Input{Text: "what is this?", Images: []Image{im}}), nil)
	if err := evs[len(evs)-1].Err; err != nil {
		t.Fatal(err)
	}
	last := h.srv.ChatRequests()[0].Messages
	m := last[len(last)-1]
	if string(m.Content) != "what is this?" || len(m.Images) != 1 || !strings.HasPrefix(m.Images[0], "data:image/png;base64,iVBOR") {
		t.Errorf("the user message sent: %q with images %.40q", m.Content, m.Images)
	}
}

// A model that does not take images gets no request: the turn says why and
// what to do.
func TestImagesToAModelThatDoesNot(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{{Text: "never"}}}, ModeYolo)
	im, _ := ImageOf("dot.png", pngOf(t, 4, 4))
	evs := collect(t, h.s.RunInput(context.Background(), Input{Text: "look", Images: []Image{im}}), nil)
	end := evs[len(evs)-1]
	if end.Err == nil || !strings.Contains(end.Err.Error(), "does not take images") || !strings.Contains(end.Err.Error(), "/model") {
		t.Errorf("turn ended with %v", end.Err)
	}
	if n := len(h.srv.ChatRequests()); n != 0 {
		t.Errorf("%d requests were made", n)
	}
}

// AcceptsImages follows the model SetModel switched to, and its vision
// setting (provider's tests check the names).
func TestAcceptsImagesFollowsTheModel(t *testing.T) {
	h := newHarness(t, llmtest.Script{}, ModeYolo)
	if h.s.AcceptsImages() {
		t.Error("llmtest takes images")
	}
	mc := h.s.ModelConfig()
	mc.Model = "gpt-4o"
	if err := h.s.SetModel(context.Background(), mc); err != nil {
		t.Fatal(err)
	}
	if !h.s.AcceptsImages() {
		t.Error("gpt-4o does not take images")
	}
	mc.Model, mc.Vision = "qwen2.5-coder", "yes"
	_ = h.s.SetModel(context.Background(), mc)
	if !h.s.AcceptsImages() {
		t.Error("vision: yes is not heard")
	}
	_ = h.s.SetModel(context.Background(), config.Model{Type: "anthropic", Model: "claude-x", APIKey: "k", Vision: "no"})
	if h.s.AcceptsImages() {
		t.Error("vision: no is not heard")
	}
}

// @-mentions read files as view does (and count as read), directories as a
// listing, images as images; text outside the project stays out.
func TestAttach(t *testing.T) {
	h := newHarness(t, llmtest.Script{}, ModeYolo, func(o *Options) {
		o.Tools = append(o.Tools, tools.NewTextEditor(o.Env))
	})
	h.write("main.go", "package main\n\nfunc main() {}\n")
	if err := os.MkdirAll(filepath.Join(h.root, "pkg", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	h.write("pkg/a.go", "package pkg\n")
	if err := os.WriteFile(filepath.Join(h.root, "shot.png"), pngOf(t, 20, 10), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	a, err := h.s.Attach(ctx, "main.go")
	if err != nil || !strings.Contains(a.Text, "3\tfunc main() {}") || a.Viewed == nil || a.Viewed.Path != filepath.Join(h.root, "main.go") {
		t.Errorf("file: %+v %v", a, err)
	}
	if _, ok := h.env.Files.Get(filepath.Join(h.root, "main.go")); !ok {
		t.Error("the mentioned file does not count as read")
	}
	d, err := h.s.Attach(ctx, "pkg/")
	if err != nil || !d.Dir || !strings.Contains(d.Text, "a.go") || !strings.Contains(d.Text, "sub/") {
		t.Errorf("dir: %+v %v", d, err)
	}
	im, err := h.s.Attach(ctx, "shot.png")
	if err != nil || im.Image == nil || im.Image.String() != "[image 20×10 PNG]" || im.Text != "" {
		t.Errorf("image: %+v %v", im, err)
	}
	outside := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(outside, []byte("secret\n"), 0o644)
	if a, err := h.s.Attach(ctx, outside); err == nil {
		t.Errorf("a text file outside the project was attached: %q", a.Text)
	}
	outPNG := filepath.Join(t.TempDir(), "screenshot.png")
	os.WriteFile(outPNG, pngOf(t, 8, 8), 0o644)
	if a, err := h.s.Attach(ctx, outPNG); err != nil || a.Image == nil {
		t.Errorf("an image the user points at outside the project: %+v %v", a, err)
	}
	if _, err := h.s.Attach(ctx, "nope.go"); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing: %v", err)
	}
}

// A mention of a FIFO or a device ends with a message, never waits for a
// writer: a hostile repository can hold a FIFO named like a source file.
func TestAttachSpecialFilesNeverBlock(t *testing.T) {
	h := newHarness(t, llmtest.Script{}, ModeYolo, func(o *Options) {
		o.Tools = append(o.Tools, tools.NewTextEditor(o.Env))
	})
	fifo := filepath.Join(h.root, "shot.png")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"shot.png", fifo} {
		done := make(chan error, 1)
		go func() {
			_, err := h.s.Attach(context.Background(), p)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("attaching the FIFO %s said nothing", p)
			}
		case <-time.After(30 * time.Second):
			// Unblock the reader so the test ends.
			if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
				f.Close()
			}
			t.Fatalf("attaching the FIFO %s waited for a writer", p)
		}
	}
}
