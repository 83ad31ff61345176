package termview

import (
	"strconv"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/terminal"
)

// encodeKey turns a key event into the bytes xterm would send for it, given
// the modes the program set; nil when the key has no encoding.
func encodeKey(ev *tcell.EventKey, m terminal.Modes) []byte {
	mods := ev.Modifiers()
	alt := mods&tcell.ModAlt != 0
	k := ev.Key()

	var b []byte
	switch {
	case k == tcell.KeyRune:
		r := ev.Rune()
		if mods&tcell.ModCtrl != 0 {
			if c, ok := ctrlByte(r); ok {
				b = []byte{c}
				break
			}
		}
		b = utf8.AppendRune(nil, r)
	case k >= tcell.KeyCtrlSpace && k <= tcell.KeyCtrlUnderscore:
		// Ctrl-@ … Ctrl-_: C0 control bytes 0x00-0x1f.
		b = []byte{byte(k - tcell.KeyCtrlSpace)}
	case k == tcell.KeyEnter:
		b = []byte{'\r'}
	case k == tcell.KeyTab:
		b = []byte{'\t'}
	case k == tcell.KeyBacktab:
		return []byte("\x1b[Z")
	case k == tcell.KeyEsc:
		b = []byte{0x1b}
	case k == tcell.KeyBackspace || k == tcell.KeyBackspace2:
		if mods&tcell.ModCtrl != 0 {
			b = []byte{0x08}
		} else {
			b = []byte{0x7f}
		}
	case k < ' ':
		// Any other C0 key tcell reports by its ASCII value.
		b = []byte{byte(k)}
	default:
		return specialKey(k, modParam(mods), m)
	}
	if alt {
		return append([]byte{0x1b}, b...)
	}
	return b
}

// ctrlByte maps Ctrl+rune (as terminals with extended key reporting send
// it) to its control byte.
func ctrlByte(r rune) (byte, bool) {
	switch {
	case r >= 'a' && r <= 'z':
		return byte(r-'a') + 1, true
	case r >= 'A' && r <= 'Z':
		return byte(r-'A') + 1, true
	case r == ' ' || r == '@' || r == '2':
		return 0, true
	case r == '[' || r == '3':
		return 0x1b, true
	case r == '\\' || r == '4':
		return 0x1c, true
	case r == ']' || r == '5':
		return 0x1d, true
	case r == '^' || r == '6':
		return 0x1e, true
	case r == '_' || r == '/' || r == '7':
		return 0x1f, true
	case r == '?' || r == '8':
		return 0x7f, true
	}
	return 0, false
}

// modParam is xterm's modifier parameter: 1 + shift + 2·alt + 4·ctrl, or 0
// for none.
func modParam(mods tcell.ModMask) int {
	p := 0
	if mods&tcell.ModShift != 0 {
		p |= 1
	}
	if mods&tcell.ModAlt != 0 {
		p |= 2
	}
	if mods&tcell.ModCtrl != 0 {
		p |= 4
	}
	if p == 0 {
		return 0
	}
	return p + 1
}

// specialKey encodes cursor, editing and function keys.
func specialKey(k tcell.Key, mod int, m terminal.Modes) []byte {
	// Keys sent as CSI/SS3 + a final letter.
	letter := map[tcell.Key]byte{
		tcell.KeyUp: 'A', tcell.KeyDown: 'B', tcell.KeyRight: 'C', tcell.KeyLeft: 'D',
		tcell.KeyHome: 'H', tcell.KeyEnd: 'F',
		tcell.KeyF1: 'P', tcell.KeyF2: 'Q', tcell.KeyF3: 'R', tcell.KeyF4: 'S',
	}
	if c, ok := letter[k]; ok {
		isF := k >= tcell.KeyF1 && k <= tcell.KeyF4
		switch {
		case mod != 0:
			return []byte("\x1b[1;" + strconv.Itoa(mod) + string(c))
		case isF || m.AppCursor:
			return []byte{0x1b, 'O', c}
		}
		return []byte{0x1b, '[', c}
	}
	// Keys sent as CSI number ~.
	num := map[tcell.Key]int{
		tcell.KeyInsert: 2, tcell.KeyDelete: 3, tcell.KeyPgUp: 5, tcell.KeyPgDn: 6,
		tcell.KeyF5: 15, tcell.KeyF6: 17, tcell.KeyF7: 18, tcell.KeyF8: 19,
		tcell.KeyF9: 20, tcell.KeyF10: 21, tcell.KeyF11: 23, tcell.KeyF12: 24,
	}
	if n, ok := num[k]; ok {
		s := "\x1b[" + strconv.Itoa(n)
		if mod != 0 {
			s += ";" + strconv.Itoa(mod)
		}
		return []byte(s + "~")
	}
	return nil
}

// mouseButton is the xterm button number of a press: 0 left, 1 middle,
// 2 right, 64/65 wheel up/down, 66/67 wheel left/right.
type mouseButton int

const noButton mouseButton = -1

// encodeMouse encodes a mouse report at cell x, y (0-based) in the encoding
// the program asked for; nil when its mode does not report this event.
func encodeMouse(btn mouseButton, release, motion bool, x, y int, mods tcell.ModMask, m terminal.Modes) []byte {
	switch m.Mouse {
	case 0:
		return nil
	case 9: // X10: presses only, no modifiers
		if release || motion {
			return nil
		}
		mods = 0
	case 1000:
		if motion {
			return nil
		}
	case 1002:
		if motion && btn == noButton {
			return nil
		}
	}
	code := int(btn)
	if btn == noButton {
		code = 3
	}
	if motion {
		code += 32
	}
	if mods&tcell.ModShift != 0 {
		code += 4
	}
	if mods&tcell.ModAlt != 0 {
		code += 8
	}
	if mods&tcell.ModCtrl != 0 {
		code += 16
	}
	if m.MouseSGR {
		final := "M"
		if release {
			final = "m"
		}
		return []byte("\x1b[<" + strconv.Itoa(code) + ";" + strconv.Itoa(x+1) + ";" + strconv.Itoa(y+1) + final)
	}
	if release {
		code = 3 | code&^3 // X10 reports every release as button 3
	}
	if m.MouseURXVT {
		// urxvt's: X10's codes in decimal, without its 223-cell limit.
		return []byte("\x1b[" + strconv.Itoa(32+code) + ";" + strconv.Itoa(x+1) + ";" + strconv.Itoa(y+1) + "M")
	}
	if x+1+32 > 255 || y+1+32 > 255 {
		return nil // beyond what the byte encoding can say
	}
	return []byte{0x1b, '[', 'M', byte(32 + code), byte(32 + x + 1), byte(32 + y + 1)}
}
