package chat

import (
	"fmt"
	"strings"
	"testing"
)

// benchStreamAnswer is an answer as the e2e streaming benchmark's
// (benchAnswer there): prose, lists and code blocks.
func benchStreamAnswer(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n*5; i++ {
		fmt.Fprintf(&b, "Step %d: the wrapper in **ui/chat.go** drops the last word of a line when the line ends exactly at the width, ", i)
		b.WriteString("because the break opportunity is recorded after the cluster is placed, so `flush` never sees it.\n\n")
		if i%3 == 0 {
			b.WriteString("- keep the break position\n- place the cluster\n- then decide where to break\n\n")
		}
		if i%4 == 0 {
			b.WriteString("```go\nfunc (w *wrapper) place(g string, width int) {\n\tif w.curW+width > w.width {\n\t\tw.flush(false)\n\t}\n\tw.cur = append(w.cur, g)\n}\n```\n\n")
		}
	}
	b.WriteString("That is all.")
	return b.String()
}

// BenchmarkMarkdownStreamFrame is the Markdown of one frame while that
// answer streams, 150 bytes a frame (as ui's BenchmarkStreamFrame), in a
// chat 58 columns wide (the IDE's on a 120-column terminal): the closed
// chunks kept, the open tail parsed and rendered again.
func BenchmarkMarkdownStreamFrame(b *testing.B) {
	rc := darkCtx()
	answer := benchStreamAnswer(6000)
	const perFrame = 150
	var c mdCache
	off := len(answer)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if off+perFrame > len(answer) {
			c = mdCache{}
			off = 0
		}
		off += perFrame
		rc.MD.renderChunked(answer[:off], 58, &c, true)
	}
}
