package tools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// A long command's whole output is kept beside the session: the result
// and the card say where, view_output pages through every line of it,
// and a short command keeps nothing.
func TestLongOutputIsKeptAndPaged(t *testing.T) {
	b, _ := newBashTool(t, 0)
	dir := filepath.Join(t.TempDir(), "outputs")
	b.env.Outputs = NewOutputs(dir, func(s string) string { return strings.ReplaceAll(s, "sk-secret-1234", "[redacted]") })
	var done CommandDone
	var mu sync.Mutex
	ctx := WithEmitter(context.Background(), func(ev any) {
		if d, ok := ev.(CommandDone); ok {
			mu.Lock()
			done = d
			mu.Unlock()
		}
	})
	out, err := b.InvokableRun(ctx, `{"command":"seq 1 30000; echo sk-secret-1234"}`)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`view_output with id "([^"]+)"`).FindStringSubmatch(out)
	if m == nil || !strings.Contains(out, "30,001 lines") && !strings.Contains(out, "30001 lines") {
		t.Fatalf("the result does not say the output is kept:\n%s", out[len(out)-300:])
	}
	mu.Lock()
	spill := done.Spill
	mu.Unlock()
	if spill == "" || filepath.Dir(spill) != dir {
		t.Fatalf("the card is not told where the output is: %q", spill)
	}
	view := NewViewOutput(b.env.Outputs)
	if a, err := view.Plan(ctx, fmt.Sprintf(`{"id":%q}`, m[1])); err != nil || a.Kind != KindRead {
		t.Fatalf("view_output plans %v, %v", a, err)
	}
	page, err := view.InvokableRun(ctx, fmt.Sprintf(`{"id":%q,"offset":15000,"limit":3}`, m[1]))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page, " 15000\t15000\n") || !strings.Contains(page, " 15002\t15002\n") || strings.Contains(page, "15003\t") ||
		!strings.Contains(page, "lines 15000–15002 of 30001; the next page starts at offset 15003") {
		t.Errorf("a page from the middle:\n%s", page)
	}
	last, _ := view.InvokableRun(ctx, fmt.Sprintf(`{"id":%q,"offset":30001}`, m[1]))
	if !strings.Contains(last, "30001\t[redacted]") || strings.Contains(last, "sk-secret") {
		t.Errorf("the last line (a secret) is kept as:\n%s", last)
	}
	out, err = b.InvokableRun(ctx, `{"command":"echo short"}`)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "view_output") {
		t.Errorf("a short output is said to be kept:\n%s", out)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("%d files kept, want the long output's only", len(ents))
	}
}

// An id from the model never names a file outside the outputs, and an id
// with nothing kept says so.
func TestViewOutputRefusesForeignIDs(t *testing.T) {
	o := NewOutputs(t.TempDir(), nil)
	v := NewViewOutput(o)
	for _, id := range []string{"../../etc/passwd", "..", "a/b", "", strings.Repeat("x", 200)} {
		if _, err := v.InvokableRun(context.Background(), fmt.Sprintf(`{"id":%q}`, id)); err == nil || !strings.Contains(err.Error(), "is not the id") {
			t.Errorf("id %q: %v", id, err)
		}
	}
	if _, err := v.InvokableRun(context.Background(), `{"id":"call_9"}`); err == nil || !strings.Contains(err.Error(), "no output is kept") {
		t.Errorf("an unknown id: %v", err)
	}
}

// The kept outputs are capped: a file stops at its size limit and says
// so, and the oldest files go beyond the count.
func TestKeptOutputsAreCappedAndRotated(t *testing.T) {
	dir := t.TempDir()
	o := NewOutputs(dir, nil)
	o.maxFile, o.maxFiles = 1000, 3
	for i := range 5 {
		sp, err := o.create(fmt.Sprintf("call_%d", i))
		if err != nil {
			t.Fatal(err)
		}
		for range 100 {
			sp.Write([]byte("0123456789012345678901234567890123456789\n"))
		}
		if _, err := sp.finish(true); err != nil {
			t.Fatal(err)
		}
		// Distinct modification times, oldest first.
		old := time.Now().Add(time.Duration(i-10) * time.Minute)
		os.Chtimes(filepath.Join(dir, fmt.Sprintf("call_%d.txt", i)), old, old)
	}
	o.rotate("")
	ents, _ := os.ReadDir(dir)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "call_2.txt call_3.txt call_4.txt" {
		t.Errorf("kept %v", names)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "call_4.txt"))
	if len(b) > 1100 || !strings.Contains(string(b), "fawn kept the first") {
		t.Errorf("a full file holds %d bytes, ending %q", len(b), b[max(0, len(b)-80):])
	}
}

// TestOutputIDAsTheRuleSays: isOutputID takes exactly what
// ^[A-Za-z0-9_.-]{1,128}$ takes (written out, so that no regular
// expression is compiled at every start of fawn).
func TestOutputIDAsTheRuleSays(t *testing.T) {
	rule := regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`)
	ids := []string{"", "a", "call_01.A-b", strings.Repeat("x", 128), strings.Repeat("x", 129), "a/b", "a b", "é", "a\x00", "..", "toolu_01XyZ", "call:1"}
	for c := 0; c < 256; c++ {
		ids = append(ids, "id"+string(rune(c)), string([]byte{byte(c)}))
	}
	for _, id := range ids {
		if got, want := isOutputID(id), rule.MatchString(id); got != want {
			t.Errorf("isOutputID(%q) = %v, the rule says %v", id, got, want)
		}
	}
}
