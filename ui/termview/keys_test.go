package termview

import (
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/terminal"
)

func TestEncodeKey(t *testing.T) {
	normal := terminal.Modes{}
	app := terminal.Modes{AppCursor: true}
	cases := []struct {
		name string
		ev   *tcell.EventKey
		m    terminal.Modes
		want string
	}{
		{"rune", tcell.NewEventKey(tcell.KeyRune, 'a', tcell.ModNone), normal, "a"},
		{"unicode", tcell.NewEventKey(tcell.KeyRune, 'ü', tcell.ModNone), normal, "ü"},
		{"alt rune", tcell.NewEventKey(tcell.KeyRune, 'b', tcell.ModAlt), normal, "\x1bb"},
		{"ctrl-c", tcell.NewEventKey(tcell.KeyCtrlC, 'c', tcell.ModCtrl), normal, "\x03"},
		{"ctrl-c as rune", tcell.NewEventKey(tcell.KeyRune, 'c', tcell.ModCtrl), normal, "\x03"},
		{"ctrl-space", tcell.NewEventKey(tcell.KeyCtrlSpace, 0, tcell.ModCtrl), normal, "\x00"},
		{"ctrl-]", tcell.NewEventKey(tcell.KeyCtrlRightSq, 0, tcell.ModCtrl), normal, "\x1d"},
		{"alt-ctrl-a", tcell.NewEventKey(tcell.KeyCtrlA, 'a', tcell.ModCtrl|tcell.ModAlt), normal, "\x1b\x01"},
		{"enter", tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone), normal, "\r"},
		{"tab", tcell.NewEventKey(tcell.KeyTab, 0, tcell.ModNone), normal, "\t"},
		{"backtab", tcell.NewEventKey(tcell.KeyBacktab, 0, tcell.ModNone), normal, "\x1b[Z"},
		{"esc", tcell.NewEventKey(tcell.KeyEsc, 0, tcell.ModNone), normal, "\x1b"},
		{"backspace", tcell.NewEventKey(tcell.KeyBackspace, 0, tcell.ModNone), normal, "\x7f"},
		{"backspace2", tcell.NewEventKey(tcell.KeyBackspace2, 0, tcell.ModNone), normal, "\x7f"},
		{"alt-backspace", tcell.NewEventKey(tcell.KeyBackspace2, 0, tcell.ModAlt), normal, "\x1b\x7f"},
		{"up", tcell.NewEventKey(tcell.KeyUp, 0, tcell.ModNone), normal, "\x1b[A"},
		{"up app", tcell.NewEventKey(tcell.KeyUp, 0, tcell.ModNone), app, "\x1bOA"},
		{"ctrl-left", tcell.NewEventKey(tcell.KeyLeft, 0, tcell.ModCtrl), app, "\x1b[1;5D"},
		{"shift-right", tcell.NewEventKey(tcell.KeyRight, 0, tcell.ModShift), normal, "\x1b[1;2C"},
		{"home", tcell.NewEventKey(tcell.KeyHome, 0, tcell.ModNone), normal, "\x1b[H"},
		{"end app", tcell.NewEventKey(tcell.KeyEnd, 0, tcell.ModNone), app, "\x1bOF"},
		{"delete", tcell.NewEventKey(tcell.KeyDelete, 0, tcell.ModNone), normal, "\x1b[3~"},
		{"ctrl-delete", tcell.NewEventKey(tcell.KeyDelete, 0, tcell.ModCtrl), normal, "\x1b[3;5~"},
		{"pgdn", tcell.NewEventKey(tcell.KeyPgDn, 0, tcell.ModNone), normal, "\x1b[6~"},
		{"f1", tcell.NewEventKey(tcell.KeyF1, 0, tcell.ModNone), normal, "\x1bOP"},
		{"shift-f3", tcell.NewEventKey(tcell.KeyF3, 0, tcell.ModShift), normal, "\x1b[1;2R"},
		{"f5", tcell.NewEventKey(tcell.KeyF5, 0, tcell.ModNone), normal, "\x1b[15~"},
		{"f12", tcell.NewEventKey(tcell.KeyF12, 0, tcell.ModNone), normal, "\x1b[24~"},
		{"ctrl-h", tcell.NewEventKey(tcell.KeyBackspace, 0, tcell.ModCtrl), normal, "\x08"},
	}
	for _, c := range cases {
		if got := string(encodeKey(c.ev, c.m)); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
	if b := encodeKey(tcell.NewEventKey(tcell.KeyF40, 0, tcell.ModNone), normal); b != nil {
		t.Errorf("F40 encoded as %q", b)
	}
}

func TestEncodeMouse(t *testing.T) {
	sgr := terminal.Modes{Mouse: 1002, MouseSGR: true}
	x10 := terminal.Modes{Mouse: 1000}
	cases := []struct {
		name            string
		btn             mouseButton
		release, motion bool
		x, y            int
		mods            tcell.ModMask
		m               terminal.Modes
		want            string
	}{
		{"sgr press", 0, false, false, 4, 2, 0, sgr, "\x1b[<0;5;3M"},
		{"sgr release", 0, true, false, 4, 2, 0, sgr, "\x1b[<0;5;3m"},
		{"sgr drag", 0, false, true, 5, 2, 0, sgr, "\x1b[<32;6;3M"},
		{"sgr ctrl right", 2, false, false, 0, 0, tcell.ModCtrl, sgr, "\x1b[<18;1;1M"},
		{"sgr wheel", 65, false, false, 1, 1, 0, sgr, "\x1b[<65;2;2M"},
		{"sgr move without button", noButton, false, true, 1, 1, 0, sgr, ""},
		{"any-event move", noButton, false, true, 1, 1, 0, terminal.Modes{Mouse: 1003, MouseSGR: true}, "\x1b[<35;2;2M"},
		{"x10 press", 0, false, false, 0, 0, 0, x10, "\x1b[M !!"},
		{"x10 release", 2, true, false, 0, 0, 0, x10, "\x1b[M#!!"},
		{"x10 no motion", 0, false, true, 0, 0, 0, x10, ""},
		{"x10 too far", 0, false, false, 300, 0, 0, x10, ""},
		{"mode 9 no release", 0, true, false, 0, 0, 0, terminal.Modes{Mouse: 9}, ""},
		{"off", 0, false, false, 0, 0, 0, terminal.Modes{}, ""},
		{"urxvt press", 0, false, false, 4, 2, 0, terminal.Modes{Mouse: 1000, MouseURXVT: true}, "\x1b[32;5;3M"},
		{"urxvt release far", 2, true, false, 300, 2, 0, terminal.Modes{Mouse: 1000, MouseURXVT: true}, "\x1b[35;301;3M"},
		{"sgr wins over urxvt", 0, false, false, 4, 2, 0, terminal.Modes{Mouse: 1000, MouseSGR: true, MouseURXVT: true}, "\x1b[<0;5;3M"},
	}
	for _, c := range cases {
		if got := string(encodeMouse(c.btn, c.release, c.motion, c.x, c.y, c.mods, c.m)); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestDefaultKeys(t *testing.T) {
	k := DefaultKeys()
	if k.Action(tcell.NewEventKey(tcell.KeyPgUp, 0, tcell.ModShift)) != ActionScrollUp ||
		k.Action(tcell.NewEventKey(tcell.KeyPgDn, 0, tcell.ModShift)) != ActionScrollDown ||
		k.Action(tcell.NewEventKey(tcell.KeyCtrlC, 'c', tcell.ModCtrl)) != ActionInterrupt {
		t.Fatal("default bindings")
	}
	// Plain PgUp scrolls too, after the escape key; without it CaptureKey
	// sends it to the program (TestEveryKeyReachesTheProgram).
	if k.Action(tcell.NewEventKey(tcell.KeyPgUp, 0, tcell.ModNone)) != ActionScrollUp ||
		k.Action(tcell.NewEventKey(tcell.KeyCtrlBackslash, 0, tcell.ModCtrl)) != ActionEscape {
		t.Fatal("the escape key and PgUp after it")
	}
}
