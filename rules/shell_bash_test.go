package rules

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// FuzzPlainLinesRunWhatTheParserSays checks the parser against bash itself:
// for every line the parser calls plain, bash (with no command on PATH,
// so each command reaches command_not_found_handle, which records its
// words) must run exactly the commands, with exactly the words, that
// allow rules were compared with. `go test` runs the seeds; `go test
// -fuzz FuzzPlainLines ./rules/` looks for more.
func FuzzPlainLinesRunWhatTheParserSays(f *testing.F) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		f.Skip("no bash")
	}
	for _, s := range []string{
		"go test ./...", "   go test   -run X  ", `go test -run 'A|B' "./x y"`, `"go" te"st" ./...`,
		`\go test`, "go test $'plain'", "go test \\\n  ./...", "go test ./... # all\nls -la",
		"go test ./... #'\ntouch X", `go test $'\'' ; touch X #'`, "go test ./... && git status || ls",
		"go test ./... | head -5; npm run lint", "go test 2>&1 >/dev/null", "go test |& head",
		`go test "a\"b" 'c\d' e\ f "\$x" "\\"`, "go test a#b #c", "go test ''", `go test ""`,
		"go test \t x", "go test ;", "go test\n\n\nls", "go test 'multi\nline'", "go test x\\#y",
		`go test "it's"`, `go test 'say "hi"'`, "go test -- -x=1,2", "go test ./...?", "go test é", "%", "%1 x", "go test \\",
		"go\u00a0test x", "go test x\uff1b touch y", "go test a\u2028b", "go test ./...;touch X", "go test\\\ntouch X",
	} {
		f.Add(s)
	}
	builtins := bashWords(f, bash)
	f.Fuzz(func(t *testing.T, line string) {
		sc := parseShell(line)
		if !sc.plain {
			return
		}
		for _, c := range sc.cmds {
			if builtins[c[0]] || strings.ContainsRune(c[0], '/') || c[0] == "" || strings.ContainsRune(strings.Join(c, ""), 0) {
				return // not run through the handler: nothing to compare
			}
		}
		dir := t.TempDir()
		out := filepath.Join(dir, "ran")
		script := `command_not_found_handle() { printf '%s\0' "$#" "$@" >> "$FAWN_RAN"; return 0; }` + "\n" + line + "\n"
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, bash, "--norc", "--noprofile", "+H", "-O", "extglob", "-c", script)
		cmd.Dir = dir
		cmd.Env = []string{"PATH=" + filepath.Join(dir, "nowhere"), "FAWN_RAN=" + out, "HOME=" + dir}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		_ = cmd.Run()
		data, _ := os.ReadFile(out)
		// Records of the words bash ran: a count, then the words.
		var ran [][]string
		fields := strings.Split(string(data), "\x00")
		for i := 0; i+1 < len(fields); {
			n, err := strconv.Atoi(fields[i])
			if err != nil || i+1+n > len(fields) {
				t.Fatalf("%q: cannot read what bash ran: %q", line, data)
			}
			ran = append(ran, fields[i+1:i+1+n])
			i += 1 + n
		}
		// Every command bash ran is one the parser found (&& and || may
		// skip some; a pipeline runs its parts in any order).
		left := slices.Clone(sc.cmds)
		for _, r := range ran {
			i := slices.IndexFunc(left, func(c []string) bool { return slices.Equal(c, r) })
			if i < 0 {
				t.Errorf("%q: bash ran %q, which the parser did not find in %q (stderr %s)", line, r, sc.cmds, stderr.String())
				continue
			}
			left = slices.Delete(left, i, i+1)
		}
		if !strings.Contains(line, "||") && len(left) > 0 {
			t.Errorf("%q: bash did not run %q (stderr %s)", line, left, stderr.String())
		}
		if entries, _ := os.ReadDir(dir); len(entries) > 1 {
			t.Errorf("%q wrote files in %s: %v", line, dir, entries)
		}
	})
}

// bashWords are the builtins and keywords of bash: a command named so
// never reaches command_not_found_handle.
func bashWords(f *testing.F, bash string) map[string]bool {
	out, err := exec.Command(bash, "--norc", "-c", "compgen -b; compgen -k").Output()
	if err != nil {
		f.Fatal(err)
	}
	m := map[string]bool{}
	for _, w := range strings.Fields(string(out)) {
		m[w] = true
	}
	return m
}
