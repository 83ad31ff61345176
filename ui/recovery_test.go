package ui

import (
	"bytes"
	"sync"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/session"
	"github.com/fawn-ide/fawn/ui/editor"
)

// keptEditor is an editor with one unsaved buffer whose text the test
// sets, as the real tabs report it (a version per change).
type keptEditor struct {
	*recordingEditor
	mu      sync.Mutex
	path    string
	data    []byte
	version uint64
}

func (e *keptEditor) set(data string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.data = []byte(data)
	e.version++
}

func (e *keptEditor) UnsavedBuffers(seen map[string]uint64) []editor.Unsaved {
	e.mu.Lock()
	defer e.mu.Unlock()
	u := editor.Unsaved{Path: e.path, Version: e.version}
	if seen[e.path] != e.version {
		u.Data = append([]byte(nil), e.data...)
	}
	return []editor.Unsaved{u}
}

func (e *keptEditor) Recover(string, []byte) error { return nil }

// TestKeepNowWaitsForTheKeepUnderWay: a signal's keep ("now") right after a
// timed keep has started in the background returns only once what that
// keep was writing is in the recovery file; fawn ends after it, and the
// file must hold the text. (The timed keep marks its version as kept, so
// the signal's keep has nothing new of its own to write.)
func TestKeepNowWaitsForTheKeepUnderWay(t *testing.T) {
	dir := t.TempDir()
	st, err := session.New(t.TempDir(), dir, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ed := &keptEditor{recordingEditor: newRecordingEditor(), path: dir + "/notes.txt"}
	a, _ := newDrawnApp(t, Options{Editor: ed, Root: dir, Recovery: st.Recovery()}, 120, 40)
	ed.set("TYPED BEFORE THE SIGNAL")

	a.task.recovery.io.Lock() // the background write cannot begin yet
	a.keepUnsaved(false)
	released := make(chan struct{})
	go func() {
		time.Sleep(50 * time.Millisecond)
		close(released)
		a.task.recovery.io.Unlock()
	}()
	a.keepUnsaved(true)
	pending, err := st.Recovery().Pending()
	if err != nil {
		t.Fatal(err)
	}
	if len(pending) != 1 || !bytes.Equal(pending[0].Content(), []byte("TYPED BEFORE THE SIGNAL")) {
		t.Errorf("when the signal's keep returned the recovery files held %d buffers, not the text typed", len(pending))
	}
	<-released
}
