package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/internal/safetext"
	"github.com/fawn-ide/fawn/secret"
	"github.com/fawn-ide/fawn/session"
	"github.com/fawn-ide/fawn/worktree"
)

// sessionFlags are the flags about sessions: --continue, --resume [ID], and
// the options of `fawn sessions` and `fawn export`.
type sessionFlags struct {
	cont      bool
	resume    string
	resumeSet bool
	id        string // the ID --resume or export names ("" for none)
	json      bool
	output    string
}

// noID is --resume given without a value (session IDs are hex digits).
const noID = "choose"

func (f *sessionFlags) add(fs *pflag.FlagSet) {
	fs.BoolVarP(&f.cont, "continue", "c", false, "reopen the newest session of DIR (with -p too), and in the IDE the tasks that were open")
	fs.StringVar(&f.resume, "resume", "", "reopen session `ID` (a unique prefix is enough); without one, choose from a list")
	fs.Lookup("resume").NoOptDefVal = noID
	fs.BoolVar(&f.json, "json", false, "with fawn sessions: print a JSON array")
	fs.StringVarP(&f.output, "output", "o", "", "with fawn export: write the Markdown to `FILE` instead of stdout")
}

// check validates the session flags and takes an ID from the arguments
// where one may stand before DIR (--resume ID DIR, export ID DIR).
func (f *sessionFlags) check(fs *pflag.FlagSet, sub string, rest []string) ([]string, error) {
	f.resumeSet = fs.Changed("resume")
	switch {
	case f.cont && f.resumeSet:
		return nil, errors.New("--continue and --resume: give one of them")
	case (f.cont || f.resumeSet) && sub != "":
		return nil, fmt.Errorf("--continue and --resume do not go with `fawn %s`", sub)
	case f.json && sub != "sessions":
		return nil, errors.New("--json goes with `fawn sessions`")
	case f.output != "" && sub != "export":
		return nil, errors.New("-o/--output goes with `fawn export`")
	}
	if f.resumeSet {
		if f.resume != noID {
			f.id = strings.TrimSpace(f.resume)
			if f.id == "" {
				return nil, errors.New("--resume= needs an ID (or give --resume alone to choose)")
			}
			return rest, nil
		}
		f.id, rest = takeID(rest)
	}
	if sub == "export" {
		f.id, rest = takeID(rest)
	}
	return rest, nil
}

// takeID reads [ID] [DIR]: with two arguments the first is the ID; with one
// it is the directory when such a directory exists, else the ID.
func takeID(rest []string) (string, []string) {
	switch len(rest) {
	case 0:
		return "", rest
	case 1:
		if st, err := os.Stat(rest[0]); err == nil && st.IsDir() {
			return "", rest
		}
		return rest[0], nil
	}
	return rest[0], rest[1:]
}

// newStore is the project's session store, or nil when there is no data
// directory. Every secret red knows is one it never writes.
func newStore(cfg *config.Config, red *secret.Redactor) *session.Store {
	if cfg.DataDir == "" {
		return nil
	}
	st, err := session.New(cfg.DataDir, cfg.ProjectDir, session.Options{Secrets: red.Values(), Fawn: version})
	if err != nil {
		return nil
	}
	return st
}

// secrets are the values of the configuration that must never be shown or
// written to a session: API keys, the passwords of the model servers' URLs,
// and what MCP servers get in their environment.
func secrets(cfg *config.Config) []string {
	out := []string{cfg.Models.Chat.APIKey, urlPassword(cfg.Models.Chat.BaseURL), cfg.Web.Search.APIKey, urlPassword(cfg.Web.Search.URL)}
	for _, m := range cfg.Models.Named {
		out = append(out, m.APIKey, urlPassword(m.BaseURL))
	}
	for _, srv := range cfg.Tools.MCPServers {
		for _, v := range srv.Env {
			out = append(out, v)
		}
	}
	for _, a := range cfg.Agents {
		// An agent's entry also sets HOME, directories and switches, which
		// redacted would garble its messages: only its keys are secrets.
		for k, v := range a.Env {
			if secret.LooksSecret(k) {
				out = append(out, v)
			}
		}
	}
	return out
}

// urlPassword is the password in a URL's user information, or "".
func urlPassword(s string) string {
	if u, err := url.Parse(s); err == nil && u.User != nil {
		p, _ := u.User.Password()
		return p
	}
	return ""
}

// resumeFlags carries the session --continue or --resume ID names on from
// where it stopped, and returns what the user should be told. pick is true
// when --resume came without an ID: the IDE opens its picker (headless mode
// cannot).
func resumeFlags(c *cli, sess *agent.Session, headless bool) (res *agent.Resumed, notes []string, pick bool, err error) {
	f := c.sess
	if !f.cont && !f.resumeSet {
		return nil, nil, false, nil
	}
	st := sess.Store()
	if st == nil {
		return nil, nil, false, errors.New("sessions are not kept: there is no data directory ($FAWN_HOME or $XDG_DATA_HOME)")
	}
	id := f.id
	if f.cont {
		id, err = st.Newest()
		if errors.Is(err, session.ErrNotFound) {
			return nil, []string{fmt.Sprintf("no session of %s to continue; a new one starts", st.Project())}, false, nil
		}
		if err != nil {
			return nil, nil, false, err
		}
	}
	if id == "" {
		if headless {
			return nil, nil, false, errors.New("--resume needs an ID with -p (`fawn sessions` lists them; --continue takes the newest)")
		}
		return nil, nil, true, nil
	}
	res, err = sess.Resume(id)
	if err != nil {
		return nil, nil, false, err
	}
	return res, res.Notes, false, nil
}

// sessionsCommand runs `fawn sessions` and `fawn export`.
func sessionsCommand(c *cli, cfg *config.Config, red *secret.Redactor, loadErr error, stdout, stderr io.Writer) int {
	if cfg == nil {
		fmt.Fprintln(stderr, loadErr)
		return exitUsage
	}
	st := newStore(cfg, red)
	if st == nil {
		fmt.Fprintln(stderr, "fawn: sessions are not kept: there is no data directory ($FAWN_HOME or $XDG_DATA_HOME)")
		return exitFailure
	}
	if c.sub == "sessions" {
		code := listSessions(st, c.sess.json, stdout, stderr)
		if code == exitOK && !c.sess.json {
			listTasks(cfg, red, stdout)
		}
		return code
	}
	return exportSession(st, c.sess.id, c.sess.output, stdout, stderr)
}

func listSessions(st *session.Store, asJSON bool, stdout, stderr io.Writer) int {
	all, err := st.List()
	if err != nil {
		fmt.Fprintln(stderr, "fawn:", err)
		return exitFailure
	}
	if asJSON {
		if all == nil {
			all = []session.Info{}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(all); err != nil {
			return exitFailure
		}
		return exitOK
	}
	if len(all) == 0 {
		fmt.Fprintf(stderr, "fawn: %s has no sessions yet\n", st.Project())
		return exitOK // its tasks, if any, are listed still
	}
	now := time.Now()
	fmt.Fprintf(stdout, "%-16s  %-8s  %5s  %-22s  %s\n", "ID", "UPDATED", "MSGS", "MODEL", "TITLE")
	for _, in := range all {
		fmt.Fprintf(stdout, "%-16s  %-8s  %5d  %-22s  %s\n", in.ID, age(in.Updated, now), in.Messages, clip(printable(in.Model), 22), clip(printable(in.Title), 60))
	}
	return exitOK
}

// listTasks prints the project's tasks (git worktrees fawn made), each
// with its branch, whether a fawn has it open, and the newest session in
// its worktree (fawn --continue reopens the tasks that were open, each
// carrying on that session). A project with no tasks prints nothing.
func listTasks(cfg *config.Config, red *secret.Redactor, stdout io.Writer) {
	dir := cfg.WorktreesDir()
	if dir == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	m, err := worktree.Open(ctx, cfg.ProjectDir, dir)
	if err != nil {
		return
	}
	trees, err := m.List(ctx)
	if err != nil || len(trees) == 0 {
		return
	}
	opened, _ := m.Opened(ctx)
	open := map[string]string{}
	for _, o := range opened {
		switch {
		case o.Live:
			open[o.Name] = "open"
		case o.Closed:
			open[o.Name] = "closed"
		default:
			open[o.Name] = "left open"
		}
	}
	fmt.Fprintf(stdout, "\n%-20s  %-26s  %-10s  %-16s  %s\n", "TASK", "BRANCH", "STATE", "SESSION", "WORKTREE")
	for _, t := range trees {
		state := open[t.Name]
		if t.State != worktree.OK {
			state = t.State.String()
		} else if state == "" {
			state = "not open"
		}
		id := "-"
		c := *cfg
		c.ProjectDir = t.Project
		if st := newStore(&c, red); st != nil {
			if newest, err := st.Newest(); err == nil {
				id = newest
			}
		}
		fmt.Fprintf(stdout, "%-20s  %-26s  %-10s  %-16s  %s\n", t.Name, clip(printable(t.Branch), 26), state, id, printable(t.Dir))
	}
}

func exportSession(st *session.Store, id, output string, stdout, stderr io.Writer) int {
	var err error
	if id == "" {
		id, err = st.Newest()
	} else {
		id, err = st.Find(id)
	}
	if err != nil {
		fmt.Fprintln(stderr, "fawn:", err)
		return exitFailure
	}
	l, err := st.Load(id)
	if err != nil {
		fmt.Fprintln(stderr, "fawn:", err)
		return exitFailure
	}
	for _, w := range l.Warnings {
		fmt.Fprintln(stderr, "fawn:", w)
	}
	if output == "" || output == "-" {
		if err := session.WriteMarkdown(stdout, l); err != nil {
			return exitFailure
		}
		return exitOK
	}
	f, err := os.Create(output)
	if err != nil {
		fmt.Fprintln(stderr, "fawn:", err)
		return exitFailure
	}
	err = session.WriteMarkdown(f, l)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintln(stderr, "fawn:", err)
		return exitFailure
	}
	fmt.Fprintf(stderr, "fawn: wrote session %s to %s\n", id, output)
	return exitOK
}

// age says how long ago t was, briefly: "now", "5m ago", "3h ago", "2d ago",
// then the date.
func age(t, now time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	case d < 14*24*time.Hour:
		return fmt.Sprintf("%dd ago", int(d.Hours()/24))
	}
	return t.Local().Format("2006-01-02")
}

// printable shows control characters as safetext does (␛), so a title
// cannot drive the terminal.
func printable(s string) string { return safetext.Line(s) }

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
