package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/commands"
	"github.com/fawn-ide/fawn/session"
)

// Project is the fawn of one ACP session: the agent working in the
// directory the client named, and what goes with it. cmd/fawn builds it
// (configuration, trust, tools, shell, MCP servers) as it does for the
// IDE.
type Project struct {
	Agent    backend.Agent
	Services backend.Services
	// Root is the project directory the agent works in (absolute).
	Root string
	// Commands are the custom commands, offered as slash commands.
	Commands []commands.Command
	// MCP is what the MCP servers offer beside tools (nil: none).
	MCP MCP
	// Notices are said at the start of the first prompt's answer: what the
	// user should know before the agent acts, such as what fawn ignores of
	// an untrusted project.
	Notices []string
	// Close stops what building it started (nil: nothing).
	Close func()
}

// Options configure Serve.
type Options struct {
	// Open builds the Project of a new session in dir, the client's
	// working directory (absolute), with what the client offers its tools
	// (file buffers, terminals). Required.
	Open func(ctx context.Context, dir string, client *Client) (*Project, error)
	// List lists the stored sessions of the project at dir, newest first
	// (nil: session/list is not offered).
	List func(dir string) ([]session.Info, error)
	// Version is fawn's, told the client in initialize.
	Version string
	// Log receives the connection's diagnostics (nil: discarded).
	Log *slog.Logger
}

// Serve speaks ACP as an agent on in and out until the client closes in
// or ctx ends; then it ends every session's turn and closes its Project.
// Nothing but JSON-RPC is written to out.
func Serve(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	if opts.Open == nil {
		return errors.New("serve: Options.Open is required")
	}
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{opts: opts, log: log, sessions: map[acp.SessionId]*sessionState{}, ready: make(chan struct{})}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.ctx = ctx
	s.conn = acp.NewAgentSideConnection(s, out, in)
	s.conn.SetLogger(log)
	close(s.ready)
	select {
	case <-s.conn.Done():
	case <-ctx.Done():
	}
	cancel()
	s.closeAll()
	return nil
}

// Server is the ACP agent: the sessions of one connection. It implements
// acp.Agent and acp.AgentLoader.
type Server struct {
	opts Options
	log  *slog.Logger
	// conn is set once ready is closed: the connection reads (and may
	// call a handler) as soon as it is made.
	conn  *acp.AgentSideConnection
	ready chan struct{}
	// ctx lives as long as the connection: updates are sent with it, so
	// that a cancelled prompt still reports how its calls ended.
	ctx context.Context

	mu       sync.Mutex
	sessions map[acp.SessionId]*sessionState
	// caps are the client's capabilities, as initialize said them.
	caps acp.ClientCapabilities
}

var (
	_ acp.Agent       = (*Server)(nil)
	_ acp.AgentLoader = (*Server)(nil)
)

// sessionState is one ACP session: a Project and its turn.
type sessionState struct {
	id acp.SessionId
	p  *Project
	// peer is what the session's tools call the client with.
	peer *peerSession
	// turn is held while a prompt runs: a second prompt waits for the
	// first, which the SDK has cancelled, to end.
	turn sync.Mutex
	// noticed is set once the Notices were said.
	noticed bool
	// cmdsSent are the slash commands the client was last told of.
	cmdMu    sync.Mutex
	cmdsSent []acp.AvailableCommand
}

// Initialize agrees on the protocol version (fawn speaks version 1; a
// client asking for another is answered with 1, as the protocol says) and
// says what fawn can do. It keeps the client's capabilities: the sessions
// opened after it read and write files through the client's fs/* methods
// and run commands in its terminals when it offers them (see Client).
func (s *Server) Initialize(_ context.Context, req acp.InitializeRequest) (acp.InitializeResponse, error) {
	s.mu.Lock()
	s.caps = req.ClientCapabilities
	s.mu.Unlock()
	version := s.opts.Version
	if version == "" {
		version = "dev"
	}
	caps := acp.AgentCapabilities{
		LoadSession:         true,
		PromptCapabilities:  acp.PromptCapabilities{Image: true, EmbeddedContext: true},
		SessionCapabilities: acp.SessionCapabilities{Close: &acp.SessionCloseCapabilities{}},
	}
	if s.opts.List != nil {
		caps.SessionCapabilities.List = &acp.SessionListCapabilities{}
	}
	return acp.InitializeResponse{
		ProtocolVersion:   acp.ProtocolVersionNumber,
		AgentCapabilities: caps,
		AgentInfo:         &acp.Implementation{Name: "fawn", Title: acp.Ptr("fawn"), Version: version},
		AuthMethods:       []acp.AuthMethod{},
	}, nil
}

// Authenticate: fawn's model keys come from its configuration, never from
// the client.
func (s *Server) Authenticate(context.Context, acp.AuthenticateRequest) (acp.AuthenticateResponse, error) {
	return acp.AuthenticateResponse{}, nil
}

// NewSession opens the project at the client's working directory.
func (s *Server) NewSession(ctx context.Context, req acp.NewSessionRequest) (acp.NewSessionResponse, error) {
	ss, err := s.open(ctx, req.Cwd)
	if err != nil {
		return acp.NewSessionResponse{}, err
	}
	id := acp.SessionId(sessionID(ss.p))
	s.add(id, ss)
	s.afterOpen(ss)
	return acp.NewSessionResponse{SessionId: id, Modes: modeState(ss.p.Agent.Mode())}, nil
}

// LoadSession opens the project at the client's working directory, makes
// its agent carry on from the stored session, and replays that session's
// transcript as updates before it answers.
func (s *Server) LoadSession(ctx context.Context, req acp.LoadSessionRequest) (acp.LoadSessionResponse, error) {
	// The session open on this connection lets go of it first, so the
	// agent carries on from it rather than from a copy.
	s.drop(req.SessionId)
	ss, err := s.open(ctx, req.Cwd)
	if err != nil {
		return acp.LoadSessionResponse{}, err
	}
	keeper := ss.p.Services.Sessions
	if keeper == nil {
		ss.close()
		return acp.LoadSessionResponse{}, acp.NewInvalidParams(map[string]any{"error": "this agent keeps no sessions"})
	}
	res, err := keeper.Resume(string(req.SessionId))
	if err != nil {
		ss.close()
		return acp.LoadSessionResponse{}, acp.NewInvalidParams(map[string]any{"error": fmt.Sprintf("session %s: %v (fawn sessions lists the project's sessions)", req.SessionId, err)})
	}
	ss.id = req.SessionId
	s.add(req.SessionId, ss)
	for _, u := range replay(res.Log.Whole(), ss.p.Root) { // the whole chat, not the last entries a lazy resume reads first
		s.send(ss.id, u)
	}
	for _, n := range res.Notes {
		ss.p.Notices = append(ss.p.Notices, n)
	}
	s.afterOpen(ss)
	return acp.LoadSessionResponse{Modes: modeState(ss.p.Agent.Mode())}, nil
}

// open builds the Project of a session in cwd.
func (s *Server) open(ctx context.Context, cwd string) (*sessionState, error) {
	if !filepath.IsAbs(cwd) {
		return nil, acp.NewInvalidParams(map[string]any{"error": fmt.Sprintf("cwd %q is not an absolute path", cwd)})
	}
	client := s.newClient()
	p, err := s.opts.Open(ctx, filepath.Clean(cwd), client)
	if err != nil {
		return nil, acp.NewInternalError(map[string]any{"error": err.Error()})
	}
	if p.Root == "" {
		p.Root = filepath.Clean(cwd)
	}
	return &sessionState{p: p, peer: client.peer}, nil
}

// afterOpen tells the client the session's slash commands, and tells it
// again as the MCP servers' prompts come and go.
func (s *Server) afterOpen(ss *sessionState) {
	s.sendCommands(ss)
	if ss.p.MCP != nil {
		ss.p.MCP.Watch(func() { s.sendCommands(ss) })
	}
}

func (s *Server) add(id acp.SessionId, ss *sessionState) {
	ss.id = id
	ss.peer.setID(id)
	s.mu.Lock()
	old := s.sessions[id]
	s.sessions[id] = ss
	s.mu.Unlock()
	if old != nil {
		old.close()
	}
}

// drop closes session id, if it is open.
func (s *Server) drop(id acp.SessionId) {
	s.mu.Lock()
	ss := s.sessions[id]
	delete(s.sessions, id)
	s.mu.Unlock()
	if ss != nil {
		ss.close()
	}
}

// clientCaps are the client's capabilities.
func (s *Server) clientCaps() acp.ClientCapabilities {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.caps
}

func (s *Server) session(id acp.SessionId) (*sessionState, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss, ok := s.sessions[id]
	if !ok {
		return nil, acp.NewInvalidParams(map[string]any{"error": fmt.Sprintf("no session %s on this connection: start one with session/new or session/load", id)})
	}
	return ss, nil
}

// SetSessionMode sets fawn's permission mode: ask, accept-edits, plan or
// yolo.
func (s *Server) SetSessionMode(_ context.Context, req acp.SetSessionModeRequest) (acp.SetSessionModeResponse, error) {
	ss, err := s.session(req.SessionId)
	if err != nil {
		return acp.SetSessionModeResponse{}, err
	}
	m, err := agent.ParseMode(string(req.ModeId))
	if err != nil {
		return acp.SetSessionModeResponse{}, acp.NewInvalidParams(map[string]any{"error": err.Error()})
	}
	ss.p.Agent.SetMode(m)
	return acp.SetSessionModeResponse{}, nil
}

// Cancel: the SDK has already cancelled the prompt's context, which ends
// the turn; the prompt answers "cancelled" once it has.
func (s *Server) Cancel(context.Context, acp.CancelNotification) error { return nil }

// CloseSession ends the session's turn, if one runs, and closes its
// agent (its transcript stays in the store, to load).
func (s *Server) CloseSession(_ context.Context, req acp.CloseSessionRequest) (acp.CloseSessionResponse, error) {
	if _, err := s.session(req.SessionId); err != nil {
		return acp.CloseSessionResponse{}, err
	}
	s.drop(req.SessionId)
	return acp.CloseSessionResponse{}, nil
}

// ListSessions lists the stored sessions of the project at cwd, newest
// first, all in one page.
func (s *Server) ListSessions(_ context.Context, req acp.ListSessionsRequest) (acp.ListSessionsResponse, error) {
	if s.opts.List == nil {
		return acp.ListSessionsResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionList)
	}
	if req.Cwd == nil || !filepath.IsAbs(*req.Cwd) {
		return acp.ListSessionsResponse{}, acp.NewInvalidParams(map[string]any{"error": "session/list needs cwd, an absolute path: fawn keeps sessions per project"})
	}
	cwd := filepath.Clean(*req.Cwd)
	infos, err := s.opts.List(cwd)
	if err != nil {
		return acp.ListSessionsResponse{}, acp.NewInternalError(map[string]any{"error": err.Error()})
	}
	out := acp.ListSessionsResponse{Sessions: []acp.SessionInfo{}}
	for _, in := range infos {
		si := acp.SessionInfo{SessionId: acp.SessionId(in.ID), Cwd: cwd, UpdatedAt: acp.Ptr(in.Updated.UTC().Format(time.RFC3339))}
		if in.Title != "" {
			si.Title = acp.Ptr(in.Title)
		}
		out.Sessions = append(out.Sessions, si)
	}
	return out, nil
}

// ResumeSession and SetSessionConfigOption are capabilities fawn does not
// advertise.

func (s *Server) ResumeSession(context.Context, acp.ResumeSessionRequest) (acp.ResumeSessionResponse, error) {
	return acp.ResumeSessionResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionResume)
}

func (s *Server) SetSessionConfigOption(context.Context, acp.SetSessionConfigOptionRequest) (acp.SetSessionConfigOptionResponse, error) {
	return acp.SetSessionConfigOptionResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionSetConfigOption)
}

// send sends one update of session id; a connection that is gone drops it.
func (s *Server) send(id acp.SessionId, u acp.SessionUpdate) {
	if err := s.peer().SessionUpdate(context.WithoutCancel(s.ctx), acp.SessionNotification{SessionId: id, Update: u}); err != nil {
		s.log.Debug("session/update not sent", "session", id, "err", err)
	}
}

// peer is the connection to the client, once it is made.
func (s *Server) peer() *acp.AgentSideConnection {
	<-s.ready
	return s.conn
}

// closeAll closes every session: Close on the agent ends its turn.
func (s *Server) closeAll() {
	s.mu.Lock()
	all := s.sessions
	s.sessions = map[acp.SessionId]*sessionState{}
	s.mu.Unlock()
	for _, ss := range all {
		ss.close()
	}
}

func (ss *sessionState) close() {
	if ss.p.Close != nil {
		ss.p.Close()
	}
}

// sessionID is the ACP session's ID: fawn's own session ID, so that
// session/load finds it in the store (and `fawn --resume ID` too).
func sessionID(p *Project) string {
	if k := p.Services.Sessions; k != nil && k.ID() != "" {
		return k.ID()
	}
	return fmt.Sprintf("%p", p)
}

// modeState is fawn's permission modes as ACP session modes.
func modeState(cur agent.Mode) *acp.SessionModeState {
	desc := map[agent.Mode]string{
		agent.ModeAsk:         "Reads run; edits and commands ask",
		agent.ModeAcceptEdits: "Reads and edits run; commands ask",
		agent.ModePlan:        "Read only: edits and commands are refused",
		agent.ModeYolo:        "Nothing asks (deny rules still hold)",
	}
	st := &acp.SessionModeState{CurrentModeId: acp.SessionModeId(cur)}
	for _, m := range agent.Modes {
		st.AvailableModes = append(st.AvailableModes, acp.SessionMode{Id: acp.SessionModeId(m), Name: string(m), Description: acp.Ptr(desc[m])})
	}
	return st
}
