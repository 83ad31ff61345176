package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
)

// Log is a session replayed: its current state and what the chat shows.
type Log struct {
	// Header is the session's first record.
	Header Record
	Info   Info

	// System is the last system prompt recorded and SystemTools the tools
	// it names ("" when none was: the session never ran a turn).
	System      string
	SystemTools []string
	// Model is the model in use at the end ("openai/gpt-4o").
	Model string
	// Messages is the conversation as the model will be sent it next:
	// compactions, trims and truncations applied. Of a log opened lazily
	// it is nil while MessagesLater says so.
	Messages []Message
	// Transcript is everything the chat shows, in order: every message
	// recorded (also those compacted away since), compactions and turn ends.
	// Of a log opened lazily (Partial) it is the last entries only.
	Transcript []Entry
	Todos      []Todo
	Workspace  *Workspace
	// Usage totals the turns.
	Usage Usage
	// Warnings say what was skipped on load (a torn last line).
	Warnings []string
	// Notes are the notes of turns written in the background (records of
	// type note), oldest first.
	Notes []Record

	epoch  int   // where the conversation of the transcript's end begins (after the last compaction)
	good   int64 // bytes up to the end of the last whole record
	needNL bool  // the last record lacks its newline

	// rest, when set, is what readLazy left undecoded (see Whole).
	rest *rest
	// later: Messages waits for Whole (the conversation reaches back
	// before the messages readLazy decoded).
	later bool
}

// Entry is one item of a transcript: a message, a compaction (Record of
// type compact), or a turn's end (Record of type turn).
type Entry struct {
	Time    time.Time
	Message *Message
	Record  *Record
	// N is a message's index in the conversation it was added to.
	N int
}

// maxLine bounds one line of a transcript (a tool result is at most a few
// hundred KiB; an image is a blob, not a line).
const maxLine = 64 << 20

// read replays a transcript. A torn or corrupt line is skipped with a
// warning; a file without a header, or of a newer version, is refused.
func read(r io.Reader, name string) (*Log, error) {
	br := bufio.NewReaderSize(r, 256<<10)
	p := replay{l: &Log{}, name: name}
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A long line: gather it whole.
			buf := append([]byte(nil), line...)
			for errors.Is(err, bufio.ErrBufferFull) && len(buf) < maxLine {
				line, err = br.ReadSlice('\n')
				buf = append(buf, line...)
			}
			line = buf
		}
		if len(line) == 0 && err != nil {
			break
		}
		if err := p.line(line, nil); err != nil {
			return nil, err
		}
		if err != nil {
			break
		}
	}
	return p.end()
}

// replay feeds a transcript's lines, in order, to a Log.
type replay struct {
	l      *Log
	name   string
	off    int64
	lineNo int
}

// line replays one line, its newline included when it has one. rec, when
// set, stands for a message not decoded (see readLazy); else the line is
// sniffed, and decoded by encoding/json when that does not read it.
func (p *replay) line(line []byte, rec *Record) error {
	l := p.l
	p.lineNo++
	if rec == nil && p.lineNo > 1 {
		rec = sniff(line)
	}
	if rec != nil {
		// A whole line, never the header (sniffed).
		l.apply(rec)
		p.off += int64(len(line))
		l.good, l.needNL = p.off, false
		return nil
	}
	complete := len(line) > 0 && line[len(line)-1] == '\n'
	body := bytes.TrimSpace(line)
	rec = new(Record)
	switch {
	case len(body) == 0:
		if complete {
			p.off += int64(len(line))
			l.good = p.off
		}
	case json.Unmarshal(body, rec) != nil:
		if !complete {
			l.Warnings = append(l.Warnings, fmt.Sprintf("%s: the last line was cut off mid-write (fawn was stopped while writing it); it is ignored", p.name))
		} else {
			l.Warnings = append(l.Warnings, fmt.Sprintf("%s:%d: not a record; skipped", p.name, p.lineNo))
			p.off += int64(len(line))
			l.good = p.off
		}
	default:
		if p.lineNo == 1 {
			if rec.Type != TypeSession {
				return fmt.Errorf("session: %s is not a fawn session (its first line is not a session header)", p.name)
			}
			if rec.Version > Version {
				return fmt.Errorf("%w: %s is format version %d; this fawn reads version %d. Update fawn to open it", ErrNewer, p.name, rec.Version, Version)
			}
		}
		// A whole record without its newline is kept: the write
		// was complete but for the last byte.
		l.apply(rec)
		p.off += int64(len(line))
		l.good = p.off
		l.needNL = !complete
	}
	return nil
}

// sniff reads a message or a turn record as the writer lays them out,
// without encoding/json (they are nearly all of a session's lines); nil
// for any other line, which encoding/json then reads.
func sniff(line []byte) *Record {
	if r, ok := decodeMessage(line); ok {
		return r
	}
	if r, ok := sniffTurn(line); ok {
		return r
	}
	return nil
}

// end is the log replayed, or why the file is not a session.
func (p *replay) end() (*Log, error) {
	if p.lineNo == 0 || p.l.Header.Type != TypeSession {
		return nil, fmt.Errorf("session: %s is empty or not a fawn session", p.name)
	}
	p.l.Info.Size = p.off
	return p.l, nil
}

// apply replays one record.
func (l *Log) apply(r *Record) {
	in := &l.Info
	if !r.Time.IsZero() && r.Time.After(in.Updated) {
		in.Updated = r.Time
	}
	switch r.Type {
	case TypeSession:
		if l.Header.Type == "" {
			l.Header = *r
			in.ID, in.Project, in.Parent, in.Title = r.ID, r.Project, r.Parent, r.Title
			in.Created = r.Created
			if in.Created.IsZero() {
				in.Created = r.Time
			}
		}
	case TypeSystem:
		l.System, l.SystemTools = r.Prompt, r.Tools
	case TypeModel:
		l.Model = r.Model
		in.Model = r.Model
	case TypeMessage:
		if r.Message == nil {
			return
		}
		// The transcript has its own copy (strings are shared), so a later
		// trim does not change what the chat shows.
		m := *r.Message
		l.Messages = append(l.Messages, m)
		n := len(l.Messages) - 1
		if r.N != nil {
			n = *r.N
		}
		l.Transcript = append(l.Transcript, Entry{Time: r.Time, Message: r.Message, N: n})
		in.Messages++
		if in.Title == "" && m.Role == "user" {
			in.Title = Title(m.Shown())
		}
	case TypeTodos:
		l.Todos = append([]Todo(nil), r.Todos...)
	case TypeTurn:
		in.Turns++
		if u := r.Usage; u != nil {
			l.Usage.Input += u.Input
			l.Usage.Output += u.Output
			l.Usage.Cached += u.Cached
			l.Usage.Steps += u.Steps
			l.Usage.Tools += u.Tools
			l.Usage.CostUSD += u.CostUSD
			l.Usage.Priced += u.Priced
			l.Usage.Unpriced += u.Unpriced
			if u.Context > 0 {
				l.Usage.Context = u.Context
			}
			in.Input, in.Output = l.Usage.Input, l.Usage.Output
		}
		if r.Model != "" {
			l.Model, in.Model = r.Model, r.Model
		}
		l.Transcript = append(l.Transcript, Entry{Time: r.Time, Record: r})
	case TypeCompact:
		l.Messages = append([]Message(nil), r.Messages...)
		l.Usage.Context = r.TokensAfter
		l.Transcript = append(l.Transcript, Entry{Time: r.Time, Record: r})
		l.epoch = len(l.Transcript)
	case TypeHistory:
		l.Messages = append([]Message(nil), r.Messages...)
	case TypeTrim:
		for _, t := range r.Trims {
			if t.N >= 0 && t.N < len(l.Messages) {
				l.Messages[t.N].Content = t.Content
			}
		}
	case TypeTruncate:
		if r.Keep != nil && *r.Keep >= 0 && *r.Keep < len(l.Messages) {
			keep := *r.Keep
			l.Messages = l.Messages[:keep:keep]
			// The chat loses what the conversation lost (a rewind).
			for i := l.epoch; i < len(l.Transcript); i++ {
				if e := l.Transcript[i]; e.Message != nil && e.N >= keep {
					l.Transcript = l.Transcript[:i:i]
					break
				}
			}
		}
	case TypeWorkspace:
		l.Workspace = &Workspace{Tabs: append([]Tab(nil), r.Tabs...), Cwd: r.Cwd}
	case TypeNote:
		l.Notes = append(l.Notes, *r)
	}
}

// text is a message's text, parts joined.
func (m Message) text() string {
	if m.Content != "" || len(m.Parts) == 0 {
		return m.Content
	}
	var b []byte
	for _, p := range m.Parts {
		if p.Type == "text" {
			b = append(b, p.Text...)
			b = append(b, ' ')
		}
	}
	return string(b)
}

// Text is the message's text: its content, or its text parts joined.
func (m Message) Text() string { return m.text() }
