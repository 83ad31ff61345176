package serve

import (
	"context"
	"errors"
	"sync"

	acp "github.com/coder/acp-go-sdk"

	"github.com/fawn-ide/fawn/tools"
)

// Client is what the client of one session offers fawn's tools, by the
// capabilities it advertised in initialize. Options.Open plugs it into the
// tools it builds; what it lacks, the tools take from the disk and fawn's
// own shell, as in the IDE.
type Client struct {
	// Buffers reads and writes file content through the client's
	// fs/read_text_file and fs/write_text_file (so the agent sees unsaved
	// editor buffers and the editor shows its edits); nil when the client
	// does not offer both.
	Buffers tools.Buffers

	// peer is the session's link to the connection; terminals says the
	// client offers terminal/*.
	peer      *peerSession
	terminals bool
}

// Runner returns a runner of the agent's commands in the client's
// terminals (terminal/*), starting in root, with env (NAME=value entries)
// set over the editor's environment; nil when the client offers no
// terminals.
func (c *Client) Runner(root string, env []string) tools.Runner {
	if c == nil || !c.terminals {
		return nil
	}
	return newClientRunner(c.peer, root, env)
}

// newClient is the Client of a session on s, as the client's
// capabilities allow.
func (s *Server) newClient() *Client {
	caps := s.clientCaps()
	c := &Client{peer: &peerSession{s: s}, terminals: caps.Terminal}
	if caps.Fs.ReadTextFile && caps.Fs.WriteTextFile {
		// Both or neither: an agent that read the editor's buffer but
		// wrote the disk would make the editor's copy stale.
		c.Buffers = clientFiles{c.peer}
	}
	return c
}

// peerSession is one session's side of the connection: what a tool calls
// the client with, once the session has its ID.
type peerSession struct {
	s  *Server
	mu sync.Mutex
	id acp.SessionId
}

func (p *peerSession) setID(id acp.SessionId) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.id = id
}

func (p *peerSession) sid() acp.SessionId {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.id
}

// clientFiles is tools.Buffers on the client's fs/* methods.
type clientFiles struct{ p *peerSession }

func (f clientFiles) ReadFile(ctx context.Context, abs string) ([]byte, error) {
	resp, err := f.p.s.peer().ReadTextFile(ctx, acp.ReadTextFileRequest{SessionId: f.p.sid(), Path: abs})
	if err != nil {
		return nil, requestError(err)
	}
	return []byte(resp.Content), nil
}

func (f clientFiles) WriteFile(ctx context.Context, abs string, data []byte) error {
	_, err := f.p.s.peer().WriteTextFile(ctx, acp.WriteTextFileRequest{SessionId: f.p.sid(), Path: abs, Content: string(data)})
	return requestError(err)
}

// requestError is the client's error as the model reads it: its message
// (and details), not the JSON-RPC envelope.
func requestError(err error) error {
	var re *acp.RequestError
	if !errors.As(err, &re) {
		return err
	}
	msg := re.Message
	if d, ok := re.Data.(map[string]any); ok {
		for _, k := range []string{"details", "error", "message"} {
			if s, ok := d[k].(string); ok && s != "" {
				msg += ": " + s
				break
			}
		}
	} else if s, ok := re.Data.(string); ok && s != "" {
		msg += ": " + s
	}
	return errors.New(msg)
}
