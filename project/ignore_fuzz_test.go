package project

import (
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/project/projecttest"
)

// FuzzIgnoreRule checks the ignore matcher's invariants: run with go test
// -fuzz=FuzzIgnoreRule ./project; the seeds run as ordinary tests.
func FuzzIgnoreRule(f *testing.F) {
	for _, l := range strings.Split(projecttest.IgnoreFixture[".gitignore"], "\n") {
		f.Add(l, "a/b/c.log", true)
	}
	for _, l := range []string{"[", `\`, "a/**/", "**", "!", "/**/x", "[!]", "[a-", `x\ \ `, "{", "}a{"} {
		f.Add(l, "x", false)
	}
	f.Fuzz(func(t *testing.T, line, rel string, isDir bool) {
		r, ok := parseIgnoreLine(line)
		name := rel
		if i := strings.LastIndexByte(rel, '/'); i >= 0 {
			name = rel[i+1:]
		}
		if !ok {
			return
		}
		got := r.match(rel, name, isDir)
		if r.dirOnly && !isDir && got {
			t.Fatalf("%q is for directories but matched the file %q", line, rel)
		}
		// "!line" is the same rule, negated.
		if !strings.HasPrefix(line, "!") {
			n, ok := parseIgnoreLine("!" + line)
			if !ok || !n.negate || n.match(rel, name, isDir) != got {
				t.Fatalf("%q and its negation disagree on %q", line, rel)
			}
		}
		// "line/" matches directories exactly as "line" does, and no files.
		if !r.dirOnly && !strings.HasSuffix(line, `\`) && !strings.HasSuffix(line, " ") {
			d, ok := parseIgnoreLine(line + "/")
			if ok && isDir && d.match(rel, name, true) != got {
				t.Fatalf("%q/ and %q disagree on the directory %q", line, line, rel)
			}
			if ok && d.match(rel, name, false) {
				t.Fatalf("%q/ matched the file %q", line, rel)
			}
		}
		// A rule without a slash in it matches by name alone.
		if !r.anchored && r.match("elsewhere/"+name, name, isDir) != r.match(name, name, isDir) {
			t.Fatalf("%q depends on the directory of %q", line, name)
		}
	})
}
