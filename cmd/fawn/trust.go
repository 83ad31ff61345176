package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/internal/gitcmd"
	"github.com/fawn-ide/fawn/internal/safetext"
	"github.com/fawn-ide/fawn/trust"
)

// trustSources lists every kind of project file that can make fawn start a
// program, widen permissions or choose where data goes. A feature that
// reads such files adds its trust.Source here, and its items show in the
// one prompt with all the others (see the trust package's doc).
// cfg is the configuration as it would be once trusted.
func trustSources(cfg *config.Config, rep *config.Report) []trust.Source {
	return []trust.Source{
		trust.Fixed(rep.Trust...), // .fawn/config.yaml
		lspSource(cfg),            // the language servers its files would start
		gitSource(),               // the programs its own .git/config and hooks name
	}
}

// gitSource is the trust source of the repository's own git configuration:
// the programs it names (core.fsmonitor, filters, "!" aliases, hooks) run
// as soon as the user's git is asked anything there, the agent's git
// included. A plain clone has none, so only a directory made otherwise (a
// tarball, a shared directory, a committed bare repository) is asked
// about; while it is not trusted the agent's git lines ask and the
// shell's git runs without them.
func gitSource() trust.Source {
	return trust.SourceFunc(func(dir string) ([]trust.Item, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return gitcmd.Programs(ctx, dir)
	})
}

// trustState is what fawn knows of the project's trust before asking.
type trustState struct {
	dir     string
	store   *trust.Store
	items   []trust.Item
	verdict trust.Verdict
	// problems are sources or a store that could not be read; their
	// items count as untrusted.
	problems []error
}

// checkTrust gathers the project's items and asks the store about them.
// The language servers are those of the configuration as it would be once
// trusted (opts with the project's keys, only read): a server the project
// defines, or whose command it changes, is then the item the user is shown
// and trusts, and the one the trusted run starts. Gathered from cfg alone
// they were the defaults, and a trusted project's own server was never
// allowed.
func checkTrust(dir string, opts config.Options, cfg *config.Config, rep *config.Report) *trustState {
	ts := &trustState{dir: dir, store: trust.Open(cfg.DataDir)}
	lspCfg := cfg
	if len(rep.Trust) > 0 {
		opts.Trusted = true
		if trusted, _, err := config.Load(opts); err == nil {
			lspCfg = trusted
		}
	}
	ts.items, ts.problems = trust.Gather(dir, trustSources(lspCfg, rep)...)
	v, err := ts.store.Check(dir, ts.items)
	if err != nil {
		ts.problems = append(ts.problems, err)
	}
	ts.verdict = v
	return ts
}

// decide settles trust without asking anyone: allowed when the store
// trusts every item or --trust was given; nil when only a person can say.
func (ts *trustState) decide(flag bool) *trust.Decision {
	switch {
	case ts.verdict.State == trust.NothingToTrust:
		return trust.Allow(ts.dir, nil, ts.verdict.State, "")
	case ts.verdict.State == trust.Trusted:
		return trust.Allow(ts.dir, ts.items, ts.verdict.State, "remembered")
	case flag:
		return trust.Allow(ts.dir, ts.items, ts.verdict.State, "--trust")
	}
	return nil
}

// loadTrusted reloads the configuration with the project's keys applied,
// once the directory is trusted. The file is read a second time, so what
// it asks for now must be exactly what was allowed: a file changed in
// between (by a checkout, by a program in the background) would otherwise
// apply what nobody saw. Then the first reading stands, with a warning.
func loadTrusted(opts config.Options, d *trust.Decision, cfg *config.Config, rep *config.Report) (*config.Config, *config.Report, error) {
	if len(rep.Trust) == 0 || !d.Trusted() {
		return cfg, rep, nil
	}
	opts.Trusted = true
	tcfg, trep, err := config.Load(opts)
	for _, it := range trep.Trust {
		if !d.Allows(it) {
			rep.Warnings = append(rep.Warnings, config.Problem{File: config.ProjectFile(opts.ProjectDir), Msg: fmt.Sprintf(
				"changed after it was trusted (it now would make fawn %s), so what in it needs trust is ignored this time; restart fawn to be asked",
				it)})
			return cfg, rep, nil
		}
	}
	return tcfg, trep, err
}

// ignoredNotice says which of the project's items fawn ignores, and how to
// use them: one line for stderr, or the chat.
func ignoredNotice(d *trust.Decision, headless bool) string {
	ign := d.Ignored()
	if len(ign) == 0 {
		return ""
	}
	if !headless {
		// The prompt showed every detail already.
		return fmt.Sprintf("Not trusted: fawn ignores %s of %s. Restart fawn and answer the trust prompt to use them (or pass --trust).",
			trust.Summary(ign), strings.Join(trust.Files(ign), ", "))
	}
	var what []string
	for _, it := range ign {
		s := it.Name
		switch it.Kind {
		case trust.KindMCPServer:
			s = "MCP server " + it.Name
		case trust.KindGitConfig:
			s = "git config " + it.Name
		case trust.KindGitHook:
			s = "git hook " + it.Name
		}
		what = append(what, fmt.Sprintf("%s (%s)", safetext.Exact(s), clipDetail(it.Detail)))
	}
	return fmt.Sprintf("this directory is not trusted, so fawn ignores what %s would make it do: %s; pass --trust to use them, or trust the directory in the IDE",
		safetext.Exact(strings.Join(trust.Files(ign), ", ")), strings.Join(what, ", "))
}

// clipDetail shortens a detail for one line of stderr, its control
// characters made visible as the prompt shows them: a project's command
// may hold escape sequences meant for the user's terminal.
func clipDetail(s string) string {
	s = safetext.Exact(strings.Join(strings.Fields(s), " "))
	if r := []rune(s); len(r) > 80 {
		return string(r[:79]) + "…"
	}
	return s
}

// printTrust writes the project's items and their state for `fawn config`.
func printTrust(w io.Writer, ts *trustState, d *trust.Decision) {
	if len(ts.items) == 0 {
		return
	}
	state := "not trusted: ignored"
	switch {
	case d.Trusted() && d.By == "--trust":
		state = "trusted for this run (--trust)"
	case d.Trusted():
		state = "trusted (remembered in " + ts.store.Path() + ")"
	case ts.verdict.State == trust.Changed:
		state = "changed since you trusted this directory: ignored until you trust it again"
	}
	fmt.Fprintf(w, "# project files ask for (%s):\n", state)
	for _, it := range ts.items {
		fmt.Fprintf(w, "#   %s %s: %s  (%s)\n", trust.Label(it.Kind), safetext.Exact(it.Name), safetext.Exact(it.Detail), safetext.Exact(it.Source))
	}
}
