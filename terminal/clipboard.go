package terminal

import "encoding/base64"

// Clipboard is the last text a program in the terminal copied with OSC 52
// (vim's "+y over OSC 52, tmux-aware tools), numbered so a view can tell a
// new copy from one it has seen. The terminal only keeps it: the view
// decides whether it reaches the user's clipboard (only from the pane with
// focus). A query of the clipboard is never answered.
type Clipboard struct {
	Seq  uint64 // 0: nothing copied yet
	Text string
}

// maxClipData is the most base64 a copy may have: the emulator keeps 64
// KB of a sequence (with its "52;c;"), so a longer copy arrives cut and
// is dropped rather than copied in part. About 48 KB of text.
const maxClipData = 64<<10 - 64

// clipboardWrite is the Clipboard after a write of data (base64, as
// sent); data that is not base64, empty or too long leaves it as it was.
func clipboardWrite(prev Clipboard, data string) Clipboard {
	if len(data) > maxClipData {
		return prev
	}
	text, err := base64.StdEncoding.DecodeString(data)
	if err != nil || len(text) == 0 {
		return prev
	}
	return Clipboard{Seq: prev.Seq + 1, Text: string(text)}
}

// Clipboard returns the last text a program copied (OSC 52).
func (t *Terminal) Clipboard() Clipboard { return t.scr.getClipboard() }
