package e2e

import (
	"bytes"
	"image"
	"image/png"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// @ in the real binary: the file finder's completion, the file attached as
// view shows it and opened in a tab, an image sent as an image.
func TestMentionsAttachFilesAndImages(t *testing.T) {
	project := t.TempDir()
	writeFile(t, filepath.Join(project, "calc", "sum.go"), "package calc\n\n// Sum adds.\nfunc Sum(a, b int) int { return a + b }\n")
	img := image.NewRGBA(image.Rect(0, 0, 32, 32))
	var b bytes.Buffer
	png.Encode(&b, img)
	writeFile(t, filepath.Join(project, "shot.png"), b.String())
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "Sum adds two ints."}, {Text: "It is a black square."},
	}})
	tm := startIDE(t, srv, project, "--model", "gpt-4o")
	tm.Type("what does @sumg")
	tm.WaitFor("@calc/sum.go")
	tm.Keys("Tab")
	tm.Type("do?")
	tm.Keys("Enter")
	tm.WaitFor("Sum adds two ints.", "↳ calc/sum.go · whole file")
	tm.WaitFor("// Sum adds.") // the file is open in the editor
	msgs := srv.ChatRequests()[0].Messages
	sent := string(msgs[len(msgs)-1].Content)
	if !strings.Contains(sent, "what does @calc/sum.go do?") || !strings.Contains(sent, "4\tfunc Sum(a, b int) int") {
		t.Errorf("the model was sent:\n%s", sent)
	}
	tm.prompt("and @shot.png?")
	tm.WaitFor("It is a black square.", "[image 32×32 PNG]")
	msgs = srv.ChatRequests()[1].Messages
	if m := msgs[len(msgs)-1]; len(m.Images) != 1 {
		t.Errorf("the image was not sent as an image: %+v", m)
	}
}

// An image for a model that does not take images: nothing is sent, the
// message comes back to the input, and the chat says why and what to do.
func TestImageToAModelWithoutVision(t *testing.T) {
	project := t.TempDir()
	img := image.NewRGBA(image.Rect(0, 0, 8, 8))
	var b bytes.Buffer
	png.Encode(&b, img)
	writeFile(t, filepath.Join(project, "shot.png"), b.String())
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: "never sent"}}})
	tm := startIDE(t, srv, project) // --model scripted: not a model known to take images
	tm.prompt("what is in @shot.png")
	tm.WaitFor("does not take images", "/model", "› what is in @shot.png")
	if n := len(srv.ChatRequests()); n != 0 {
		t.Errorf("%d requests were sent", n)
	}
}
