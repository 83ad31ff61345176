// Command fawn is a full-screen terminal IDE in which an AI coding agent works
// on a project while its user watches and joins in.
//
//	fawn [flags] [DIR]        open the IDE on DIR (default: the current directory)
//	fawn -p PROMPT [DIR]      run one turn headless and print the answer
//	fawn config [--check]     print (or check) the effective configuration
//	fawn sessions [DIR]       list DIR's sessions, newest first
//	fawn export [ID] [DIR]    write a session as Markdown
//	fawn acp [DIR]            serve the agent over ACP on stdin/stdout (for an editor)
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strings"
	"syscall"

	"github.com/spf13/pflag"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/internal/safetext"
	"github.com/fawn-ide/fawn/secret"
	"github.com/fawn-ide/fawn/trust"
	"github.com/fawn-ide/fawn/ui"
	"github.com/fawn-ide/fawn/ui/theme"
	"github.com/fawn-ide/fawn/ui/trustprompt"
)

// version is set at build time (make build).
var version = "dev"

// Exit codes scripts rely on.
const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2
	exitInterrupted = 130
)

func main() {
	noHeapSampling()
	relaxGC()
	// The first SIGINT, SIGTERM, SIGHUP or SIGQUIT cancels ctx with the
	// signal as its cause (fawn exits 128+N); a second one kills at once.
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	go func() {
		if sig, ok := <-sigs; ok {
			signal.Stop(sigs)
			cancel(&ui.SignalError{Signal: sig})
		}
	}()
	stopProfiles := startProfiles(os.Stderr)
	stdout, stderr := terminalText(os.Stdout), terminalText(os.Stderr)
	code := run(ctx, os.Args[1:], os.Stdin, stdout, stderr)
	flushText(stdout, stderr)
	stopProfiles()
	signal.Stop(sigs)
	cancel(nil)
	os.Exit(code)
}

// terminalText is f, or, when f is a terminal, a writer that shows control
// characters as safetext does: a model's answer, a session's title or a
// project's configuration printed there must not drive the terminal (ESC
// ] 52 would write the user's clipboard). Written to a file or a pipe the
// bytes are the model's, exactly: they are data for whatever reads them.
// Any character device counts as a terminal (/dev/null too: no one sees
// it).
func terminalText(f *os.File) io.Writer {
	if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
		return safetext.NewWriter(f)
	}
	return f
}

// flushText writes what terminalText's writers hold back.
func flushText(ws ...io.Writer) {
	for _, w := range ws {
		if sw, ok := w.(*safetext.Writer); ok {
			_ = sw.Flush()
		}
	}
}

// startupGCPercent is the garbage collector's pace until the start-up
// settles (ui.Options.FirstFrame, a moment after the first frame, once the
// shell has painted its prompt): fawn allocates about 8 MB on the way
// there, most of it kept, and at the default pace (100) three collections
// would run before anything is on the screen. restoreGC puts the default
// (or the user's GOGC) back.
const startupGCPercent = 400

var gcPercent = -2 // the pace to restore; -2: relaxGC did not change it

// relaxGC slows the collector for the start-up, unless GOGC is set.
func relaxGC() {
	if os.Getenv("GOGC") == "" {
		gcPercent = debug.SetGCPercent(startupGCPercent)
	}
}

// restoreGC puts the collector's pace back, once.
func restoreGC() {
	if gcPercent != -2 {
		debug.SetGCPercent(gcPercent)
		gcPercent = -2
	}
}

// noHeapSampling turns off the runtime's sampling of allocations for heap
// profiles, unless FAWN_MEMPROFILE asks for one (startProfiles sets its own
// rate then): nothing else of fawn's reads them, and each sample records a
// stack, whose walk reads the binary's function tables, pages of it that
// are otherwise not loaded (about 0.1 MiB at the first frame).
func noHeapSampling() {
	if os.Getenv("FAWN_MEMPROFILE") == "" {
		runtime.MemProfileRate = 0
	}
}

// startProfiles starts what FAWN_CPUPROFILE and FAWN_MEMPROFILE ask for
// (files for go tool pprof, written when fawn exits; the heap profile also
// on SIGUSR1); it returns what ends them.
func startProfiles(stderr io.Writer) func() {
	var done []func()
	if path := os.Getenv("FAWN_CPUPROFILE"); path != "" {
		if f, err := os.Create(path); err != nil {
			fmt.Fprintf(stderr, "fawn: FAWN_CPUPROFILE: %v\n", err)
		} else if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(stderr, "fawn: FAWN_CPUPROFILE: %v\n", err)
			f.Close()
		} else {
			done = append(done, func() { pprof.StopCPUProfile(); f.Close() })
		}
	}
	if path := os.Getenv("FAWN_MEMPROFILE"); path != "" {
		runtime.MemProfileRate = 4 << 10 // fine enough to see what a turn keeps
		write := func() {
			f, err := os.Create(path)
			if err == nil {
				runtime.GC()
				err = pprof.WriteHeapProfile(f)
				f.Close()
			}
			if err != nil {
				fmt.Fprintf(stderr, "fawn: FAWN_MEMPROFILE: %v\n", err)
			}
		}
		// SIGUSR1 writes it while fawn runs (at exit the session is gone).
		usr1 := make(chan os.Signal, 1)
		signal.Notify(usr1, syscall.SIGUSR1)
		go func() {
			for range usr1 {
				write()
			}
		}()
		done = append(done, func() { signal.Stop(usr1); write() })
	}
	return func() {
		for _, f := range done {
			f()
		}
	}
}

// signalExit is the exit code for a run that err or ctx says a signal
// ended: 128+N (130 for Ctrl-C), or 0 when none did.
func signalExit(ctx context.Context, err error) int {
	var se *ui.SignalError
	if !errors.As(err, &se) && !errors.As(context.Cause(ctx), &se) {
		return 0
	}
	if n, ok := se.Signal.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return exitInterrupted
}

// cli is the parsed command line.
type cli struct {
	prompt         string
	printSet       bool
	outputFormat   string
	configFile     string
	model          string
	baseURL        string
	permissionMode string
	agent          string // --agent: the ACP agent to host instead of fawn's own
	trust          bool
	showVersion    bool
	help           bool
	check          bool
	sub            string // "", "config", "sessions", "export" or "acp"
	dir            string
	sess           sessionFlags
	script         scriptFlags
	// stdin is the text piped to fawn -p TEXT, attached to the prompt.
	stdin    string
	worktree string // --worktree NAME: the task to run in (with -p)
}

const usage = `fawn — a terminal IDE where an AI coding agent works on your project with you.

Usage:
  fawn [flags] [DIR]          open the IDE on DIR (default: the current directory)
  fawn -p PROMPT [DIR]        run one turn without a screen and print the result;
                              text piped in is attached to PROMPT (-p - reads PROMPT itself)
  fawn -p PROMPT --worktree NAME [DIR]  run it in task NAME's git worktree (branch
                              fawn/NAME, made at HEAD when new) and print the branch
  fawn config [--check] [DIR] print the effective configuration with the source of
                              each value, secrets redacted (--check: validate only)
  fawn --continue [DIR]       reopen DIR's newest session (with -p too), and in the
                              IDE the tasks that were open, each with its session
  fawn --resume [ID] [DIR]    reopen a session by ID (a unique prefix), or choose one
  fawn sessions [--json] [DIR]          list DIR's sessions, newest first, then its
                                        tasks with their branches (not with --json)
  fawn export [ID] [DIR] [-o FILE]      write a session (default: the newest) as Markdown
  fawn mcp add NAME [--env K=V]... -- COMMAND [ARGS...] | --url URL
                              add an MCP server to your config (fawn mcp list, fawn mcp
                              remove NAME: list them, take one out)
  fawn acp [--trust] [DIR]    be an Agent Client Protocol agent on stdin/stdout, for an
                              editor (Zed, JetBrains, Neovim, Emacs); each session opens the
                              client's directory (DIR: always DIR)

Flags:
%s
Exit codes: 0 ok, 1 runtime failure, 2 usage or configuration error, 128+N ended by signal N
(130 Ctrl-C/SIGINT, 143 SIGTERM, 129 SIGHUP, 131 SIGQUIT).
Configuration: $FAWN_HOME/config.yaml or ~/.config/fawn/config.yaml, then DIR/.fawn/config.yaml,
then --config FILE, then FAWN_* environment variables, then flags. See config.example.yaml.
A project's files are untrusted until you trust its directory: fawn asks once, showing what they
would run and where they would send your code (--trust trusts them for one run).
`

func parse(args []string, stderr io.Writer) (*cli, *pflag.FlagSet, error) {
	c := &cli{}
	fs := pflag.NewFlagSet("fawn", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	fs.StringVarP(&c.prompt, "print", "p", "", "run PROMPT headless (no screen) and print the result")
	fs.StringVar(&c.outputFormat, "output-format", "text", "headless output: text | json | stream-json")
	fs.StringVar(&c.configFile, "config", "", "read this configuration file too (above the user's and the project's)")
	fs.StringVar(&c.model, "model", "", "model name (models.chat_model.model)")
	fs.StringVar(&c.baseURL, "base-url", "", "OpenAI-compatible server, e.g. http://localhost:11434/v1")
	fs.StringVar(&c.permissionMode, "permission-mode", "", "ask | accept-edits | plan | yolo")
	fs.StringVar(&c.agent, "agent", "", "host the ACP agent NAME of your config's agents (Claude Code, Gemini CLI, opencode…) instead of fawn's own")
	fs.BoolVar(&c.trust, "trust", false, "trust the project's files for this run: use the MCP servers and model settings of its .fawn/config.yaml without asking")
	fs.BoolVar(&c.check, "check", false, "with fawn config: validate and exit 0, or 2 listing every problem")
	c.sess.add(fs)
	c.script.add(fs)
	fs.StringVar(&c.worktree, "worktree", "", "with -p: run in task `NAME`'s git worktree, branch fawn/NAME (made at HEAD when new)")
	fs.BoolVar(&c.showVersion, "version", false, "print the version and exit")
	fs.BoolVarP(&c.help, "help", "h", false, "show this help")
	if err := fs.Parse(args); err != nil {
		return nil, fs, err
	}
	c.printSet = fs.Changed("print")
	rest := fs.Args()
	if len(rest) > 0 && slices.Contains([]string{"config", "sessions", "export", "acp"}, rest[0]) {
		c.sub, rest = rest[0], rest[1:]
	}
	rest, err := c.sess.check(fs, c.sub, rest)
	if err != nil {
		return nil, fs, err
	}
	if len(rest) > 1 {
		return nil, fs, fmt.Errorf("expected at most one directory, got %d arguments: %s", len(rest), strings.Join(rest, " "))
	}
	if len(rest) == 1 {
		c.dir = rest[0]
	}
	if c.check && c.sub != "config" {
		return nil, fs, errors.New("--check goes with `fawn config`")
	}
	if !slices.Contains(config.OutputFormats, c.outputFormat) {
		return nil, fs, fmt.Errorf("--output-format %q: expected one of %s", c.outputFormat, strings.Join(config.OutputFormats, ", "))
	}
	if c.sub == "acp" && c.printSet {
		return nil, fs, errors.New("-p/--print does not go with `fawn acp`: the client sends the prompts")
	}
	if c.sub == "acp" && c.agent != "" {
		return nil, fs, errors.New("--agent does not go with `fawn acp`: fawn serves its own agent there")
	}
	if c.printSet && strings.TrimSpace(c.prompt) == "" {
		return nil, fs, errors.New("-p/--print needs a prompt (-p - reads it from standard input)")
	}
	if err := c.script.check(fs, c.printSet, c.sub); err != nil {
		return nil, fs, err
	}
	if err := checkWorktreeFlag(c, fs); err != nil {
		return nil, fs, err
	}
	return c, fs, nil
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "mcp" {
		// Its own syntax: what follows -- is the server's command line.
		cwd, _ := os.Getwd()
		return mcpCommand(args[1:], cwd, stdout, stderr)
	}
	c, fs, err := parse(args, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "fawn: %v\nRun 'fawn --help' for usage.\n", err)
		return exitUsage
	}
	if c.help {
		// pflag shows --resume's "no value" marker as a default; say [ID].
		flags := strings.Replace(fs.FlagUsages(), "--resume ID[=\""+noID+"\"]", "--resume [ID]"+strings.Repeat(" ", len(noID)+3), 1)
		fmt.Fprintf(stdout, usage, flags)
		return exitOK
	}
	if c.showVersion {
		fmt.Fprintln(stdout, "fawn", version)
		return exitOK
	}
	dir, err := projectDir(c.dir)
	if err != nil {
		fmt.Fprintf(stderr, "fawn: %v\n", err)
		return exitUsage
	}
	if c.sub == "acp" {
		if c.dir != "" {
			c.dir = dir
		}
		// Each session reads its directory's configuration, from the
		// environment fawn started with.
		return acpCommand(ctx, c, os.Environ(), stdin, stderr)
	}
	if c.printSet {
		if err := c.readInput(stdin, stderr); err != nil {
			fmt.Fprintf(stderr, "fawn: %v\n", err)
			return exitUsage
		}
	}
	// The project's files are untrusted input: the configuration is read
	// first without the keys that need trust, and again with them once the
	// directory is trusted (remembered, --trust, or the user said yes).
	//
	// The environment is read once: the model keys leave fawn's own
	// environment as soon as the configuration has read them (dropKeys),
	// before any child starts, and a second load reads them from here.
	opts := config.Options{ProjectDir: dir, File: c.configFile, Flags: c.flags(), Env: os.Environ()}
	cfg, rep, err := config.Load(opts)
	red := dropKeys(opts.Env, cfg, stderr)
	ts := checkTrust(dir, opts, cfg, rep)
	decision := ts.decide(c.trust)
	if decision != nil && err == nil {
		cfg, rep, err = loadTrusted(opts, decision, cfg, rep)
		red = dropKeys(opts.Env, cfg, stderr)
	}
	if c.sub == "config" {
		if decision == nil {
			decision = trust.Deny(dir, ts.items, ts.verdict.State)
		}
		return configCommand(c, cfg, rep, err, ts, decision, stdout, stderr)
	}
	if c.sub == "sessions" || c.sub == "export" {
		return sessionsCommand(c, cfg, red, err, stdout, stderr)
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		fmt.Fprintln(stderr, "fawn: fix the configuration above (`fawn config --check` lists every problem)")
		return exitUsage
	}
	for _, w := range rep.Warnings {
		fmt.Fprintln(stderr, w)
	}
	for _, p := range ts.problems {
		fmt.Fprintln(stderr, "fawn:", p)
	}
	if c.printSet {
		if decision == nil {
			// Nobody can be asked: the project's keys stay ignored.
			decision = trust.Deny(dir, ts.items, ts.verdict.State)
		}
		if n := ignoredNotice(decision, true); n != "" {
			fmt.Fprintln(stderr, "fawn:", n)
		}
		return headless(ctx, c, cfg, decision, red, stdout, stderr)
	}
	var extra []string
	if decision == nil {
		// Ask, on a screen of its own before the IDE opens.
		ans, err := trustprompt.Run(ctx, nil, trustprompt.Options{
			Dir: dir, Items: ts.items, New: ts.verdict.New,
			Changed: ts.verdict.State == trust.Changed, Theme: theme.Get(cfg.UI.Theme),
			Keys: userKeys(cfg, trustprompt.DefaultKeys()),
		})
		switch {
		case err != nil && ctx.Err() != nil:
			if code := signalExit(ctx, err); code != 0 {
				return code
			}
			return exitInterrupted
		case err != nil:
			fmt.Fprintf(stderr, "fawn: %v\n", err)
			return exitFailure
		case ans == trustprompt.Quit:
			return exitOK
		case ans == trustprompt.Trust:
			if err := ts.store.Grant(dir, ts.items); err != nil {
				extra = append(extra, fmt.Sprintf("fawn trusts this directory for now but could not remember it (%v): it will ask again next time", err))
			}
			decision = trust.Allow(dir, ts.items, ts.verdict.State, "the user")
			if cfg, rep, err = loadTrusted(opts, decision, cfg, rep); err != nil {
				fmt.Fprintln(stderr, err)
				fmt.Fprintln(stderr, "fawn: fix the configuration above (`fawn config --check` lists every problem)")
				return exitUsage
			}
			red = dropKeys(opts.Env, cfg, stderr)
		default:
			decision = trust.Deny(dir, ts.items, ts.verdict.State)
		}
	}
	return interactive(ctx, c, cfg, rep, decision, red, extra, stderr)
}

// dropKeys takes the model keys cfg was read with out of fawn's own
// environment (os.Environ and /proc/PID/environ: see package secret), and
// returns the redactor of every secret fawn now knows: those values, and
// the keys, URL passwords and MCP environment values of cfg. environ is the
// environment fawn started with.
func dropKeys(environ []string, cfg *config.Config, stderr io.Writer) *secret.Redactor {
	names := config.KeyEnv(environ, cfg.Shell)
	values := secrets(cfg)
	lookup := config.Lookup(environ)
	for _, n := range names {
		v, _ := lookup(n)
		values = append(values, v)
	}
	if err := secret.Unsetenv(names...); err != nil {
		fmt.Fprintln(stderr, "fawn: warning:", err)
	}
	return secret.NewRedactor(values...)
}

// flags maps the flags that set configuration keys.
func (c *cli) flags() map[string]config.FlagValue {
	m := map[string]config.FlagValue{}
	if c.model != "" {
		m["models.chat_model.model"] = config.FlagValue{Value: c.model, Flag: "--model"}
	}
	if c.baseURL != "" {
		m["models.chat_model.base_url"] = config.FlagValue{Value: c.baseURL, Flag: "--base-url"}
	}
	if c.permissionMode != "" {
		m["permissions.mode"] = config.FlagValue{Value: c.permissionMode, Flag: "--permission-mode"}
	}
	c.script.flags(m)
	return m
}

// readInput reads what a script pipes to fawn -p: the prompt itself
// (-p -), or text to attach to the prompt (-p TEXT with a pipe or a file
// on standard input; a terminal or /dev/null there attaches nothing).
func (c *cli) readInput(stdin io.Reader, stderr io.Writer) error {
	if c.prompt == "-" {
		if !piped(stdin) {
			return errors.New("-p - reads the prompt from standard input, and that is a terminal: pipe the prompt in (echo \"…\" | fawn -p -)")
		}
		text, err := readStdin(stdin, "the prompt", stderr)
		if err != nil {
			return err
		}
		if strings.TrimSpace(text) == "" {
			return errors.New("-p - read an empty prompt from standard input")
		}
		c.prompt = text
		return nil
	}
	if !piped(stdin) {
		return nil
	}
	text, err := readStdin(stdin, "the input to attach", stderr)
	c.stdin = text
	return err
}

// projectDir resolves DIR (default ".") to an absolute directory.
func projectDir(dir string) (string, error) {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("%s: %v", dir, err)
	}
	st, err := os.Stat(abs)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "", fmt.Errorf("%s: no such directory", dir)
	case err != nil:
		return "", fmt.Errorf("%s: %v", dir, errors.Unwrap(err))
	case !st.IsDir():
		return "", fmt.Errorf("%s: not a directory (fawn opens a project directory)", dir)
	}
	return abs, nil
}

func configCommand(c *cli, cfg *config.Config, rep *config.Report, loadErr error, ts *trustState, d *trust.Decision, stdout, stderr io.Writer) int {
	if c.check {
		for _, w := range rep.Warnings {
			fmt.Fprintln(stderr, "warning:", strings.TrimPrefix(w.String(), "config: "))
		}
		if loadErr != nil {
			for _, p := range rep.Errors {
				fmt.Fprintln(stderr, "error:", strings.TrimPrefix(p.String(), "config: "))
			}
			if len(rep.Errors) == 1 {
				fmt.Fprintln(stderr, "1 problem in the configuration")
			} else {
				fmt.Fprintf(stderr, "%d problems in the configuration\n", len(rep.Errors))
			}
			return exitUsage
		}
		if kp := checkKeyBindings(cfg); len(kp) > 0 {
			for _, p := range kp {
				fmt.Fprintln(stderr, "error:", p)
			}
			if len(kp) == 1 {
				fmt.Fprintln(stderr, "1 problem in the key bindings")
			} else {
				fmt.Fprintf(stderr, "%d problems in the key bindings\n", len(kp))
			}
			return exitUsage
		}
		files := "no configuration file, defaults only"
		if len(rep.Files) > 0 {
			files = strings.Join(rep.Files, ", ")
		}
		fmt.Fprintf(stdout, "configuration ok (%s)\n", files)
		if cfg.Models.Chat.Demo {
			fmt.Fprintln(stdout, "note: no model provider is configured; fawn will run on its offline demo model")
		}
		return exitOK
	}
	fmt.Fprintf(stdout, "# fawn %s — effective configuration for %s\n", version, cfg.ProjectDir)
	if len(rep.Files) > 0 {
		fmt.Fprintf(stdout, "# files read (lowest first): %s\n", strings.Join(rep.Files, ", "))
	} else {
		fmt.Fprintf(stdout, "# no configuration file found (looked for %s and %s)\n",
			filepath.Join(cfg.ConfigDir, "config.yaml"), filepath.Join(cfg.ProjectDir, ".fawn", "config.yaml"))
	}
	printTrust(stdout, ts, d)
	fmt.Fprint(stdout, rep.Print())
	if cfg.Models.Chat.Demo && cfg.Models.Chat.DemoReason != "" {
		fmt.Fprintln(stdout)
		for _, line := range strings.Split(config.DemoHelp(cfg.ConfigDir), "\n") {
			fmt.Fprintln(stdout, "# "+line)
		}
	}
	for _, w := range rep.Warnings {
		fmt.Fprintln(stderr, "warning:", strings.TrimPrefix(w.String(), "config: "))
	}
	if loadErr != nil {
		for _, p := range rep.Errors {
			fmt.Fprintln(stderr, "error:", strings.TrimPrefix(p.String(), "config: "))
		}
		return exitUsage
	}
	return exitOK
}
