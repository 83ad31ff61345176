package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// runFixture runs the real go test on testdata/fixture and summarizes it.
func runFixture(t *testing.T, env ...string) (string, bool) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs another test binary")
	}
	cmd := exec.Command("go", "test", "-json", "-count=1", "./testdata/fixture")
	cmd.Env = append(os.Environ(), env...)
	raw, _ := cmd.Output() // a failing run exits 1; its JSON is what counts
	var out bytes.Buffer
	failed := summarize(bytes.NewReader(raw), &out)
	return out.String(), failed
}

// Skipped tests are named in one line with their reasons, so a CI log
// shows what did not run.
func TestSkippedTestsAreNamedWithTheirReasons(t *testing.T) {
	out, failed := runFixture(t)
	if failed {
		t.Errorf("a passing run counted as failed:\n%s", out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last := lines[len(lines)-1]
	for _, want := range []string{"skipped 2 tests:", "fixture.TestNeedsATool (frobnicator is not installed (apt-get install -y frobnicator))",
		"fixture.TestSubtests/slow (takes 10 minutes)"} {
		if !strings.Contains(last, want) {
			t.Errorf("the summary line lacks %q: %q", want, last)
		}
	}
	if !strings.HasPrefix(lines[0], "ok  \t") || strings.Contains(out, "=== RUN") || strings.Contains(out, "--- PASS") {
		t.Errorf("not go test's plain output:\n%s", out)
	}
}

func TestFailuresShowTheirOutputAndFail(t *testing.T) {
	out, failed := runFixture(t, "FIXTURE_FAIL=1")
	if !failed {
		t.Error("a failing run did not count as failed")
	}
	for _, want := range []string{"--- FAIL: TestFailsWhenAsked", "some context", "asked to fail", "FAIL\t"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestNothingSkippedSaysNothing(t *testing.T) {
	var out bytes.Buffer
	in := `{"Action":"pass","Package":"p","Test":"TestA"}
{"Action":"output","Package":"p","Output":"ok  \tp\t0.1s\n"}
not json: go said something
`
	if summarize(strings.NewReader(in), &out) {
		t.Error("failed")
	}
	if got := out.String(); got != "ok  \tp\t0.1s\nnot json: go said something\n" {
		t.Errorf("got %q", got)
	}
}
