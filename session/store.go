package session

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode"
)

// Errors a caller tells apart.
var (
	// ErrNotFound: no session has that ID (or prefix).
	ErrNotFound = errors.New("no such session")
	// ErrLocked: another fawn process is writing the session.
	ErrLocked = errors.New("the session is open in another fawn")
	// ErrNewer: the file was written by a newer fawn.
	ErrNewer = errors.New("the session was written by a newer fawn")
)

// Store is one project's sessions under the data directory. It does no I/O
// until a session is listed, created or opened.
type Store struct {
	dir     string // <data>/sessions/<project-key>
	project string
	secrets [][]byte // as they appear inside JSON strings
	fawn    string
}

// Options configure a Store.
type Options struct {
	// Secrets are strings that must never be written (API keys). Short
	// strings (under 8 bytes) are ignored: they would redact ordinary text.
	Secrets []string
	// Fawn is fawn's version, recorded in new sessions' headers.
	Fawn string
}

// New returns the store of project's sessions under dataDir.
func New(dataDir, project string, o Options) (*Store, error) {
	if dataDir == "" {
		return nil, errors.New("session: no data directory to keep sessions in")
	}
	abs, err := filepath.Abs(project)
	if err != nil {
		return nil, fmt.Errorf("session: %s: %w", project, err)
	}
	st := &Store{dir: filepath.Join(dataDir, "sessions", ProjectKey(abs)), project: abs, fawn: o.Fawn}
	for _, s := range o.Secrets {
		if len(s) < 8 {
			continue
		}
		b, _ := json.Marshal(s)
		st.secrets = append(st.secrets, b[1:len(b)-1])
	}
	return st, nil
}

// Dir is the directory holding the project's sessions.
func (st *Store) Dir() string { return st.dir }

// Project is the project directory the sessions belong to.
func (st *Store) Project() string { return st.project }

// ProjectKey names a project's directory of sessions: its base name, made
// safe, and the first 12 hex digits of the SHA-256 of its absolute path.
func ProjectKey(abs string) string {
	sum := sha256.Sum256([]byte(abs))
	var b strings.Builder
	base := filepath.Base(abs)
	if base == string(filepath.Separator) {
		base = "root"
	}
	for _, r := range base {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '-' || r == '_') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
		if b.Len() >= 40 {
			break
		}
	}
	name := strings.TrimLeft(b.String(), ".")
	if name == "" {
		name = "root"
	}
	return name + "-" + hex.EncodeToString(sum[:6])
}

// NewID returns a fresh session ID: 16 random hex digits.
func NewID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func validID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, r := range id {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// Path is the transcript file of session id.
func (st *Store) Path(id string) string { return filepath.Join(st.dir, id+".jsonl") }

func (st *Store) metaPath(id string) string { return filepath.Join(st.dir, id+".meta.json") }

// Blobs returns the content-addressed blob store of session id.
func (st *Store) Blobs(id string) *Blobs {
	return &Blobs{dir: filepath.Join(st.dir, id, "blobs")}
}

// Info describes a session for listings and pickers.
type Info struct {
	ID      string    `json:"id"`
	Project string    `json:"project"`
	Title   string    `json:"title"`
	Model   string    `json:"model,omitempty"`
	Parent  string    `json:"parent,omitempty"`
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
	// Messages counts the messages recorded (what the chat shows, before
	// any compaction); Turns the turns that ended.
	Messages int    `json:"messages"`
	Turns    int    `json:"turns"`
	Input    int    `json:"input_tokens"`
	Output   int    `json:"output_tokens"`
	Path     string `json:"path"`
	// Size is the transcript's size when the summary was written: a summary
	// of another size is stale.
	Size int64 `json:"size"`
}

// List returns the project's sessions, newest first. Files that cannot be
// read are left out.
func (st *Store) List() ([]Info, error) {
	ents, err := os.ReadDir(st.dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("session: listing %s: %w", st.dir, err)
	}
	var out []Info
	for _, e := range ents {
		id, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok || e.IsDir() || !validID(id) {
			continue
		}
		if in, err := st.Info(id); err == nil {
			out = append(out, in)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Updated.Equal(out[j].Updated) {
			return out[i].Updated.After(out[j].Updated)
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

// Info describes session id: from its summary when that is current, else by
// reading the transcript.
func (st *Store) Info(id string) (Info, error) {
	fi, err := os.Stat(st.Path(id))
	if err != nil {
		return Info{}, err
	}
	if b, err := os.ReadFile(st.metaPath(id)); err == nil {
		var in Info
		if json.Unmarshal(b, &in) == nil && in.Size == fi.Size() && in.ID == id {
			in.Path = st.Path(id)
			return in, nil
		}
	}
	// Read as a resume reads (every record but the older messages): the
	// summary of a session a kill left stale is not worth decoding them.
	data, err := os.ReadFile(st.Path(id))
	if err != nil {
		return Info{}, fmt.Errorf("session: %w", err)
	}
	l, err := readLazy(data, st.Path(id))
	if err != nil {
		return Info{}, err
	}
	l.Info.Path = st.Path(id)
	return l.Info, nil
}

// Find resolves id, a whole ID or a unique prefix of one.
func (st *Store) Find(id string) (string, error) {
	id = strings.TrimSpace(id)
	if !validID(id) {
		return "", fmt.Errorf("%q is not a session ID", id)
	}
	if _, err := os.Stat(st.Path(id)); err == nil {
		return id, nil
	}
	ents, err := os.ReadDir(st.dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("session: listing %s: %w", st.dir, err)
	}
	var hits []string
	for _, e := range ents {
		if name, ok := strings.CutSuffix(e.Name(), ".jsonl"); ok && strings.HasPrefix(name, id) {
			hits = append(hits, name)
		}
	}
	switch len(hits) {
	case 0:
		return "", fmt.Errorf("%w: none of %s's sessions has an ID starting with %q (fawn sessions lists them)", ErrNotFound, st.project, id)
	case 1:
		return hits[0], nil
	}
	sort.Strings(hits)
	return "", fmt.Errorf("%q is the start of %d session IDs (%s): give more of it", id, len(hits), strings.Join(hits, ", "))
}

// Newest returns the ID of the project's most recently updated session.
func (st *Store) Newest() (string, error) {
	all, err := st.List()
	if err != nil {
		return "", err
	}
	if len(all) == 0 {
		return "", fmt.Errorf("%w: %s has no sessions yet", ErrNotFound, st.project)
	}
	return all[0].ID, nil
}

// Load reads session id without opening it for writing (listing, export).
func (st *Store) Load(id string) (*Log, error) {
	f, err := st.openToRead(id)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	l, err := read(f, st.Path(id))
	if err != nil {
		return nil, err
	}
	return l, nil
}

// LoadLazy is Load as OpenLazy reads (its Transcript the chat's last
// entries, Whole the rest): for a chat shown again while its session is
// open (after a rewind), whose frame should not wait for a whole read.
func (st *Store) LoadLazy(id string) (*Log, error) {
	f, err := st.openToRead(id)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := readAll(f)
	if err != nil {
		return nil, err
	}
	l, err := readLazy(data, st.Path(id))
	if err != nil {
		return nil, err
	}
	l.Info.Path = st.Path(id)
	return l, nil
}

// openToRead opens session id's transcript for reading; a missing one is
// ErrNotFound.
func (st *Store) openToRead(id string) (*os.File, error) {
	if !validID(id) {
		return nil, fmt.Errorf("%q is not a session ID", id)
	}
	f, err := os.Open(st.Path(id))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if err != nil {
		return nil, fmt.Errorf("session: %w", err)
	}
	return f, nil
}

// writeMeta writes a session's summary beside it (best effort: it is only
// a cache of what the transcript says).
func (st *Store) writeMeta(in Info) {
	b, err := json.Marshal(in)
	if err != nil {
		return
	}
	tmp := st.metaPath(in.ID) + ".tmp"
	if os.WriteFile(tmp, b, 0o600) == nil {
		_ = os.Rename(tmp, st.metaPath(in.ID))
	}
}

// ensureDir makes the project's directory of sessions (private: transcripts
// hold code and commands) and records which project it belongs to.
func (st *Store) ensureDir() error {
	if err := os.MkdirAll(st.dir, 0o700); err != nil {
		return fmt.Errorf("session: %w", err)
	}
	p := filepath.Join(st.dir, "project")
	if _, err := os.Stat(p); errors.Is(err, os.ErrNotExist) {
		_ = os.WriteFile(p, []byte(st.project+"\n"), 0o600)
	}
	return nil
}

// Title makes a session's title from its first prompt: one line, at most
// 72 characters.
func Title(prompt string) string {
	s := strings.Join(strings.Fields(prompt), " ")
	if r := []rune(s); len(r) > 72 {
		s = strings.TrimSpace(string(r[:71])) + "…"
	}
	return s
}
