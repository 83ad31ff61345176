package host

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestFSBoundary: a file created before the boundary was taken is not
// born since it, one created after is — every time, though the file
// system's clock lags time.Now by up to a tick.
func TestFSBoundary(t *testing.T) {
	dir := t.TempDir()
	for i := range 30 {
		before := filepath.Join(dir, "before")
		after := filepath.Join(dir, "after")
		_ = os.Remove(before)
		_ = os.Remove(after)
		if err := os.WriteFile(before, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if !bornSince(before, time.Unix(0, 1)) {
			t.Skip("this file system keeps no birth time fawn can read")
		}
		b := fsBoundary("")
		if b.IsZero() {
			t.Skip("this file system keeps no modification time fawn can read")
		}
		if err := os.WriteFile(after, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if bornSince(before, b) {
			t.Fatalf("round %d: a file made before the boundary counts as born since", i)
		}
		if !bornSince(after, b) {
			t.Fatalf("round %d: a file made after the boundary counts as older", i)
		}
	}
}
