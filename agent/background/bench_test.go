package background

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/internal/llmtest"
)

// BenchmarkCompactionAfterTurns measures, after three turns, the time
// from the end of the last turn to the compaction being done: with the
// turn notes ready (written in the background, not timed), and, as the
// reference in the same run, without notes (the compaction asks for a
// summary). Both servers answer a request at the same scripted pace (a
// 600-character answer, 8 characters a chunk, 3 ms apart: about 0.2 s,
// far quicker than a real model writes a summary).
func BenchmarkCompactionAfterTurns(b *testing.B) {
	answer := llmtest.Response{Text: strings.Repeat("A line of the answer. ", 27), Delay: llmtest.Duration(3 * time.Millisecond)}
	script := llmtest.Script{Loop: true, Responses: []llmtest.Response{answer}}
	run := func(b *testing.B, o Options) time.Duration {
		r := newRig(b, script, script, o)
		ctx := context.Background()
		for i := range 3 {
			collect(b, r.s.Run(ctx, "step "+string(rune('1'+i))))
			if !o.NoNotes {
				waitNotes(b, r.w)
			}
		}
		start := time.Now()
		for _, ev := range collect(b, r.s.Compact(ctx, "")) {
			if ev.Type == agent.EventCompacted && (ev.Err != nil || ev.Compact.FromNotes == o.NoNotes) {
				b.Fatalf("compaction %+v %v", ev.Compact, ev.Err)
			}
		}
		return time.Since(start)
	}
	var notes, summary time.Duration
	for b.Loop() {
		notes += run(b, Options{})
		summary += run(b, Options{NoNotes: true})
	}
	b.ReportMetric(float64(notes.Microseconds())/float64(b.N)/1000, "notes-ms")
	b.ReportMetric(float64(summary.Microseconds())/float64(b.N)/1000, "summary-ms")
}
