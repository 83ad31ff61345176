package mcp

import (
	"context"
	"os"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/mcp/mcptest"
)

func libraryServer(t *testing.T) config.MCPServer {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return config.MCPServer{Command: self, Args: []string{"-test.run=^$"}, Env: map[string]string{mcptest.StdioEnv: "library"}}
}

// A server's prompts are listed with their arguments and given as the
// text of a user message; its resources are listed and read, text
// attached (cut when long), binary not.
func TestMCPPromptsAndResources(t *testing.T) {
	m := Start(context.Background(), map[string]config.MCPServer{"library": libraryServer(t), "calc": stdioServer(t)}, t.TempDir(), nil, nil)
	t.Cleanup(m.Close)
	m.WaitStarted(context.Background())
	ctx := context.Background()

	ps := m.Prompts()
	if len(ps) != 2 {
		t.Fatalf("prompts %+v", ps)
	}
	byName := map[string]Prompt{}
	for _, p := range ps {
		byName[p.Name] = p
	}
	review := byName["review"]
	if review.Command() != "mcp__library__review" || review.Synopsis() != "<file> [focus]" || review.Description != "Review a file." {
		t.Errorf("review: %+v, %q, %q", review, review.Command(), review.Synopsis())
	}
	text, err := m.GetPrompt(ctx, "library", "review", map[string]string{"file": "main.go", "focus": "errors"})
	if err != nil || text != "Review main.go. Look at errors." {
		t.Errorf("review = %q, %v", text, err)
	}
	text, err = m.GetPrompt(ctx, "library", "greet", nil)
	if want := "Say hello.\n\nAssistant: Hello!\n\n<resource uri=\"library://notes\">\nThe notes of the library.\n</resource>"; err != nil || text != want {
		t.Errorf("greet = %q, %v\nwant %q", text, err, want)
	}
	if _, err := m.GetPrompt(ctx, "nope", "review", nil); err == nil || !strings.Contains(err.Error(), `no MCP server is called "nope"`) {
		t.Errorf("an unknown server: %v", err)
	}

	rs := m.Resources()
	var mentions []string
	for _, r := range rs {
		mentions = append(mentions, r.Mention())
	}
	if want := []string{"library:library://big", "library:library://hostile/\u202egnp.exe", "library:library://logo.bin", "library:library://notes"}; !reflect.DeepEqual(mentions, want) {
		t.Errorf("resources %v, want %v", mentions, want)
	}
	for _, c := range []struct{ ref, text, about string }{
		{"library:library://notes", "The notes of the library.", "text, 25 B"},
		{"library:notes", "The notes of the library.", "text, 25 B"}, // by name
		{"library:library://logo.bin", "[library://logo.bin is binary (application/octet-stream, 1.0 KiB): not attached]", "binary (application/octet-stream, 1.0 KiB): not attached"},
	} {
		got, err := m.ReadResource(ctx, c.ref)
		if err != nil || got.Text != c.text || got.About != c.about {
			t.Errorf("%s = %+v, %v; want %q, %q", c.ref, got, err, c.text, c.about)
		}
	}
	big, err := m.ReadResource(ctx, "library:library://big")
	if err != nil || len(big.Text) > maxResource || !strings.Contains(big.Text, "omitted") || big.About != "text, 293.0 KiB, cut to 97.7 KiB" {
		t.Errorf("big: %d bytes, %q, %v", len(big.Text), big.About, err)
	}
	if _, err := m.ReadResource(ctx, "library:library://none"); err == nil || !strings.Contains(err.Error(), "could not read library://none") {
		t.Errorf("a resource that is not there: %v", err)
	}
	if _, _, ok := m.ResourceRef("src/main.go:12"); ok {
		t.Error("a path with a colon was taken for a resource")
	}
	for _, st := range m.Status() {
		if want := map[string][2]int{"library": {2, 4}, "calc": {0, 0}}[st.Name]; [2]int{st.Prompts, st.Resources} != want {
			t.Errorf("%s: %d prompts, %d resources; want %v", st.Name, st.Prompts, st.Resources, want)
		}
	}
	// The calculator has neither prompts nor resources.
	for _, p := range ps {
		if p.Server == "calc" {
			t.Errorf("calc has a prompt: %+v", p)
		}
	}
}

// What is typed after a prompt's command fills its arguments: NAME=VALUE,
// then the words in order, the last argument taking the rest.
func TestPromptBind(t *testing.T) {
	p := Prompt{Server: "library", Name: "review", Args: []PromptArg{{Name: "file", Description: "the file to review", Required: true}, {Name: "focus"}}}
	for _, c := range []struct {
		in   string
		want map[string]string
		err  string
	}{
		{in: "main.go", want: map[string]string{"file": "main.go"}},
		{in: "main.go error handling", want: map[string]string{"file": "main.go", "focus": "error handling"}},
		{in: `"my file.go" 'the loops'`, want: map[string]string{"file": "my file.go", "focus": "the loops"}},
		{in: "focus=tests main.go", want: map[string]string{"file": "main.go", "focus": "tests"}},
		{in: "file=a.go focus=b", want: map[string]string{"file": "a.go", "focus": "b"}},
		{in: `"x=y"`, want: map[string]string{"file": "x=y"}},
		{in: "", err: "/mcp__library__review <file> [focus] needs file: /mcp__library__review <file> [focus] (file: the file to review)"},
		{in: "focus=x", err: "needs file"},
		{in: `"open`, err: "a quote (\") is not closed"},
	} {
		got, err := p.Bind(c.in)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("Bind(%q) error = %v, want %q", c.in, err, c.err)
		case c.err == "" && (err != nil || !reflect.DeepEqual(got, c.want)):
			t.Errorf("Bind(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	none := Prompt{Server: "s", Name: "greet"}
	if _, err := none.Bind("hello"); err == nil || err.Error() != "/mcp__s__greet takes no arguments" {
		t.Errorf("no arguments: %v", err)
	}
	if got, err := none.Bind(""); err != nil || len(got) != 0 {
		t.Errorf("none: %v %v", got, err)
	}
}

// A server is said to be ready only with its prompts and resources listed,
// also when a list_changed notification (the library's late tool) arrives
// while they are being listed.
func TestMCPReadyWithItsCatalog(t *testing.T) {
	var mp atomic.Pointer[Manager]
	var mu sync.Mutex
	var seen []int
	m := Start(context.Background(), map[string]config.MCPServer{"library": libraryServer(t)}, t.TempDir(), nil, func(ch Change) {
		if ch.State != Ready {
			return
		}
		for mp.Load() == nil {
			time.Sleep(time.Millisecond)
		}
		mu.Lock()
		seen = append(seen, len(mp.Load().Prompts()))
		mu.Unlock()
	})
	mp.Store(m)
	t.Cleanup(m.Close)
	m.WaitStarted(context.Background())
	late := func() bool {
		for _, tl := range m.Tools() {
			if tl.Name() == "mcp__library__late" {
				return true
			}
		}
		return false
	}
	for end := time.Now().Add(deadline); !late() && time.Now().Before(end); {
		time.Sleep(10 * time.Millisecond)
	}
	if !late() {
		t.Error("the tool added after the list was not offered")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) == 0 {
		t.Fatal("the library was never ready")
	}
	for _, n := range seen {
		if n != 2 {
			t.Errorf("ready with %d prompts (each Ready change saw %v)", n, seen)
		}
	}
}
