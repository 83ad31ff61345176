package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
)

func newStore(t *testing.T, secrets ...string) *Store {
	t.Helper()
	st, err := New(t.TempDir(), t.TempDir(), Options{Secrets: secrets, Fawn: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func msg(n int, m Message) Record { return Record{Type: TypeMessage, N: Of(n), Message: &m} }

// conversation writes a session with every kind of record and returns its ID.
func conversation(t *testing.T, st *Store) string {
	t.Helper()
	w, err := st.Create(Record{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	img, err := w.Blobs().Put([]byte("\x89PNG fake image"))
	if err != nil {
		t.Fatal(err)
	}
	recs := []Record{
		{Type: TypeSystem, Prompt: "You are fawn.\n", Tools: []string{"bash", "text_editor"}},
		{Type: TypeModel, Model: "openai/gpt-4o"},
		msg(0, Message{Role: "user", Content: "Fix the   bug\nin main.go please"}),
		msg(1, Message{Role: "assistant", Content: "Looking.", Reasoning: "hmm", ToolCalls: []ToolCall{{ID: "c1", Type: "function", Name: "bash", Arguments: `{"command":"go test"}`}}}),
		msg(2, Message{Role: "tool", Content: strings.Repeat("FAIL x\n", 100), ToolCallID: "c1", ToolName: "bash"}),
		{Type: TypeTodos, Todos: []Todo{{ID: "1", Title: "fix", Status: "in_progress"}}},
		msg(3, Message{Role: "assistant", Content: "Fixed.", Extra: map[string]any{"signature": "abc"}}),
		{Type: TypeTurn, Model: "openai/gpt-4o", Usage: &Usage{Input: 100, Output: 20, Cached: 50, Context: 80, Steps: 2, Tools: 1}, DurationMS: 1500},
		{Type: TypeTrim, Trims: []Trim{{N: 2, Content: "[trimmed]"}}},
		msg(4, Message{Role: "user", Parts: []Part{{Type: "text", Text: "and this"}, {Type: "image", MIME: "image/png", Blob: img}}}),
		{Type: TypeCompact, Reason: "manual", Summary: "Goal: fix", TokensBefore: 900, TokensAfter: 90,
			Messages: []Message{{Role: "user", Content: "Summary: goal fix"}}},
		msg(1, Message{Role: "assistant", Content: "Done."}),
		{Type: TypeTurn, Usage: &Usage{Input: 10, Output: 5}, Error: "boom"},
		{Type: TypeWorkspace, Tabs: []Tab{{Path: "/p/main.go", Line: 3, Col: 2, Active: true}}, Cwd: "/p/sub"},
		{Type: "from-the-future", Summary: "ignored"},
	}
	if err := w.Append(recs...); err != nil {
		t.Fatal(err)
	}
	return w.ID()
}

func TestRoundTrip(t *testing.T) {
	st := newStore(t)
	id := conversation(t, st)
	l, err := st.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Warnings) > 0 {
		t.Errorf("warnings: %v", l.Warnings)
	}
	if l.Header.ID != id || l.Header.Version != Version || l.Header.Project != st.Project() || l.Header.Fawn != "test" {
		t.Errorf("header = %+v", l.Header)
	}
	if l.System != "You are fawn.\n" || !reflect.DeepEqual(l.SystemTools, []string{"bash", "text_editor"}) || l.Model != "openai/gpt-4o" {
		t.Errorf("system %q tools %v model %q", l.System, l.SystemTools, l.Model)
	}
	want := []Message{{Role: "user", Content: "Summary: goal fix"}, {Role: "assistant", Content: "Done."}}
	if !reflect.DeepEqual(l.Messages, want) {
		t.Errorf("conversation after compaction = %+v", l.Messages)
	}
	// The transcript keeps every message as first shown: the trim did not touch it.
	var msgs []*Message
	kinds := ""
	for _, e := range l.Transcript {
		switch {
		case e.Message != nil:
			msgs = append(msgs, e.Message)
			kinds += "m"
		case e.Record.Type == TypeCompact:
			kinds += "C"
		case e.Record.Type == TypeTurn:
			kinds += "T"
		}
	}
	if kinds != "mmmmTmCmT" {
		t.Errorf("transcript kinds %q", kinds)
	}
	if !strings.HasPrefix(msgs[2].Content, "FAIL x") || msgs[3].Extra["signature"] != "abc" {
		t.Errorf("messages as shown: %+v", msgs)
	}
	if p := msgs[4].Parts; len(p) != 2 || p[1].Blob == "" {
		t.Errorf("parts: %+v", p)
	} else if data, err := st.Blobs(id).Get(p[1].Blob); err != nil || string(data) != "\x89PNG fake image" {
		t.Errorf("blob: %q %v", data, err)
	}
	if !reflect.DeepEqual(l.Todos, []Todo{{ID: "1", Title: "fix", Status: "in_progress"}}) {
		t.Errorf("todos %+v", l.Todos)
	}
	if ws := l.Workspace; ws == nil || ws.Cwd != "/p/sub" || len(ws.Tabs) != 1 || ws.Tabs[0].Line != 3 {
		t.Errorf("workspace %+v", ws)
	}
	if l.Usage.Input != 110 || l.Usage.Output != 25 || l.Usage.Cached != 50 || l.Usage.Context != 90 {
		t.Errorf("usage %+v", l.Usage)
	}
	in := l.Info
	if in.Title != "Fix the bug in main.go please" || in.Messages != 6 || in.Turns != 2 || in.Model != "openai/gpt-4o" {
		t.Errorf("info %+v", in)
	}
	// The summary beside the file says the same, without reading it.
	got, err := st.Info(id)
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != in.Title || got.Messages != in.Messages || got.Turns != in.Turns || got.Size != in.Size {
		t.Errorf("meta %+v, want %+v", got, in)
	}
}

func TestTrimAndTruncate(t *testing.T) {
	st := newStore(t)
	w, err := st.Create(Record{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		w.Append(msg(i, Message{Role: "user", Content: strings.Repeat("x", i+1)}))
	}
	w.Append(Record{Type: TypeTrim, Trims: []Trim{{N: 1, Content: "t"}, {N: 9, Content: "out of range"}}})
	w.Append(Record{Type: TypeTruncate, Keep: Of(3)})
	w.Append(msg(3, Message{Role: "user", Content: "after"}))
	w.Close()
	l, err := st.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range l.Messages {
		got = append(got, m.Content)
	}
	if strings.Join(got, ",") != "x,t,xxx,after" {
		t.Errorf("conversation %v", got)
	}
	if l.Transcript[1].Message.Content != "xx" {
		t.Errorf("the trim changed the transcript: %q", l.Transcript[1].Message.Content)
	}
}

// Every byte offset of a cut last line: the session still opens, says the
// line was torn, and the next append starts a line of its own.
func TestTornLastLine(t *testing.T) {
	st := newStore(t)
	id := conversation(t, st)
	full, err := os.ReadFile(st.Path(id))
	if err != nil {
		t.Fatal(err)
	}
	body := full[:len(full)-1]
	start := bytes.LastIndexByte(body, '\n') + 1
	whole, err := st.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	for cut := start; cut <= len(full); cut++ {
		if err := os.WriteFile(st.Path(id), full[:cut], 0o600); err != nil {
			t.Fatal(err)
		}
		os.Remove(st.metaPath(id))
		l, err := st.Load(id)
		if err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		torn := cut > start && cut < len(full)-1
		if torn != (len(l.Warnings) == 1) {
			t.Fatalf("cut at %d of %d..%d: warnings %v", cut, start, len(full), l.Warnings)
		}
		if torn && !strings.Contains(l.Warnings[0], "cut off mid-write") {
			t.Errorf("warning %q", l.Warnings[0])
		}
		if len(l.Messages) != len(whole.Messages) {
			t.Fatalf("cut at %d: %d messages", cut, len(l.Messages))
		}
		// Opened for writing, the torn end goes and appends are whole lines.
		_, w, err := st.Open(id)
		if err != nil {
			t.Fatalf("open after cut at %d: %v", cut, err)
		}
		w.Append(msg(2, Message{Role: "user", Content: "again"}))
		w.Close()
		l, err = st.Load(id)
		if err != nil || len(l.Warnings) != 0 {
			t.Fatalf("after the append, cut at %d: %v %v", cut, err, l.Warnings)
		}
		if last := l.Messages[len(l.Messages)-1]; last.Content != "again" {
			t.Fatalf("cut at %d: last message %+v", cut, last)
		}
	}
}

func TestNewerVersionRefused(t *testing.T) {
	st := newStore(t)
	os.MkdirAll(st.Dir(), 0o700)
	line := `{"type":"session","time":"2030-01-01T00:00:00Z","version":99,"id":"abcd"}` + "\n"
	os.WriteFile(st.Path("abcd"), []byte(line), 0o600)
	_, err := st.Load("abcd")
	if !errors.Is(err, ErrNewer) || !strings.Contains(err.Error(), "version 99") || !strings.Contains(err.Error(), "Update fawn") {
		t.Errorf("err = %v", err)
	}
	if _, _, err := st.Open("abcd"); !errors.Is(err, ErrNewer) {
		t.Errorf("open: %v", err)
	}
	// Not a session at all.
	os.WriteFile(st.Path("beef"), []byte("hello\n"), 0o600)
	if _, err := st.Load("beef"); err == nil || !strings.Contains(err.Error(), "not a fawn session") {
		t.Errorf("err = %v", err)
	}
}

func TestLockedSessionForks(t *testing.T) {
	st := newStore(t)
	id := conversation(t, st)
	_, w, err := st.Open(id)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	// A second open (another process: flock locks are per open file) is refused.
	l, w2, err := st.Open(id)
	if !errors.Is(err, ErrLocked) || w2 != nil {
		t.Fatalf("second open: %v", err)
	}
	l, err = st.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	f, err := st.Fork(l)
	if err != nil {
		t.Fatal(err)
	}
	f.Append(msg(len(l.Messages), Message{Role: "user", Content: "in the fork"}))
	f.Close()
	fl, err := st.Load(f.ID())
	if err != nil {
		t.Fatal(err)
	}
	if fl.Header.Parent != id || fl.System != l.System || fl.Model != l.Model || len(fl.Messages) != len(l.Messages)+1 ||
		!reflect.DeepEqual(fl.Todos, l.Todos) || fl.Info.Title != l.Info.Title {
		t.Errorf("fork %+v", fl.Info)
	}
	// The original is untouched.
	after, _ := st.Load(id)
	if len(after.Messages) != len(l.Messages) {
		t.Errorf("the original changed")
	}
}

// helperEnv runs this test binary as a second process that holds a session
// open, to show the lock works across processes.
const helperEnv = "FAWN_SESSION_TEST_HOLD"

func TestHoldHelper(t *testing.T) {
	spec := os.Getenv(helperEnv)
	if spec == "" {
		t.Skip("helper process only")
	}
	parts := strings.Split(spec, "|")
	dataDir, project, id := parts[0], parts[1], parts[2]
	st, _ := New(dataDir, project, Options{})
	_, w, err := st.Open(id)
	if err != nil {
		os.Stdout.WriteString("ERR " + err.Error() + "\n")
		return
	}
	os.Stdout.WriteString("HELD\n")
	io.Copy(io.Discard, os.Stdin) // until the test is done with it
	w.Close()
}

func TestTwoProcesses(t *testing.T) {
	data, project := t.TempDir(), t.TempDir()
	st, _ := New(data, project, Options{})
	id := conversation(t, st)
	cmd := exec.Command(os.Args[0], "-test.run", "^TestHoldHelper$", "-test.v")
	cmd.Env = append(os.Environ(), helperEnv+"="+data+"|"+project+"|"+id)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer in.Close()
	buf := make([]byte, 4096)
	var seen string
	for !strings.Contains(seen, "HELD") && !strings.Contains(seen, "ERR") {
		n, err := out.Read(buf)
		seen += string(buf[:n])
		if err != nil {
			t.Fatalf("helper: %q %v", seen, err)
		}
	}
	if !strings.Contains(seen, "HELD") {
		t.Fatalf("helper: %s", seen)
	}
	if _, _, err := st.Open(id); !errors.Is(err, ErrLocked) {
		t.Errorf("open while another process holds it: %v", err)
	}
	// Reading is always allowed.
	if _, err := st.Load(id); err != nil {
		t.Errorf("load: %v", err)
	}
}

func TestSecretsNeverWritten(t *testing.T) {
	const key = "sk-test-0123456789abcdef"
	st := newStore(t, key, "short")
	w, err := st.Create(Record{})
	if err != nil {
		t.Fatal(err)
	}
	w.Append(msg(0, Message{Role: "tool", Content: "OPENAI_API_KEY=" + key + " found in .env"}),
		Record{Type: TypeSystem, Prompt: "key: " + key})
	w.Close()
	data, _ := os.ReadFile(st.Path(w.ID()))
	if bytes.Contains(data, []byte(key)) || !bytes.Contains(data, []byte("[redacted]")) {
		t.Errorf("the key reached the file:\n%s", data)
	}
	if !bytes.Contains(data, []byte("found in .env")) {
		t.Errorf("the rest of the line is gone")
	}
}

func TestListFindNewest(t *testing.T) {
	st := newStore(t)
	if l, err := st.List(); err != nil || len(l) != 0 {
		t.Fatalf("empty store: %v %v", l, err)
	}
	if _, err := st.Newest(); !errors.Is(err, ErrNotFound) {
		t.Errorf("newest of none: %v", err)
	}
	var ids []string
	for i, id := range []string{"aa11", "aa22", "bb33"} {
		w, err := st.Create(Record{ID: id, Time: time.Now().Add(time.Duration(i) * time.Minute)})
		if err != nil {
			t.Fatal(err)
		}
		w.Append(msg(0, Message{Role: "user", Content: "prompt " + id}))
		w.Close()
		ids = append(ids, id)
	}
	// Touch the first so it is the newest.
	_, w, err := st.Open("aa11")
	if err != nil {
		t.Fatal(err)
	}
	w.Append(Record{Type: TypeTurn, Time: time.Now().Add(time.Hour)})
	w.Close()
	list, err := st.List()
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, in := range list {
		order = append(order, in.ID)
	}
	if strings.Join(order, ",") != "aa11,bb33,aa22" {
		t.Errorf("order %v", order)
	}
	if n, _ := st.Newest(); n != "aa11" {
		t.Errorf("newest %s", n)
	}
	if id, err := st.Find("bb"); err != nil || id != "bb33" {
		t.Errorf("find bb: %s %v", id, err)
	}
	if _, err := st.Find("aa"); err == nil || !strings.Contains(err.Error(), "aa11, aa22") {
		t.Errorf("ambiguous: %v", err)
	}
	if _, err := st.Find("cc"); !errors.Is(err, ErrNotFound) {
		t.Errorf("none: %v", err)
	}
	if _, err := st.Find("../x"); err == nil {
		t.Errorf("a path is not an ID")
	}
	// A stale summary (the file grew after it, e.g. a kill -9) is not trusted.
	f, _ := os.OpenFile(st.Path("bb33"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"type":"message","time":"2030-01-01T00:00:00Z","n":1,"message":{"role":"assistant","content":"late"}}` + "\n")
	f.Close()
	in, _ := st.Info("bb33")
	if in.Messages != 2 {
		t.Errorf("stale summary used: %+v", in)
	}
	if err := st.Remove("aa22"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Find("aa2"); err == nil {
		t.Errorf("removed session still found")
	}
}

func TestProjectKey(t *testing.T) {
	a, b := ProjectKey("/home/u/my project"), ProjectKey("/srv/my project")
	if a == b || !strings.HasPrefix(a, "my_project-") || len(a) != len("my_project-")+12 {
		t.Errorf("keys %q %q", a, b)
	}
	if k := ProjectKey("/"); !strings.HasPrefix(k, "root-") {
		t.Errorf("root key %q", k)
	}
	if k := ProjectKey("/x/..hidden"); strings.HasPrefix(k, ".") {
		t.Errorf("dot key %q", k)
	}
}

func TestBlobsDedup(t *testing.T) {
	b := &Blobs{dir: t.TempDir()}
	h1, err := b.Put([]byte("same"))
	if err != nil {
		t.Fatal(err)
	}
	h2, _ := b.Put([]byte("same"))
	if h1 != h2 || h1 != Hash([]byte("same")) || !b.Has(h1) {
		t.Errorf("%s %s", h1, h2)
	}
	n := 0
	filepath.Walk(b.Dir(), func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			n++
		}
		return nil
	})
	if n != 1 {
		t.Errorf("%d files for one content", n)
	}
	if _, err := b.Get("../../etc/passwd"); err == nil {
		t.Errorf("a path is not a hash")
	}
}

func TestMarkdown(t *testing.T) {
	st := newStore(t)
	id := conversation(t, st)
	l, _ := st.Load(id)
	l.Transcript[2].Message.Content = "has ``` inside"
	var b bytes.Buffer
	if err := WriteMarkdown(&b, l); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, want := range []string{
		"# Fix the bug in main.go please", "## User", "## Assistant", "**Tool call** `bash` (`c1`)",
		"```json\n{\n  \"command\": \"go test\"\n}\n```", "**Result** of `bash` (`c1`)", "````\nhas ``` inside\n````",
		"**Compacted** (manual): 900 → 90 tokens", "> Goal: fix", "*The turn ended with an error: boom*",
		"- [~] fix", "<summary>Reasoning</summary>",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
}

func TestRecovery(t *testing.T) {
	st := newStore(t)
	rc := st.Recovery()
	if p, err := rc.Pending(); err != nil || len(p) != 0 {
		t.Fatalf("%v %v", p, err)
	}
	rc.Save("/p/a.go", []byte("package a // unsaved"))
	rc.Save("/p/b.bin", []byte{0xff, 0xfe, 0})
	rc.Save("/p/a.go", []byte("package a // newer"))
	// Another fawn that is still running keeps its own buffers.
	other := &Recovery{dir: rc.dir, pid: os.Getppid()}
	other.Save("/p/c.go", []byte("theirs"))
	p, err := rc.Pending()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range p {
		got[r.Path] = string(r.Content())
	}
	if len(got) != 2 || got["/p/a.go"] != "package a // newer" || got["/p/b.bin"] != "\xff\xfe\x00" {
		t.Errorf("pending %q", got)
	}
	rc.Drop("/p/a.go")
	rc.Drop("/p/never.go")
	if p, _ := rc.Pending(); len(p) != 1 {
		t.Errorf("after drop: %+v", p)
	}
}

// A file kept by an older version (the whole buffer in JSON) is still
// offered back, and a save or a drop of its path removes it.
func TestRecoveryReadsTheOlderFormat(t *testing.T) {
	st := newStore(t)
	rc := st.Recovery()
	old, _ := json.Marshal(Recovered{Path: "/p/old.go", Text: "package old", PID: -1})
	os.MkdirAll(rc.dir, 0o700)
	if err := os.WriteFile(rc.file("/p/old.go", legacyExt), old, 0o600); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(rc.dir, "torn.rec"), []byte(`{"path":"/p/x`), 0o600)
	p, err := rc.Pending()
	if err != nil || len(p) != 1 || string(p[0].Content()) != "package old" {
		t.Fatalf("pending %+v %v", p, err)
	}
	rc.Save("/p/old.go", []byte("package newer"))
	p, _ = rc.Pending()
	if len(p) != 1 || string(p[0].Content()) != "package newer" {
		t.Errorf("after a save: %+v", p)
	}
	rc.Drop("/p/old.go")
	if p, _ := rc.Pending(); len(p) != 0 {
		t.Errorf("after a drop: %+v", p)
	}
}

// Keeping a big buffer writes it as it is: the save allocates nothing
// near the buffer's size (as JSON it allocated eight times that).
func TestRecoverySaveDoesNotCopyTheBuffer(t *testing.T) {
	rc := newStore(t).Recovery()
	data := bytes.Repeat([]byte("\tfmt.Println(\"a line of \\\"code\\\"\")\n"), 64<<10)
	rc.Save("/p/big.go", data) // the directory exists from here on
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if err := rc.Save("/p/big.go", data); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > uint64(len(data))/4 {
		t.Errorf("saving %d bytes allocated %d", len(data), got)
	}
	if r, ok := readRecovered(rc.file("/p/big.go", recExt)); !ok || !bytes.Equal(r.Content(), data) {
		t.Errorf("the kept buffer differs (%v)", ok)
	}
}

// A truncate (a rewind of the conversation) takes the dropped messages out
// of the transcript the chat shows too, but not what a compaction before it
// replaced.
func TestTruncateCutsTheTranscript(t *testing.T) {
	st := newStore(t)
	w, err := st.Create(Record{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	recs := []Record{
		msg(0, Message{Role: "user", Content: "old"}),
		msg(1, Message{Role: "assistant", Content: "old answer"}),
		{Type: TypeCompact, Reason: "manual", Summary: "s", Messages: []Message{{Role: "user", Content: "summary"}, {Role: "assistant", Content: "ok"}}},
		msg(2, Message{Role: "user", Content: "first"}),
		msg(3, Message{Role: "assistant", Content: "one"}),
		{Type: TypeTurn},
		msg(4, Message{Role: "user", Content: "second"}),
		msg(5, Message{Role: "assistant", Content: "two"}),
		{Type: TypeTurn},
		{Type: TypeTruncate, Keep: Of(4)},
	}
	if err := w.Append(recs...); err != nil {
		t.Fatal(err)
	}
	l, err := st.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	var shown []string
	for _, e := range l.Transcript {
		if e.Message != nil {
			shown = append(shown, e.Message.Content)
		}
	}
	if strings.Join(shown, "|") != "old|old answer|first|one" || len(l.Messages) != 4 {
		t.Errorf("transcript %q, %d messages", shown, len(l.Messages))
	}
}
