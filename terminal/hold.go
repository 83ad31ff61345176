package terminal

// HoldEmulator takes the emulator as a write of output does, until release
// is called: for tests of views, which check that drawing and keys never
// wait for the emulator while it parses.
func (t *Terminal) HoldEmulator() (release func()) {
	t.scr.mu.Lock()
	return t.scr.mu.Unlock
}
