package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/trust"
)

// TestMain lets the test binary be a language server that is still
// indexing (see fakeServer).
func TestMain(m *testing.M) {
	if mode := os.Getenv("FAWN_FAKE_LSP"); mode != "" {
		fakeServer(mode, os.Stdin, os.Stdout)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeServer speaks just enough LSP on r and w. For every opened or
// changed document it publishes an empty diagnostics list; in mode
// "indexing" it first begins a work-done progress it never ends (as a
// server loading a large project does), in "silent" it publishes nothing,
// in "done" its progress ends before it publishes; in "passes" a clean
// first pass is followed by a type error, and in "loadlate" the clean
// first pass comes before the server starts loading the project, whose
// end brings the type error.
func fakeServer(mode string, r io.Reader, w io.Writer) {
	br := bufio.NewReader(r)
	send := func(v any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(w, "Content-Length: %d\r\n\r\n%s", len(b), b)
	}
	progress := func(kind string) {
		send(map[string]any{"jsonrpc": "2.0", "method": "$/progress", "params": map[string]any{"token": "load", "value": map[string]any{"kind": kind, "title": "Loading"}}})
	}
	for {
		n := 0
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				n, _ = strconv.Atoi(v)
			}
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(br, body); err != nil {
			return
		}
		var msg struct {
			ID     *json.RawMessage `json:"id"`
			Method string           `json:"method"`
			Params struct {
				TextDocument struct {
					URI     string `json:"uri"`
					Version int    `json:"version"`
				} `json:"textDocument"`
			} `json:"params"`
		}
		_ = json.Unmarshal(body, &msg)
		switch msg.Method {
		case "initialize":
			send(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": map[string]any{"capabilities": map[string]any{"textDocumentSync": 1}}})
		case "shutdown":
			send(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": nil})
		case "exit":
			return
		case "textDocument/didOpen", "textDocument/didChange":
			switch mode {
			case "silent":
				continue
			case "indexing":
				progress("begin")
			case "done":
				progress("begin")
				progress("end")
			}
			publish := func(diags []any) {
				send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": map[string]any{
					"uri": msg.Params.TextDocument.URI, "diagnostics": diags}})
			}
			publish([]any{})
			typeErr := []any{map[string]any{"range": map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 0, "character": 1}},
				"severity": 1, "source": "fake", "message": "Type 'number' is not assignable to type 'string'."}}
			switch mode {
			case "passes":
				// The syntax pass (clean), then the type pass, as
				// typescript-language-server publishes them.
				time.Sleep(200 * time.Millisecond)
				publish(typeErr)
			case "loadlate":
				// The syntax pass comes before the project starts loading.
				progress("begin")
				time.Sleep(200 * time.Millisecond)
				progress("end")
				publish(typeErr)
			}
		default:
			if msg.ID != nil {
				send(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": nil})
			}
		}
	}
}

// TestNotCheckedYetWhileTheServerIndexes: a server that publishes nothing,
// or an empty list while it is still loading, has not analysed the file:
// fawn says "not checked yet", never "no errors". Once its loading has
// ended, an empty list is a clean file; a clean first pass is not the
// last word of a server that publishes in passes.
func TestNotCheckedYetWhileTheServerIndexes(t *testing.T) {
	for mode, want := range map[string]string{"indexing": "not checked yet", "silent": "not checked yet", "done": "no errors or warnings",
		"passes": "Type 'number' is not assignable", "loadlate": "Type 'number' is not assignable"} {
		t.Run(mode, func(t *testing.T) {
			root, _ := filepath.EvalSymlinks(t.TempDir())
			writeFiles(t, root, map[string]string{"a.fk": "x\n", "fake.marker": ""})
			servers := []Server{{Name: "fake", Command: os.Args[0], Args: []string{"-test.run=^$"}, Env: map[string]string{"FAWN_FAKE_LSP": mode},
				Extensions: []string{".fk"}, RootMarkers: []string{"fake.marker"}}}
			m := New(Options{Root: root, Servers: servers, Env: os.Environ(), Allowed: func(trust.Item) bool { return true },
				Wait: 500 * time.Millisecond, StartWait: 60 * time.Second})
			defer m.Close()
			got := m.AfterEdit(context.Background(), filepath.Join(root, "a.fk"), []byte("y\n"))
			if !strings.Contains(got, want) || (want != "no errors or warnings" && strings.Contains(got, "no errors")) {
				t.Errorf("after an edit: %q, want %q", got, want)
			}
			if mode != "indexing" && mode != "silent" {
				return
			}
			got, err := m.Diagnostics(context.Background(), filepath.Join(root, "a.fk"))
			if err != nil || !strings.Contains(got, "not checked yet") {
				t.Errorf("diagnostics tool: %q %v", got, err)
			}
		})
	}
}
