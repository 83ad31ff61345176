package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"
)

// Prompt is one message the user sent, as they typed it.
type Prompt struct {
	Text    string
	Time    time.Time
	Session string // the session's ID
}

// maxPrompts bounds the history Prompts returns.
const maxPrompts = 5000

// Prompts returns what the user typed in every session of the project,
// newest first, each text once (at its latest use): the history the
// chat's Ctrl-R searches. Only the user messages are decoded; a session
// that cannot be read is left out.
func (st *Store) Prompts() ([]Prompt, error) {
	ents, err := os.ReadDir(st.dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("session: listing %s: %w", st.dir, err)
	}
	var all []Prompt
	for _, e := range ents {
		id, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok || e.IsDir() || !validID(id) {
			continue
		}
		f, err := os.Open(st.Path(id))
		if err != nil {
			continue
		}
		all = append(all, userPrompts(f, id)...)
		f.Close()
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].Time.After(all[j].Time) })
	seen := map[string]bool{}
	out := all[:0]
	for _, p := range all {
		if !seen[p.Text] && len(out) < maxPrompts {
			seen[p.Text] = true
			out = append(out, p)
		}
	}
	return out, nil
}

// userMark is in every line that records a user message; a line without
// it (an answer, a tool's result) is not decoded.
var userMark = []byte(`"role":"user"`)

// userPrompts reads the user messages of one transcript.
func userPrompts(r io.Reader, id string) []Prompt {
	var out []Prompt
	br := bufio.NewReaderSize(r, 256<<10)
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			buf := append([]byte(nil), line...)
			for errors.Is(err, bufio.ErrBufferFull) && len(buf) < maxLine {
				line, err = br.ReadSlice('\n')
				buf = append(buf, line...)
			}
			line = buf
		}
		if bytes.Contains(line, userMark) {
			var rec struct {
				Type    string    `json:"type"`
				Time    time.Time `json:"time"`
				Message *Message  `json:"message"`
			}
			if json.Unmarshal(line, &rec) == nil && rec.Type == TypeMessage && rec.Message != nil && rec.Message.Role == "user" {
				if text := strings.TrimSpace(rec.Message.Shown()); text != "" {
					out = append(out, Prompt{Text: text, Time: rec.Time, Session: id})
				}
			}
		}
		if err != nil {
			return out
		}
	}
}
