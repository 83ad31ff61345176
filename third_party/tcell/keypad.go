package tcell

// fawn: the keypad in application mode.
//
// tcell puts the terminal's keypad in application mode (smkx), where its
// keys send ESC O and a letter (xterm's and the VT100's codes). Upstream
// read ESC O t … x as F5–F10 (the vt100 terminfo's aliases) and dropped the
// rest, so KP5 arrived as F6. Here each is the key it types in numeric mode
// ('5', '+', Enter), so a widget sees what the user meant, and the event
// remembers the letter, so a terminal emulator can send the code on to a
// program that asked for application mode itself.

// keypadFinals maps the letter after ESC O to what the key types.
var keypadFinals = map[rune]rune{
	'p': '0', 'q': '1', 'r': '2', 's': '3', 't': '4', 'u': '5', 'v': '6', 'w': '7', 'x': '8', 'y': '9',
	'j': '*', 'k': '+', 'l': ',', 'm': '-', 'n': '.', 'o': '/', 'X': '=', 'M': '\r',
}

// keypadKey is the event for the keypad key ESC O r sends, or nil.
func keypadKey(r rune) *EventKey {
	c, ok := keypadFinals[r]
	if !ok {
		return nil
	}
	var ev *EventKey
	if c == '\r' {
		ev = NewEventKey(KeyEnter, 0, ModNone)
	} else {
		ev = NewEventKey(KeyRune, c, ModNone)
	}
	ev.keypad = byte(r)
	return ev
}

// NewKeypadEvent is the event of the keypad key that sends ESC O final in
// application mode (final 'u' is KP5), or nil when final is none; for
// tests and input sources other than tcell's own.
func NewKeypadEvent(final byte) *EventKey { return keypadKey(rune(final)) }

// Keypad returns, for a key of the keypad read in application mode, the
// letter its code ends with (ESC O u: 'u'), and whether it is one.
func (ev *EventKey) Keypad() (final byte, ok bool) { return ev.keypad, ev.keypad != 0 }
