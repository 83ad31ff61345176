package desktop

import "testing"

func TestNotificationSequences(t *testing.T) {
	for _, c := range []struct {
		method string
		tmux   bool
		want   string
	}{
		{"osc9", false, "\x1b]9;fawn — p: bash wants to run a command\x07"},
		{"osc777", false, "\x1b]777;notify;fawn — p;bash wants to run a command\x07"},
		{"osc9", true, "\x1bPtmux;\x1b\x1b]9;fawn — p: bash wants to run a command\x07\x1b\\"},
	} {
		if got := string(Notification(c.method, "fawn — p", "bash wants to run a command", c.tmux)); got != c.want {
			t.Errorf("%s tmux=%v: %q, want %q", c.method, c.tmux, got, c.want)
		}
	}
	// Text from the model cannot smuggle in a sequence of its own.
	got := string(Notification("osc777", "a;b", "x\x1b]52;c;AAAA\x07y", false))
	if got != "\x1b]777;notify;a,b;x␛]52;c;AAAA␇y\x07" {
		t.Errorf("escape not shown as its picture: %q", got)
	}
}
