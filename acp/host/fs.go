package host

import (
	"context"
	"errors"
	"fmt"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/project"
	"github.com/fawn-ide/fawn/tools"
)

// inside resolves p (absolute, as ACP asks) to a real path inside the
// project, or says why it is not one.
func (h *Host) inside(p string) (string, error) {
	if strings.TrimSpace(p) == "" || strings.IndexByte(p, 0) >= 0 {
		return "", fmt.Errorf("the path %q is not a file path", p)
	}
	abs := h.abs(p)
	real, err := project.Real(abs)
	if err != nil {
		return "", fmt.Errorf("%s: %w", p, err)
	}
	if !project.Within(h.opts.Root, real) {
		return "", fmt.Errorf("%s is outside the project %s: fawn lets the agent read and write only inside it", p, h.opts.Root)
	}
	return real, nil
}

// readTextFile serves fs/read_text_file: the editor's text when the file
// is open there (unsaved edits included), else the file; inside the
// project only, and never a file a deny rule keeps from the agent.
func (h *Host) readTextFile(p acp.ReadTextFileRequest) (acp.ReadTextFileResponse, error) {
	real, err := h.inside(p.Path)
	if err != nil {
		return acp.ReadTextFileResponse{}, err
	}
	if r := h.rule("read", tools.Action{Kind: tools.KindRead, Path: real}); r.answer != nil && r.answer.Decision == agent.Deny {
		return acp.ReadTextFileResponse{}, fmt.Errorf("%s may not be read: %s", p.Path, r.answer.Note)
	}
	var text []byte
	if h.opts.Buffer != nil {
		if b, ok := h.opts.Buffer(real); ok {
			text = b
		}
	}
	if text == nil {
		b, exists, err := readCapped(real)
		if err != nil {
			return acp.ReadTextFileResponse{}, err
		}
		if !exists {
			return acp.ReadTextFileResponse{}, fmt.Errorf("%s does not exist", p.Path)
		}
		text = b
	}
	return acp.ReadTextFileResponse{Content: sliceLines(string(text), p.Line, p.Limit)}, nil
}

// sliceLines is limit lines of s from line (1-based); nil means all.
func sliceLines(s string, line, limit *int) string {
	if line == nil && limit == nil {
		return s
	}
	lines := strings.SplitAfter(s, "\n")
	start := 0
	if line != nil && *line > 1 {
		start = min(*line-1, len(lines))
	}
	end := len(lines)
	if limit != nil && *limit >= 0 && start+*limit < end {
		end = start + *limit
	}
	return strings.Join(lines[start:end], "")
}

// writeTextFile serves fs/write_text_file through fawn's own write path:
// inside the project only, under the permission rules and mode (a file an
// answer of this turn already allowed is not asked again), atomically
// (project.WriteFile), and shown in the editor as the change of the call
// that names the file, or of a call of its own.
func (h *Host) writeTextFile(ctx context.Context, p acp.WriteTextFileRequest) (acp.WriteTextFileResponse, error) {
	real, err := h.inside(p.Path)
	if err != nil {
		return acp.WriteTextFileResponse{}, err
	}
	h.mu.Lock()
	t := h.turn
	h.mu.Unlock()
	if t == nil || t.isCancelled() {
		return acp.WriteTextFileResponse{}, errors.New("no turn is running (it was cancelled): fawn writes files only while the agent works on a message")
	}
	if h.opts.Guard != nil {
		if err := h.opts.Guard.CheckEdit(real); err != nil {
			return acp.WriteTextFileResponse{}, err
		}
	}
	before, exists, err := readCapped(real)
	if err != nil {
		return acp.WriteTextFileResponse{}, err
	}
	if !exists {
		before = nil
	}
	// The call whose locations or diff name the file, the latest first.
	t.mu.Lock()
	var owner *call
	for i := len(t.order) - 1; i >= 0; i-- {
		if c := t.order[i]; !c.ended && c.names(real) {
			owner = c
			break
		}
	}
	approved := t.approved[real]
	t.mu.Unlock()
	id, name := "", nameEditor
	if owner != nil {
		id, name = owner.id, owner.name
	} else {
		h.mu.Lock()
		h.seq++
		id = fmt.Sprintf("write-%d", h.seq)
		h.mu.Unlock()
		args := fmt.Sprintf(`{"command":%q,"path":%q,"title":"write"}`, map[bool]string{true: "str_replace", false: "create"}[exists], real)
		t.mu.Lock()
		t.emit(agent.Event{Type: agent.EventToolCallStarted, ID: id, Name: name})
		t.emit(agent.Event{Type: agent.EventToolCallReady, ID: id, Name: name, Args: args})
		t.mu.Unlock()
	}
	act := tools.Action{Kind: tools.KindEdit, Summary: "Write " + real, Path: real, Protected: tools.Protected(h.opts.Root, real)}
	if !approved || act.Protected != "" {
		a, ok := h.permit(ctx, t, id, name, act)
		if !ok || a.Decision == agent.Deny {
			msg := "the user denied this write"
			if a.Note != "" {
				msg += ": " + a.Note
			}
			if owner == nil {
				h.endOwn(t, id, name, "error: "+msg)
			}
			return acp.WriteTextFileResponse{}, errors.New(msg)
		}
	}
	if _, err := project.WriteFile(h.opts.Root, real, []byte(p.Content), project.WriteOptions{}); err != nil {
		if owner == nil {
			h.endOwn(t, id, name, "error: "+err.Error())
		}
		return acp.WriteTextFileResponse{}, fmt.Errorf("writing %s failed, the file is unchanged: %w", p.Path, err)
	}
	after := []byte(p.Content)
	cmd := "str_replace"
	if before == nil {
		cmd = "create"
	}
	t.mu.Lock()
	if owner != nil {
		owner.shown[real] = string(after)
	} else {
		act := act
		t.emit(agent.Event{Type: agent.EventToolRunStarted, ID: id, Name: name, Action: &act})
	}
	h.fileChanged(id, name, real, before, after, cmd, t)
	if owner == nil {
		t.emit(agent.Event{Type: agent.EventToolRunEnded, ID: id, Name: name, Result: "wrote " + real})
	}
	t.mu.Unlock()
	return acp.WriteTextFileResponse{}, nil
}

// endOwn ends a call fawn made for a request no call named.
func (h *Host) endOwn(t *turn, id, name, result string) {
	t.mu.Lock()
	t.emit(agent.Event{Type: agent.EventToolRunEnded, ID: id, Name: name, Result: result, IsError: true})
	t.mu.Unlock()
}

// names reports whether the call's locations or diff name p.
func (c *call) names(p string) bool {
	for _, q := range c.paths {
		if q == p {
			return true
		}
	}
	return false
}
