package agent

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/agent/provider"
	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/trust"
)

// Input is one message from the user: text, and images for a model that
// takes them.
type Input struct {
	Text   string
	Images []Image
	// Typed is what the user typed, when Text has more (the files they
	// attached); "" when Text is all of it. The session keeps it beside
	// what the model got, for titles, exports and a resumed chat.
	Typed string
	// Attached are the files and directories the user attached (their
	// text is in Text too): an agent that takes files apart from the
	// text (a hosted ACP agent) sends them as resources of the prompt.
	Attached []Attachment
}

// typedKey is the schema.Message.Extra key under which a user message
// keeps what the user typed (session.Message.Typed once stored); no
// provider sends it.
const typedKey = "fawn_typed"

// Image is an image the user attached (a pasted or @-mentioned image file)
// or a tool returned.
type Image = tools.Image

// maxImageBytes is the largest image fawn sends.
const maxImageBytes = tools.MaxImageBytes

// ImageOf reads data as an image when it is one a model takes; ok is false
// for anything else.
func ImageOf(name string, data []byte) (Image, bool) { return tools.ImageOf(name, data) }

// message is the user message the model is sent.
func (in Input) message() *schema.Message {
	if len(in.Images) == 0 {
		return schema.UserMessage(in.Text)
	}
	// The text goes in a part of its own: a message has Content or parts,
	// never both.
	m := &schema.Message{Role: schema.User}
	if in.Text != "" {
		m.UserInputMultiContent = append(m.UserInputMultiContent, schema.MessageInputPart{Type: schema.ChatMessagePartTypeText, Text: in.Text})
	}
	for _, im := range in.Images {
		data := base64.StdEncoding.EncodeToString(im.Data)
		m.UserInputMultiContent = append(m.UserInputMultiContent, schema.MessageInputPart{
			Type:  schema.ChatMessagePartTypeImageURL,
			Image: &schema.MessageInputImage{MessagePartCommon: schema.MessagePartCommon{Base64Data: &data, MIMEType: im.MIME}},
		})
	}
	return m
}

// AcceptsImages says whether the model in use (or switched to) takes images
// (provider.AcceptsImages).
func (s *Session) AcceptsImages() bool {
	return provider.AcceptsImages(s.ModelConfig())
}

// checkImages refuses images a model cannot take, saying what to do.
func (s *Session) checkImages(in Input) error {
	if len(in.Images) == 0 || s.AcceptsImages() {
		return nil
	}
	return fmt.Errorf("%s does not take images, so the message was not sent: /model switches to one that does, "+
		"or set vision: yes for this model in the configuration if it does", s.ModelName())
}

// Attachment is a file or directory the user mentioned (@path), as the
// model is given it.
type Attachment struct {
	// Path is the absolute path.
	Path string
	// Text is what the model reads: the file's lines, numbered and bounded
	// as text_editor's view bounds them, or a directory's listing; empty
	// for an image.
	Text string
	// Viewed is the range of the file the text shows (nil for a directory
	// or an image).
	Viewed *tools.FileViewed
	// Image is set when the file is an image.
	Image *Image
	Dir   bool
	// About says what was attached when it is not a file's range (an MCP
	// server's resource: "text, 2.0 KiB"), for the chip under the message.
	About string
}

// Attach reads what the user mentioned: an image file as an image; a file
// or a directory of the project as the text_editor's view gives it to the
// model — bounded the same way — which also counts as the agent having read
// the file. Images may come from anywhere the user points; text only from
// the project.
func (s *Session) Attach(ctx context.Context, path string) (Attachment, error) {
	abs := path
	if strings.HasPrefix(abs, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			abs = filepath.Join(home, abs[2:])
		}
	}
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(s.env.Root, abs)
	}
	abs = filepath.Clean(abs)
	st, err := os.Stat(abs)
	if err != nil {
		return Attachment{}, fmt.Errorf("%s: no such file or directory", path)
	}
	a := Attachment{Path: abs, Dir: st.IsDir()}
	if st.Mode().IsRegular() {
		if st.Size() <= maxImageBytes {
			if head, err := readHead(abs, 512); err == nil {
				if _, ok := ImageOf(path, head); ok {
					data, err := trust.ReadFile(abs, maxImageBytes)
					if err != nil {
						return Attachment{}, fmt.Errorf("%s: %v", path, err)
					}
					im, _ := ImageOf(filepath.Base(abs), data)
					a.Image = &im
					return a, nil
				}
			}
		} else if head, err := readHead(abs, 512); err == nil {
			if _, ok := ImageOf(path, head); ok {
				return Attachment{}, fmt.Errorf("%s is %s, more than the %s an image may have", path, tools.ByteSize(int(st.Size())), tools.ByteSize(maxImageBytes))
			}
		}
	}
	ed, ok := s.toolByName["text_editor"].(tool.InvokableTool)
	if !ok {
		return Attachment{}, errors.New("fawn cannot read files in this session (no text_editor tool)")
	}
	var viewed *tools.FileViewed
	tctx := tools.WithEmitter(ctx, func(ev any) {
		if v, ok := ev.(tools.FileViewed); ok {
			viewed = &v
		}
	})
	args := fmt.Sprintf(`{"command":"view","path":%q}`, abs)
	text, err := ed.InvokableRun(tctx, args)
	if err != nil {
		return Attachment{}, err
	}
	a.Text, a.Viewed = text, viewed
	return a, nil
}

// readHead reads the first n bytes of a regular file; opened as fawn opens
// the files it is configured by, so a file swapped for a FIFO after the
// Stat never blocks.
func readHead(path string, n int) ([]byte, error) {
	f, err := trust.OpenFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, n)
	k, err := f.Read(buf)
	if k == 0 && err != nil {
		return nil, err
	}
	return buf[:k], nil
}

// toolImagesMessage is the message that gives the model the images its
// tool calls returned.
func toolImagesMessage(imgs []toolImage) *schema.Message {
	var names []string
	var in Input
	for _, ti := range imgs {
		names = append(names, fmt.Sprintf("%s from %s (call %s)", ti.img, ti.tool, ti.call))
		in.Images = append(in.Images, ti.img)
	}
	in.Text = "(fawn: the images the tool calls above returned, in order: " + strings.Join(names, "; ") + ")"
	return in.message()
}

// withoutImages replaces the images of msgs by their descriptions, for a
// model that takes none; msgs is not changed.
func withoutImages(msgs []*schema.Message) []*schema.Message {
	out := msgs
	copied := false
	for i, m := range msgs {
		if len(m.UserInputMultiContent) == 0 {
			continue
		}
		if !copied {
			out = append([]*schema.Message(nil), msgs...)
			copied = true
		}
		var text []string
		for _, p := range m.UserInputMultiContent {
			switch {
			case p.Type == schema.ChatMessagePartTypeText:
				text = append(text, p.Text)
			case p.Image != nil:
				text = append(text, "[an image, left out: the model in use does not take images]")
			}
		}
		cp := *m
		cp.UserInputMultiContent = nil
		cp.Content = strings.Join(text, "\n")
		out[i] = &cp
	}
	return out
}
