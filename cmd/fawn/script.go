package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/pflag"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/rules"
)

// scriptFlags are the flags that make fawn -p fit a script: a turn limit,
// and permission rules for this run.
type scriptFlags struct {
	maxTurns   int
	goal       string
	allowed    []string
	disallowed []string
}

func (f *scriptFlags) add(fs *pflag.FlagSet) {
	fs.IntVar(&f.maxTurns, "max-turns", 0, "with -p: stop after `N` turns (model round-trips) and exit 1 if the agent has not finished")
	fs.StringVar(&f.goal, "goal", "", "with -p: a stop condition a judge checks after each turn; a turn that has not met it is followed by one with what is missing (up to goal.max_turns; exit 1 if impossible or not met)")
	fs.StringArrayVar(&f.allowed, "allowed-tools", nil, "permission `RULES` allowed for this run, e.g. \"bash(go test:*) text_editor\" (repeatable)")
	fs.StringArrayVar(&f.disallowed, "disallowed-tools", nil, "permission `RULES` denied for this run, e.g. \"bash(git push:*)\" (repeatable)")
}

// check validates the flags against the rest of the command line.
func (f *scriptFlags) check(fs *pflag.FlagSet, printSet bool, sub string) error {
	if fs.Changed("max-turns") {
		if !printSet {
			return errors.New("--max-turns goes with -p (the IDE's turns end when you say)")
		}
		if f.maxTurns < 1 {
			return fmt.Errorf("--max-turns %d: give a number of turns from 1 up", f.maxTurns)
		}
	}
	if fs.Changed("goal") {
		if !printSet {
			return errors.New("--goal goes with -p (in the IDE, /goal TEXT sets one)")
		}
		if strings.TrimSpace(f.goal) == "" {
			return errors.New("--goal is empty: say what the run must reach")
		}
	}
	if sub != "" && (len(f.allowed) > 0 || len(f.disallowed) > 0) {
		return fmt.Errorf("--allowed-tools and --disallowed-tools do not go with `fawn %s`", sub)
	}
	for _, l := range []struct {
		flag   string
		vals   []string
		effect rules.Effect
	}{{"--allowed-tools", f.allowed, rules.Allow}, {"--disallowed-tools", f.disallowed, rules.Deny}} {
		for _, v := range l.vals {
			for _, r := range splitRules(v) {
				if _, err := rules.Parse(r, l.effect, l.flag); err != nil {
					return fmt.Errorf("%s %q: %v", l.flag, r, err)
				}
			}
		}
	}
	return nil
}

// flags adds the configuration keys these flags set.
func (f *scriptFlags) flags(m map[string]config.FlagValue) {
	if f.maxTurns > 0 {
		// A turn is one model round-trip: the step agent.max_steps counts.
		m["agent.max_steps"] = config.FlagValue{Value: strconv.Itoa(f.maxTurns), Flag: "--max-turns"}
	}
}

// ruleAdder is what takes the flags' rules: the session.
type ruleAdder interface {
	AddRule(effect rules.Effect, raw, source string) error
}

// addRules puts the flags' rules in force for the session, as rules given
// for this session only (the permission dialog's "this session").
func (f *scriptFlags) addRules(s ruleAdder) error {
	for _, l := range []struct {
		flag   string
		vals   []string
		effect rules.Effect
	}{{"--allowed-tools", f.allowed, rules.Allow}, {"--disallowed-tools", f.disallowed, rules.Deny}} {
		for _, v := range l.vals {
			for _, r := range splitRules(v) {
				if err := s.AddRule(l.effect, r, "flag "+l.flag); err != nil {
					return fmt.Errorf("%s %q: %v", l.flag, r, err)
				}
			}
		}
	}
	return nil
}

// splitRules splits a flag's value into rules at commas and white space
// outside parentheses: "bash(git log:*), text_editor" is two rules, and
// "bash(npm run test)" one.
func splitRules(s string) []string {
	var out []string
	depth, start := 0, 0
	flush := func(end int) {
		if r := strings.TrimSpace(s[start:end]); r != "" {
			out = append(out, r)
		}
	}
	for i, c := range s {
		switch {
		case c == '(':
			depth++
		case c == ')' && depth > 0:
			depth--
		case depth == 0 && (c == ',' || c == ' ' || c == '\t' || c == '\n'):
			flush(i)
			start = i + 1
		}
	}
	flush(len(s))
	return out
}

// maxStdin is the most fawn -p reads from standard input: a prompt or an
// attachment bigger than this would fill most models' context window by
// itself; a script with more puts it in a file and names the file.
const maxStdin = 1 << 20

// stdinWaitNotice is how long fawn reads a silent standard input before it
// says on stderr what it is waiting for (a parent that leaves stdin open
// and writes nothing would otherwise hang a script without a word).
const stdinWaitNotice = 5 * time.Second

// piped says whether r is input for fawn to read: a pipe or a file, not a
// terminal (nor /dev/null, or any character device: nobody pipes there).
func piped(r io.Reader) bool {
	if r == nil {
		return false
	}
	f, ok := r.(*os.File)
	if !ok {
		return true
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice == 0
}

// readStdin reads standard input for fawn -p: all of it, up to maxStdin,
// text only. what names it in errors ("the prompt", "the piped input").
func readStdin(r io.Reader, what string, stderr io.Writer) (string, error) {
	done, noticed := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(noticed)
		select {
		case <-time.After(stdinWaitNotice):
			fmt.Fprintf(stderr, "fawn: waiting for %s on standard input; end it, or run fawn </dev/null to send none\n", what)
		case <-done:
		}
	}()
	b, err := io.ReadAll(io.LimitReader(r, maxStdin+1))
	close(done)
	<-noticed // nothing writes to stderr behind the caller's back
	if err != nil {
		return "", fmt.Errorf("reading %s from standard input: %v", what, err)
	}
	if len(b) > maxStdin {
		return "", fmt.Errorf("%s on standard input is over %d MiB, more than fawn reads from there: write it to a file in the project and name the file in the prompt (the agent reads files in parts)", what, maxStdin>>20)
	}
	if bytes.IndexByte(b, 0) >= 0 || !utf8.Valid(b) {
		return "", fmt.Errorf("%s on standard input is not text (it has NUL bytes or is not UTF-8): fawn takes text there; put a binary file in the project and name it in the prompt", what)
	}
	return string(b), nil
}

// withStdin is the prompt with the text piped to fawn attached, as the
// IDE attaches an @-mentioned file.
func withStdin(prompt, text string) string {
	if strings.TrimSpace(text) == "" {
		return prompt
	}
	return prompt + "\n\n(The user piped this to fawn on standard input.)\n<attached kind=\"stdin\">\n" + strings.TrimRight(text, "\n") + "\n</attached>"
}
