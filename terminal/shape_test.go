package terminal

import (
	"strings"
	"testing"
)

func TestShapeCleansLikeRun(t *testing.T) {
	r := Shape([]byte("\x1b[31mred\x1b[0m\r\nstep 1\rstep 2\n"))
	if r.Output != "red\nstep 2\n" || r.TotalLines != 2 || r.Binary {
		t.Errorf("Shape: %+v", r)
	}
	long := strings.Repeat("line\n", 200000)
	if r := Shape([]byte(long)); r.OmittedLines == 0 || !strings.Contains(r.Output, "omitted") {
		t.Errorf("long output is not cut: %d lines omitted", r.OmittedLines)
	}
}
