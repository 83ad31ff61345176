package main

import (
	"context"
	"fmt"
	"io"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/internal/safetext"
)

// headlessInput is a headless run's message: prompt with what the
// @-mentions of typed attach, as the chat attaches them. typed is what the
// user wrote after -p when it is their own text: a custom command's or an
// MCP prompt's text and standard input attach nothing (piped text is
// data, not the user's word). A mention that fails is named on stderr and
// the run goes on, as the chat's error chip does; images for a model that
// takes none stop the run before anything is sent.
func headlessInput(ctx context.Context, at backend.Attacher, model, root, typed, prompt string, stderr io.Writer) (agent.Input, error) {
	in := agent.Input{Text: prompt}
	ms := agent.MentionsIn(typed)
	if len(ms) == 0 {
		return in, nil
	}
	res := agent.ResolveMentions(ctx, at.Attach, ms)
	for _, r := range res {
		if r.Err != nil && agent.LooksLikePath(r.Path) {
			fmt.Fprintf(stderr, "fawn: not attached: %s\n", safetext.Line(r.Err.Error()))
		}
	}
	in = in.WithMentions(root, res)
	if len(in.Images) > 0 && !at.AcceptsImages() {
		return in, fmt.Errorf("%s does not take images, so nothing was sent: --model names one that does, or set vision: yes for this model in the configuration if it does", safetext.Line(model))
	}
	return in, nil
}
