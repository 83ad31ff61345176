package e2e

import (
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// Headless: a model that makes the same call again and again is told so,
// then stopped, and fawn exits 1 saying why.
func TestHeadlessLoopIsStopped(t *testing.T) {
	var rs []llmtest.Response
	for i := 0; i < 6; i++ {
		rs = append(rs, llmtest.Response{ToolCalls: []llmtest.ToolCall{call("bash", `{"command":"ls no-such-file"}`)}})
	}
	srv := llmtest.Start(t, llmtest.Script{Responses: rs})
	out, errs, code := fawnIn(t, t.TempDir(), srv, "-p", "find it", "--permission-mode", "yolo", "--output-format", "stream-json", t.TempDir())
	if code != 1 || !strings.Contains(errs+out, "same bash call 5 times") {
		t.Errorf("exit %d:\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(out, "this is call number 3 of bash") || !strings.Contains(out, "not run: this is call number 5") {
		t.Errorf("no note or no refusal:\n%s", out)
	}
	if n := len(srv.ChatRequests()); n != 5 {
		t.Errorf("%d requests", n)
	}
}
