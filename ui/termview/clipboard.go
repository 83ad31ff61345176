package termview

// takeClipboard hands a program's new OSC 52 copy to the clipboard when
// the pane has focus, as tmux passes a copy on from the active pane; a
// copy made meanwhile in a pane without focus is dropped. Reads of the
// clipboard are never answered (terminal.Clipboard).
func (v *View) takeClipboard() {
	c := v.term.Clipboard()
	if c.Seq == v.clipSeen {
		return
	}
	v.clipSeen = c.Seq
	if v.HasFocus() && v.onCopy != nil {
		v.onCopy(c.Text)
	}
}
