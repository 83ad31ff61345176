package tools

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/fawn-ide/fawn/terminal"
)

//go:embed bash.md
var bashDescription string

const (
	// bashMaxTimeout bounds the timeout parameter.
	bashMaxTimeout = 600 * time.Second
	// bashFallbackTimeout applies when Env.BashTimeout is not set.
	bashFallbackTimeout = 120 * time.Second
)

// Runner runs the agent's commands. *terminal.Terminal, the shared shell
// the user sees, is the one everywhere but in fawn acp with a client that
// offers terminals, where each command runs in a terminal of the editor's.
type Runner interface {
	// Run runs c and returns how it ended (see terminal.Terminal.Run);
	// onOutput receives the output as it comes.
	Run(ctx context.Context, c terminal.Command, onOutput func(chunk string)) (terminal.Result, error)
	// Cwd is the directory the next command starts in ("" not known yet).
	Cwd() string
	// Root is the project's directory, where ResetCwd goes.
	Root() string
}

// RunnerNote is a Runner whose commands do not run in one persistent
// shell: Note says how they do run, and is added to the bash tool's
// description, which describes the shared shell.
type RunnerNote interface {
	Note() string
}

// bashTool runs the agent's commands in the terminal the user sees.
type bashTool struct {
	env   *Env
	term  Runner
	spare func() (*terminal.Terminal, string, error)
}

// BashOption configures the bash tool.
type BashOption func(*bashTool)

// WithSpareShell gives the bash tool a shell of its own for when the user
// replaced the terminal's with exec (`exec zsh`: no fawn markers, no way
// to run a command there): spare returns it, started on first use, and
// the name of the tab that shows it.
func WithSpareShell(spare func() (*terminal.Terminal, string, error)) BashOption {
	return func(b *bashTool) { b.spare = spare }
}

// NewBash returns the bash tool: commands run by r, usually the terminal
// pane's shell. The default timeout is env.BashTimeout.
func NewBash(env *Env, r Runner, opts ...BashOption) Tool {
	b := &bashTool{env: env, term: r}
	for _, o := range opts {
		o(b)
	}
	return b
}

// BashName is the bash tool's name, whose commands run in the shared shell.
const BashName = "bash"

func (b *bashTool) Name() string { return BashName }

func (b *bashTool) Info(context.Context) (*schema.ToolInfo, error) {
	desc := strings.TrimSpace(bashDescription)
	if n, ok := b.term.(RunnerNote); ok {
		desc += "\n\n" + n.Note()
	}
	return &schema.ToolInfo{
		Name: "bash",
		Desc: desc,
		ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{
			"command": {
				Type:     schema.String,
				Desc:     "The command line or script to run.",
				Required: true,
			},
			"timeout": {
				Type: schema.Integer,
				Desc: fmt.Sprintf("Seconds before the command is stopped (default %d, at most %d).",
					int(b.defaultTimeout()/time.Second), int(bashMaxTimeout/time.Second)),
			},
			"reset_cwd": {
				Type: schema.Boolean,
				Desc: "Run from the project root instead of the shell's current directory.",
			},
			"outside_sandbox": {
				Type: schema.Boolean,
				Desc: "Only after the sandbox refused this very command and it needs what was refused: ask the user to run it once outside the sandbox.",
			},
		}),
	}, nil
}

func (b *bashTool) defaultTimeout() time.Duration {
	if b.env != nil && b.env.BashTimeout > 0 {
		return min(b.env.BashTimeout, bashMaxTimeout)
	}
	return bashFallbackTimeout
}

type bashCall struct {
	command  string
	timeout  time.Duration
	resetCwd bool
	outside  bool // outside_sandbox, and the shell is sandboxed
}

// parse decodes and checks a call's arguments.
func (b *bashTool) parse(argsJSON string) (bashCall, error) {
	data := bytes.TrimSpace([]byte(argsJSON))
	if len(data) == 0 || string(data) == "null" {
		data = []byte("{}")
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return bashCall{}, fmt.Errorf("bash arguments must be a JSON object like {\"command\": \"ls\"}: %s", bashJSONProblem(err))
	}
	var c bashCall
	cmdRaw, ok := raw["command"]
	if !ok {
		return bashCall{}, errors.New("bash needs a command: {\"command\": \"...\"}")
	}
	if err := json.Unmarshal(cmdRaw, &c.command); err != nil {
		return bashCall{}, errors.New("command must be a string")
	}
	if strings.TrimSpace(c.command) == "" {
		return bashCall{}, errors.New("command is empty: say what to run")
	}
	if !utf8.ValidString(c.command) {
		return bashCall{}, errors.New("command is not valid UTF-8")
	}
	for _, r := range strings.ReplaceAll(c.command, "\r\n", "\n") {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return bashCall{}, fmt.Errorf("command contains the control character %U, which cannot be typed into the terminal; write it with printf escapes such as '\\x1b' instead", r)
		}
	}
	c.timeout = b.defaultTimeout()
	if tr, ok := raw["timeout"]; ok && string(tr) != "null" {
		secs, err := bashNumber(tr)
		if err != nil {
			return bashCall{}, fmt.Errorf("timeout must be a number of seconds: %v", err)
		}
		switch {
		case secs <= 0:
			// Treated as "no preference".
		case secs > bashMaxTimeout.Seconds():
			return bashCall{}, fmt.Errorf("timeout %g is more than the maximum of %d seconds; run long jobs in the background (… > log 2>&1 &) and check on them", secs, int(bashMaxTimeout/time.Second))
		default:
			c.timeout = time.Duration(secs * float64(time.Second))
		}
	}
	if rr, ok := raw["reset_cwd"]; ok && string(rr) != "null" {
		v, err := bashBool(rr)
		if err != nil {
			return bashCall{}, errors.New("reset_cwd must be true or false")
		}
		c.resetCwd = v
	}
	if or, ok := raw["outside_sandbox"]; ok && string(or) != "null" {
		v, err := bashBool(or)
		if err != nil {
			return bashCall{}, errors.New("outside_sandbox must be true or false")
		}
		// Without a sandbox on, every command runs outside one anyway.
		c.outside = v && b.env != nil && b.env.Sandbox != nil && b.env.Sandbox.On()
	}
	return c, nil
}

// Plan describes the call for the permission dialog: the command and the
// directory it would run in.
func (b *bashTool) Plan(_ context.Context, argsJSON string) (Action, error) {
	c, err := b.parse(argsJSON)
	if err != nil {
		return Action{}, err
	}
	cwd := b.term.Cwd()
	if c.resetCwd || b.outside(cwd) {
		cwd = b.term.Root()
	}
	a := Action{
		Kind:    KindExec,
		Summary: "$ " + bashSummary(c.command),
		Command: c.command,
		Cwd:     cwd,
		Outside: c.outside,
	}
	if c.outside {
		a.Summary = "Run once outside the sandbox: " + a.Summary
	}
	return a, nil
}

// bashSummary is the command's first line, shortened, with "…" when there
// is more and, when the command has more lines, how many: a harmless first
// line never stands alone for a longer script.
func bashSummary(cmd string) string {
	cmd = strings.TrimSpace(cmd)
	first, rest, multi := strings.Cut(cmd, "\n")
	first = strings.TrimSpace(first)
	more := multi && strings.TrimSpace(rest) != ""
	if utf8.RuneCountInString(first) > 120 {
		first = string([]rune(first)[:119])
		more = true
	}
	if more {
		first += " …"
	}
	if multi && strings.TrimSpace(rest) != "" {
		n := strings.Count(rest, "\n") + 1
		if n == 1 {
			first += " (+1 line)"
		} else {
			first += fmt.Sprintf(" (+%d lines)", n)
		}
	}
	return first
}

// InvokableRun types the command into the terminal and waits for it. While
// it runs, its output is emitted as tools.Output chunks. Cancelling ctx
// interrupts it.
func (b *bashTool) InvokableRun(ctx context.Context, argsJSON string, _ ...tool.Option) (string, error) {
	c, err := b.parse(argsJSON)
	if err != nil {
		return "", err
	}
	// The user may have cd-ed the shared shell out of the project: the
	// agent's command still starts in the project, and the user's
	// directory comes back afterwards.
	userCwd := b.term.Cwd()
	away := b.outside(userCwd)
	ended := func() []string { return nil }
	if b.env != nil && b.env.Changes != nil {
		// Whatever the command changed is found by comparing the tree
		// after it with the tree before it, even when it fails.
		ended = b.env.Changes.CommandStarting(ctx)
	}
	done := false
	defer func() {
		if !done {
			ended()
		}
	}()
	onOutput := func(chunk string) {
		// The terminal starts a chunk with "…" on a line of its own when
		// it left lines out of the live view.
		rest, skipped := strings.CutPrefix(chunk, "…\n")
		Emit(ctx, Output{Text: rest, Skipped: skipped})
	}
	cmd := terminal.Command{Text: c.command, Timeout: c.timeout, ResetCwd: c.resetCwd || away}
	sp, spillID := b.spill(ctx)
	if sp != nil {
		cmd.Spill = sp
		defer func() {
			if !done {
				sp.finish(false)
			}
		}()
	}
	var res terminal.Result
	var note string
	if c.outside {
		// Once, in a shell of its own: the shared one stays confined.
		dir := userCwd
		if cmd.ResetCwd || dir == "" {
			dir = b.term.Root()
		}
		away = false
		res, err = b.env.Sandbox.RunOutside(ctx, dir, cmd, onOutput)
	} else {
		res, err = b.term.Run(ctx, cmd, onOutput)
		if be := (*terminal.BusyError)(nil); errors.As(err, &be) && be.Replaced != "" && b.spare != nil {
			res, note, err = b.runSpare(ctx, c, be.Replaced, onOutput, cmd.Spill)
			away = false
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return "", fmt.Errorf("interrupted by the user before the command started")
		}
		return "", err
	}
	d := commandDone(res)
	d.Outside = c.outside
	if sp != nil {
		// Kept only when the result leaves some of it out.
		cut := (res.OmittedLines > 0 || res.OmittedBytes > 0) && !res.Binary
		if path, err := sp.finish(cut); path != "" {
			d.Spill = path
			note += fmt.Sprintf("\n[the whole output (%s) is kept: view_output with id %q pages through it]", plural(int(res.TotalLines), "line", "lines"), spillID)
		} else if cut && err != nil {
			note += "\n[the whole output could not be kept: " + err.Error() + "]"
		}
	}
	if !c.outside && res.ExitCode > 0 && b.env != nil && b.env.Sandbox != nil {
		d.Refused, _ = b.env.Sandbox.Refusal(res.Output)
	}
	Emit(ctx, d)
	out := bashResult(res, c.timeout) + note
	switch {
	case c.outside:
		out += "\n[this ran once outside the sandbox, as the user allowed; the next command runs in the sandbox again]"
	case d.Refused != "":
		out += fmt.Sprintf("\n[the sandbox refused this: %s. Writes outside the project, its .git, .fawn and .claude, the user's secrets and the network are closed to the shell. "+
			"Work within that if you can; if the command truly needs it, call bash again with the same command and outside_sandbox: true, and the user is asked to run it once outside the sandbox]", d.Refused)
	}
	done = true
	if changed := ended(); len(changed) > 0 && b.env.Code != nil {
		// The language servers hear of the files the command changed,
		// and the model of what they found in them.
		if r := b.env.Code.AfterCommand(b.env.codeContext(ctx), changed); r != "" {
			Emit(ctx, CodeReport{Text: r})
			out += "\n" + r
		}
	}
	if away {
		back := "the shell went back there afterwards"
		if _, err := b.term.Run(context.WithoutCancel(ctx), terminal.Command{Text: "cd -- " + shellQuote(userCwd), Timeout: 10 * time.Second}, nil); err != nil {
			back = "the shell could not go back there (" + err.Error() + ")"
		}
		out += fmt.Sprintf("\n[the shell was in %s, outside the project: the command ran from the project root %s; %s]", userCwd, b.term.Root(), back)
	}
	return out, nil
}

// spill starts the file that keeps this call's whole output (nil when
// the session keeps none, or it cannot be made: the command runs anyway).
func (b *bashTool) spill(ctx context.Context) (*spill, string) {
	if b.env == nil || b.env.Outputs == nil {
		return nil, ""
	}
	id := compose.GetToolCallID(ctx)
	if _, err := b.env.Outputs.Path(id); err != nil {
		id = fmt.Sprintf("cmd-%d", time.Now().UnixNano()) // a call without a usable id
	}
	sp, err := b.env.Outputs.create(id)
	if err != nil {
		return nil, ""
	}
	return sp, id
}

// outside reports whether dir, the shell's directory, is outside the
// project ("" — not known yet — is not).
func (b *bashTool) outside(dir string) bool {
	root := b.term.Root()
	if dir == "" || within(root, dir) {
		return false
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil && within(root, real) {
		return false
	}
	if real, err := filepath.EvalSymlinks(root); err == nil && within(real, dir) {
		return false
	}
	return true
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// commandDone describes the finished command for the chat card.
func commandDone(r terminal.Result) CommandDone {
	d := CommandDone{Output: r.Output, TotalLines: int(r.TotalLines), OmittedLines: int(r.OmittedLines), Binary: r.Binary, ExitCode: r.ExitCode}
	if r.SyntaxError {
		d.ExitCode = -1 // bash's status 2, but nothing ran (bashResult says so)
	}
	if r.OmittedLines > 0 || r.OmittedBytes > 0 {
		// The head ends at the terminal's "[… N lines, X omitted …]" line.
		for i, l := range strings.Split(r.Output, "\n") {
			if strings.HasPrefix(l, "[… ") && strings.HasSuffix(l, " omitted …]") {
				d.HeadLines = i
				break
			}
		}
	}
	return d
}

// bashResult renders a result for the model: the output, then one line in
// brackets with the exit code, the flags and the directory.
func bashResult(r terminal.Result, timeout time.Duration) string {
	var sb strings.Builder
	switch {
	case r.Binary:
		fmt.Fprintf(&sb, "(binary output, %s, not shown; pipe it through `xxd | head` or `od -c | head` to look at it)\n", bashBytes(r.TotalBytes))
	case r.Output == "":
		sb.WriteString("(no output)\n")
	default:
		sb.WriteString(r.Output)
		if !strings.HasSuffix(r.Output, "\n") {
			sb.WriteString("\n[no newline at the end of the output]\n")
		}
	}
	var parts []string
	switch {
	case r.SyntaxError:
		parts = append(parts, "syntax error — not run")
	case r.ExitCode >= 0:
		parts = append(parts, "exit code "+strconv.Itoa(r.ExitCode))
	default:
		parts = append(parts, "no exit code (killed)")
	}
	if r.TimedOut {
		how := map[string]string{
			"Ctrl-C":  "stopped with Ctrl-C",
			"SIGTERM": "it ignored Ctrl-C and was stopped with SIGTERM",
			"SIGKILL": "it ignored Ctrl-C and SIGTERM and was killed with SIGKILL",
			"restart": "the shell did not respond and was restarted",
		}[r.StoppedBy]
		if how == "" {
			how = "stopped"
		}
		parts = append(parts, fmt.Sprintf("timed out after %s, %s", bashDuration(timeout), how))
	}
	if r.Interrupted {
		parts = append(parts, "interrupted by the user")
	}
	if r.UserInterrupted && !r.Interrupted {
		parts = append(parts, "interrupted by the user (Ctrl-C in the terminal)")
	}
	if r.ShellRestarted {
		parts = append(parts, "shell restarted: the shell ended and a new one was started; variables, functions and aliases set before are gone")
	}
	parts = append(parts, "cwd "+r.Cwd)
	sb.WriteString("[" + strings.Join(parts, " · ") + "]")
	return sb.String()
}

func bashDuration(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%ds", int(d/time.Second))
	}
	return d.String()
}

func bashBytes(n int64) string {
	switch {
	case n < 1<<10:
		return plural(int(n), "byte", "bytes")
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// bashNumber reads a JSON number or a string holding one (models send both).
func bashNumber(raw json.RawMessage) (float64, error) {
	var f float64
	if err := json.Unmarshal(raw, &f); err == nil {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, errors.New("not a finite number")
		}
		return f, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return 0, fmt.Errorf("got %s", bashClip(string(raw)))
	}
	f, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "s"), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("got %q", bashClip(s))
	}
	return f, nil
}

// bashBool reads a JSON boolean or "true"/"false".
func bashBool(raw json.RawMessage) (bool, error) {
	var v bool
	if err := json.Unmarshal(raw, &v); err == nil {
		return v, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return strconv.ParseBool(strings.TrimSpace(s))
	}
	return false, errors.New("not a boolean")
}

func bashJSONProblem(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("malformed JSON at byte %d", se.Offset)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return "got a JSON " + te.Value
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

func bashClip(s string) string {
	if len(s) <= 40 {
		return s
	}
	cut := 40
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// runSpare runs c in the bash tool's own shell, the terminal's having been
// replaced by exec with replaced ("zsh"); note tells the model where it ran.
func (b *bashTool) runSpare(ctx context.Context, c bashCall, replaced string, onOutput func(string), spill io.Writer) (terminal.Result, string, error) {
	t, tab, err := b.spare()
	if err != nil {
		return terminal.Result{}, "", fmt.Errorf("the terminal's shell was replaced by %s (exec), which has no fawn markers, and fawn's own shell could not start: %w", replaced, err)
	}
	res, err := t.Run(ctx, terminal.Command{Text: c.command, Timeout: c.timeout, ResetCwd: c.resetCwd || b.outside(t.Cwd()), Spill: spill}, onOutput)
	note := fmt.Sprintf("\n[the terminal's shell was replaced by %s (exec), which has no fawn markers: the command ran in fawn's own bash, in the tab %q; its directory and variables are its own]", replaced, tab)
	return res, note, err
}
