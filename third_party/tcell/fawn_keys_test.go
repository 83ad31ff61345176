package tcell

import (
	"testing"
	"time"
)

// scanKeys runs bytes through the input processor and returns its key
// events.
func scanKeys(t *testing.T, b string) []*EventKey {
	t.Helper()
	ch := make(chan Event, 16)
	ip := NewInputProcessor(ch)
	ip.ScanUTF8([]byte(b))
	var out []*EventKey
	for {
		select {
		case ev := <-ch:
			if k, ok := ev.(*EventKey); ok {
				out = append(out, k)
			}
		case <-time.After(200 * time.Millisecond):
			return out
		}
	}
}

// Ctrl-H (0x08) is not the Backspace key (DEL): it carries Ctrl, so a
// terminal emulator can send 0x08 on as xterm does.
func TestCtrlHIsNotBackspace(t *testing.T) {
	evs := scanKeys(t, "\x08\x7f")
	if len(evs) != 2 {
		t.Fatalf("%d events", len(evs))
	}
	if evs[0].Key() != KeyBackspace || evs[0].Modifiers() != ModCtrl {
		t.Errorf("0x08: %s, want Ctrl+Backspace", evs[0].Name())
	}
	if evs[1].Key() != KeyBackspace || evs[1].Modifiers() != ModNone {
		t.Errorf("0x7f: %s, want Backspace", evs[1].Name())
	}
}

// The keypad in application mode (ESC O p … y and the operators) reads as
// the key it types, remembering its code; KP5 is no longer F6.
func TestKeypadInApplicationMode(t *testing.T) {
	cases := []struct {
		in    string
		key   Key
		r     rune
		final byte
	}{
		{"\x1bOu", KeyRune, '5', 'u'},
		{"\x1bOp", KeyRune, '0', 'p'},
		{"\x1bOy", KeyRune, '9', 'y'},
		{"\x1bOk", KeyRune, '+', 'k'},
		{"\x1bOl", KeyRune, ',', 'l'},
		{"\x1bOM", KeyEnter, 0, 'M'},
		{"\x1bOP", KeyF1, 0, 0},
		{"\x1bOA", KeyUp, 0, 0},
	}
	for _, c := range cases {
		evs := scanKeys(t, c.in)
		if len(evs) != 1 {
			t.Errorf("%q: %d events", c.in, len(evs))
			continue
		}
		ev := evs[0]
		final, ok := ev.Keypad()
		if ev.Key() != c.key || (c.key == KeyRune && ev.Rune() != c.r) || final != c.final || ok != (c.final != 0) || ev.Modifiers() != ModNone {
			t.Errorf("%q: %s keypad %q %v", c.in, ev.Name(), final, ok)
		}
	}
}
