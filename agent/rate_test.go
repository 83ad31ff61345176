package agent

import (
	"testing"
	"time"
)

func TestGenDurationNeverMakesAnAbsurdRate(t *testing.T) {
	begin := time.Unix(1000, 0)
	cases := []struct {
		name       string
		first, end time.Duration // after begin
		want       time.Duration
	}{
		{"a real stream counts from its first chunk", 2 * time.Second, 10 * time.Second, 8 * time.Second},
		{"a burst counts from the request", 900 * time.Millisecond, 901 * time.Millisecond, 901 * time.Millisecond},
		{"no chunk at all counts from the request", -1, 3 * time.Second, 3 * time.Second},
	}
	for _, c := range cases {
		first := time.Time{}
		if c.first >= 0 {
			first = begin.Add(c.first)
		}
		if got := genDuration(begin, first, begin.Add(c.end)); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
