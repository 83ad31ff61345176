package host

import (
	"context"
	"encoding/base64"
	"fmt"
	"mime"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	acp "github.com/coder/acp-go-sdk"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/project"
	"github.com/fawn-ide/fawn/tools"
)

// The @-mentions of a prompt go to the agent as ACP resources, not pasted
// into its text: a file's content embedded (a "resource" block) where the
// agent takes embedded context, else a link to it (a "resource_link",
// which every agent takes) for the agent to read itself; a directory as a
// link; an image as an image where the agent takes images.

// Attach reads what the user mentioned: an image as an image, a file or a
// directory of the project as its text (which the chat shows as attached,
// and the agent gets as a resource).
func (h *Host) Attach(_ context.Context, path string) (agent.Attachment, error) {
	p := h.abs(path)
	st, err := os.Stat(p)
	if err != nil {
		return agent.Attachment{}, fmt.Errorf("@%s: %w", path, err)
	}
	if !st.IsDir() && st.Size() <= tools.MaxImageBytes {
		if b, err := os.ReadFile(p); err == nil {
			if img, ok := agent.ImageOf(filepath.Base(p), b); ok {
				return agent.Attachment{Path: p, Image: &img}, nil
			}
		}
	}
	if !project.Within(h.opts.Root, p) {
		return agent.Attachment{}, fmt.Errorf("@%s is outside the project: only an image may come from elsewhere", path)
	}
	if st.IsDir() {
		ents, err := os.ReadDir(p)
		if err != nil {
			return agent.Attachment{}, err
		}
		var names []string
		for _, e := range ents {
			n := e.Name()
			if e.IsDir() {
				n += "/"
			}
			names = append(names, n)
		}
		sort.Strings(names)
		return agent.Attachment{Path: p, Dir: true, Text: strings.Join(names, "\n")}, nil
	}
	b, exists, err := readCapped(p)
	if err != nil || !exists {
		return agent.Attachment{}, fmt.Errorf("@%s: %v", path, err)
	}
	if !utf8.Valid(b) {
		return agent.Attachment{}, fmt.Errorf("@%s is not text", path)
	}
	lines := strings.Count(string(b), "\n")
	if len(b) > 0 && b[len(b)-1] != '\n' {
		lines++
	}
	return agent.Attachment{Path: p, Text: string(b), Viewed: &tools.FileViewed{Path: p, Start: 1, End: lines}}, nil
}

// RunInput starts a turn of what the user typed with what they attached,
// each attachment as a resource of the prompt.
func (h *Host) RunInput(ctx context.Context, in agent.Input) <-chan agent.Event {
	text := in.Typed
	if text == "" {
		text = in.Text
	}
	return h.run(ctx, text, &in)
}

// AcceptsImages says whether the agent takes images in a prompt; before it
// has started fawn cannot know, and the turn says so if it does not.
func (h *Host) AcceptsImages() bool {
	h.mu.Lock()
	p := h.proc
	h.mu.Unlock()
	return p == nil || p.caps.PromptCapabilities.Image
}

// blocks is the prompt as the agent takes it: the text, then a block for
// each attachment of in.
func (h *Host) blocks(caps acp.PromptCapabilities, prompt string, in *agent.Input) ([]acp.ContentBlock, error) {
	out := []acp.ContentBlock{acp.TextBlock(prompt)}
	if in == nil {
		return out, nil
	}
	if len(in.Images) > 0 && !caps.Image {
		return nil, fmt.Errorf("the agent %s does not take images, so the message was not sent: send it without the image", h.opts.Name)
	}
	for _, img := range in.Images {
		out = append(out, acp.ImageBlock(base64.StdEncoding.EncodeToString(img.Data), img.MIME))
	}
	for _, a := range in.Attached {
		if a.Image != nil {
			continue // among in.Images
		}
		uri := fileURI(a.Path)
		if a.Dir || !caps.EmbeddedContext {
			name := filepath.Base(a.Path)
			if rel, err := filepath.Rel(h.opts.Root, a.Path); err == nil {
				name = rel
			}
			out = append(out, acp.ResourceLinkBlock(name, uri))
			continue
		}
		res := &acp.TextResourceContents{Uri: uri, Text: a.Text}
		if mt := mime.TypeByExtension(filepath.Ext(a.Path)); mt != "" {
			res.MimeType = &mt
		}
		out = append(out, acp.ResourceBlock(acp.EmbeddedResourceResource{TextResourceContents: res}))
	}
	return out, nil
}

// fileURI is the file: URI of an absolute path.
func fileURI(p string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String()
}
