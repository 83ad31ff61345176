// Command testsum reads `go test -json` on stdin and prints what plain
// `go test` prints — one line per package, the output of failed tests, build
// errors — then one line naming every test that skipped and why, so a CI log
// shows what did not run (no tmux, no ripgrep, short mode). It exits 1 when
// a test or a build failed. `make test` pipes the test run through it:
//
//	go test -json ./... | go run ./internal/testsum
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

func main() {
	if failed := summarize(os.Stdin, os.Stdout); failed {
		os.Exit(1)
	}
}

// event is one line of `go test -json` (cmd/test2json), build events included.
type event struct {
	Action     string
	Package    string
	ImportPath string
	Test       string
	Output     string
}

// skip is one skipped test and the reason it gave.
type skip struct{ pkg, test, reason string }

// summarize copies the run from r to w in go test's plain form, then the
// line about skipped tests; it reports whether anything failed.
func summarize(r io.Reader, w io.Writer) (failed bool) {
	out := map[string][]string{} // test output so far, by package and test
	var skips []skip
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var ev event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &ev) != nil {
			fmt.Fprintf(w, "%s\n", line) // not an event: go's own message
			continue
		}
		key := ev.Package + " " + ev.Test
		switch ev.Action {
		case "build-output":
			fmt.Fprint(w, ev.Output)
		case "build-fail":
			failed = true
		case "output":
			if ev.Test == "" {
				if strings.TrimSpace(ev.Output) != "PASS" {
					fmt.Fprint(w, ev.Output) // ok/FAIL lines, TestMain's messages, panics
				}
				continue
			}
			out[key] = append(out[key], ev.Output)
		case "fail":
			failed = true
			if ev.Test != "" {
				for _, l := range out[key] {
					if !strings.HasPrefix(l, "=== ") {
						fmt.Fprint(w, l)
					}
				}
			}
			delete(out, key)
		case "skip":
			if ev.Test != "" {
				skips = append(skips, skip{pkg: ev.Package, test: ev.Test, reason: skipReason(out[key])})
			}
			delete(out, key)
		case "pass":
			delete(out, key)
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintf(w, "testsum: reading the test output: %v\n", err)
		failed = true
	}
	if line := skipLine(skips); line != "" {
		fmt.Fprintln(w, line)
	}
	return failed
}

// skipReason is the message a test gave t.Skip: its last output line that
// is not go test's own.
func skipReason(lines []string) string {
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l == "" || strings.HasPrefix(l, "=== ") || strings.HasPrefix(l, "--- ") {
			continue
		}
		// "file_test.go:12: reason" → "reason"
		if i := strings.Index(l, ".go:"); i >= 0 {
			if j := strings.Index(l[i+4:], ": "); j >= 0 {
				l = l[i+4+j+2:]
			}
		}
		return l
	}
	return "no reason given"
}

// skipLine is one line naming the skipped tests, grouped by reason:
// "skipped 3 tests: e2e.TestA, e2e.TestB (tmux is not installed); tools.TestC (short mode)".
func skipLine(skips []skip) string {
	if len(skips) == 0 {
		return ""
	}
	byReason := map[string][]string{}
	for _, s := range skips {
		name := s.pkg[strings.LastIndexByte(s.pkg, '/')+1:] + "." + s.test
		byReason[s.reason] = append(byReason[s.reason], name)
	}
	reasons := make([]string, 0, len(byReason))
	for r := range byReason {
		reasons = append(reasons, r)
	}
	sort.Strings(reasons)
	parts := make([]string, 0, len(reasons))
	for _, r := range reasons {
		names := byReason[r]
		sort.Strings(names)
		parts = append(parts, strings.Join(names, ", ")+" ("+r+")")
	}
	what := "tests"
	if len(skips) == 1 {
		what = "test"
	}
	return fmt.Sprintf("skipped %d %s: %s", len(skips), what, strings.Join(parts, "; "))
}
