package checkpoint

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/project"
	"github.com/fawn-ide/fawn/session"
)

// tree writes n small files under root, 100 to a directory.
func tree(b *testing.B, root string, n int) {
	b.Helper()
	for i := 0; i < n; i++ {
		dir := filepath.Join(root, fmt.Sprintf("d%03d", i/100))
		if i%100 == 0 {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				b.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.go", i)), []byte("package d\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

func benchBook(b *testing.B, root string) *Book {
	st, err := session.New(b.TempDir(), root, session.Options{})
	if err != nil {
		b.Fatal(err)
	}
	pw := project.NewWatcher(root, project.WatchOptions{})
	bk, err := Open(filepath.Join(st.Dir(), "s1"), root, st.Blobs("s1"), Options{Watch: pw})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { bk.Close(); pw.Close() })
	return bk
}

// BenchmarkScan50k: the scan before (or after) every agent command, over a
// tree of 50,000 files, beside `find -type f` over the same tree in the
// same run (goal: ≤ 20 ms, so it never shows in a command's time).
func BenchmarkScan50k(b *testing.B) {
	root := b.TempDir()
	tree(b, root, 50000)
	bk := benchBook(b, root)
	var scan, find time.Duration
	for i := 0; i < b.N; i++ {
		start := time.Now()
		t, err := bk.Scan(context.Background())
		if err != nil || len(t) != 50000 {
			b.Fatal(err, len(t))
		}
		scan += time.Since(start)
		start = time.Now()
		if err := exec.Command("find", root, "-type", "f").Run(); err != nil {
			b.Fatal(err)
		}
		find += time.Since(start)
	}
	b.ReportMetric(float64(scan.Microseconds())/1000/float64(b.N), "scan-ms")
	b.ReportMetric(float64(find.Microseconds())/1000/float64(b.N), "find-ms")
	b.ReportMetric(float64(scan)/float64(find), "scan/find")
}

// BenchmarkCommandScan50k: both scans around one agent command that
// changes one file, over a tree of 50,000 files, as the book does them
// (watching the tree, after the first command), beside the full walk of
// the same tree and `find -type f` in the same run (goal: ≤ 20 ms).
func BenchmarkCommandScan50k(b *testing.B) {
	root := b.TempDir()
	tree(b, root, 50000)
	bk := benchBook(b, root)
	bk.Begin("bench", 0)
	bk.CommandStarting(context.Background())() // the first command starts watching
	if mode := bk.ScanMode(); !strings.HasPrefix(mode, "watching") {
		b.Skip(mode)
	}
	target := filepath.Join(root, "d250", "f25000.go")
	var cmd, walk, find time.Duration
	for i := 0; i < b.N; i++ {
		start := time.Now()
		ended := bk.CommandStarting(context.Background())
		os.WriteFile(target, fmt.Appendf(nil, "package d // %d\n", i), 0o644)
		ended()
		cmd += time.Since(start)

		start = time.Now()
		bk.Scan(context.Background())
		bk.Scan(context.Background())
		walk += time.Since(start)

		start = time.Now()
		if err := exec.Command("find", root, "-type", "f").Run(); err != nil {
			b.Fatal(err)
		}
		find += time.Since(start)
	}
	if n := len(bk.Turns()[0].Changes); n != b.N {
		b.Fatalf("%d changes recorded for %d commands", n, b.N)
	}
	b.ReportMetric(float64(cmd.Microseconds())/1000/float64(b.N), "command-scans-ms")
	b.ReportMetric(float64(walk.Microseconds())/1000/float64(b.N), "two-walks-ms")
	b.ReportMetric(float64(cmd)/float64(find), "command/find")
}

// BenchmarkRewind1000: rewinding a turn whose command changed 1,000 files.
func BenchmarkRewind1000(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		root := b.TempDir()
		bk := benchBook(b, root)
		// Turn 1 makes the files (the book keeps what they became), turn 2
		// changes them all; the rewind of turn 2 writes 1,000 files back.
		bk.Begin("make the files", 0)
		ended := bk.CommandStarting(context.Background())
		tree(b, root, 1000)
		ended()
		id := bk.Begin("change everything", 2)
		ended = bk.CommandStarting(context.Background())
		time.Sleep(10 * time.Millisecond) // a new mtime, whatever the filesystem's granularity
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				os.WriteFile(p, []byte("package d // changed\n"), 0o644)
			}
			return nil
		})
		ended()
		b.StartTimer()
		res, err := bk.Rewind(id, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if len(res.Restored) != 1000 {
			b.Fatalf("restored %d, lost %d", len(res.Restored), len(res.Lost))
		}
		b.StartTimer()
	}
}
