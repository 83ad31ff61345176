package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/session"
)

// writeLongSession writes a session of n messages for project under
// home's data directory, as fawn writes them, the last one saying last.
func writeLongSession(b testing.TB, home, project string, n int, last string) {
	b.Helper()
	st, err := session.New(filepath.Join(home, "data"), project, session.Options{})
	if err != nil {
		b.Fatal(err)
	}
	w, err := st.Create(session.Record{})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	recs := []session.Record{{Type: session.TypeModel, Model: "demo/fawn-demo"}}
	for i := 0; i < n; i++ {
		var m session.Message
		switch i % 4 {
		case 0:
			m = session.Message{Role: "user", Content: fmt.Sprintf("step %d: make the parser handle case %d and run the tests", i, i)}
		case 1:
			m = session.Message{Role: "assistant", Content: "Looking at the parser first.", ToolCalls: []session.ToolCall{{ID: fmt.Sprintf("call_%d", i), Type: "function", Name: "bash", Arguments: `{"command":"go test ./parser/..."}`}}}
		case 2:
			m = session.Message{Role: "tool", ToolCallID: fmt.Sprintf("call_%d", i-1), ToolName: "bash", Content: strings.Repeat("--- FAIL: TestParse (0.00s)\n    parse_test.go:42: got 1, want 2\n", 30)}
		case 3:
			m = session.Message{Role: "assistant", Content: fmt.Sprintf("Fixed case %d in **parser/parse.go**; the tests pass.", i)}
		}
		if i == n-1 {
			m = session.Message{Role: "assistant", Content: last}
		}
		recs = append(recs, session.Record{Type: session.TypeMessage, N: session.Of(i), Message: &m})
		if i%4 == 3 {
			recs = append(recs, session.Record{Type: session.TypeTurn, Usage: &session.Usage{Input: 1000 + i, Output: 50}})
		}
	}
	if err := w.Append(recs...); err != nil {
		b.Fatal(err)
	}
}

// frameAndRSS starts argv in a 120×40 pty, waits for marker, and returns
// the time it took and the process's resident memory then (KiB).
func frameAndRSS(b *testing.B, env []string, marker string, argv ...string) (time.Duration, int) {
	b.Helper()
	rss := 0
	took := screenTimes(b, env, [][]string{{marker}}, func(pid int) { rss = int(vmRSS(pid)) }, argv...)
	return took[0], rss
}

// BenchmarkResumeLongSession: `fawn --continue` on a session of 10,000
// messages (~7 MB), from exec to the first frame showing its last message,
// beside a fresh start in the same run; and the memory then. (gemini-cli's
// own baseline for resuming a long chat is 4,212 ms; the goal is ≤ 150 ms.)
func BenchmarkResumeLongSession(b *testing.B) {
	bin := plainFawn(b)
	home, project, fresh := b.TempDir(), b.TempDir(), b.TempDir()
	const last = "LAST-OF-TEN-THOUSAND"
	writeLongSession(b, home, project, 10000, last)
	env := []string{"HOME=" + home, "FAWN_HOME=" + home, "TERM=xterm-256color", "PATH=" + os.Getenv("PATH")}

	var resume, start time.Duration
	var rssResume, rssFresh int
	for i := 0; i < b.N; i++ {
		d, rss := frameAndRSS(b, env, last, bin, "--continue", project)
		resume += d
		rssResume = max(rssResume, rss)
		d, rss = frameAndRSS(b, env, "Ask fawn", bin, fresh)
		start += d
		rssFresh = max(rssFresh, rss)
	}
	b.ReportMetric(float64(resume.Microseconds())/1000/float64(b.N), "resume-ms")
	b.ReportMetric(float64(start.Microseconds())/1000/float64(b.N), "fresh-ms")
	b.ReportMetric(float64(resume)/float64(start), "resume/fresh")
	b.ReportMetric(float64(rssResume)/1024, "resume-RSS-MB")
	b.ReportMetric(float64(rssFresh)/1024, "fresh-RSS-MB")
}
