package bus

import (
	"slices"
	"sync"
	"testing"
	"time"
)

// deadline bounds every wait: generous for a loaded machine.
const deadline = 20 * time.Second

// recorder keeps what a subscriber got.
type recorder struct {
	mu  sync.Mutex
	got []int
}

func (r *recorder) add(v int) {
	r.mu.Lock()
	r.got = append(r.got, v)
	r.mu.Unlock()
}

func (r *recorder) snapshot() []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.got)
}

// waitFor waits until the recorder satisfies ok.
func (r *recorder) waitFor(t *testing.T, what string, ok func([]int) bool) []int {
	t.Helper()
	for end := time.Now().Add(deadline); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if got := r.snapshot(); ok(got) {
			return got
		}
	}
	t.Fatalf("%s: got %v", what, r.snapshot())
	return nil
}

// A must-deliver topic gives every subscriber every notice in order, even
// one that is stuck while they are published; the publisher never waits.
func TestMustDeliverQueuesForASlowSubscriber(t *testing.T) {
	top := NewTopic[int](MustDeliver)
	release := make(chan struct{})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	var slow, quick recorder
	unsubSlow := top.Subscribe(func(v int) {
		<-release
		slow.add(v)
	})
	defer unsubSlow()
	defer free() // before unsubscribing, which waits for the subscriber
	unsubQuick := top.Subscribe(quick.add)
	defer unsubQuick()
	for i := range 100 {
		top.Publish(i) // would hang here if Publish waited for the slow one
	}
	want := make([]int, 100)
	for i := range want {
		want[i] = i
	}
	quick.waitFor(t, "the quick subscriber", func(got []int) bool { return len(got) == 100 })
	free()
	if got := slow.waitFor(t, "the slow subscriber", func(got []int) bool { return len(got) == 100 }); !slices.Equal(got, want) {
		t.Errorf("the slow subscriber got %v", got)
	}
	if got := quick.snapshot(); !slices.Equal(got, want) {
		t.Errorf("the quick subscriber got %v", got)
	}
}

// A lossy topic drops what a subscriber that is behind has not taken, and
// delivers again once it has caught up.
func TestLossyDropsForASubscriberThatIsBehind(t *testing.T) {
	top := NewTopic[int](Lossy)
	started := make(chan struct{})
	release := make(chan struct{})
	var r recorder
	unsub := top.Subscribe(func(v int) {
		if v == 0 {
			close(started)
			<-release
		}
		r.add(v)
	})
	defer unsub()
	top.Publish(0)
	<-started
	for i := 1; i <= 100; i++ {
		top.Publish(i) // 1 waits while 0 is being delivered; 2…100 are dropped
	}
	close(release)
	r.waitFor(t, "0 and 1", func(got []int) bool { return len(got) >= 2 })
	top.Publish(200)
	got := r.waitFor(t, "the notice after it caught up", func(got []int) bool { return slices.Contains(got, 200) })
	if !slices.Equal(got, []int{0, 1, 200}) {
		t.Errorf("got %v, want [0 1 200]", got)
	}
}

// Nobody hears a notice published before they subscribed or after they
// unsubscribed; unsubscribing returns once the subscriber's function is
// no longer running.
func TestSubscribeAndUnsubscribe(t *testing.T) {
	top := NewTopic[int](MustDeliver)
	top.Publish(1)
	var r recorder
	unsub := top.Subscribe(r.add)
	top.Publish(2)
	r.waitFor(t, "2", func(got []int) bool { return len(got) == 1 })
	unsub()
	unsub() // a second time is harmless
	top.Publish(3)
	// A second subscriber that hears 3 shows the first had its chance.
	var other recorder
	defer top.Subscribe(other.add)()
	top.Publish(4)
	other.waitFor(t, "4", func(got []int) bool { return len(got) == 1 })
	if got := r.snapshot(); !slices.Equal(got, []int{2}) {
		t.Errorf("got %v, want [2]", got)
	}
}

// Unsubscribing while the subscriber is being delivered to waits for it
// and drops what is still queued.
func TestUnsubscribeWaitsForTheSubscriber(t *testing.T) {
	top := NewTopic[int](MustDeliver)
	started := make(chan struct{})
	release := make(chan struct{})
	var r recorder
	unsub := top.Subscribe(func(v int) {
		if v == 0 {
			close(started)
			<-release
		}
		r.add(v)
	})
	top.Publish(0)
	top.Publish(1)
	<-started
	ended := make(chan struct{})
	go func() {
		unsub()
		close(ended)
	}()
	select {
	case <-ended:
		t.Fatal("unsubscribe returned while the subscriber was running")
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	select {
	case <-ended:
	case <-time.After(deadline):
		t.Fatal("unsubscribe never returned")
	}
	if got := r.snapshot(); !slices.Equal(got, []int{0}) {
		t.Errorf("got %v, want [0]: 1 was still queued when the subscription ended", got)
	}
}
