package vt

import (
	"io"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// KeyMod represents a key modifier.
type KeyMod = uv.KeyMod

// Modifier keys.
const (
	ModShift = uv.ModShift
	ModAlt   = uv.ModAlt
	ModCtrl  = uv.ModCtrl
	ModMeta  = uv.ModMeta
)

// KeyPressEvent represents a key press event.
type KeyPressEvent = uv.KeyPressEvent

// SendKey sends the sequence of a key press to the terminal's program (see
// keySequence); other key events send nothing.
func (e *Emulator) SendKey(k uv.KeyEvent) {
	//nolint:godox
	// TODO: Support Kitty, CSI u, and XTerm modifyOtherKeys.
	key, ok := k.(KeyPressEvent)
	if !ok {
		return
	}
	seq := keySequence(key,
		e.isModeSet(ansi.ModeCursorKeys),    // Application cursor keys mode
		e.isModeSet(ansi.ModeNumericKeypad)) // Application keypad keys mode
	io.WriteString(e.pw, seq) //nolint:errcheck,gosec
}

// keySequence is what a key press sends: Alt puts ESC before the key's own
// sequence; a key with a sequence of its own (keySequences, cursorKeys,
// keypadKeys, control characters) sends it, and any other key its code when
// no other modifier is held (nothing when one is). ack and akk are the
// application cursor keys and application keypad modes.
func keySequence(key KeyPressEvent, ack, akk bool) string {
	var alt string
	if key.Mod&ModAlt != 0 {
		alt = "\x1b"
		key.Mod &^= ModAlt // Remove the Alt modifier for easier matching
	}

	//nolint:godox
	// FIXME: We remove any Base and Shifted codes to properly handle
	// comparison. This is a workaround for the fact that we don't support
	// extended keys yet.
	key.BaseCode = 0
	key.ShiftedCode = 0

	if seq, ok := namedKeySequence(key, ack, akk); ok {
		if key.Code == KeyKp8 && !akk {
			// The numeric keypad's 8 has always dropped the Alt prefix
			// (the other digits keep it); kept as it was.
			return seq
		}
		return alt + seq
	}
	if key.Mod == 0 {
		// Handle the rest of the keys.
		return alt + string(key.Code)
	}
	return alt
}

// namedKeySequence is the sequence of a key that has one of its own, and
// whether it has: only a press with no text, not a repeat, and with the
// modifiers of the tables (none; Ctrl for control characters; Shift for
// Tab).
func namedKeySequence(key KeyPressEvent, ack, akk bool) (string, bool) {
	if key.Text != "" || key.IsRepeat {
		return "", false
	}
	switch key.Mod {
	case 0:
		if seq, ok := keySequences[key.Code]; ok {
			return seq, true
		}
		if seq, ok := cursorKeys[key.Code]; ok {
			return seq.in(ack), true
		}
		if seq, ok := keypadKeys[key.Code]; ok {
			return seq.in(akk), true
		}
	case ModCtrl:
		return controlKey(key.Code)
	case ModShift:
		if key.Code == KeyTab {
			return "\x1b[Z", true
		}
	}
	return "", false
}

// controlKey is the control character Ctrl and a key send: NUL for Space,
// 0x01 to 0x1a for a to z, and ESC, FS, GS, RS and US for [ \ ] ^ _.
func controlKey(code rune) (string, bool) {
	switch {
	case code == KeySpace:
		return "\x00", true
	case code >= 'a' && code <= 'z', code >= '[' && code <= '_':
		return string(code & 0x1f), true
	}
	return "", false
}

// keySequences are the sequences of the keys no mode changes.
var keySequences = map[rune]string{
	KeyEnter:     "\r",
	KeyTab:       "\t",
	KeyBackspace: "\x7f",
	KeyEscape:    "\x1b",

	KeyInsert: "\x1b[2~",
	KeyDelete: "\x1b[3~",
	KeyHome:   "\x1b[H",
	KeyEnd:    "\x1b[F",
	KeyPgUp:   "\x1b[5~",
	KeyPgDown: "\x1b[6~",

	KeyF1:  "\x1bOP",
	KeyF2:  "\x1bOQ",
	KeyF3:  "\x1bOR",
	KeyF4:  "\x1bOS",
	KeyF5:  "\x1b[15~",
	KeyF6:  "\x1b[17~",
	KeyF7:  "\x1b[18~",
	KeyF8:  "\x1b[19~",
	KeyF9:  "\x1b[20~",
	KeyF10: "\x1b[21~",
	KeyF11: "\x1b[23~",
	KeyF12: "\x1b[24~",
}

// modeSequences are a key's sequence in a mode's normal and application
// forms.
type modeSequences [2]string

// in is the sequence in the application form if app, else the normal one.
func (m modeSequences) in(app bool) string {
	if app {
		return m[1]
	}
	return m[0]
}

// cursorKeys are the arrow keys, whose form DECCKM chooses.
var cursorKeys = map[rune]modeSequences{
	KeyUp:    {"\x1b[A", "\x1bOA"},
	KeyDown:  {"\x1b[B", "\x1bOB"},
	KeyRight: {"\x1b[C", "\x1bOC"},
	KeyLeft:  {"\x1b[D", "\x1bOD"},
}

// keypadKeys are the keypad's keys, whose form DECNKM chooses.
var keypadKeys = map[rune]modeSequences{
	KeyKp0:        {"0", "\x1bOp"},
	KeyKp1:        {"1", "\x1bOq"},
	KeyKp2:        {"2", "\x1bOr"},
	KeyKp3:        {"3", "\x1bOs"},
	KeyKp4:        {"4", "\x1bOt"},
	KeyKp5:        {"5", "\x1bOu"},
	KeyKp6:        {"6", "\x1bOv"},
	KeyKp7:        {"7", "\x1bOw"},
	KeyKp8:        {"8", "\x1bOx"},
	KeyKp9:        {"9", "\x1bOy"},
	KeyKpEnter:    {"\r", "\x1bOM"},
	KeyKpEqual:    {"=", "\x1bOX"},
	KeyKpMultiply: {"*", "\x1bOj"},
	KeyKpPlus:     {"+", "\x1bOk"},
	KeyKpComma:    {",", "\x1bOl"},
	KeyKpMinus:    {"-", "\x1bOm"},
	KeyKpDecimal:  {".", "\x1bOn"},
}

// Key codes.
const (
	KeyExtended         = uv.KeyExtended
	KeyUp               = uv.KeyUp
	KeyDown             = uv.KeyDown
	KeyRight            = uv.KeyRight
	KeyLeft             = uv.KeyLeft
	KeyBegin            = uv.KeyBegin
	KeyFind             = uv.KeyFind
	KeyInsert           = uv.KeyInsert
	KeyDelete           = uv.KeyDelete
	KeySelect           = uv.KeySelect
	KeyPgUp             = uv.KeyPgUp
	KeyPgDown           = uv.KeyPgDown
	KeyHome             = uv.KeyHome
	KeyEnd              = uv.KeyEnd
	KeyKpEnter          = uv.KeyKpEnter
	KeyKpEqual          = uv.KeyKpEqual
	KeyKpMultiply       = uv.KeyKpMultiply
	KeyKpPlus           = uv.KeyKpPlus
	KeyKpComma          = uv.KeyKpComma
	KeyKpMinus          = uv.KeyKpMinus
	KeyKpDecimal        = uv.KeyKpDecimal
	KeyKpDivide         = uv.KeyKpDivide
	KeyKp0              = uv.KeyKp0
	KeyKp1              = uv.KeyKp1
	KeyKp2              = uv.KeyKp2
	KeyKp3              = uv.KeyKp3
	KeyKp4              = uv.KeyKp4
	KeyKp5              = uv.KeyKp5
	KeyKp6              = uv.KeyKp6
	KeyKp7              = uv.KeyKp7
	KeyKp8              = uv.KeyKp8
	KeyKp9              = uv.KeyKp9
	KeyKpSep            = uv.KeyKpSep
	KeyKpUp             = uv.KeyKpUp
	KeyKpDown           = uv.KeyKpDown
	KeyKpLeft           = uv.KeyKpLeft
	KeyKpRight          = uv.KeyKpRight
	KeyKpPgUp           = uv.KeyKpPgUp
	KeyKpPgDown         = uv.KeyKpPgDown
	KeyKpHome           = uv.KeyKpHome
	KeyKpEnd            = uv.KeyKpEnd
	KeyKpInsert         = uv.KeyKpInsert
	KeyKpDelete         = uv.KeyKpDelete
	KeyKpBegin          = uv.KeyKpBegin
	KeyF1               = uv.KeyF1
	KeyF2               = uv.KeyF2
	KeyF3               = uv.KeyF3
	KeyF4               = uv.KeyF4
	KeyF5               = uv.KeyF5
	KeyF6               = uv.KeyF6
	KeyF7               = uv.KeyF7
	KeyF8               = uv.KeyF8
	KeyF9               = uv.KeyF9
	KeyF10              = uv.KeyF10
	KeyF11              = uv.KeyF11
	KeyF12              = uv.KeyF12
	KeyF13              = uv.KeyF13
	KeyF14              = uv.KeyF14
	KeyF15              = uv.KeyF15
	KeyF16              = uv.KeyF16
	KeyF17              = uv.KeyF17
	KeyF18              = uv.KeyF18
	KeyF19              = uv.KeyF19
	KeyF20              = uv.KeyF20
	KeyF21              = uv.KeyF21
	KeyF22              = uv.KeyF22
	KeyF23              = uv.KeyF23
	KeyF24              = uv.KeyF24
	KeyF25              = uv.KeyF25
	KeyF26              = uv.KeyF26
	KeyF27              = uv.KeyF27
	KeyF28              = uv.KeyF28
	KeyF29              = uv.KeyF29
	KeyF30              = uv.KeyF30
	KeyF31              = uv.KeyF31
	KeyF32              = uv.KeyF32
	KeyF33              = uv.KeyF33
	KeyF34              = uv.KeyF34
	KeyF35              = uv.KeyF35
	KeyF36              = uv.KeyF36
	KeyF37              = uv.KeyF37
	KeyF38              = uv.KeyF38
	KeyF39              = uv.KeyF39
	KeyF40              = uv.KeyF40
	KeyF41              = uv.KeyF41
	KeyF42              = uv.KeyF42
	KeyF43              = uv.KeyF43
	KeyF44              = uv.KeyF44
	KeyF45              = uv.KeyF45
	KeyF46              = uv.KeyF46
	KeyF47              = uv.KeyF47
	KeyF48              = uv.KeyF48
	KeyF49              = uv.KeyF49
	KeyF50              = uv.KeyF50
	KeyF51              = uv.KeyF51
	KeyF52              = uv.KeyF52
	KeyF53              = uv.KeyF53
	KeyF54              = uv.KeyF54
	KeyF55              = uv.KeyF55
	KeyF56              = uv.KeyF56
	KeyF57              = uv.KeyF57
	KeyF58              = uv.KeyF58
	KeyF59              = uv.KeyF59
	KeyF60              = uv.KeyF60
	KeyF61              = uv.KeyF61
	KeyF62              = uv.KeyF62
	KeyF63              = uv.KeyF63
	KeyCapsLock         = uv.KeyCapsLock
	KeyScrollLock       = uv.KeyScrollLock
	KeyNumLock          = uv.KeyNumLock
	KeyPrintScreen      = uv.KeyPrintScreen
	KeyPause            = uv.KeyPause
	KeyMenu             = uv.KeyMenu
	KeyMediaPlay        = uv.KeyMediaPlay
	KeyMediaPause       = uv.KeyMediaPause
	KeyMediaPlayPause   = uv.KeyMediaPlayPause
	KeyMediaReverse     = uv.KeyMediaReverse
	KeyMediaStop        = uv.KeyMediaStop
	KeyMediaFastForward = uv.KeyMediaFastForward
	KeyMediaRewind      = uv.KeyMediaRewind
	KeyMediaNext        = uv.KeyMediaNext
	KeyMediaPrev        = uv.KeyMediaPrev
	KeyMediaRecord      = uv.KeyMediaRecord
	KeyLowerVol         = uv.KeyLowerVol
	KeyRaiseVol         = uv.KeyRaiseVol
	KeyMute             = uv.KeyMute
	KeyLeftShift        = uv.KeyLeftShift
	KeyLeftAlt          = uv.KeyLeftAlt
	KeyLeftCtrl         = uv.KeyLeftCtrl
	KeyLeftSuper        = uv.KeyLeftSuper
	KeyLeftHyper        = uv.KeyLeftHyper
	KeyLeftMeta         = uv.KeyLeftMeta
	KeyRightShift       = uv.KeyRightShift
	KeyRightAlt         = uv.KeyRightAlt
	KeyRightCtrl        = uv.KeyRightCtrl
	KeyRightSuper       = uv.KeyRightSuper
	KeyRightHyper       = uv.KeyRightHyper
	KeyRightMeta        = uv.KeyRightMeta
	KeyIsoLevel3Shift   = uv.KeyIsoLevel3Shift
	KeyIsoLevel5Shift   = uv.KeyIsoLevel5Shift
	KeyBackspace        = uv.KeyBackspace
	KeyTab              = uv.KeyTab
	KeyEnter            = uv.KeyEnter
	KeyReturn           = uv.KeyReturn
	KeyEscape           = uv.KeyEscape
	KeyEsc              = uv.KeyEsc
	KeySpace            = uv.KeySpace
)
