package tools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/terminal"
)

// newBashTool starts a real terminal in a temporary project with an empty
// HOME and returns the bash tool on it.
func newBashTool(t *testing.T, timeout time.Duration) (*bashTool, *terminal.Terminal) {
	t.Helper()
	root := t.TempDir()
	env, err := NewEnv(root)
	if err != nil {
		t.Fatal(err)
	}
	env.BashTimeout = timeout
	term, err := terminal.Start(terminal.Options{Dir: env.Root, Env: []string{"HOME=" + t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { term.Close() })
	return NewBash(env, term).(*bashTool), term
}

func invoke(t *testing.T, b *bashTool, args string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := b.InvokableRun(ctx, args)
	if err != nil {
		t.Fatalf("InvokableRun(%s): %v", args, err)
	}
	return out
}

func TestBashInfo(t *testing.T) {
	b, _ := newBashTool(t, 45*time.Second)
	info, err := b.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != "bash" || b.Name() != "bash" || !strings.Contains(info.Desc, "persistent bash") {
		t.Fatalf("info: %+v", info)
	}
	js, err := info.ParamsOneOf.ToJSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"command", "timeout", "reset_cwd"} {
		if _, ok := js.Properties.Get(p); !ok {
			t.Errorf("no parameter %s", p)
		}
	}
	if len(js.Required) != 1 || js.Required[0] != "command" {
		t.Errorf("required = %v", js.Required)
	}
	if tp, _ := js.Properties.Get("timeout"); !strings.Contains(tp.Description, "default 45") {
		t.Errorf("timeout description %q does not give the configured default", tp.Description)
	}
}

func TestBashPlan(t *testing.T) {
	b, term := newBashTool(t, 0)
	act, err := b.Plan(context.Background(), `{"command": "go test ./...\necho done"}`)
	if err != nil {
		t.Fatal(err)
	}
	if act.Kind != KindExec || act.Summary != "$ go test ./... … (+1 line)" || act.Command != "go test ./...\necho done" || act.Cwd != term.Cwd() {
		t.Fatalf("%+v", act)
	}
	bad := map[string]string{
		``:                                     "needs a command",
		`[1]`:                                  "JSON object",
		`{"command": ""}`:                      "empty",
		`{"command": 5}`:                       "must be a string",
		`{"command": "echo \u001b[201~"}`:      "control character",
		`{"command": "ls", "timeout": 601}`:    "maximum of 600",
		`{"command": "ls", "timeout": "soon"}`: "number of seconds",
		`{"command": "ls", "reset_cwd": "maybe"}`: "true or false",
		`{"command": "ls"`:                        "malformed JSON",
	}
	for args, want := range bad {
		if _, err := b.Plan(context.Background(), args); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Plan(%s): err = %v, want it to say %q", args, err, want)
		}
	}
	act, err = b.Plan(context.Background(), `{"command": "ls", "timeout": "30", "reset_cwd": "true"}`)
	if err != nil || act.Cwd != term.Root() {
		t.Fatalf("lenient arguments: %+v, %v", act, err)
	}
}

func TestBashRunsInTheSharedShell(t *testing.T) {
	b, term := newBashTool(t, 0)
	if err := os.Mkdir(filepath.Join(term.Root(), "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var emitted []string
	ctx := WithEmitter(context.Background(), func(ev any) {
		if o, ok := ev.(Output); ok {
			mu.Lock()
			emitted = append(emitted, o.Text)
			mu.Unlock()
		}
	})
	out, err := b.InvokableRun(ctx, `{"command": "cd sub && export FOO=bar && echo \"$FOO\" in $(basename $PWD)"}`)
	if err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(term.Root(), "sub")
	if want := "bar in sub\n[exit code 0 · cwd " + sub + "]"; out != want {
		t.Fatalf("got %q, want %q", out, want)
	}
	mu.Lock()
	if strings.Join(emitted, "") != "bar in sub\n" {
		t.Errorf("emitted %q", emitted)
	}
	mu.Unlock()

	out = invoke(t, b, `{"command": "echo $FOO; false"}`)
	if want := "bar\n[exit code 1 · cwd " + sub + "]"; out != want {
		t.Fatalf("got %q, want %q", out, want)
	}
	out = invoke(t, b, `{"command": "pwd", "reset_cwd": true}`)
	if want := term.Root() + "\n[exit code 0 · cwd " + term.Root() + "]"; out != want {
		t.Fatalf("reset_cwd: got %q, want %q", out, want)
	}
	out = invoke(t, b, `{"command": "printf done"}`)
	if !strings.HasPrefix(out, "done\n[no newline at the end of the output]\n[exit code 0") {
		t.Fatalf("got %q", out)
	}
	out = invoke(t, b, `{"command": "true"}`)
	if !strings.HasPrefix(out, "(no output)\n[exit code 0") {
		t.Fatalf("got %q", out)
	}
}

func TestBashReportsFlags(t *testing.T) {
	b, _ := newBashTool(t, 0)
	cases := []struct{ args, want string }{
		{`{"command": "echo )"}`, "[syntax error — not run · cwd "},
		{`{"command": "echo \"open"}`, "[syntax error — not run · cwd "},
		{`{"command": "cat", "timeout": 1}`, "[exit code 130 · timed out after 1s, stopped with Ctrl-C · cwd "},
		{`{"command": "exit 3"}`, "[exit code 3 · shell restarted: "},
		{`{"command": "head -c 3000 /dev/urandom"}`, " KiB, not shown; pipe it through `xxd | head`"},
		{`{"command": "echo after"}`, "after\n[exit code 0 · cwd "},
	}
	for _, c := range cases {
		if out := invoke(t, b, c.args); !strings.Contains(out, c.want) {
			t.Errorf("%s:\n got %q\nwant it to contain %q", c.args, out, c.want)
		}
	}
}

func TestBashDefaultTimeoutFromEnv(t *testing.T) {
	b, _ := newBashTool(t, time.Second)
	out := invoke(t, b, `{"command": "sleep 30"}`)
	if !strings.Contains(out, "timed out after 1s") {
		t.Fatalf("got %q", out)
	}
}

func TestBashCancelInterrupts(t *testing.T) {
	b, term := newBashTool(t, 0)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan string)
	go func() {
		out, err := b.InvokableRun(ctx, `{"command": "touch started; sleep 60"}`)
		if err != nil {
			out = "error: " + err.Error()
		}
		done <- out
	}()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(term.Root(), "started")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the command never started")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	out := <-done
	if !strings.Contains(out, "interrupted by the user") {
		t.Fatalf("got %q", out)
	}
	if out := invoke(t, b, `{"command": "echo ok"}`); !strings.HasPrefix(out, "ok\n") {
		t.Fatalf("after cancel: %q", out)
	}
}

// The chat card is told a command's exit status as a number, the one the
// model reads in the result; a command bash could not parse has none.
func TestBashReportsTheExitCode(t *testing.T) {
	b, _ := newBashTool(t, 0)
	for _, c := range []struct {
		command string
		code    int
		said    string
	}{
		{"true", 0, "[exit code 0 · "},
		{"(exit 7)", 7, "[exit code 7 · "},
		{"echo 'exit code 9'; false", 1, "[exit code 1 · "},
		{"echo )", -1, "[syntax error — not run · "},
	} {
		var done []CommandDone
		var mu sync.Mutex
		ctx := WithEmitter(context.Background(), func(ev any) {
			if d, ok := ev.(CommandDone); ok {
				mu.Lock()
				done = append(done, d)
				mu.Unlock()
			}
		})
		out, err := b.InvokableRun(ctx, fmt.Sprintf(`{"command": %q}`, c.command))
		if err != nil {
			t.Fatalf("%s: %v", c.command, err)
		}
		mu.Lock()
		if len(done) != 1 || done[0].ExitCode != c.code {
			t.Errorf("%s: CommandDone %+v, want one with exit code %d", c.command, done, c.code)
		}
		mu.Unlock()
		if !strings.Contains(out, c.said) {
			t.Errorf("%s: the model is told %q, want %q in it", c.command, out, c.said)
		}
	}
}

// The finished command is described to the chat card: every line counted,
// and where the part left out of the result begins.
func TestBashReportsTheWholeOutputWhenItEnds(t *testing.T) {
	b, _ := newBashTool(t, 0)
	var done []CommandDone
	var skipped bool
	var mu sync.Mutex
	ctx := WithEmitter(context.Background(), func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case CommandDone:
			done = append(done, e)
		case Output:
			if strings.HasPrefix(e.Text, "…\n") {
				t.Errorf("a chunk still starts with the skip mark: %q", e.Text[:20])
			}
			skipped = skipped || e.Skipped
		}
	})
	if _, err := b.InvokableRun(ctx, `{"command":"seq 1 100000"}`); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(done) != 1 {
		t.Fatalf("CommandDone sent %d times", len(done))
	}
	d := done[0]
	lines := strings.Split(strings.TrimSuffix(d.Output, "\n"), "\n")
	if d.TotalLines != 100000 || d.OmittedLines == 0 || d.HeadLines == 0 {
		t.Fatalf("total %d, omitted %d, head %d", d.TotalLines, d.OmittedLines, d.HeadLines)
	}
	if lines[0] != "1" || lines[d.HeadLines-1] != fmt.Sprint(d.HeadLines) || !strings.Contains(lines[d.HeadLines], "omitted") ||
		lines[d.HeadLines+1] != fmt.Sprint(d.HeadLines+d.OmittedLines+1) || lines[len(lines)-1] != "100000" {
		t.Errorf("head %d lines, marker %q, tail from %q", d.HeadLines, lines[d.HeadLines], lines[d.HeadLines+1])
	}
	if !skipped {
		t.Log("the live view kept up with 100000 lines (no chunk was marked skipped)")
	}
}

// When the user has cd-ed the shared shell out of the project, the agent's
// command still runs in the project: it starts with a cd to the root, its
// result says so, and the user's directory is restored afterwards.
func TestBashLeavesNoCommandOutsideTheProject(t *testing.T) {
	b, term := newBashTool(t, 0)
	outside := t.TempDir()
	if real, err := filepath.EvalSymlinks(outside); err == nil {
		outside = real
	}
	if _, err := term.Write([]byte("cd " + outside + "\r")); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for term.Cwd() != outside {
		if time.Now().After(deadline) {
			t.Fatalf("the shell did not reach %s (cwd %s)", outside, term.Cwd())
		}
		time.Sleep(10 * time.Millisecond)
	}
	act, err := b.Plan(context.Background(), `{"command":"touch made-here"}`)
	if err != nil || act.Cwd != term.Root() {
		t.Errorf("the permission dialog would say the command runs in %q (%v)", act.Cwd, err)
	}
	out := invoke(t, b, `{"command":"touch made-here && pwd"}`)
	if _, err := os.Stat(filepath.Join(outside, "made-here")); err == nil {
		t.Fatal("the agent's command ran outside the project")
	}
	if _, err := os.Stat(filepath.Join(term.Root(), "made-here")); err != nil {
		t.Errorf("the command did not run in the project: %v", err)
	}
	if !strings.HasPrefix(out, term.Root()+"\n") || !strings.Contains(out, "outside the project") || !strings.Contains(out, outside) {
		t.Errorf("the result does not say where it ran and why: %q", out)
	}
	deadline = time.Now().Add(20 * time.Second)
	for term.Cwd() != outside {
		if time.Now().After(deadline) {
			t.Fatalf("the user's directory was not restored: cwd %s, want %s", term.Cwd(), outside)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// Inside the project, the shell's directory is the agent's to use.
	if _, err := term.Write([]byte("cd " + term.Root() + "\r")); err != nil {
		t.Fatal(err)
	}
	for term.Cwd() != term.Root() {
		time.Sleep(10 * time.Millisecond)
	}
	if out := invoke(t, b, `{"command":"mkdir -p sub && cd sub"}`); strings.Contains(out, "outside") {
		t.Errorf("a command inside the project got a note: %q", out)
	}
	if term.Cwd() != filepath.Join(term.Root(), "sub") {
		t.Errorf("cwd %s after cd sub", term.Cwd())
	}
}
