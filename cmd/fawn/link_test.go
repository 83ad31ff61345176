package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLinkerDropsUnusedMethods links fawn and fails when a function that
// calls a method found by reflection (reflect.Value.Method, MethodByName;
// the linker marks these <ReflectMethod>) is reachable. When one is, the
// linker can no longer drop any exported method of any type that reaches an
// interface, and the binary grows by a fifth: text/template's executor did
// this until the system prompt stopped using it (25.7 MB → 20.8 MB).
func TestLinkerDropsUnusedMethods(t *testing.T) {
	if testing.Short() {
		t.Skip("links the binary")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	out := filepath.Join(t.TempDir(), "fawn")
	cmd := exec.Command(goBin, "build", "-trimpath", "-ldflags=-s -w -dumpdep", "-o", out, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var marked []string
	edges := 0
	sc := bufio.NewScanner(stderr)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.Contains(line, " -> ") {
			edges++
		}
		if strings.Contains(line, "<ReflectMethod>") && len(marked) < 10 {
			marked = append(marked, line)
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("go build: %v", err)
	}
	if edges < 1000 {
		t.Fatalf("the linker reported %d dependencies: -dumpdep no longer works as this test expects", edges)
	}
	if len(marked) > 0 {
		t.Errorf("a function calling a method by reflection is reachable, so every exported method is kept:\n%s\n"+
			"(see which of fawn's imports reaches it with: go build -ldflags=-dumpdep ./cmd/fawn 2>&1 | grep <function>)",
			strings.Join(marked, "\n"))
	}
}
