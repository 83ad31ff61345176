package checkpoint

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/cloudwego/eino/compose"

	"github.com/fawn-ide/fawn/project"
	"github.com/fawn-ide/fawn/session"
)

// Who changed a file.
const (
	ByTool    = "tool"    // an agent tool (text_editor)
	ByCommand = "command" // an agent bash command, found by the scan
	ByUser    = "user"    // the user, in fawn's editor
	ByRewind  = "rewind"  // a revert or rewind restored it
)

// Kinds of turn.
const (
	KindPrompt = "prompt" // a user prompt and the agent's work on it
	KindRewind = "rewind" // files put back as they were before turn Of
	KindRevert = "revert" // one file or hunk put back by the user
	KindUndo   = "undo"   // the changes of turn Of taken back
)

// Defaults of Options.
const (
	DefaultMaxBytes = 512 << 20
	DefaultMaxFile  = 8 << 20
)

// Options tune a Book.
type Options struct {
	// MaxBytes caps the bytes a session's checkpoints keep (0: DefaultMaxBytes).
	MaxBytes int64
	// MaxFile is the largest file whose content is kept (0: DefaultMaxFile).
	MaxFile int64
	// Workers walk the tree in the scan (0: 4).
	Workers int
	// Watch is the project's one watcher (shared with the editor, the
	// explorer and the file index); through it the scans around agent
	// commands read only what changed. nil: every scan walks the tree.
	Watch *project.Watcher
}

// Version is one state of a file.
type Version struct {
	// Exists is false for "no such file" (before a create, after a delete).
	Exists bool `json:"exists"`
	// Hash is the SHA-256 of the content in hex ("" when not known).
	Hash string `json:"hash,omitempty"`
	Size int64  `json:"size,omitempty"`
	// Mode is the file's permission bits.
	Mode uint32 `json:"mode,omitempty"`
	// Kept: the content is in the blobs and can be restored.
	Kept bool `json:"kept,omitempty"`
	// Binary: the content is not text (kept by hash only).
	Binary bool `json:"binary,omitempty"`
	// Note says why the content is not kept.
	Note string `json:"note,omitempty"`
}

// Restorable reports whether the file can be put back in this state.
func (v Version) Restorable() bool { return !v.Exists || v.Kept }

// Same reports whether v and w are the same content (or both absent).
func (v Version) Same(w Version) bool {
	if v.Exists != w.Exists {
		return false
	}
	return !v.Exists || (v.Hash != "" && v.Hash == w.Hash)
}

// Change is one file changed once.
type Change struct {
	Path   string    `json:"path"` // relative to the project, slash-separated
	By     string    `json:"by"`
	Call   string    `json:"call,omitempty"` // the tool call that made it
	Time   time.Time `json:"time"`
	Before Version   `json:"before"`
	After  Version   `json:"after"`
}

// Turn is one checkpoint: the changes made from its start to the next turn's.
type Turn struct {
	ID     int       `json:"id"`
	Kind   string    `json:"kind"`
	Prompt string    `json:"prompt,omitempty"`
	Time   time.Time `json:"time"`
	// Messages is the conversation's length before the prompt: a rewind of
	// the conversation keeps that many messages.
	Messages int `json:"messages"`
	// Of is the turn a rewind went back to, or an undo took back.
	Of      int      `json:"of,omitempty"`
	Changes []Change `json:"-"`
}

// Book is one session's checkpoints. Its methods are safe for concurrent use.
type Book struct {
	root  string
	file  string
	blobs *session.Blobs
	o     Options
	git   *gitIndex

	// cmd is held from before an agent command to after it, so that each
	// command's scans see only its own changes (parallel subagents' commands
	// queue here as they do for the terminal). It guards w too.
	cmd     sync.Mutex
	w       *tracker
	whyFull string // why the scans walk the whole tree ("" while watching)
	warm    sync.Once

	mu     sync.Mutex
	turns  []*Turn
	known  map[string]known // rel → the last content recorded, with its stamp
	stored int64
	log    *os.File
	err    error // the first failure to write the log
}

// known is what the book last recorded of a file, and the file's stamp then.
type known struct {
	v  Version
	st stamp
}

// Open returns the book kept in dir (created on the first change) for the
// project at root (absolute, symlinks resolved), loading what dir holds.
func Open(dir, root string, blobs *session.Blobs, o Options) (*Book, error) {
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MaxFile <= 0 {
		o.MaxFile = DefaultMaxFile
	}
	if o.Workers <= 0 {
		o.Workers = 4
	}
	b := &Book{root: root, file: filepath.Join(dir, "checkpoints.jsonl"), blobs: blobs, o: o,
		git: &gitIndex{root: root}, known: map[string]known{}}
	if err := b.load(); err != nil {
		return nil, err
	}
	return b, nil
}

// Root is the project directory.
func (b *Book) Root() string { return b.root }

// logRecord is one line of checkpoints.jsonl.
type logRecord struct {
	Type   string  `json:"type"` // turn | change
	Turn   *Turn   `json:"turn,omitempty"`
	Of     int     `json:"of,omitempty"` // change: its turn
	Change *Change `json:"change,omitempty"`
}

func (b *Book) load() error {
	f, err := os.Open(b.file)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var r logRecord
		if json.Unmarshal(sc.Bytes(), &r) != nil {
			continue // a line torn by a crash
		}
		switch {
		case r.Type == "turn" && r.Turn != nil:
			b.turns = append(b.turns, r.Turn)
		case r.Type == "change" && r.Change != nil:
			if t := b.turnLocked(r.Of); t != nil {
				t.Changes = append(t.Changes, *r.Change)
				if r.Change.After.Kept || !r.Change.After.Exists {
					delete(b.known, r.Change.Path)
				}
			}
		}
	}
	return nil
}

func (b *Book) turnLocked(id int) *Turn {
	for i := len(b.turns) - 1; i >= 0; i-- {
		if b.turns[i].ID == id {
			return b.turns[i]
		}
	}
	return nil
}

func (b *Book) appendLocked(r logRecord) {
	if b.err != nil {
		return
	}
	if b.log == nil {
		if err := os.MkdirAll(filepath.Dir(b.file), 0o700); err != nil {
			b.err = err
			return
		}
		f, err := os.OpenFile(b.file, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			b.err = err
			return
		}
		b.log = f
	}
	line, err := json.Marshal(r)
	if err == nil {
		_, err = b.log.Write(append(line, '\n'))
	}
	if err != nil {
		b.err = err
	}
}

// Err is the first failure to keep the book on disk (the book in memory
// stays whole).
func (b *Book) Err() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.err != nil {
		return fmt.Errorf("checkpoint: %s: %w", b.file, b.err)
	}
	return nil
}

// Close closes the log.
func (b *Book) Close() error {
	b.cmd.Lock()
	b.w = nil // the watcher is the project's: others go on with it
	b.whyFull = "the book is closed"
	b.cmd.Unlock()
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.log == nil {
		return nil
	}
	err := b.log.Close()
	b.log = nil
	return err
}

// Begin starts the checkpoint of a user prompt; messages is the
// conversation's length before it. It returns the turn's ID.
//
// The first Begin starts watching the tree in the background, so that the
// walk it takes is done before the agent's first command.
func (b *Book) Begin(prompt string, messages int) int {
	b.warm.Do(func() {
		go func() {
			b.cmd.Lock()
			defer b.cmd.Unlock()
			b.watcherLocked(context.Background())
		}()
	})
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.beginLocked(KindPrompt, prompt, messages, 0).ID
}

func (b *Book) beginLocked(kind, prompt string, messages, of int) *Turn {
	id := 1
	if n := len(b.turns); n > 0 {
		id = b.turns[n-1].ID + 1
	}
	t := &Turn{ID: id, Kind: kind, Prompt: prompt, Time: time.Now().UTC(), Messages: messages, Of: of}
	b.turns = append(b.turns, t)
	b.appendLocked(logRecord{Type: "turn", Turn: t})
	return t
}

func (b *Book) addLocked(c Change) {
	if len(b.turns) == 0 {
		b.beginLocked(KindPrompt, "", 0, 0)
	}
	t := b.turns[len(b.turns)-1]
	t.Changes = append(t.Changes, c)
	b.appendLocked(logRecord{Type: "change", Of: t.ID, Change: &c})
}

// Turns returns the turns, oldest first, with their changes (copies).
func (b *Book) Turns() []Turn {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]Turn, len(b.turns))
	for i, t := range b.turns {
		out[i] = *t
		out[i].Changes = append([]Change(nil), t.Changes...)
	}
	return out
}

// Changed records a write by an agent tool (tools.ChangeRecorder).
func (b *Book) Changed(ctx context.Context, abs string, before, after []byte) {
	rel, ok := b.rel(abs)
	if !ok {
		return
	}
	call := compose.GetToolCallID(ctx)
	var st stamp
	if after != nil {
		st, _ = lstamp(abs)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	c := Change{Path: rel, By: ByTool, Call: call, Time: time.Now().UTC()}
	c.Before = b.keepLocked(before, before != nil, 0)
	if k, ok := b.known[rel]; ok && before != nil && k.v.Hash == c.Before.Hash {
		c.Before.Mode = k.v.Mode
	}
	c.After = b.keepLocked(after, after != nil, st.mode)
	if c.Before.Mode == 0 && c.Before.Exists {
		c.Before.Mode = st.mode
	}
	b.rememberLocked(rel, c.After, st)
	b.addLocked(c)
}

// Record records a change made outside the tools (the user saving in
// fawn's editor: by is ByUser), reading the file as it is now; before is
// the content it replaced (nil: it did not exist).
func (b *Book) Record(by, abs string, before []byte) error {
	rel, ok := b.rel(abs)
	if !ok {
		return fmt.Errorf("checkpoint: %s is outside the project %s", abs, b.root)
	}
	after, st, err := readFile(abs)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("checkpoint: %w", err)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	c := Change{Path: rel, By: by, Time: time.Now().UTC()}
	c.Before = b.keepLocked(before, before != nil, st.mode)
	c.After = b.keepLocked(after, err == nil, st.mode)
	b.rememberLocked(rel, c.After, st)
	b.addLocked(c)
	return nil
}

func (b *Book) rememberLocked(rel string, v Version, st stamp) {
	if v.Exists && v.Hash != "" {
		b.known[rel] = known{v: v, st: st}
	} else {
		delete(b.known, rel)
	}
}

// keepLocked records data (a file's content) as a Version, keeping its
// bytes when it is text, small enough and within the session's cap.
func (b *Book) keepLocked(data []byte, exists bool, mode uint32) Version {
	if !exists {
		return Version{}
	}
	sum := sha256.Sum256(data)
	v := Version{Exists: true, Hash: hex.EncodeToString(sum[:]), Size: int64(len(data)), Mode: mode}
	switch {
	case isBinary(data):
		v.Binary = true
		v.Note = "binary file: recorded by hash only"
	case v.Size > b.o.MaxFile:
		v.Note = fmt.Sprintf("larger than %s: recorded by hash only", human(b.o.MaxFile))
	case b.blobs == nil:
		v.Note = "no session store: recorded by hash only"
	case b.blobs.Has(v.Hash):
		v.Kept = true
	case b.stored+v.Size > b.o.MaxBytes:
		v.Note = fmt.Sprintf("the session's checkpoints reached their cap of %s: recorded by hash only", human(b.o.MaxBytes))
	default:
		if _, err := b.blobs.Put(data); err != nil {
			v.Note = "could not be kept: " + err.Error()
		} else {
			v.Kept = true
			b.stored += v.Size
		}
	}
	return v
}

// Content returns the bytes of v.
func (b *Book) Content(v Version) ([]byte, error) {
	if !v.Exists {
		return nil, nil
	}
	if !v.Kept || b.blobs == nil {
		if v.Note != "" {
			return nil, fmt.Errorf("checkpoint: content not kept (%s)", v.Note)
		}
		return nil, errors.New("checkpoint: content not kept")
	}
	return b.blobs.Get(v.Hash)
}

// rel turns abs into the book's path for it; false for paths outside the
// project or inside .git.
func (b *Book) rel(abs string) (string, bool) {
	r, err := filepath.Rel(b.root, abs)
	if err != nil || !filepath.IsLocal(r) {
		return "", false
	}
	r = filepath.ToSlash(r)
	if r == ".git" || strings.HasPrefix(r, ".git/") {
		return "", false
	}
	return r, true
}

// Abs is the absolute path of a book path.
func (b *Book) Abs(rel string) string { return filepath.Join(b.root, filepath.FromSlash(rel)) }

// isBinary: a NUL byte in the first 8000 bytes, as git decides.
func isBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0
}

func human(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}

// readFile reads a regular file and its stamp (taken before reading, so a
// write during the read shows as a later change).
func readFile(abs string) ([]byte, stamp, error) {
	st, err := lstamp(abs)
	if err != nil {
		return nil, stamp{}, err
	}
	if !st.regular {
		return nil, st, fmt.Errorf("%s is not a regular file", abs)
	}
	f, err := os.Open(abs)
	if err != nil {
		return nil, st, err
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	return data, st, err
}
