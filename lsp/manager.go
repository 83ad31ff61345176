package lsp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/trust"
)

// Options configure a Manager.
type Options struct {
	// Root is the project root (absolute, symlinks resolved).
	Root string
	// Servers are the configured servers (Merge of Defaults and lsp.*).
	Servers []Server
	// Env is the environment servers start with: fawn's own without the
	// model keys (config.CleanEnv).
	Env []string
	// Allowed is the trust decision: a server starts only when it allows
	// the server's Item. Nil allows nothing.
	Allowed func(trust.Item) bool
	// OnDiagnostics gets every publication: the file and its whole list,
	// placed in the file's text.
	// It must not block.
	OnDiagnostics func(path string, ps []Problem)
	// OnEvent is told when a server starts, stops, crashes or comes back;
	// problem marks the bad news. It must not block.
	OnEvent func(msg string, problem bool)
	// Wait bounds how long an edit waits for fresh diagnostics (default
	// 3 s); StartWait how long it waits for a server still starting (20 s).
	Wait, StartWait time.Duration
}

// Manager runs a project's language servers. Its zero value is not
// usable; build it with New. Every method is safe for concurrent use.
type Manager struct {
	o     Options
	cands []candidate

	mu   sync.Mutex
	inst map[string]*instance // by server name and root
	// pending is what the editor said of files, not sent yet.
	pending map[string]userDoc
	closed  bool

	// stop ends the servers still starting when Close is called; starting
	// counts them, so that Close returns only once they are gone.
	stop     context.Context
	cancel   context.CancelFunc
	starting sync.WaitGroup

	sendMu sync.Mutex // one userText send at a time
}

// States of a server instance, as /lsp shows them.
const (
	StateStarting   = "starting"
	StateReady      = "ready"
	StateRestarting = "restarting"
	StateFailed     = "failed"
	StateStopped    = "stopped"
)

type instance struct {
	cand    candidate
	root    string
	state   string
	client  *client
	ready   chan struct{} // closed when the current start attempt settles
	lastErr string
	crashes int
	since   time.Time
	reopen  []string // files to open again after a restart
}

// maxCrashes is how many crashes in a row a server gets before fawn stops
// restarting it.
const maxCrashes = 5

// New returns a manager for the project; nothing starts until a file of a
// server's language is opened or edited.
func New(o Options) *Manager {
	if o.Wait <= 0 {
		o.Wait = 3 * time.Second
	}
	if o.StartWait <= 0 {
		o.StartWait = 20 * time.Second
	}
	stop, cancel := context.WithCancel(context.Background())
	return &Manager{o: o, cands: survey(o.Root, o.Servers), inst: map[string]*instance{}, stop: stop, cancel: cancel}
}

// Available says whether any server may start for this project: the
// agent gets the code tools only then.
func (m *Manager) Available() bool {
	for _, c := range m.cands {
		if c.why == "" && m.allowed(c) {
			return true
		}
	}
	return false
}

func (m *Manager) allowed(c candidate) bool {
	return m.o.Allowed != nil && m.o.Allowed(Item(c.Server, c.bin, c.marker))
}

// serverFor picks the server of path and its root.
func (m *Manager) serverFor(path string) (*candidate, string, error) {
	var shadowed *candidate
	for i := range m.cands {
		c := &m.cands[i]
		if !c.serves(path) {
			continue
		}
		if c.why != "" {
			if shadowed == nil {
				shadowed = c
			}
			continue
		}
		if !m.allowed(*c) {
			return nil, "", fmt.Errorf("%s does not start: this directory is not trusted (language servers load the project's code)", c.Name)
		}
		return c, m.rootFor(*c, path), nil
	}
	if shadowed != nil {
		return nil, "", fmt.Errorf("no language server for %s: %s: %s", filepath.Ext(path), shadowed.Name, shadowed.why)
	}
	return nil, "", fmt.Errorf("no language server is configured for %s files (/lsp lists them; lsp.* in the configuration adds one)", filepath.Ext(path))
}

// rootFor is the nearest directory from path's up to the project root that
// holds one of c's markers, else the project root.
func (m *Manager) rootFor(c candidate, path string) string {
	dir := filepath.Dir(path)
	for {
		if c.hasMarker(dir) != "" {
			return dir
		}
		if dir == m.o.Root || !strings.HasPrefix(dir, m.o.Root+string(filepath.Separator)) {
			return m.o.Root
		}
		dir = filepath.Dir(dir)
	}
}

// instanceFor returns the server instance for path, starting it in the
// background the first time.
func (m *Manager) instanceFor(path string) (*instance, error) {
	c, root, err := m.serverFor(path)
	if err != nil {
		return nil, err
	}
	key := c.Name + "\x00" + root
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, errors.New("fawn is closing")
	}
	in := m.inst[key]
	if in == nil {
		in = &instance{cand: *c, root: root}
		m.inst[key] = in
		m.startLocked(in)
	}
	return in, nil
}

// startLocked starts in's server in the background; m.mu is held.
func (m *Manager) startLocked(in *instance) {
	if m.closed {
		// Close may be waiting for the starts it knows of: start none.
		done := make(chan struct{})
		close(done)
		in.state, in.ready = StateStopped, done
		return
	}
	if in.state == "" || in.state == StateStopped || in.state == StateFailed {
		in.state = StateStarting
	}
	in.since = time.Now()
	ready := make(chan struct{})
	in.ready = ready
	m.starting.Add(1)
	go func() {
		defer m.starting.Done()
		ctx, cancel := context.WithTimeout(m.stop, 60*time.Second)
		defer cancel()
		c, err := startClient(ctx, in.cand.Server, in.cand.bin, in.root, m.o.Env, m.o.OnDiagnostics)
		if err == nil {
			m.mu.Lock()
			reopen := in.reopen
			m.mu.Unlock()
			if err = m.reopen(ctx, c, reopen); err != nil {
				c.close()
			}
		}
		m.mu.Lock()
		if m.closed {
			m.mu.Unlock()
			if c != nil {
				c.close()
			}
			close(ready)
			return
		}
		if err != nil {
			in.lastErr = err.Error()
			if in.state == StateStarting {
				// It never ran: a broken install (a rustup proxy without
				// its component, a wrong command), not a crash that a
				// restart would get over.
				in.state = StateFailed
				m.event(fmt.Sprintf("language server %s could not start (%s); /lsp restart %s tries again", in.cand.Name, in.lastErr, in.cand.Name), true)
			} else {
				m.crashedLocked(in)
			}
			m.mu.Unlock()
			close(ready)
			return
		}
		back := in.state == StateRestarting
		in.client, in.state, in.since = c, StateReady, time.Now()
		in.reopen = nil
		m.mu.Unlock()
		go m.watch(in, c)
		if back {
			m.event(fmt.Sprintf("language server %s is back", in.cand.Name), false)
		}
		close(ready)
	}()
}

// reopen opens again, on a restarted server, the files its last run had
// open, and waits (within three times Options.Wait, as for a server that
// just started) until it has published diagnostics for each. Until then
// the server is not handed out: an edit sent to a server that is still
// loading the project is checked against half of it (gopls answers
// "could not import" for a package it has not loaded yet).
func (m *Manager) reopen(ctx context.Context, c *client, paths []string) error {
	type opened struct {
		path    string
		seq     uint64
		version int
	}
	var sent []opened
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			continue // gone since: nothing to open
		}
		seq, version, err := c.sync(p, string(b))
		if err != nil {
			return fmt.Errorf("reopening %s: %w", m.rel(p), err)
		}
		sent = append(sent, opened{p, seq, version})
	}
	wctx, cancel := context.WithTimeout(ctx, 3*m.o.Wait)
	defer cancel()
	for _, o := range sent {
		// A server that publishes nothing for a clean file costs the
		// bounded wait, no more.
		c.waitFresh(wctx, o.path, o.seq, o.version)
	}
	select {
	case <-c.exited:
		return fmt.Errorf("%s stopped while it reopened the files", c.name)
	default:
		return nil
	}
}

// watch restarts a server that ends while fawn still needs it.
func (m *Manager) watch(in *instance, c *client) {
	<-c.exited
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed || in.client != c || in.state == StateStopped {
		return
	}
	in.client = nil
	in.reopen = c.openPaths()
	why := "exited"
	if c.exitErr != nil {
		why = c.exitErr.Error()
	}
	if msg := c.stderr.lastLine(); msg != "" {
		why += ": " + msg
	}
	in.lastErr = why
	m.crashedLocked(in)
}

// crashedLocked schedules a restart with backoff, or gives up.
func (m *Manager) crashedLocked(in *instance) {
	in.crashes++
	if in.crashes >= maxCrashes {
		in.state = StateFailed
		m.event(fmt.Sprintf("language server %s failed %d times and is not restarted (%s); /lsp restart %s tries again", in.cand.Name, in.crashes, in.lastErr, in.cand.Name), true)
		return
	}
	in.state = StateRestarting
	wait := time.Second << (in.crashes - 1)
	m.event(fmt.Sprintf("language server %s stopped (%s); starting it again in %s", in.cand.Name, in.lastErr, wait), true)
	time.AfterFunc(wait, func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		if !m.closed && in.state == StateRestarting {
			m.startLocked(in)
		}
	})
}

func (m *Manager) event(msg string, problem bool) {
	if m.o.OnEvent != nil {
		m.o.OnEvent(msg, problem)
	}
}

// clientFor waits (within ctx) for path's server to be ready.
func (m *Manager) clientFor(ctx context.Context, path string) (*client, *instance, error) {
	in, err := m.instanceFor(path)
	if err != nil {
		return nil, nil, err
	}
	for {
		m.mu.Lock()
		c, state, ready, last := in.client, in.state, in.ready, in.lastErr
		m.mu.Unlock()
		switch {
		case c != nil:
			return c, in, nil
		case state == StateFailed:
			return nil, in, fmt.Errorf("language server %s failed: %s", in.cand.Name, last)
		}
		select {
		case <-ready:
			m.mu.Lock()
			same := in.ready == ready && in.client == nil
			m.mu.Unlock()
			if same && state != StateStarting && state != StateRestarting {
				return nil, in, fmt.Errorf("language server %s is not running", in.cand.Name)
			}
			if same {
				// A failed start: a restart is scheduled; wait for it.
				select {
				case <-time.After(200 * time.Millisecond):
				case <-ctx.Done():
					return nil, in, fmt.Errorf("language server %s is not ready (%s)", in.cand.Name, last)
				}
			}
		case <-ctx.Done():
			return nil, in, fmt.Errorf("language server %s is still starting", in.cand.Name)
		}
	}
}

// Open tells path's server about a file the user opened or saved (or
// closed unsaved: the file's own text counts again), starting the server
// if needed; it returns at once.
func (m *Manager) Open(path string) { m.userText(path, userDoc{disk: true}) }

// Typed tells path's server the text the user is typing (not saved yet),
// starting the server if needed; it returns at once. The diagnostics come
// back through OnDiagnostics.
func (m *Manager) Typed(path, text string) { m.userText(path, userDoc{text: text}) }

// userDoc is what the user's editor last said of a file: its text, or
// that the file on disk counts.
type userDoc struct {
	disk bool
	text string
}

// userText sends what the editor said of path in the background. Only
// the latest word counts, and the words go in order: a send takes
// whatever is latest when its turn comes.
func (m *Manager) userText(path string, d userDoc) {
	if _, _, err := m.serverFor(path); err != nil {
		return
	}
	m.mu.Lock()
	if m.pending == nil {
		m.pending = map[string]userDoc{}
	}
	m.pending[path] = d
	m.mu.Unlock()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), m.o.StartWait)
		defer cancel()
		c, _, err := m.clientFor(ctx, path)
		if err != nil {
			return
		}
		m.sendMu.Lock()
		defer m.sendMu.Unlock()
		m.mu.Lock()
		d, ok := m.pending[path]
		delete(m.pending, path)
		m.mu.Unlock()
		switch {
		case !ok: // an earlier send took it
		case d.disk:
			if b, err := os.ReadFile(path); err == nil {
				_, _, _ = c.sync(path, string(b))
			}
		default:
			_, _, _ = c.send(path, d.text, false)
		}
	}()
}

// AfterEdit implements tools.CodeIntel.
func (m *Manager) AfterEdit(ctx context.Context, abs string, content []byte) string {
	if _, _, err := m.serverFor(abs); err != nil {
		return ""
	}
	sctx, cancel := context.WithTimeout(ctx, m.o.StartWait)
	defer cancel()
	c, in, err := m.clientFor(sctx, abs)
	if err != nil {
		return "(" + err.Error() + "; no diagnostics for this edit)"
	}
	before := c.snapshot()
	seq, version, err := c.sync(abs, string(content))
	if err != nil {
		return fmt.Sprintf("(%s: %v; no diagnostics for this edit)", in.cand.Name, err)
	}
	wait := m.o.Wait
	settle := settleWarm
	m.mu.Lock()
	if time.Since(in.since) < 10*time.Second {
		wait *= 3 // a server that just started loads the project first
		settle = settleCold
	}
	m.mu.Unlock()
	wctx, cancel2 := context.WithTimeout(ctx, wait)
	defer cancel2()
	fresh := c.waitFresh(wctx, abs, seq, version) && c.settle(wctx, abs, seq, version, settle)
	after, others := c.advance(before)
	others[abs] = before[abs]
	return m.report(ctx, in.cand.Name, c, abs, others, after, fresh, wait)
}

// sent is what a file's sync returned: the publication sequence before it,
// and the document's version.
type sent struct {
	seq     uint64
	version int
}

// maxCommandFiles is how many files changed by one command are checked
// for the model; the servers are told of the others.
const maxCommandFiles = 10

// AfterCommand implements tools.CodeIntel: the files an agent command
// changed are sent to their servers (the first maxCommandFiles in full, as
// an edit's are; the servers are told of the rest), and the report says
// what the servers found in them.
func (m *Manager) AfterCommand(ctx context.Context, paths []string) string {
	type change struct {
		URI  string `json:"uri"`
		Type int    `json:"type"`
	}
	type group struct {
		name    string
		c       *client
		in      *instance
		before  map[string][]Diagnostic
		checked []string // sent in full, in order
		seqs    map[string]sent
		wasOpen map[string]bool
		events  []change
	}
	var groups []*group
	byClient := map[*client]*group{}
	skipped, checkedN := 0, 0
	sort.Strings(paths)
	for _, p := range paths {
		if _, _, err := m.serverFor(p); err != nil {
			continue
		}
		b, err := os.ReadFile(p)
		gone := errors.Is(err, os.ErrNotExist)
		if err != nil && !gone {
			continue
		}
		var c *client
		var in *instance
		if gone || checkedN >= maxCommandFiles {
			// Only a running server hears of it.
			m.mu.Lock()
			for _, i := range m.inst {
				if i.client != nil && i.cand.serves(p) && strings.HasPrefix(p, i.root) {
					c, in = i.client, i
				}
			}
			m.mu.Unlock()
			if c == nil {
				if !gone {
					skipped++
				}
				continue
			}
		} else {
			sctx, cancel := context.WithTimeout(ctx, m.o.StartWait)
			c, in, err = m.clientFor(sctx, p)
			cancel()
			if err != nil {
				continue
			}
		}
		g := byClient[c]
		if g == nil {
			g = &group{name: in.cand.Name, c: c, in: in, before: c.snapshot(), seqs: map[string]sent{}, wasOpen: map[string]bool{}}
			byClient[c] = g
			groups = append(groups, g)
		}
		typ := 2 // changed
		if gone {
			typ = 3 // deleted
			c.closeDoc(p)
		} else if checkedN < maxCommandFiles {
			g.wasOpen[p] = c.isOpen(p)
			if g.wasOpen[p] && c.text(p) == string(b) {
				continue // the server has this text already
			}
			seq, version, err := c.sync(p, string(b))
			if err == nil {
				g.checked = append(g.checked, p)
				checkedN++
				g.seqs[p] = sent{seq, version}
				continue
			}
		} else {
			skipped++
		}
		g.events = append(g.events, change{URI: URI(p), Type: typ})
	}
	var out []string
	for _, g := range groups {
		if len(g.events) > 0 {
			seq := g.c.lastSeq()
			_ = g.c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": g.events})
			if len(g.checked) == 0 && g.c.openCount() > 0 {
				// A deleted or unchecked file may break the open ones:
				// give the server until the edit wait to say so.
				wctx, cancel := context.WithTimeout(ctx, m.o.Wait)
				if g.c.waitAny(wctx, seq) {
					g.c.quiet(wctx, 60*time.Millisecond)
				}
				cancel()
				if r := m.othersReport(ctx, g.name, g.c, g.before); r != "" {
					out = append(out, r)
				}
			}
		}
		if len(g.checked) == 0 {
			continue
		}
		wait := m.o.Wait
		m.mu.Lock()
		if time.Since(g.in.since) < 10*time.Second {
			wait *= 3
		}
		m.mu.Unlock()
		wctx, cancel := context.WithTimeout(ctx, wait)
		var late []string
		for _, p := range g.checked {
			s := g.seqs[p]
			if !g.c.waitFresh(wctx, p, s.seq, s.version) {
				late = append(late, m.rel(p))
			}
		}
		if len(late) < len(g.checked) {
			g.c.quiet(wctx, 60*time.Millisecond)
		}
		cancel()
		after, others := g.c.advance(g.before)
		for _, p := range g.checked {
			others[p] = g.before[p]
		}
		if r := m.commandReport(ctx, g.name, g.c, g.checked, g.wasOpen, others, after, late, wait); r != "" {
			out = append(out, r)
		}
	}
	if skipped > 0 && len(out) > 0 {
		out = append(out, fmt.Sprintf("(%d more changed files were not checked; the diagnostics tool checks one)", skipped))
	}
	return strings.Join(out, "\n")
}

// Diagnostics implements tools.CodeIntel.
func (m *Manager) Diagnostics(ctx context.Context, abs string) (string, error) {
	if abs != "" {
		c, in, err := m.clientFor(ctx, abs)
		if err != nil {
			return "", err
		}
		if !c.isOpen(abs) {
			b, err := os.ReadFile(abs)
			if err != nil {
				return "", err
			}
			seq, version, err := c.sync(abs, string(b))
			if err != nil {
				return "", err
			}
			wctx, cancel := context.WithTimeout(ctx, m.o.Wait)
			analysed := c.waitFresh(wctx, abs, seq, version)
			cancel()
			if ds := c.snapshot()[abs]; !analysed && len(ds) == 0 {
				return notChecked(in.cand.Name, m.rel(abs), m.o.Wait), nil
			}
		} else if !c.analysed(abs) && len(c.snapshot()[abs]) == 0 {
			return notChecked(in.cand.Name, m.rel(abs), 0), nil
		}
		ds := c.snapshot()[abs]
		if len(ds) == 0 {
			return fmt.Sprintf("%s: no problems in %s.", in.cand.Name, m.rel(abs)), nil
		}
		return fmt.Sprintf("%s reports for %s:\n%s", in.cand.Name, m.rel(abs), m.list(c, abs, ds, nil, 50, 30)), nil
	}
	var b strings.Builder
	running, hidden := 0, 0
	for _, in := range m.instances() {
		if in.client == nil {
			continue
		}
		running++
		snap := in.client.snapshot()
		paths := make([]string, 0, len(snap))
		for p := range snap {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		for _, p := range paths {
			if tools.Hidden(ctx, p) {
				if len(onlySerious(snap[p])) > 0 {
					hidden++
				}
				continue
			}
			b.WriteString(m.list(in.client, p, snap[p], nil, 20, 10))
		}
	}
	if hidden > 0 {
		fmt.Fprintf(&b, "[the problems of %d file(s) hidden by the user's Read deny rules]\n", hidden)
	}
	if running == 0 {
		return "", errors.New("no language server is running yet: they start on the first file of their language (give a path)")
	}
	if b.Len() == 0 {
		return "No problems reported by the running language servers (servers such as typescript-language-server report only on files opened in this session).", nil
	}
	return "Problems the language servers report:\n" + b.String(), nil
}

func (m *Manager) instances() []*instance {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]*instance, 0, len(m.inst))
	for _, in := range m.inst {
		cp := *in
		out = append(out, &cp)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].cand.Name+out[i].root < out[j].cand.Name+out[j].root })
	return out
}

func (m *Manager) rel(p string) string {
	if r, err := filepath.Rel(m.o.Root, p); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return p
}

// Restart stops the named server (every root) and starts it again; ""
// restarts them all.
func (m *Manager) Restart(name string) error {
	m.mu.Lock()
	var found []*instance
	for _, in := range m.inst {
		if name == "" || in.cand.Name == name {
			found = append(found, in)
		}
	}
	m.mu.Unlock()
	if len(found) == 0 {
		return fmt.Errorf("no language server %q has run in this session (/lsp lists them)", name)
	}
	for _, in := range found {
		m.mu.Lock()
		c := in.client
		if c != nil {
			in.reopen = c.openPaths()
		}
		in.client, in.state, in.crashes = nil, StateStopped, 0
		m.mu.Unlock()
		if c != nil {
			c.close()
		}
		m.mu.Lock()
		m.startLocked(in)
		m.mu.Unlock()
	}
	return nil
}

// Close stops every server.
func (m *Manager) Close() {
	m.mu.Lock()
	m.closed = true
	var cs []*client
	for _, in := range m.inst {
		if in.client != nil {
			cs = append(cs, in.client)
		}
		in.state = StateStopped
	}
	m.mu.Unlock()
	m.cancel()
	defer m.starting.Wait()
	var wg sync.WaitGroup
	for _, c := range cs {
		wg.Add(1)
		go func() { defer wg.Done(); c.close() }()
	}
	wg.Wait()
}

// Status is one server as /lsp shows it.
type Status struct {
	Name, State, Root, Command, LastErr string
	PID, Open                           int
	Since                               time.Time
}

// Statuses lists every configured server: those that ran with their
// state, the others with why they have not (not installed, no marker,
// untrusted, not needed yet).
func (m *Manager) Statuses() []Status {
	var out []Status
	ran := map[string]bool{}
	for _, in := range m.instances() {
		ran[in.cand.Name] = true
		s := Status{Name: in.cand.Name, State: in.state, Root: in.root, Command: in.cand.commandLine(in.cand.bin), LastErr: in.lastErr, Since: in.since}
		if in.client != nil {
			s.PID, s.Open = in.client.pid(), in.client.openCount()
		}
		out = append(out, s)
	}
	for _, c := range m.cands {
		if ran[c.Name] {
			continue
		}
		s := Status{Name: c.Name, Command: c.commandLine(c.Command)}
		switch {
		case c.why != "":
			s.State = "not used: " + c.why
		case !m.allowed(c):
			s.State = "not started: this directory is not trusted"
		default:
			s.State = "idle: starts on the first " + strings.Join(c.Extensions, " ") + " file"
			s.Command = c.commandLine(c.bin)
		}
		out = append(out, s)
	}
	return out
}
