package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// initBudget is the most a package of fawn's may allocate while the
// program starts (its package variables and init functions): whatever is
// allocated then is resident at the first frame, as the collector does not
// run before it. A table or pattern that costs more is built on first use
// (sync.OnceValue).
const initBudget = 16 << 10

// TestInitIsSmall starts this test binary, which links the packages fawn
// does, with GODEBUG=inittrace=1 and reads what each package's
// initialisation allocated: none of fawn's over initBudget.
func TestInitIsSmall(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %v\n%s", cmd.Args, err, out)
	}
	line := regexp.MustCompile(`(?m)^init (\S+) @\S+ ms, \S+ ms clock, (\d+) bytes, (\d+) allocs$`)
	found := line.FindAllStringSubmatch(string(out), -1)
	if len(found) < 50 {
		t.Fatalf("%d packages in the init trace: GODEBUG=inittrace=1 no longer prints what this test reads\n%s", len(found), out)
	}
	for _, m := range found {
		pkg := m[1]
		bytes, _ := strconv.Atoi(m[2])
		if strings.HasPrefix(pkg, "github.com/fawn-ide/fawn/") && bytes > initBudget {
			t.Errorf("%s allocates %d bytes (%s allocations) while fawn starts, over %d: build what it builds on first use", pkg, bytes, m[3], initBudget)
		}
	}
}
