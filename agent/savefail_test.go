package agent

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
	"github.com/fawn-ide/fawn/session"
)

// fullDisk mounts a small tmpfs (root only: the test skips otherwise) and
// returns it with fill, which takes all its room, and free, which gives it
// back.
func fullDisk(t *testing.T) (dir string, fill, free func()) {
	t.Helper()
	dir = t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("skipped: a full file system needs a tmpfs, and mounting one failed (not root?): %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", dir).Run() })
	filler := filepath.Join(dir, "filler")
	fill = func() {
		f, err := os.Create(filler)
		if err != nil && !errors.Is(err, syscall.ENOSPC) {
			t.Fatal(err)
		}
		if f == nil {
			return
		}
		defer f.Close()
		buf := make([]byte, 4096)
		for {
			if _, err := f.Write(buf); err != nil {
				if !errors.Is(err, syscall.ENOSPC) {
					t.Fatal(err)
				}
				return
			}
		}
	}
	free = func() {
		if err := os.Remove(filler); err != nil {
			t.Fatal(err)
		}
	}
	return dir, fill, free
}

// saveNotices runs a turn and returns what it said of saving.
func saveNotices(t *testing.T, h *harness, prompt string) (failed, resumed bool) {
	t.Helper()
	for _, ev := range runChecked(t, h, context.Background(), prompt, nil) {
		if ev.Type == EventError && strings.Contains(ev.Err.Error(), "not being saved") {
			failed = true
		}
		if ev.Type == EventInfo && strings.Contains(ev.Text, "being saved again") {
			resumed = true
		}
	}
	return failed, resumed
}

// A session whose disk fills says so once, keeps failing quietly, and is
// saved again, whole, at the end of the first turn after room is made:
// whether the disk was full before the file was created or after.
func TestSavingResumesWhenTheDiskHasRoomAgain(t *testing.T) {
	for _, fullFrom := range []string{"the start", "the second turn"} {
		t.Run(fullFrom, func(t *testing.T) {
			data, fill, free := fullDisk(t)
			st, err := session.New(data, t.TempDir(), session.Options{})
			if err != nil {
				t.Fatal(err)
			}
			h := newHarness(t, llmtest.Script{Loop: true, Responses: []llmtest.Response{text(strings.Repeat("an answer ", 1000))}}, ModeYolo, withStore(st))
			// Each answer is larger than a page, so that a full disk
			// refuses every turn (tmpfs would fit a small one into the
			// file's last page).
			prompts := []string{"one", "two", "three"}
			if fullFrom == "the second turn" {
				if failed, _ := saveNotices(t, h, "zero"); failed {
					t.Fatal("saving failed with room on the disk")
				}
				prompts = append([]string{"zero"}, prompts...)
			}
			fill()
			prompts = prompts[len(prompts)-3:]
			if failed, _ := saveNotices(t, h, prompts[0]); !failed {
				t.Fatal("a turn on a full disk did not say the session is not being saved")
			}
			if h.s.SaveError() == nil {
				t.Fatal("SaveError is nil on a full disk")
			}
			if failed, resumed := saveNotices(t, h, prompts[1]); failed || resumed {
				t.Errorf("a second turn on a full disk: said the failure again %v, resumed %v", failed, resumed)
			}
			free()
			if _, resumed := saveNotices(t, h, prompts[2]); !resumed {
				t.Fatal("the turn after room was made did not say saving resumed")
			}
			if err := h.s.SaveError(); err != nil {
				t.Fatalf("SaveError after resuming: %v", err)
			}
			l, err := st.Load(h.s.ID())
			if err != nil {
				t.Fatal(err)
			}
			var users []string
			for _, m := range l.Messages {
				if m.Role == "user" {
					users = append(users, m.Content)
				}
			}
			want := "one two three"
			if fullFrom == "the second turn" {
				want = "zero " + want
			}
			if got := strings.Join(users, " "); got != want {
				t.Errorf("the saved conversation's prompts: %q, want %q", got, want)
			}
			// The chat of the resumed session shows them too, once each.
			var shown []string
			for _, e := range l.Transcript {
				if e.Message != nil && e.Message.Role == "user" {
					shown = append(shown, e.Message.Content)
				}
			}
			if got := strings.Join(shown, " "); got != want {
				t.Errorf("the saved transcript's prompts: %q, want %q", got, want)
			}
		})
	}
}
