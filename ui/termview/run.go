package termview

import (
	"context"

	"github.com/fawn-ide/fawn/terminal"
)

// Run types c into the pane's shell as the agent's commands are typed, in
// sight, waits for it and returns how it ended (terminal.Terminal.Run):
// the chat's "!cmd" runs here.
func (v *View) Run(ctx context.Context, c terminal.Command) (terminal.Result, error) {
	return v.term.Run(ctx, c, nil)
}
