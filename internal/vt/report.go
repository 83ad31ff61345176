package vt

// SetTerminalName sets the name and version XTVERSION (CSI > q) answers,
// "fawn 1.2" say; the default is "x/vt".
func (e *Emulator) SetTerminalName(name string) { e.name = name }

func (e *Emulator) terminalName() string {
	if e.name == "" {
		return "x/vt"
	}
	return e.name
}

// eraseScreenBackground fills the screen with the pen's background after
// ED 2 or 3 cleared it, as xterm does (background colour erase); the
// other erasing functions fill with blankCell themselves.
func (e *Emulator) eraseScreenBackground() {
	if c := e.scr.blankCell(); c != nil {
		e.scr.FillArea(c, e.scr.Bounds())
	}
}
