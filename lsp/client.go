package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/fawn-ide/fawn/internal/proc"
)

// requestTimeout bounds every request to a server: a server that hangs
// costs a tool call this long at most, never fawn.
const requestTimeout = 10 * time.Second

// client is one running language server process and the connection to it.
type client struct {
	name, root string
	cmd        *exec.Cmd
	conn       *jsonrpc2.Conn
	utf8       bool // positions count UTF-8 bytes (else UTF-16 units)
	stderr     *tail
	exited     chan struct{}
	exitErr    error
	onDiags    func(path string, ps []Problem)

	mu    sync.Mutex
	docs  map[string]*openDoc // by URI
	diags map[string]*published
	seq   uint64
	wake  chan struct{} // closed and replaced at every publication
	// reported is the diagnostics as the last edit's report saw them:
	// problems in other files that a server published late (after that
	// report) are still news at the next edit.
	reported map[string][]Diagnostic
	// progress are the work-done progress tokens the server began and
	// has not ended ($/progress): while there are any it is loading or
	// indexing, and what it publishes may not be its analysis yet.
	progress map[string]bool
}

type openDoc struct {
	version int
	text    string
}

type published struct {
	seq     uint64
	version int // -1 when the server did not say
	list    []Diagnostic
	// busy: the server had work in progress when it published this.
	busy bool
}

// stdio joins the server's stdout and stdin into the stream the
// connection reads and writes.
type stdio struct {
	io.ReadCloser
	in io.WriteCloser
}

func (s stdio) Write(p []byte) (int, error) { return s.in.Write(p) }
func (s stdio) Close() error {
	err := s.in.Close()
	if e := s.ReadCloser.Close(); err == nil {
		err = e
	}
	return err
}

// tail keeps the last bytes a server wrote to stderr, for /lsp's last error.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > 4096 {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-4096:]...)
	}
	return len(p), nil
}

// lastLine is the last non-empty line written.
func (t *tail) lastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.buf)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// startClient starts the server and initializes it within ctx.
func startClient(ctx context.Context, s Server, bin, root string, env []string, onDiags func(string, []Problem)) (*client, error) {
	cmd := exec.Command(bin, s.Args...)
	cmd.Dir = root
	cmd.Env = env
	for k, v := range s.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	// Its own process group: closing it ends what it started too, and a
	// leftover holding its stderr does not hold the wait for its end.
	proc.Own(cmd)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	c := &client{name: s.Name, root: root, cmd: cmd, stderr: &tail{}, exited: make(chan struct{}),
		onDiags: onDiags, docs: map[string]*openDoc{}, diags: map[string]*published{}, wake: make(chan struct{})}
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	c.conn = jsonrpc2.NewConn(context.Background(),
		jsonrpc2.NewBufferedStream(stdio{ReadCloser: out, in: in}, jsonrpc2.VSCodeObjectCodec{}),
		jsonrpc2.HandlerWithError(c.handle), jsonrpc2.SetLogger(log.New(io.Discard, "", 0)))
	go func() {
		c.exitErr = cmd.Wait()
		proc.KillGroup(cmd) // a server that ended leaves nothing running
		close(c.exited)
		c.conn.Close()
	}()
	if err := c.initialize(ctx, s); err != nil {
		c.kill()
		if msg := c.stderr.lastLine(); msg != "" {
			err = fmt.Errorf("%w (it said: %s)", err, msg)
		}
		return nil, err
	}
	return c, nil
}

func (c *client) pid() int {
	if c.cmd.Process == nil {
		return 0
	}
	return c.cmd.Process.Pid
}

func (c *client) initialize(ctx context.Context, s Server) error {
	params := map[string]any{
		"processId": os.Getpid(),
		"rootUri":   URI(c.root),
		"rootPath":  c.root,
		"workspaceFolders": []map[string]string{
			{"uri": URI(c.root), "name": c.root},
		},
		"clientInfo": map[string]string{"name": "fawn"},
		"capabilities": map[string]any{
			"general": map[string]any{"positionEncodings": []string{"utf-8", "utf-16"}},
			"textDocument": map[string]any{
				"synchronization":    map[string]any{"didSave": true},
				"publishDiagnostics": map[string]any{"versionSupport": true},
				"hover":              map[string]any{"contentFormat": []string{"plaintext", "markdown"}},
				"definition":         map[string]any{"linkSupport": true},
				"references":         map[string]any{},
				"documentSymbol":     map[string]any{"hierarchicalDocumentSymbolSupport": true},
			},
			"workspace": map[string]any{
				"workspaceFolders":       true,
				"configuration":          true,
				"symbol":                 map[string]any{},
				"didChangeWatchedFiles":  map[string]any{"dynamicRegistration": false},
				"workspaceEdit":          map[string]any{"documentChanges": false},
				"didChangeConfiguration": map[string]any{"dynamicRegistration": false},
			},
			"window": map[string]any{"workDoneProgress": true},
		},
	}
	if s.InitOptions != nil {
		params["initializationOptions"] = s.InitOptions
	}
	var res struct {
		Capabilities struct {
			PositionEncoding string `json:"positionEncoding"`
		} `json:"capabilities"`
	}
	if err := c.call(ctx, "initialize", params, &res); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	c.utf8 = res.Capabilities.PositionEncoding == "utf-8"
	if err := c.conn.Notify(ctx, "initialized", map[string]any{}); err != nil {
		return err
	}
	// Settings, as editors send them: pyright asks for its configuration
	// (and analyses nothing) only after this.
	return c.conn.Notify(ctx, "workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{}})
}

// call sends a request and waits for its answer, ctx's deadline or
// requestTimeout, whichever comes first, or the server's end.
func (c *client) call(ctx context.Context, method string, params, result any) error {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- c.conn.Call(ctx, method, params, result) }()
	select {
	case err := <-done:
		if errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("%s did not answer %s in time", c.name, method)
		}
		if errors.Is(err, jsonrpc2.ErrClosed) {
			return fmt.Errorf("%s has stopped", c.name)
		}
		return err
	case <-c.exited:
		return fmt.Errorf("%s has stopped", c.name)
	}
}

func (c *client) notify(method string, params any) error {
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	return c.conn.Notify(ctx, method, params)
}

// handle answers what the server asks and keeps what it publishes.
func (c *client) handle(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	var params json.RawMessage
	if req.Params != nil {
		params = *req.Params
	}
	switch req.Method {
	case "textDocument/publishDiagnostics":
		var p publishDiagnosticsParams
		if err := json.Unmarshal(params, &p); err == nil {
			c.publish(p)
		}
		return nil, nil
	case "$/progress":
		c.onProgress(params)
		return nil, nil
	case "workspace/configuration":
		var p struct {
			Items []json.RawMessage `json:"items"`
		}
		_ = json.Unmarshal(params, &p)
		return make([]any, len(p.Items)), nil
	case "workspace/workspaceFolders":
		return []map[string]string{{"uri": URI(c.root), "name": c.root}}, nil
	case "workspace/applyEdit":
		// fawn's edits go through the agent's tools and the user.
		return map[string]any{"applied": false, "failureReason": "fawn does not let a language server edit files"}, nil
	case "client/registerCapability", "client/unregisterCapability", "window/workDoneProgress/create",
		"window/showMessageRequest", "window/showDocument", "workspace/diagnostic/refresh",
		"workspace/semanticTokens/refresh", "workspace/inlayHint/refresh", "workspace/codeLens/refresh":
		return nil, nil
	}
	if req.Notif {
		return nil, nil
	}
	return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "fawn does not handle " + req.Method}
}

// onProgress keeps which progress tokens are open. The end of one wakes
// the waiters: a file published while the server was busy is analysed
// only once a publication comes when it is not.
func (c *client) onProgress(params json.RawMessage) {
	var p struct {
		Token json.RawMessage `json:"token"`
		Value struct {
			Kind string `json:"kind"`
		} `json:"value"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.progress == nil {
		c.progress = map[string]bool{}
	}
	switch p.Value.Kind {
	case "begin":
		c.progress[string(p.Token)] = true
	case "end":
		delete(c.progress, string(p.Token))
		close(c.wake)
		c.wake = make(chan struct{})
	}
}

// analysed reports whether the server published diagnostics of path at
// a time it had no work in progress.
func (c *client) analysed(path string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.diags[URI(path)]
	return p != nil && !p.busy
}

func (c *client) publish(p publishDiagnosticsParams) {
	c.mu.Lock()
	c.seq++
	v := -1
	if p.Version != nil {
		v = *p.Version
	}
	c.diags[p.URI] = &published{seq: c.seq, version: v, list: p.Diagnostics, busy: len(c.progress) > 0}
	close(c.wake)
	c.wake = make(chan struct{})
	c.mu.Unlock()
	if c.onDiags != nil {
		if path := PathOf(p.URI); path != "" {
			c.onDiags(path, problems(c.text(path), p.Diagnostics, c.utf8))
		}
	}
}

// sync tells the server the file's content: didOpen the first time,
// didChange (whole text) when it differs, then didSave. It returns the
// publication sequence before, and the document's version.
func (c *client) sync(path, text string) (before uint64, version int, err error) {
	return c.send(path, text, true)
}

// send is sync, with didSave or (for text not on disk yet) without.
func (c *client) send(path, text string, save bool) (before uint64, version int, err error) {
	uri := URI(path)
	c.mu.Lock()
	before = c.seq
	d, open := c.docs[uri]
	if !open {
		d = &openDoc{version: 1, text: text}
		c.docs[uri] = d
	} else if d.text != text {
		d.version++
		d.text = text
	}
	version = d.version
	c.mu.Unlock()
	if !open {
		err = c.notify("textDocument/didOpen", map[string]any{"textDocument": textDocumentItem{URI: uri, LanguageID: languageID(path), Version: version, Text: text}})
	} else {
		err = c.notify("textDocument/didChange", map[string]any{
			"textDocument":   versionedDocID{URI: uri, Version: version},
			"contentChanges": []map[string]string{{"text": text}},
		})
	}
	if err == nil && save {
		err = c.notify("textDocument/didSave", map[string]any{"textDocument": docID{URI: uri}, "text": text})
	}
	return before, version, err
}

// closeDoc tells the server a file it had open is gone.
func (c *client) closeDoc(path string) {
	uri := URI(path)
	c.mu.Lock()
	_, open := c.docs[uri]
	delete(c.docs, uri)
	c.mu.Unlock()
	if open {
		_ = c.notify("textDocument/didClose", map[string]any{"textDocument": docID{URI: uri}})
	}
}

// isOpen says whether the file was opened on this server.
func (c *client) isOpen(path string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.docs[URI(path)]
	return ok
}

// openCount is how many documents are open.
func (c *client) openCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.docs)
}

// openTexts returns the open documents' paths (to open again after a restart).
func (c *client) openPaths() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for uri := range c.docs {
		if p := PathOf(uri); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// waitFresh waits until the server publishes the file's diagnostics after
// sequence after (and for version or later, when it says versions) while
// it has no work in progress, or until ctx ends. It returns whether such
// diagnostics came: whether the server has analysed the file.
func (c *client) waitFresh(ctx context.Context, path string, after uint64, version int) bool {
	uri := URI(path)
	return c.waitFor(ctx, func() bool {
		p := c.diags[uri]
		return p != nil && p.seq > after && (p.version < 0 || p.version >= version) && !p.busy
	})
}

// How long a clean report waits for the server to say more: some servers
// publish in passes (typescript-language-server a file's syntax errors,
// then its type errors, as tsserver finds them), and the first pass of a
// file with a type error is empty. A server that just started gets longer.
const (
	settleWarm = 300 * time.Millisecond
	settleCold = 2 * time.Second
)

// settle runs after fresh diagnostics of path came: it waits for the
// server to fall quiet (60 ms, or d when what it published holds no error
// or warning) and reports whether the file still counts as analysed. A
// server that began loading meanwhile has not analysed it after all: then
// settle waits for a publication made once it is done, as waitFresh does.
func (c *client) settle(ctx context.Context, path string, after uint64, version int, d time.Duration) bool {
	c.mu.Lock()
	p := c.diags[URI(path)]
	clean := p == nil || len(onlySerious(p.list)) == 0
	c.mu.Unlock()
	if !clean {
		d = 60 * time.Millisecond
	}
	c.quiet(ctx, d)
	c.mu.Lock()
	p = c.diags[URI(path)]
	busyNow := len(c.progress) > 0
	c.mu.Unlock()
	if p != nil && !p.busy && !busyNow {
		return true
	}
	if p != nil {
		after = max(after, p.seq)
	}
	return c.waitFresh(ctx, path, after, version)
}

// waitAny waits until the server publishes anything after sequence
// after, or ctx ends.
func (c *client) waitAny(ctx context.Context, after uint64) bool {
	return c.waitFor(ctx, func() bool { return c.seq > after })
}

// waitFor waits until ok (called with c.mu held) holds after a
// publication, or ctx ends or the server exits; it reports whether ok held.
func (c *client) waitFor(ctx context.Context, ok func() bool) bool {
	for {
		c.mu.Lock()
		done, wake := ok(), c.wake
		c.mu.Unlock()
		if done {
			return true
		}
		select {
		case <-wake:
		case <-ctx.Done():
			return false
		case <-c.exited:
			return false
		}
	}
}

// advance takes the diagnostics published so far as the new baseline of
// the reports and returns them with the old baseline (before, when no
// report was made yet): what is in after and not in base is news.
func (c *client) advance(before map[string][]Diagnostic) (after, base map[string][]Diagnostic) {
	after = c.snapshot()
	c.mu.Lock()
	base = c.reported
	c.reported = after
	c.mu.Unlock()
	if base == nil {
		base = before
	}
	return after, base
}

// lastSeq is the sequence number of the last publication.
func (c *client) lastSeq() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.seq
}

// quiet waits until no publication came for d, or ctx ends: a change to
// one file often makes the server publish for its neighbours too.
func (c *client) quiet(ctx context.Context, d time.Duration) {
	for {
		c.mu.Lock()
		wake := c.wake
		c.mu.Unlock()
		select {
		case <-wake:
		case <-time.After(d):
			return
		case <-ctx.Done():
			return
		}
	}
}

// snapshot copies the diagnostics published so far, by path.
func (c *client) snapshot() map[string][]Diagnostic {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string][]Diagnostic, len(c.diags))
	for uri, p := range c.diags {
		if path := PathOf(uri); path != "" && len(p.list) > 0 {
			out[path] = p.list
		}
	}
	return out
}

// text is the open document's text, or the file on disk.
func (c *client) text(path string) string {
	c.mu.Lock()
	d := c.docs[URI(path)]
	var text string
	if d != nil {
		text = d.text
	}
	c.mu.Unlock()
	if d != nil {
		return text
	}
	b, _ := os.ReadFile(path)
	return string(b)
}

// close asks the server to shut down and ends it if it does not, and
// then what it had started (below it when close began, or in its group).
func (c *client) close() {
	select {
	case <-c.exited:
		return
	default:
	}
	below := proc.Below(c.cmd)
	defer below.Kill()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := c.conn.Call(ctx, "shutdown", nil, nil); err == nil {
		_ = c.conn.Notify(ctx, "exit", nil)
	}
	select {
	case <-c.exited:
	case <-time.After(time.Second):
		c.kill()
	}
}

// kill ends the server's process group, and what is below it, at once.
func (c *client) kill() {
	proc.Kill(c.cmd)
	c.conn.Close()
	<-c.exited
}
