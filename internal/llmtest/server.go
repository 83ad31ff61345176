package llmtest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"
)

// Server is a running scripted server. Its methods are safe for concurrent use.
type Server struct {
	mu sync.Mutex
	// respondMu holds Script.Respond to one call at a time.
	respondMu sync.Mutex
	script    Script
	next      int // index of the next response to serve
	served    int
	requests  []Request
	closeOnce sync.Once
	closing   chan struct{} // closed by Close, so stalled handlers return
	onRequest func(Request)
	// inFlight counts the requests being answered now; peak the most
	// there have been at once.
	inFlight, peak int

	ts *httptest.Server
}

// NewServer starts a server on a local port. Close it when done. It panics
// on a script that does not validate: a test's script is code.
func NewServer(script Script) *Server {
	if err := script.Validate(); err != nil {
		panic("llmtest: " + err.Error())
	}
	s := newServer(script)
	s.ts = httptest.NewServer(s.handler())
	return s
}

// Start starts a server that is closed when the test ends.
func Start(tb testing.TB, script Script) *Server {
	tb.Helper()
	if err := script.Validate(); err != nil {
		tb.Fatalf("llmtest: %v", err)
	}
	s := NewServer(script)
	tb.Cleanup(s.Close)
	return s
}

// Serve starts a server on addr (e.g. "127.0.0.1:8089") for use outside
// tests; onRequest, when not nil, sees every request as it arrives.
func Serve(addr string, script Script, onRequest func(Request)) (*Server, error) {
	if err := script.Validate(); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	s := newServer(script)
	s.onRequest = onRequest
	s.ts = &httptest.Server{Listener: ln, Config: &http.Server{Handler: s.handler(), ReadHeaderTimeout: 10 * time.Second}}
	s.ts.Start()
	return s, nil
}

func newServer(script Script) *Server {
	return &Server{script: script, closing: make(chan struct{})}
}

func (s *Server) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/chat/completions", s.chat)
	mux.HandleFunc("/v1/messages", s.messages)
	mux.HandleFunc("/v1/responses", s.responses)
	mux.HandleFunc("/v1beta/models/", s.gemini)
	mux.HandleFunc("/v1/models", s.models)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.record(r, nil)
		writeError(w, http.StatusNotFound, "invalid_request_error",
			fmt.Sprintf("llmtest: no route %s %s (the base URL must end in /v1)", r.Method, r.URL.Path))
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.inFlight++
		s.peak = max(s.peak, s.inFlight)
		s.mu.Unlock()
		end := sync.OnceFunc(func() {
			s.mu.Lock()
			s.inFlight--
			s.mu.Unlock()
		})
		defer end()
		mux.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), endKey{}, end)))
	})
}

type endKey struct{}

// ended counts r out of the requests in flight: called before the last
// bytes of a stream, which a client may answer with its next request
// before this handler returns.
func ended(r *http.Request) {
	if end, ok := r.Context().Value(endKey{}).(func()); ok {
		end()
	}
}

// PeakInFlight is the most requests the server was answering at once: a
// streamed response counts until its last byte.
func (s *Server) PeakInFlight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.peak
}

// URL is the base URL to give a client: "http://127.0.0.1:PORT/v1".
func (s *Server) URL() string { return s.ts.URL + "/v1" }

// Close stops the server, ending any stalled response first.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		close(s.closing)
		s.ts.CloseClientConnections()
		s.ts.Close()
	})
}

// Requests returns every request received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// ChatRequests returns the decoded chat completion requests received so far.
func (s *Server) ChatRequests() []*ChatRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*ChatRequest
	for _, r := range s.requests {
		if r.Chat != nil {
			out = append(out, r.Chat)
		}
	}
	return out
}

// MessagesRequests returns the decoded Anthropic Messages requests received so far.
func (s *Server) MessagesRequests() []*MessagesRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*MessagesRequest
	for _, r := range s.requests {
		if r.Messages != nil {
			out = append(out, r.Messages)
		}
	}
	return out
}

// Served counts the script responses handed out (faults included).
func (s *Server) Served() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.served
}

func (s *Server) record(r *http.Request, body []byte) Request {
	req := Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header.Clone(), Body: body}
	if r.URL.Path == "/v1/chat/completions" && len(body) > 0 {
		req.Chat, _ = parseChat(body)
	}
	if r.URL.Path == "/v1/messages" && len(body) > 0 {
		req.Messages, _ = parseMessages(body)
	}
	if !s.script.Forget {
		s.mu.Lock()
		s.requests = append(s.requests, req)
		s.mu.Unlock()
	}
	if s.onRequest != nil {
		s.onRequest(req)
	}
	return req
}

// respond asks the script's Respond for the answer to req.
func (s *Server) respond(req *ChatRequest) (Response, int, bool) {
	s.respondMu.Lock()
	defer s.respondMu.Unlock()
	s.mu.Lock()
	n := s.served
	s.served++
	s.mu.Unlock()
	r := s.script.Respond(req, n)
	if r.Dialect == "" {
		r.Dialect = s.script.Dialect
	}
	if r.Dialect == "" {
		r.Dialect = OpenAI
	}
	return r, n, true
}

// take returns the next response and its number, or false when the script is over.
func (s *Server) take() (Response, int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.script.Respond != nil {
		return Response{}, 0, false // Respond answers only chat completions
	}
	if s.next >= len(s.script.Responses) {
		if !s.script.Loop || len(s.script.Responses) == 0 {
			return Response{}, 0, false
		}
		s.next = 0
	}
	r := s.script.Responses[s.next]
	n := s.served
	s.next++
	s.served++
	if r.Dialect == "" {
		r.Dialect = s.script.Dialect
	}
	if r.Dialect == "" {
		r.Dialect = OpenAI
	}
	return r, n, true
}

func (s *Server) models(w http.ResponseWriter, r *http.Request) {
	s.record(r, nil)
	names := s.script.Models
	if len(names) == 0 {
		names = []string{"llmtest"}
	}
	type model struct {
		ID      string `json:"id"`
		Object  string `json:"object"`
		Created int64  `json:"created"`
		OwnedBy string `json:"owned_by"`
	}
	list := struct {
		Object string  `json:"object"`
		Data   []model `json:"data"`
	}{Object: "list"}
	for _, n := range names {
		list.Data = append(list.Data, model{ID: n, Object: "model", Created: 1700000000, OwnedBy: "llmtest"})
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(list)
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	rec := s.record(r, body)
	if r.Method != http.MethodPost {
		writeError(w, http.StatusMethodNotAllowed, "invalid_request_error", "llmtest: chat completions want POST")
		return
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "llmtest: reading the body: "+err.Error())
		return
	}
	if rec.Chat == nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "llmtest: the request body is not a JSON chat completion request")
		return
	}
	if !s.script.Lenient {
		if err := checkHistory(rec.Chat.Messages); err != nil {
			writeError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
			return
		}
	}
	var resp Response
	var n int
	var ok bool
	if s.script.Respond != nil {
		resp, n, ok = s.respond(rec.Chat)
	} else {
		resp, n, ok = s.take()
	}
	if !ok {
		writeError(w, http.StatusBadRequest, "invalid_request_error", fmt.Sprintf("llmtest: the script is over: request %d has no response left", s.Served()+1))
		return
	}
	if f := resp.Fault; f != nil {
		switch f.Kind {
		case RateLimit:
			ra := f.RetryAfter
			if ra == 0 {
				ra = 1
			}
			if ra > 0 {
				w.Header().Set("Retry-After", strconv.Itoa(ra))
			}
			writeError(w, http.StatusTooManyRequests, "rate_limit_exceeded", orDefault(f.Message, "Rate limit reached for requests. Please try again later."))
			return
		case ServerError:
			st := f.Status
			if st == 0 {
				st = http.StatusInternalServerError
			}
			if f.Body != "" {
				writeBody(w, st, f.Body)
				return
			}
			writeError(w, st, "server_error", orDefault(f.Message, "The server had an error while processing your request."))
			return
		case ContextLength:
			writeErrorCode(w, http.StatusBadRequest, "invalid_request_error", "context_length_exceeded",
				orDefault(f.Message, "This model's maximum context length is 8192 tokens. However, your messages resulted in 9001 tokens. Please reduce the length of the messages."))
			return
		}
	}
	model := rec.Chat.Model
	if rec.Chat.Stream {
		s.stream(w, r, resp, n, model)
	} else {
		s.whole(w, r, resp, n, model)
	}
}

// whole answers a non-streaming request.
func (s *Server) whole(w http.ResponseWriter, r *http.Request, resp Response, n int, model string) {
	if f := resp.Fault; f != nil {
		switch f.Kind {
		case Drop:
			hijackClose(w)
			return
		case Stall:
			if !s.wait(r, f.Stall.D()) {
				return
			}
		case Malformed:
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"id": "chatcmpl-broken", "choices": [{"message": {"content": "unterminated`)
			return
		}
	}
	msg := map[string]any{"role": "assistant", "content": resp.Text}
	if resp.Reasoning != "" {
		msg[reasoningField(resp)] = resp.Reasoning
	}
	if len(resp.ToolCalls) > 0 {
		var calls []map[string]any
		for i, c := range resp.ToolCalls {
			call := map[string]any{"type": "function", "function": map[string]any{"name": c.Name, "arguments": c.Arguments}}
			if resp.Dialect != NoIDs {
				call["id"] = callID(c, n, i)
			}
			calls = append(calls, call)
		}
		msg["tool_calls"] = calls
	}
	out := map[string]any{
		"id":      fmt.Sprintf("chatcmpl-llmtest-%d", n),
		"object":  "chat.completion",
		"created": 1700000000,
		"model":   model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finishReason(resp)}},
	}
	if resp.Usage != nil {
		out["usage"] = usageJSON(resp.Usage)
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(out)
}

// stream answers a streaming request with server-sent events.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, resp Response, n int, model string) {
	if f := resp.Fault; f != nil {
		switch f.Kind {
		case Empty:
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK)
			return
		case NotSSE:
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusOK)
			_, _ = io.WriteString(w, "<html><body>Welcome to nginx!</body></html>\n")
			return
		case JSONBody:
			s.whole(w, r, resp, n, model)
			return
		}
	}
	flusher, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	if flusher != nil {
		flusher.Flush()
	}
	chunks := renderChunks(resp, n, model)
	f := resp.Fault
	for i, c := range chunks {
		if f != nil && i == f.After {
			switch f.Kind {
			case Drop:
				hijackClose(w)
				return
			case Malformed:
				_, _ = io.WriteString(w, "data: {\"id\": \"chatcmpl-broken\", \"choices\": [{\"delta\": {\"content\": \"unterminated\n\n")
				if flusher != nil {
					flusher.Flush()
				}
				return
			case Cut:
				return
			case StreamError:
				_, _ = io.WriteString(w, "data: {\"error\": {\"message\": \""+orDefault(f.Message, "The server is overloaded")+"\", \"type\": \"server_error\"}}\n\n")
				if flusher != nil {
					flusher.Flush()
				}
				return
			case Stall:
				if !s.wait(r, f.Stall.D()) {
					return
				}
			}
		}
		if i > 0 && resp.Delay > 0 && !s.wait(r, resp.Delay.D()) {
			return
		}
		if _, err := fmt.Fprintf(w, "data: %s\n\n", c); err != nil {
			return
		}
		if flusher != nil {
			flusher.Flush()
		}
	}
	if f != nil && f.After >= len(chunks) {
		switch f.Kind {
		case Drop:
			hijackClose(w)
			return
		case Malformed:
			_, _ = io.WriteString(w, "data: {not json\n\n")
			return
		case Stall:
			if !s.wait(r, f.Stall.D()) {
				return
			}
		}
	}
	if f != nil && (f.Kind == NoDone || f.Kind == Cut) {
		return
	}
	ended(r)
	_, _ = io.WriteString(w, "data: [DONE]\n\n")
	if flusher != nil {
		flusher.Flush()
	}
}

// wait sleeps d (forever when 0) and reports whether to go on: false when
// the client went away or the server is closing.
func (s *Server) wait(r *http.Request, d time.Duration) bool {
	var timeout <-chan time.Time
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case <-timeout:
		return true
	case <-r.Context().Done():
		return false
	case <-s.closing:
		return false
	}
}

// hijackClose ends the response by closing the connection under it, so the
// client sees a stream cut short (not a clean end of body).
func hijackClose(w http.ResponseWriter) {
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic("llmtest: the response writer cannot be hijacked to drop the connection")
	}
	conn, buf, err := hj.Hijack()
	if err != nil {
		return
	}
	_ = buf.Flush()
	if tc, ok := conn.(*net.TCPConn); ok {
		// Reset rather than FIN, as a proxy or a crashed server would.
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}

func writeError(w http.ResponseWriter, status int, typ, msg string) {
	writeErrorCode(w, status, typ, "", msg)
}

func writeErrorCode(w http.ResponseWriter, status int, typ, code, msg string) {
	e := map[string]any{"message": msg, "type": typ, "param": nil, "code": nil}
	if code != "" {
		e["code"] = code
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": e})
}

// writeBody answers status with body as plain text.
func writeBody(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
