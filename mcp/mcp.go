package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"
	"github.com/eino-contrib/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/secret"
	"github.com/fawn-ide/fawn/tools"
)

// Timeouts and limits of the MCP servers.
const (
	connectTimeout = 20 * time.Second // start one server and list its tools
	keepAlive      = 15 * time.Second // ping an HTTP server this often
	maxBackoff     = time.Minute
	maxAttempts    = 10 // failures in a row before fawn gives up on a server
	stable         = time.Minute
	maxResult      = 100_000 // characters of a tool's text result
)

// State is where an MCP server is in its life.
type State string

const (
	Starting   State = "starting"
	Ready      State = "ready"
	Restarting State = "restarting" // it died or could not be reached; another attempt is due
	Failed     State = "failed"     // fawn gave up on it (/mcp restart tries again)
	Stopped    State = "stopped"
)

// Status is what /mcp shows of one server.
type Status struct {
	Name string
	// Endpoint is the command line or the URL.
	Endpoint string
	State    State
	// Tools are the names the model calls, in the server's order.
	Tools []string
	// Prompts and Resources count what the running session offers
	// beside tools.
	Prompts, Resources int
	LastError          string
	// Attempts counts the failed attempts in a row; Restarts the times it
	// came back after being ready.
	Attempts, Restarts int
	// Retry is when the next attempt is due, while restarting.
	Retry time.Time
}

// Change is a change of one server's state.
type Change struct {
	Server string
	State  State
	// Err says what went wrong (restarting, failed).
	Err string
	// NewTools are tools offered for the first time (to be added to the session).
	NewTools []tools.Tool
	// Wait is the pause before the next attempt, while restarting.
	Wait time.Duration
	// Back is set when a server that had been ready is ready again.
	Back bool
	// Attempt counts the failed attempts in a row (restarting, failed).
	Attempt int
	// Catalog is set on a change of a ready server's prompts or
	// resources (listed again after its notification); State is then
	// the server's state, unchanged.
	Catalog bool
}

// Manager runs the servers of tools.mcp_servers.
type Manager struct {
	env      []string // the servers' environment
	servers  []*server
	onChange func(Change)
	cancel   context.CancelFunc
	wg       sync.WaitGroup
}

// Start starts (command) or connects to (url) every server in the
// background and returns at once. Commands run in dir with env (KEY=VALUE;
// nil: fawn's own environment) plus their own env entries. onChange, when
// not nil, is called from the servers' goroutines on every change. Close
// stops them.
func Start(ctx context.Context, servers map[string]config.MCPServer, dir string, env []string, onChange func(Change)) *Manager {
	ctx, cancel := context.WithCancel(ctx)
	if env == nil {
		env = os.Environ()
	}
	m := &Manager{onChange: onChange, cancel: cancel, env: env}
	names := make([]string, 0, len(servers))
	for name := range servers {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		s := &server{name: name, cfg: servers[name], dir: dir, m: m, state: Starting,
			tools: map[string]*remoteTool{}, kick: make(chan struct{}, 1), started: make(chan struct{})}
		m.servers = append(m.servers, s)
		m.wg.Add(1)
		go func() {
			defer m.wg.Done()
			s.run(ctx)
		}()
	}
	return m
}

// WaitStarted waits until every server is ready or has failed once (for a
// one-turn headless run), or ctx is done.
func (m *Manager) WaitStarted(ctx context.Context) {
	for _, s := range m.servers {
		select {
		case <-s.started:
		case <-ctx.Done():
			return
		}
	}
}

// Tools returns every tool offered so far.
func (m *Manager) Tools() []tools.Tool {
	var out []tools.Tool
	for _, s := range m.servers {
		s.mu.Lock()
		for _, raw := range s.order {
			out = append(out, s.tools[raw])
		}
		s.mu.Unlock()
	}
	return out
}

// Status returns every server's state, by name.
func (m *Manager) Status() []Status {
	out := make([]Status, 0, len(m.servers))
	for _, s := range m.servers {
		s.mu.Lock()
		st := Status{Name: s.name, Endpoint: s.endpoint(), State: s.state, LastError: s.lastErr,
			Attempts: s.attempts, Restarts: s.restarts, Retry: s.retryAt}
		for _, raw := range s.order {
			if s.offered[raw] {
				st.Tools = append(st.Tools, s.tools[raw].Name())
			}
		}
		if cat, ok := s.offering(); ok {
			st.Prompts, st.Resources = len(cat.prompts), len(cat.resources)
		}
		s.mu.Unlock()
		out = append(out, st)
	}
	return out
}

// Restart stops server name, if it runs, and starts it again now.
func (m *Manager) Restart(name string) error {
	for _, s := range m.servers {
		if s.name == name {
			select {
			case s.kick <- struct{}{}:
			default:
			}
			return nil
		}
	}
	var names []string
	for _, s := range m.servers {
		names = append(names, s.name)
	}
	return fmt.Errorf("no MCP server is called %q (the servers are: %s)", name, strings.Join(names, ", "))
}

// Close stops every server fawn started and ends every session.
func (m *Manager) Close() {
	m.cancel()
	m.wg.Wait()
}

// server is one server and its session, restarted as needed.
type server struct {
	name string
	cfg  config.MCPServer
	dir  string
	m    *Manager
	kick chan struct{} // Restart

	mu       sync.Mutex
	state    State
	lastErr  string
	attempts int
	restarts int
	retryAt  time.Time
	sess     *sdk.ClientSession
	tools    map[string]*remoteTool // by the server's own name, once seen
	order    []string
	offered  map[string]bool // offered by the running session
	pending  listed          // the tools listed by the session being connected
	// catalog is what session catalogOf offers beside tools: set when it
	// is connected, apart from the tools' pending list, which a change
	// notification may take first.
	catalog   catalog
	catalogOf *sdk.ClientSession
	started   chan struct{} // closed once the first attempt has ended
	once      sync.Once
}

// endpoint is where the server is, as /mcp shows it: a URL without its
// password.
func (s *server) endpoint() string {
	if s.cfg.URL != "" {
		return secret.URL(s.cfg.URL)
	}
	return strings.TrimSpace(s.cfg.Command + " " + strings.Join(s.cfg.Args, " "))
}

func (s *server) set(ch Change) {
	if ch.Err != "" {
		// The server's own words may hold the secrets it was given.
		values := make([]string, 0, len(s.cfg.Env))
		for _, v := range s.cfg.Env {
			values = append(values, v)
		}
		ch.Err = secret.NewRedactor(values...).String(ch.Err)
	}
	s.mu.Lock()
	s.state = ch.State
	if ch.Err != "" {
		s.lastErr = ch.Err
	}
	s.retryAt = time.Time{}
	if ch.Wait > 0 {
		s.retryAt = time.Now().Add(ch.Wait)
	}
	s.mu.Unlock()
	ch.Server = s.name
	if s.m.onChange != nil {
		s.m.onChange(ch)
	}
}

func (s *server) firstDone() { s.once.Do(func() { close(s.started) }) }

// run keeps the server going until ctx ends.
func (s *server) run(ctx context.Context) {
	defer s.firstDone()
	backoff := time.Second
	everReady := false
	for {
		sess, stderr, err := s.connect(ctx)
		if ctx.Err() != nil {
			if sess != nil {
				_ = sess.Close()
			}
			s.set(Change{State: Stopped})
			return
		}
		if err != nil {
			s.mu.Lock()
			s.attempts++
			n := s.attempts
			s.mu.Unlock()
			msg := describeError(err, stderr)
			if errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist) || n >= maxAttempts {
				if n >= maxAttempts {
					msg += fmt.Sprintf(" (gave up after %d attempts; /mcp restart %s tries again)", n, s.name)
				}
				s.set(Change{State: Failed, Err: msg, Attempt: n})
				s.firstDone()
				if !s.wait(ctx, 0) {
					s.set(Change{State: Stopped})
					return
				}
				s.mu.Lock()
				s.attempts = 0
				s.mu.Unlock()
				backoff = time.Second
				s.set(Change{State: Starting})
				continue
			}
			s.set(Change{State: Restarting, Err: msg, Wait: backoff, Attempt: n})
			s.firstDone()
			if !s.wait(ctx, backoff) {
				s.set(Change{State: Stopped})
				return
			}
			backoff = min(2*backoff, maxBackoff)
			continue
		}

		fresh := s.adopt(sess)
		s.mu.Lock()
		s.attempts = 0
		s.mu.Unlock()
		s.set(Change{State: Ready, NewTools: fresh, Back: everReady})
		everReady = true
		s.firstDone()
		upAt := time.Now()

		done := make(chan error, 1)
		go func() { done <- sess.Wait() }()
		var why string
		select {
		case <-ctx.Done():
			_ = sess.Close()
			<-done
			s.drop()
			s.set(Change{State: Stopped})
			return
		case <-s.kick:
			_ = sess.Close()
			<-done
			why = "restarted by the user"
			backoff = 0
		case err := <-done:
			why = "it stopped"
			if s.cfg.URL != "" {
				why = "it stopped answering"
			}
			if tail := stderr.String(); tail != "" {
				why += "; it said: " + tail
			} else if err != nil && !errors.Is(err, sdk.ErrConnectionClosed) {
				why += ": " + err.Error()
			}
		}
		s.drop()
		s.mu.Lock()
		s.restarts++
		s.mu.Unlock()
		if time.Since(upAt) > stable || backoff == 0 {
			backoff = time.Second
		}
		if why == "restarted by the user" {
			s.set(Change{State: Starting, Err: why})
			continue
		}
		s.set(Change{State: Restarting, Err: why, Wait: backoff})
		if !s.wait(ctx, backoff) {
			s.set(Change{State: Stopped})
			return
		}
		backoff = min(2*backoff, maxBackoff)
	}
}

// wait pauses d (0: until a restart is asked for); it reports false when
// ctx ended first.
func (s *server) wait(ctx context.Context, d time.Duration) bool {
	var timer <-chan time.Time
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		timer = t.C
	}
	select {
	case <-ctx.Done():
		return false
	case <-s.kick:
		return true
	case <-timer:
		return true
	}
}

// connect starts the server (or reaches it) and lists its tools.
func (s *server) connect(ctx context.Context) (*sdk.ClientSession, *tailBuffer, error) {
	cctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	stderr := &tailBuffer{max: 2048}
	var transport sdk.Transport
	opts := &sdk.ClientOptions{}
	switch {
	case s.cfg.Command != "":
		// Not CommandContext: the server outlives this connect call.
		cmd := exec.Command(s.cfg.Command, s.cfg.Args...)
		cmd.Dir = s.dir
		cmd.Env = append([]string(nil), s.m.env...)
		for k, v := range s.cfg.Env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		cmd.Stderr = stderr // never onto fawn's screen
		transport = &stdioTransport{cmd: cmd, terminate: 2 * time.Second}
	case s.cfg.URL != "":
		transport = &sdk.StreamableClientTransport{Endpoint: s.cfg.URL}
		opts.KeepAlive = keepAlive // a server that stops answering ends the session
	default:
		return nil, stderr, errors.New("neither command nor url is set")
	}
	// connected is closed once the session is connected and listed: a
	// change notification that arrives before is taken after, so that the
	// server is never said to be ready without its prompts and resources.
	connected := make(chan struct{})
	opts.ToolListChangedHandler = func(_ context.Context, req *sdk.ToolListChangedRequest) {
		// Listed again off the session's own goroutine, which delivers
		// this notification.
		go func() {
			select {
			case <-connected:
			case <-cctx.Done():
				select {
				case <-connected:
				default:
					return // the connection failed: nothing to adopt
				}
			}
			if fresh := s.adopt(req.Session); len(fresh) > 0 {
				s.set(Change{State: Ready, NewTools: fresh})
			}
		}()
	}
	opts.PromptListChangedHandler = func(_ context.Context, req *sdk.PromptListChangedRequest) {
		go s.relistCatalog(req.Session)
	}
	opts.ResourceListChangedHandler = func(_ context.Context, req *sdk.ResourceListChangedRequest) {
		go s.relistCatalog(req.Session)
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "fawn", Version: "1"}, opts)
	sess, err := client.Connect(cctx, transport, nil)
	if err != nil {
		return nil, stderr, err
	}
	if err := s.list(cctx, sess); err != nil {
		_ = sess.Close()
		return nil, stderr, fmt.Errorf("listing its tools: %w", err)
	}
	cat := listCatalog(cctx, sess)
	s.mu.Lock()
	s.catalog, s.catalogOf = cat, sess
	s.mu.Unlock()
	close(connected)
	return sess, stderr, nil
}

// listed is the tool list of the session being connected, adopted with it.
type listed struct{ tools []*sdk.Tool }

// list reads the server's tools into the session's pending list.
func (s *server) list(ctx context.Context, sess *sdk.ClientSession) error {
	var got []*sdk.Tool
	for t, err := range sess.Tools(ctx, nil) {
		if err != nil {
			return err
		}
		got = append(got, t)
	}
	s.mu.Lock()
	s.pending = listed{tools: got}
	s.mu.Unlock()
	return nil
}

// adopt makes sess the server's session and its listed tools the ones
// offered; it returns the tools offered for the first time.
func (s *server) adopt(sess *sdk.ClientSession) []tools.Tool {
	if sess == nil {
		return nil
	}
	s.mu.Lock()
	list := s.pending.tools
	s.pending = listed{}
	s.mu.Unlock()
	if list == nil {
		// A change notification: list again.
		ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
		defer cancel()
		if s.list(ctx, sess) != nil {
			return nil
		}
		s.mu.Lock()
		list = s.pending.tools
		s.pending = listed{}
		s.mu.Unlock()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sess = sess
	s.offered = map[string]bool{}
	var fresh []tools.Tool
	for _, t := range list {
		s.offered[t.Name] = true
		if old, ok := s.tools[t.Name]; ok {
			old.setInfo(t)
			continue
		}
		mt := &remoteTool{server: s, raw: t.Name}
		mt.setInfo(t)
		s.tools[t.Name] = mt
		s.order = append(s.order, t.Name)
		fresh = append(fresh, mt)
	}
	return fresh
}

// drop forgets the session that ended.
func (s *server) drop() {
	s.mu.Lock()
	s.sess = nil
	s.mu.Unlock()
}

// session returns the running session and whether it offers tool raw.
func (s *server) session(raw string) (*sdk.ClientSession, bool, State, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sess, s.offered[raw], s.state, s.lastErr
}

// describeError says why a server could not be used.
func describeError(err error, stderr *tailBuffer) string {
	msg := "cannot start or reach it: " + err.Error()
	if tail := stderr.String(); tail != "" {
		msg += "; it said: " + tail
	}
	return msg
}

var unsafeName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9_-]+`) })

// toolName is the name the model calls: mcp__SERVER__TOOL, in the
// characters and length every provider accepts.
func toolName(server, tool string) string {
	n := "mcp__" + unsafeName().ReplaceAllString(server, "_") + "__" + unsafeName().ReplaceAllString(tool, "_")
	if len(n) > 64 {
		n = n[:64]
	}
	return n
}

// remoteTool is one MCP server tool as a fawn tool. It calls whatever session
// its server has now, so it survives restarts.
type remoteTool struct {
	server *server
	raw    string

	mu   sync.Mutex
	info *schema.ToolInfo
	// readOnly is the tool's readOnlyHint: its server says it changes
	// nothing.
	readOnly bool
}

func (t *remoteTool) setInfo(mt *sdk.Tool) {
	params := &jsonschema.Schema{}
	if b, err := json.Marshal(mt.InputSchema); err == nil {
		_ = json.Unmarshal(b, params)
	}
	if params.Type == "" {
		params.Type = "object"
	}
	desc := mt.Description
	if desc == "" {
		desc = mt.Title
	}
	info := &schema.ToolInfo{
		Name:        toolName(t.server.name, mt.Name),
		Desc:        desc,
		ParamsOneOf: schema.NewParamsOneOfByJSONSchema(params),
	}
	t.mu.Lock()
	t.info = info
	t.readOnly = mt.Annotations != nil && mt.Annotations.ReadOnlyHint
	t.mu.Unlock()
}

func (t *remoteTool) Name() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.info.Name
}

func (t *remoteTool) Info(context.Context) (*schema.ToolInfo, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.info, nil
}

// Plan describes the call. fawn cannot know what an MCP tool does: it is
// KindOther and asks like a command, unless its server marks it
// readOnlyHint. That word is taken, as the server's program is: a server
// runs only from the user's config or a trusted project's, so the user
// has trusted whoever gives the hint (a deny rule still refuses it, an ask
// rule still asks).
func (t *remoteTool) Plan(_ context.Context, argsJSON string) (tools.Action, error) {
	t.mu.Lock()
	readOnly := t.readOnly
	t.mu.Unlock()
	act := tools.Action{Kind: tools.KindOther, Summary: fmt.Sprintf("%s: %s %s", t.server.name, t.raw, clip(argsJSON, 160))}
	if readOnly {
		act.Kind, act.ReadOnlyHint = tools.KindRead, true
	}
	return act, nil
}

// InvokableRun calls the tool on its server's current session. Text comes
// back as text; an image as "[image 32×32 PNG]" in the text, and as the
// image itself through tools.Images.
func (t *remoteTool) InvokableRun(ctx context.Context, argsJSON string, _ ...tool.Option) (string, error) {
	sess, offered, state, lastErr := t.server.session(t.raw)
	switch {
	case sess == nil:
		why := ""
		if lastErr != "" {
			why = " (" + clip(lastErr, 200) + ")"
		}
		return "", fmt.Errorf("the MCP server %s is %s%s; try again once it is ready", t.server.name, state, why)
	case !offered:
		return "", fmt.Errorf("the MCP server %s no longer offers %s", t.server.name, t.raw)
	}
	res, err := sess.CallTool(ctx, &sdk.CallToolParams{Name: t.raw, Arguments: json.RawMessage(argsJSON)})
	if err != nil {
		if connectionLost(err) && ctx.Err() == nil {
			// Not the server's answer but no answer at all: the connection
			// is gone. Ending the session starts the reconnection.
			_ = sess.Close()
			return "", fmt.Errorf("the MCP server %s did not answer (%v); fawn is reconnecting to it", t.server.name, err)
		}
		return "", fmt.Errorf("the MCP server %s: %v", t.server.name, err)
	}
	text, images := resultText(res)
	if len(images) > 0 {
		tools.Emit(ctx, tools.Images{Images: images})
	}
	if res.IsError {
		return "error: " + text, nil
	}
	return text, nil
}

// connectionLost tells a call that got no answer (the server is gone, the
// transport refused to send) from one the server answered with an error.
func connectionLost(err error) bool {
	var wire *jsonrpc.Error
	if !errors.As(err, &wire) {
		return true
	}
	switch wire.Code {
	case -32003, -32004, -32005: // client closing, server closing, rejected by the transport
		return true
	}
	return false
}

// resultText renders a tool's result for the model: text as it is,
// images, audio and resources as short notes, bounded in length.
func resultText(res *sdk.CallToolResult) (string, []tools.Image) {
	var parts []string
	var images []tools.Image
	for _, c := range res.Content {
		switch c := c.(type) {
		case *sdk.TextContent:
			parts = append(parts, c.Text)
		case *sdk.ImageContent:
			im, ok := tools.ImageOf("", c.Data)
			if !ok {
				parts = append(parts, fmt.Sprintf("[%s data, %s, not an image fawn can pass on]", c.MIMEType, tools.ByteSize(len(c.Data))))
				continue
			}
			if len(c.Data) > tools.MaxImageBytes {
				parts = append(parts, im.String()+" (too large to pass on)")
				continue
			}
			images = append(images, im)
			parts = append(parts, im.String())
		case *sdk.AudioContent:
			parts = append(parts, fmt.Sprintf("[audio %s, %s]", c.MIMEType, tools.ByteSize(len(c.Data))))
		case *sdk.ResourceLink:
			parts = append(parts, fmt.Sprintf("[resource %s: %s]", c.Name, c.URI))
		case *sdk.EmbeddedResource:
			if r := c.Resource; r != nil {
				if r.Text != "" {
					parts = append(parts, fmt.Sprintf("[resource %s]\n%s", r.URI, r.Text))
				} else {
					parts = append(parts, fmt.Sprintf("[resource %s, %s, %s]", r.URI, r.MIMEType, tools.ByteSize(len(r.Blob))))
				}
			}
		}
	}
	if len(parts) == 0 && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			parts = append(parts, string(b))
		}
	}
	text := strings.Join(parts, "\n")
	if text == "" {
		text = "(no output)"
	}
	return tools.Truncate(text, 0, maxResult), images
}

// tailBuffer keeps the last bytes a server wrote to stderr, for messages.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (w *tailBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b = append(w.b, p...)
	if len(w.b) > w.max {
		w.b = w.b[len(w.b)-w.max:]
	}
	return len(p), nil
}

// String is the kept stderr, trimmed and clipped.
func (w *tailBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return clip(strings.TrimSpace(string(w.b)), 500)
}

// clip shortens s to n runes for messages, marking the cut.
func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
