package background

import (
	"context"
	"errors"
	"strings"

	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/agent"
)

// transcriptBudget bounds the transcript a background request reads, in
// characters: a background entry is often a small local model.
const transcriptBudget = 48000

// ask sends one request without tools and returns the answer's text.
func ask(ctx context.Context, m agent.BackgroundModel, system, user string) (string, error) {
	if m.Chat == nil {
		return "", errors.New("no model for background work")
	}
	msg, err := m.Chat.Generate(ctx, []*schema.Message{schema.SystemMessage(system), schema.UserMessage(user)})
	if err != nil {
		return "", err
	}
	text := strings.TrimSpace(msg.Content)
	if text == "" {
		return "", errors.New("the model answered nothing")
	}
	return text, nil
}
