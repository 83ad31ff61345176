package chat

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/session"
	"github.com/fawn-ide/fawn/ui/panes"
)

// A saved session's transcript as chat items: what /resume and --continue
// show of the conversation they carry on.

// attachedRE finds the files a message's text attached (the blocks the
// @-mentions add: <attached path="main.go">).
var attachedRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^<attached path="([^"\n]*)"`) })

// Transcript are the chat items of a saved session: the user's
// messages, the answers (reasoning folded), a card per tool call with its
// result, compactions and the errors turns ended with.
func Transcript(reg *Registry, l *session.Log, open func(path string)) []Item {
	return transcriptItems(reg, l.Transcript, l.Transcript, open)
}

// transcriptItems are the chat items of entries, a part of the transcript
// all, whose tool results they take.
func transcriptItems(reg *Registry, entries, all []session.Entry, open func(path string)) []Item {
	results := map[string]*session.Message{}
	for _, e := range all {
		if m := e.Message; m != nil && m.Role == "tool" {
			results[m.ToolCallID] = m
		}
	}
	items := make([]Item, 0, len(entries)+len(entries)/2)
	for _, e := range entries {
		switch {
		case e.Message != nil:
			m := e.Message
			switch m.Role {
			case "user":
				text := m.Shown()
				if strings.HasPrefix(text, "(fawn: the images the tool calls above returned") {
					continue // fawn's own, shown on the cards already
				}
				u := &User{Text: text}
				if m.Typed != "" {
					// The files the user attached, as chips: the model got
					// their text, the chat shows what was typed.
					for _, at := range attachedRE().FindAllStringSubmatch(m.Text(), -1) {
						u.Chips = append(u.Chips, Chip{Text: at[1] + " · attached"})
					}
				}
				for _, p := range m.Parts {
					if p.Type == "image" {
						u.Chips = append(u.Chips, Chip{Text: "image " + strings.TrimPrefix(p.MIME, "image/")})
					}
				}
				items = append(items, u)
			case "assistant":
				if r := strings.TrimSpace(m.Reasoning); r != "" {
					ri := &reasoningItem{done: true}
					ri.text.WriteString(r)
					items = append(items, ri)
				}
				if strings.TrimSpace(m.Content) != "" {
					ai := &assistantItem{}
					ai.append(m.Content)
					items = append(items, ai)
				}
				for _, tc := range m.ToolCalls {
					items = append(items, restoredCard(reg, tc, results[tc.ID], open))
				}
			}
		case e.Record != nil && e.Record.Type == session.TypeCompact:
			items = append(items, newCompactItem(e.Record.Reason, e.Record.Focus, e.Record.Summary, e.Record.TokensBefore, e.Record.TokensAfter, nil, nil))
		case e.Record != nil && e.Record.Type == session.TypeTurn && e.Record.Error != "":
			kind := NoticeError
			if strings.Contains(e.Record.Error, agent.ErrCancelled.Error()) {
				kind = NoticeCancel
			}
			text := e.Record.Error
			if kind == NoticeCancel {
				text = "cancelled"
			}
			items = append(items, &Notice{Kind: kind, Text: text})
		}
	}
	return items
}

// restoredCard is the card of a call of a saved session, as it ended.
func restoredCard(reg *Registry, tc session.ToolCall, res *session.Message, open func(path string)) *Card {
	c := newCard(tc.ID, tc.Name, reg.Lookup(tc.Name))
	c.handle(agent.Event{Type: agent.EventToolCallReady, ID: tc.ID, Name: tc.Name, Args: tc.Arguments})
	if res == nil {
		c.cancel()
		return c
	}
	result := res.Text()
	c.handle(agent.Event{Type: agent.EventToolRunEnded, ID: tc.ID, Name: tc.Name, Result: result, IsError: strings.HasPrefix(result, "error")})
	if tc.Name == "bash" {
		c.exit = savedExitCode(result)
	}
	if c.Kind.Drives == panes.Editor {
		if path := c.arg("path"); path != "" {
			c.jump = func() { open(path) }
		}
	}
	return c
}

// savedExitCode is the exit status of a command of a saved session, or nil.
// A session keeps only what the model saw, so it is read back from the
// last "exit code N" of the result's closing line; a live card has it from
// the command's CommandDone.
func savedExitCode(result string) *int {
	i := strings.LastIndex(result, "exit code ")
	if i < 0 {
		return nil
	}
	rest := result[i+len("exit code "):]
	j := 0
	for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
		j++
	}
	n, err := strconv.Atoi(rest[:j])
	if err != nil {
		return nil
	}
	return &n
}
