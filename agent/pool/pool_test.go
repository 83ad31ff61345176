package pool

import (
	"context"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/config"
)

// Requests take the first endpoint with room, in order, and wait when all
// are full until one frees.
func TestAcquireBreadthFirstAndWaits(t *testing.T) {
	s, err := New(config.Models{Chat: config.Model{Parallel: 1}, Named: map[string]config.Model{"bg": {Parallel: 2}}, Background: []string{"bg"}})
	if err != nil {
		t.Fatal(err)
	}
	slots := []*Slot{s.Slot("bg"), s.Slot(Default)}
	var releases []func()
	for _, want := range []int{0, 0, 1} {
		i, rel, err := s.Acquire(context.Background(), slots)
		if err != nil || i != want {
			t.Fatalf("acquired %d (%v), want %d", i, err, want)
		}
		releases = append(releases, rel)
	}
	got := make(chan int)
	go func() {
		i, rel, err := s.Acquire(context.Background(), slots)
		if err == nil {
			rel()
		}
		got <- i
	}()
	select {
	case i := <-got:
		t.Fatalf("a fourth request got slot %d while all three were taken", i)
	case <-time.After(50 * time.Millisecond):
	}
	releases[2]() // chat_model frees
	releases[2]() // a second call gives back nothing more
	select {
	case i := <-got:
		if i != 1 {
			t.Errorf("the waiting request took %d, want chat_model's freed slot", i)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the waiting request never got the freed slot")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err = s.Acquire(ctx, []*Slot{s.Slot("bg")})
	if err == nil {
		t.Error("a cancelled wait returned a slot")
	}
}

// A background entry or a fallback naming no entry is an error naming it.
func TestUnknownNames(t *testing.T) {
	if _, err := New(config.Models{Background: []string{"nope"}}); err == nil {
		t.Error("an unknown background entry was accepted")
	}
	if _, err := New(config.Models{Chat: config.Model{Fallbacks: []string{"nope"}}}); err == nil {
		t.Error("an unknown fallback was accepted")
	}
}

// An endpoint marked down stays down for the cool-down only.
func TestDownForTheCooldown(t *testing.T) {
	s, _ := New(config.Models{FailoverCooldown: time.Minute})
	now := time.Unix(1000, 0)
	s.now = func() time.Time { return now }
	s.MarkDown(Default)
	if !s.Down(Default) {
		t.Error("not down right after MarkDown")
	}
	now = now.Add(time.Minute)
	if s.Down(Default) {
		t.Error("still down after the cool-down")
	}
}

// A request that finds every slot full says so once, before it waits.
func TestAcquireSaysItWaits(t *testing.T) {
	s, err := New(config.Models{})
	if err != nil {
		t.Fatal(err)
	}
	slot := s.Slot(Default)
	_, release, err := s.Acquire(context.Background(), []*Slot{slot})
	if err != nil {
		t.Fatal(err)
	}
	waits := 0
	ctx := WithWaiting(context.Background(), func() {
		waits++
		release() // the first request ends while the second waits
	})
	_, again, err := s.Acquire(ctx, []*Slot{slot})
	if err != nil {
		t.Fatal(err)
	}
	again()
	if waits != 1 {
		t.Errorf("waiting was said %d times, want once", waits)
	}
	if _, r, _ := s.Acquire(ctx, []*Slot{slot}); waits != 1 {
		t.Errorf("a request that found room said it waited")
	} else {
		r()
	}
}
