package lsp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/trust"
)

// needGopls finds the real gopls (on PATH or in $GOPATH/bin, where
// .ci/run installs it) or skips.
func needGopls(t *testing.T) { needGoplsB(t) }

func needGoplsB(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("gopls"); err == nil {
		return
	}
	out, _ := exec.Command("go", "env", "GOPATH").Output()
	for _, dir := range filepath.SplitList(strings.TrimSpace(string(out))) {
		if _, err := os.Stat(filepath.Join(dir, "bin", "gopls")); err == nil {
			t.Setenv("PATH", filepath.Join(dir, "bin")+string(os.PathListSeparator)+os.Getenv("PATH"))
			return
		}
	}
	t.Skip("skipped: gopls not installed (.ci/run installs it)")
}

// needTSServer finds typescript-language-server where .ci/run installs
// the npm test packages, or skips.
func needTSServer(t *testing.T) {
	t.Helper()
	needNpmBin(t, "typescript-language-server")
}

// needNpmBin puts the npm test packages' bin on PATH when it holds name,
// or skips.
func needNpmBin(t *testing.T, name string) {
	t.Helper()
	dir := os.Getenv("NPM_TEST_PACKAGES_DIR")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".cache", "fawn-test-npm")
	}
	bin := filepath.Join(dir, "node_modules", ".bin")
	if _, err := os.Stat(filepath.Join(bin, name)); err != nil {
		t.Skipf("skipped: %s not installed (.ci/run installs it under ~/.cache/fawn-test-npm)", name)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
}

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

type recorder struct {
	mu     sync.Mutex
	events []string
	diags  map[string]int
	// published counts the publications; publishedAt is that count when
	// each event came.
	published   int
	publishedAt []int
}

func (r *recorder) event(msg string, _ bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, msg)
	r.publishedAt = append(r.publishedAt, r.published)
}

func (r *recorder) diag(path string, ds []Problem) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.diags == nil {
		r.diags = map[string]int{}
	}
	r.diags[path] = len(ds)
	r.published++
}

// publishedBy is how many publications had come when the first event
// saying sub came (-1: none said it).
func (r *recorder) publishedBy(sub string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, e := range r.events {
		if strings.Contains(e, sub) {
			return r.publishedAt[i]
		}
	}
	return -1
}

func (r *recorder) said(sub string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, e := range r.events {
		if strings.Contains(e, sub) {
			return true
		}
	}
	return false
}

func startManager(t *testing.T, root string, servers []Server) (*Manager, *recorder) {
	t.Helper()
	root, _ = filepath.EvalSymlinks(root)
	rec := &recorder{}
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off")
	m := New(Options{Root: root, Servers: servers, Env: env, Allowed: func(trust.Item) bool { return true },
		OnDiagnostics: rec.diag, OnEvent: rec.event, Wait: 10 * time.Second, StartWait: 60 * time.Second})
	t.Cleanup(m.Close)
	return m, rec
}

func edit(t *testing.T, m *Manager, path, content string) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return m.AfterEdit(context.Background(), path, []byte(content))
}

const goMain = "package main\n\nimport \"example.com/m/util\"\n\nfunc main() {\n\tprintln(util.Double(2))\n}\n"

func goModule(t *testing.T) string {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	writeFiles(t, root, map[string]string{
		"go.mod":       "module example.com/m\n\ngo 1.22\n",
		"main.go":      goMain,
		"util/util.go": "package util\n\n// Double returns twice n.\nfunc Double(n int) int { return n * 2 }\n",
	})
	return root
}

func TestGoplsTellsWhatAnEditBroke(t *testing.T) {
	needGopls(t)
	root := goModule(t)
	m, _ := startManager(t, root, Defaults())
	main := filepath.Join(root, "main.go")

	got := edit(t, m, main, strings.Replace(goMain, "util.Double(2)", "util.Double(\"two\")", 1))
	t.Logf("after the bad edit:\n%s", got)
	if !strings.Contains(got, "New in main.go (1):") || !strings.Contains(got, "main.go:6:") || !strings.Contains(got, "error:") {
		t.Fatalf("the type error is not reported as new:\n%s", got)
	}
	// A second edit that leaves the error: it is not new.
	got = edit(t, m, main, "// a comment\n"+strings.Replace(goMain, "util.Double(2)", "util.Double(\"two\")", 1))
	t.Logf("after an unrelated edit:\n%s", got)
	if !strings.Contains(got, "Nothing new in main.go") || !strings.Contains(got, "Already there before this edit (1") || !strings.Contains(got, "main.go:7:") {
		t.Fatalf("the old error is not told apart:\n%s", got)
	}
	got = edit(t, m, main, goMain)
	t.Logf("after the fix:\n%s", got)
	if !strings.Contains(got, "no errors or warnings in main.go (1 fixed by this edit)") {
		t.Fatalf("the fix does not clear it:\n%s", got)
	}
	// Breaking the callee shows in its caller.
	util := filepath.Join(root, "util", "util.go")
	got = edit(t, m, util, "package util\n\n// Double returns twice n.\nfunc Double(n string) string { return n + n }\n")
	t.Logf("after changing the callee:\n%s", got)
	if !strings.Contains(got, "no errors or warnings in util/util.go") && !strings.Contains(got, "New errors in other files") {
		t.Fatalf("unexpected report:\n%s", got)
	}
	d, err := m.Diagnostics(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("project diagnostics:\n%s", d)
	if !strings.Contains(d, "main.go:6:") {
		t.Fatalf("the broken caller is not among the project's problems:\n%s", d)
	}
}

func TestGoplsDefinitionReferencesHoverSymbols(t *testing.T) {
	needGopls(t)
	root := goModule(t)
	writeFiles(t, root, map[string]string{"cmd/other/other.go": "package main\n\nimport \"example.com/m/util\"\n\nfunc main() { _ = util.Double(3) }\n"})
	m, _ := startManager(t, root, Defaults())
	ctx := context.Background()
	main := filepath.Join(root, "main.go")
	// "util.Double(2)" is on line 6; Double starts at column 15.
	locs, err := m.Locate(ctx, "definition", main, 6, 15)
	if err != nil {
		t.Fatal(err)
	}
	if len(locs) != 1 || !strings.HasSuffix(locs[0].Path, filepath.Join("util", "util.go")) || locs[0].Line != 4 || locs[0].Col != 6 {
		t.Fatalf("definition = %+v", locs)
	}
	refs, err := m.Locate(ctx, "references", locs[0].Path, 4, 6)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, r := range refs {
		files = append(files, m.rel(r.Path))
	}
	if strings.Join(files, " ") != "cmd/other/other.go main.go util/util.go" {
		t.Fatalf("references = %+v", refs)
	}
	h, err := m.Hover(ctx, main, 6, 15)
	if err != nil || !strings.Contains(h, "Double(n int) int") || !strings.Contains(h, "twice") {
		t.Fatalf("hover = %q, %v", h, err)
	}
	syms, err := m.Symbols(ctx, locs[0].Path, "")
	if err != nil || len(syms) != 1 || syms[0].Name != "Double" || syms[0].Kind != "function" {
		t.Fatalf("symbols = %+v, %v", syms, err)
	}
	ws, err := m.Symbols(ctx, "", "Double")
	if err != nil || len(ws) == 0 || ws[0].Name != "Double" {
		t.Fatalf("workspace symbols = %+v, %v", ws, err)
	}
}

func TestGoplsKilledMidSessionRestarts(t *testing.T) {
	needGopls(t)
	root := goModule(t)
	m, rec := startManager(t, root, Defaults())
	main := filepath.Join(root, "main.go")
	if got := edit(t, m, main, goMain); !strings.Contains(got, "no errors") {
		t.Fatalf("first edit: %s", got)
	}
	st := m.Statuses()
	if st[0].State != StateReady || st[0].PID == 0 || st[0].Open != 1 {
		t.Fatalf("status = %+v", st[0])
	}
	if err := syscall.Kill(st[0].PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for !rec.said("gopls is back") {
		if time.Now().After(deadline) {
			t.Fatalf("gopls did not come back; events: %v; status %+v", rec.events, m.Statuses())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !rec.said("language server gopls stopped") {
		t.Fatalf("the crash was not reported: %v", rec.events)
	}
	// The server is back once it has analysed the file it reopened: an
	// edit sent while it still loads the project would be checked against
	// half of it ("could not import example.com/m/util").
	if stopped, back := rec.publishedBy("gopls stopped"), rec.publishedBy("gopls is back"); back <= stopped {
		t.Fatalf("gopls was said to be back before it published anything for the reopened main.go (%d publications before the crash, %d when back)", stopped, back)
	}
	got := edit(t, m, main, strings.Replace(goMain, "util.Double(2)", "util.Triple(2)", 1))
	if !strings.Contains(got, "Triple") {
		t.Fatalf("after the restart: %s", got)
	}
	if st := m.Statuses(); st[0].PID == 0 || st[0].Open != 1 {
		t.Fatalf("after the restart: %+v", st[0])
	}
}

func TestTypeScriptServerTellsWhatAnEditBroke(t *testing.T) {
	needTSServer(t)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	writeFiles(t, root, map[string]string{
		"package.json":  `{"name": "t", "version": "1.0.0"}`,
		"tsconfig.json": `{"compilerOptions": {"strict": true, "noEmit": true}}`,
		"main.ts":       "export function double(n: number): number {\n  return n * 2;\n}\n",
	})
	m, _ := startManager(t, root, Defaults())
	main := filepath.Join(root, "main.ts")
	got := edit(t, m, main, "export function double(n: number): number {\n  return n * 2;\n}\nconst s: string = double(2);\n")
	t.Logf("after the bad edit:\n%s", got)
	if !strings.Contains(got, "New in main.ts (1):") || !strings.Contains(got, "main.ts:4:7: error:") {
		t.Fatalf("the type error is not reported:\n%s", got)
	}
	got = edit(t, m, main, "export function double(n: number): number {\n  return n * 2;\n}\nconst s: number = double(2);\n")
	t.Logf("after the fix:\n%s", got)
	if !strings.Contains(got, "no errors or warnings in main.ts (1 fixed by this edit)") {
		t.Fatalf("the fix does not clear it:\n%s", got)
	}
}

func TestPyrightTellsWhatAnEditBroke(t *testing.T) {
	needNpmBin(t, "pyright-langserver")
	root, _ := filepath.EvalSymlinks(t.TempDir())
	good := "def double(n: int) -> int:\n    return n * 2\n"
	writeFiles(t, root, map[string]string{
		"pyproject.toml": "[project]\nname = \"t\"\nversion = \"1.0\"\n",
		"main.py":        good,
	})
	m, _ := startManager(t, root, Defaults())
	main := filepath.Join(root, "main.py")
	got := edit(t, m, main, good+"\nx: str = double(2)\n")
	t.Logf("after the bad edit:\n%s", got)
	if !strings.Contains(got, "pyright, after this edit:") || !strings.Contains(got, "New in main.py (1):") || !strings.Contains(got, "main.py:4:10: error:") {
		t.Fatalf("the type error is not reported:\n%s", got)
	}
	got = edit(t, m, main, good+"\nx: int = double(2)\n")
	t.Logf("after the fix:\n%s", got)
	if !strings.Contains(got, "no errors or warnings in main.py (1 fixed by this edit)") {
		t.Fatalf("the fix does not clear it:\n%s", got)
	}
}

// A server that never answers costs a bounded wait and a clear message.
func TestHungServerDoesNotHang(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	writeFiles(t, root, map[string]string{"x.hang": "x\n", "hang.marker": ""})
	servers := []Server{{Name: "hang", Command: "sleep", Args: []string{"600"}, Extensions: []string{".hang"}, RootMarkers: []string{"hang.marker"}}}
	rec := &recorder{}
	m := New(Options{Root: root, Servers: servers, Env: os.Environ(), Allowed: func(trust.Item) bool { return true },
		OnEvent: rec.event, Wait: 200 * time.Millisecond, StartWait: 300 * time.Millisecond})
	defer m.Close()
	got := m.AfterEdit(context.Background(), filepath.Join(root, "x.hang"), []byte("y\n"))
	if !strings.Contains(got, "hang is still starting") {
		t.Fatalf("AfterEdit = %q", got)
	}
}

func TestUntrustedProjectStartsNothing(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	writeFiles(t, root, map[string]string{"x.hang": "x\n", "hang.marker": ""})
	servers := []Server{{Name: "hang", Command: "sleep", Args: []string{"600"}, Extensions: []string{".hang"}, RootMarkers: []string{"hang.marker"}}}
	items := Items(root, servers)
	if len(items) != 1 || items[0].Kind != trust.KindLSP || items[0].Name != "hang" || !strings.Contains(items[0].Detail, "sleep 600") {
		t.Fatalf("items = %+v", items)
	}
	m := New(Options{Root: root, Servers: servers, Env: os.Environ(), Allowed: func(trust.Item) bool { return false }})
	defer m.Close()
	if m.Available() {
		t.Fatal("available in an untrusted directory")
	}
	if got := m.AfterEdit(context.Background(), filepath.Join(root, "x.hang"), []byte("y\n")); got != "" {
		t.Fatalf("AfterEdit = %q", got)
	}
	st := m.Statuses()
	if len(st) != 1 || !strings.Contains(st[0].State, "not trusted") || st[0].PID != 0 {
		t.Fatalf("status = %+v", st)
	}
}

func TestSurveySaysWhyAServerDoesNotStart(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"svc/pyproject.toml": ""})
	servers := Merge(Defaults(), map[string]Server{
		"clangd": {Disabled: true},
		"mine":   {Command: "no-such-server-xyz", Extensions: []string{".xyz"}, RootMarkers: []string{"*"}},
	})
	got := map[string]string{}
	for _, c := range survey(root, servers) {
		got[c.Name] = c.why
	}
	if got["clangd"] != "disabled in the configuration" || !strings.Contains(got["mine"], "no-such-server-xyz is not installed") {
		t.Fatalf("survey = %v", got)
	}
	if !strings.Contains(got["rust-analyzer"], "not installed") && !strings.Contains(got["rust-analyzer"], "no Cargo.toml") {
		t.Fatalf("rust-analyzer: %q", got["rust-analyzer"])
	}
}

// command writes files as an agent command would, then reports.
func command(t *testing.T, m *Manager, files map[string]string, remove ...string) string {
	t.Helper()
	var abs []string
	for name, content := range files {
		p := filepath.Join(m.o.Root, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		abs = append(abs, p)
	}
	for _, name := range remove {
		p := filepath.Join(m.o.Root, name)
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
		abs = append(abs, p)
	}
	return m.AfterCommand(context.Background(), abs)
}

func TestGoplsTellsWhatACommandBroke(t *testing.T) {
	needGopls(t)
	root := goModule(t)
	m, _ := startManager(t, root, Defaults())

	// A command (sed, a generator) breaks a file fawn never opened.
	bad := strings.Replace(goMain, "util.Double(2)", "util.Double(\"two\")", 1)
	got := command(t, m, map[string]string{"main.go": bad, "notes.txt": "not Go\n"})
	t.Logf("after the bad command:\n%s", got)
	if !strings.Contains(got, "gopls, after this command (it changed main.go)") || !strings.Contains(got, "had not checked it before") || !strings.Contains(got, "main.go:6:") {
		t.Fatalf("the type error is not reported:\n%s", got)
	}
	// The next command leaves the error and adds a clean file: it is old.
	got = command(t, m, map[string]string{"main.go": "// moved\n" + bad, "util/more.go": "package util\n\nfunc Triple(n int) int { return 3 * n }\n"})
	t.Logf("after a command that leaves it:\n%s", got)
	if !strings.Contains(got, "Nothing new in main.go; already there before this command (1)") || !strings.Contains(got, "No errors or warnings in util/more.go") {
		t.Fatalf("the old error is not told apart:\n%s", got)
	}
	// The fix clears it.
	got = command(t, m, map[string]string{"main.go": goMain})
	t.Logf("after the fixing command:\n%s", got)
	if !strings.Contains(got, "gopls: no errors or warnings in main.go, which this command changed (1 fixed by it).") {
		t.Fatalf("the fix does not clear it:\n%s", got)
	}
	// Deleting the callee breaks the caller: an error in another file.
	got = command(t, m, nil, "util/util.go")
	t.Logf("after deleting util.go:\n%s", got)
	if !strings.Contains(got, "New errors in other files") || !strings.Contains(got, "main.go:6:") {
		t.Fatalf("unexpected report after a deletion:\n%s", got)
	}
	// Files no server serves say nothing.
	if got := command(t, m, map[string]string{"README.md": "# hi\n"}); got != "" {
		t.Fatalf("a file no server serves got a report: %q", got)
	}
}

func TestGoplsMarksWhatTheUserTypesBeforeASave(t *testing.T) {
	needGopls(t)
	root := goModule(t)
	m, rec := startManager(t, root, Defaults())
	main := filepath.Join(root, "main.go")
	count := func() (int, bool) {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		n, ok := rec.diags[main]
		return n, ok
	}
	waitCount := func(want int) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for {
			if n, ok := count(); ok && n == want {
				return
			}
			if time.Now().After(deadline) {
				n, _ := count()
				t.Fatalf("main.go has %d problems, want %d", n, want)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	m.Open(main)
	waitCount(0)
	m.Typed(main, strings.Replace(goMain, "util.Double(2)", "util.Double(\"two\")", 1))
	waitCount(1)
	if b, _ := os.ReadFile(main); string(b) != goMain {
		t.Fatal("typing wrote the file")
	}
	// The tab closed without saving: the file's own text comes back.
	m.Open(main)
	waitCount(0)
}

// A server that cannot start at all (rustup's rust-analyzer proxy without
// the component says "error: Unknown binary") fails once, saying why; it
// is not restarted over and over.
func TestBrokenServerFailsOnceAndSaysWhy(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	writeFiles(t, root, map[string]string{"x.broken": "x\n", "broken.marker": ""})
	servers := []Server{{Name: "broken", Command: "sh", Args: []string{"-c", "echo \"error: Unknown binary 'broken' in official toolchain\" >&2; exit 1"},
		Extensions: []string{".broken"}, RootMarkers: []string{"broken.marker"}}}
	rec := &recorder{}
	m := New(Options{Root: root, Servers: servers, Env: os.Environ(), Allowed: func(trust.Item) bool { return true },
		OnEvent: rec.event, Wait: time.Second, StartWait: 20 * time.Second})
	defer m.Close()
	got := m.AfterEdit(context.Background(), filepath.Join(root, "x.broken"), []byte("y\n"))
	if !strings.Contains(got, "failed") || !strings.Contains(got, "Unknown binary") {
		t.Fatalf("AfterEdit = %q", got)
	}
	time.Sleep(1500 * time.Millisecond) // a restart, were one scheduled, would have come
	rec.mu.Lock()
	events := append([]string(nil), rec.events...)
	rec.mu.Unlock()
	if len(events) != 1 || !strings.Contains(events[0], "could not start") || !strings.Contains(events[0], "Unknown binary") {
		t.Fatalf("events = %q", events)
	}
	st := m.Statuses()
	if len(st) != 1 || st[0].State != StateFailed || !strings.Contains(st[0].LastErr, "Unknown binary") {
		t.Fatalf("statuses = %+v", st)
	}
}

// TestSurveyReadsTheRootOnceAndFindsWhatHasMarkerFinds: the survey's
// one listing of the root finds the marker hasMarker finds by looking
// (globs, plain names, a marker in a subdirectory, a dangling link), and a
// server whose marker is missing is not looked for on PATH.
func TestSurveyReadsTheRootOnceAndFindsWhatHasMarkerFinds(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"b.py": "", "a.py": "", "go.mod": "module m\n", "build/flags.txt": ""})
	if err := os.Symlink(filepath.Join(root, "gone"), filepath.Join(root, "Cargo.toml")); err != nil {
		t.Fatal(err)
	}
	for _, s := range []Server{
		{RootMarkers: []string{"*.py"}},
		{RootMarkers: []string{"go.work", "go.mod"}},
		{RootMarkers: []string{"Cargo.toml"}},
		{RootMarkers: []string{"build/flags.txt"}},
		{RootMarkers: []string{"*.rs", "nothing"}},
	} {
		if got, want := (&rootDir{path: root}).marker(s), s.hasMarker(root); got != want {
			t.Fatalf("%v: listing found %q, hasMarker %q", s.RootMarkers, got, want)
		}
	}
	got := map[string]string{}
	for _, c := range survey(root, []Server{
		{Name: "absent", Command: "no-such-server-xyz", RootMarkers: []string{"Cargo.toml"}},
		{Name: "py", Command: "no-such-server-xyz", RootMarkers: []string{"*.py"}},
	}) {
		got[c.Name] = c.why + "|" + c.marker
	}
	if got["absent"] != "no Cargo.toml at the project's root, and no-such-server-xyz is not installed (not found on PATH)|" || got["py"] != "no-such-server-xyz is not installed (not found on PATH)|a.py" {
		t.Fatalf("survey = %v", got)
	}
}

// A server still starting when fawn closes is ended, and what it left
// running in a session of its own (setsid) with its stderr goes with it.
func TestCloseEndsAStartingServerAndItsSetsidChild(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	writeFiles(t, root, map[string]string{"x.hang": "x\n", "hang.marker": ""})
	child := filepath.Join(root, "child")
	servers := []Server{{Name: "hang", Command: "bash", Args: []string{"-c", `setsid sleep 300 & echo $! > "$1"; exec sleep 600`, "hang", child},
		Extensions: []string{".hang"}, RootMarkers: []string{"hang.marker"}}}
	m := New(Options{Root: root, Servers: servers, Env: os.Environ(), Allowed: func(trust.Item) bool { return true },
		Wait: 200 * time.Millisecond, StartWait: 300 * time.Millisecond})
	if got := m.AfterEdit(context.Background(), filepath.Join(root, "x.hang"), []byte("y\n")); !strings.Contains(got, "still starting") {
		t.Fatalf("AfterEdit = %q", got)
	}
	var pid string
	for end := time.Now().Add(10 * time.Second); pid == ""; time.Sleep(20 * time.Millisecond) {
		b, _ := os.ReadFile(child)
		pid = strings.TrimSpace(string(b))
		if pid == "" && time.Now().After(end) {
			t.Fatal("the server did not start its child")
		}
	}
	closed := make(chan struct{})
	go func() { m.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(15 * time.Second):
		t.Fatal("Close did not return")
	}
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		st, err := os.ReadFile("/proc/" + pid + "/stat")
		if err != nil || strings.Contains(string(st), ") Z ") {
			break
		}
		if time.Now().After(end) {
			_ = exec.Command("kill", "-9", pid).Run()
			t.Fatal("the starting server's setsid child outlived Close")
		}
	}
}

// A server closed the polite way (shutdown, exit) takes along what it
// started, also a child that left its process group with setsid.
func TestCloseEndsWhatARunningServerStarted(t *testing.T) {
	needGopls(t)
	root := goModule(t)
	kid := filepath.Join(t.TempDir(), "kid")
	servers := []Server{{Name: "gopls", Command: "bash", Args: []string{"-c", `setsid sleep 300 & echo $! > "$1"; exec gopls`, "gopls", kid},
		Extensions: []string{".go"}, RootMarkers: []string{"go.mod"}}}
	m := New(Options{Root: root, Servers: servers, Env: append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off"),
		Allowed: func(trust.Item) bool { return true }, Wait: 10 * time.Second, StartWait: 60 * time.Second})
	edit(t, m, filepath.Join(root, "main.go"), goMain)
	if st := m.Statuses(); len(st) == 0 || st[0].State != StateReady {
		t.Fatalf("the server is not ready: %+v", st)
	}
	b, _ := os.ReadFile(kid)
	pid := strings.TrimSpace(string(b))
	if pid == "" {
		t.Fatal("the server wrote no child's pid")
	}
	m.Close()
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		st, err := os.ReadFile("/proc/" + pid + "/stat")
		if err != nil || strings.Contains(string(st), ") Z ") {
			break
		}
		if time.Now().After(end) {
			_ = exec.Command("kill", "-9", pid).Run()
			t.Fatal("the server's setsid child outlived Close")
		}
	}
}

// The directories below the root are looked into only for a server that is
// installed: each costs a stat per marker, and Go's source has 78 of them.
func TestSurveyLooksBelowTheRootOnlyForAnInstalledServer(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"svc/Cargo.toml": ""})
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on PATH")
	}
	got := map[string]candidate{}
	for _, c := range survey(root, []Server{
		{Name: "absent", Command: "no-such-server-xyz", RootMarkers: []string{"Cargo.toml"}},
		{Name: "here", Command: sh, RootMarkers: []string{"Cargo.toml"}},
	}) {
		got[c.Name] = c
	}
	if c := got["absent"]; c.marker != "" || !strings.Contains(c.why, "not installed") {
		t.Fatalf("a server that is not installed: marker %q, why %q; want no look below the root", c.marker, c.why)
	}
	if c := got["here"]; c.marker != filepath.Join("svc", "Cargo.toml") || c.why != "" {
		t.Fatalf("an installed server: marker %q, why %q; want svc/Cargo.toml", c.marker, c.why)
	}
}
