package chat

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/ui/commands"
)

// typeVim types keys into in: runes as they are, <Esc> <CR> <BS> and
// <C-r> as those keys.
func typeVim(in *Input, keys string) {
	h := in.InputHandler()
	for len(keys) > 0 {
		var ev *tcell.EventKey
		switch {
		case len(keys) >= 5 && keys[:5] == "<Esc>":
			ev, keys = tcell.NewEventKey(tcell.KeyEscape, 0, tcell.ModNone), keys[5:]
		case len(keys) >= 4 && keys[:4] == "<CR>":
			ev, keys = tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone), keys[4:]
		case len(keys) >= 5 && keys[:5] == "<C-r>":
			ev, keys = tcell.NewEventKey(tcell.KeyCtrlR, 0, tcell.ModCtrl), keys[5:]
		default:
			r := []rune(keys)[0]
			ev, keys = tcell.NewEventKey(tcell.KeyRune, r, tcell.ModNone), keys[len(string(r)):]
		}
		h(ev, nil)
	}
}

func vimInput(t *testing.T, text string, at int) *Input {
	t.Helper()
	in := NewInput(darkCtx().Th, ChatKeys(), commands.New())
	in.SetRect(0, 0, 60, 4)
	in.SetVimKeys(true)
	in.SetText(text, false)
	typeVim(in, "<Esc>") // to normal mode, as a user starts
	in.Select(at, at)
	return in
}

// The chat input's normal mode: motions and operators on the text, with
// the cursor where vim leaves it.
func TestChatVimNormalMode(t *testing.T) {
	for _, c := range []struct {
		text string
		at   int
		keys string
		want string
		cur  int
	}{
		{"foo bar baz", 0, "dw", "bar baz", 0},
		{"foo bar baz", 0, "2dw", "baz", 0},
		{"foo bar baz", 4, "cwxy<Esc>", "foo xy baz", 5},
		{"foo bar baz", 4, "diw", "foo  baz", 4},
		{"foo bar baz", 5, "daw", "foo baz", 4},
		{"foo bar baz", 0, "D", "", 0},
		{"foo bar baz", 4, "D", "foo ", 3},
		{"foo bar baz", 0, "x", "oo bar baz", 0},
		{"foo bar baz", 0, "3x", " bar baz", 0},
		{"foo bar baz", 0, "$x", "foo bar ba", 9},
		{"foo bar baz", 0, "wwdb", "foo baz", 4},
		{"foo bar baz", 0, "de", " bar baz", 0},
		{"foo bar baz", 0, "fbD", "foo ", 3},
		{"foo bar baz", 0, "tzd0", "az", 0},
		{"foo bar baz", 0, "yiwwP", "foo foobar baz", 6},
		{"foo bar baz", 0, "ylp", "ffoo bar baz", 1},
		{"foo bar baz", 0, "rX", "Xoo bar baz", 0},
		{"foo bar baz", 0, "3~", "FOO bar baz", 3},
		{"foo bar baz", 0, "AZ<Esc>", "foo bar bazZ", 11},
		{"foo bar baz", 4, "IZ<Esc>", "Zfoo bar baz", 0},
		{"foo bar baz", 0, "aZ<Esc>", "fZoo bar baz", 1},
		{"f(a, b) x", 3, "di(", "f() x", 2},
		{"say \"hi there\" now", 7, "ci\"yo<Esc>", "say \"yo\" now", 6},
		{"one\ntwo\nthree", 4, "dd", "one\nthree", 4},
		{"one\ntwo\nthree", 4, "yyp", "one\ntwo\ntwo\nthree", 8},
		{"one\ntwo\nthree", 0, "jx", "one\nwo\nthree", 4},
		{"one\ntwo\nthree", 0, "ccnew<Esc>", "new\ntwo\nthree", 2},
		{"foo bar", 0, "dwu", "foo bar", 0},
		{"foo bar", 0, "dwu<C-r>", "bar", 0},
	} {
		in := vimInput(t, c.text, c.at)
		typeVim(in, c.keys)
		_, cur, _ := in.GetSelection()
		if got := in.GetText(); got != c.want || cur != c.cur {
			t.Errorf("%q from %d on %q: %q at %d, want %q at %d", c.keys, c.at, c.text, got, cur, c.want, c.cur)
		}
		if in.VimMode() != "NORMAL" {
			t.Errorf("%q: mode %s after, want NORMAL", c.keys, in.VimMode())
		}
	}
}

// Esc in insert mode goes to normal mode and cancels nothing; a second Esc
// cancels the turn as Esc does without vim keys. Enter in normal mode sends.
func TestChatVimEscAndEnter(t *testing.T) {
	in := NewInput(darkCtx().Th, ChatKeys(), commands.New())
	in.SetVimKeys(true)
	cancels := 0
	var sent []string
	in.OnCancel = func() { cancels++ }
	in.OnSubmit = func(text string) { sent = append(sent, text) }
	typeVim(in, "hello")
	if in.GetText() != "hello" || in.VimMode() != "INSERT" {
		t.Fatalf("typing in insert mode: %q (%s)", in.GetText(), in.VimMode())
	}
	typeVim(in, "<Esc>")
	if in.VimMode() != "NORMAL" || cancels != 0 {
		t.Fatalf("the first Esc: mode %s, %d cancels; want NORMAL and none", in.VimMode(), cancels)
	}
	typeVim(in, "<Esc>")
	if cancels != 1 {
		t.Errorf("the second Esc cancelled %d times, want once", cancels)
	}
	typeVim(in, "<CR>")
	if len(sent) != 1 || sent[0] != "hello" {
		t.Errorf("Enter in normal mode sent %q, want [hello]", sent)
	}
	if in.VimMode() != "INSERT" {
		t.Errorf("after sending the mode is %s, want INSERT for the next message", in.VimMode())
	}
}

// A key the chat's normal mode has not built says so and does not type.
func TestChatVimNotBuiltSaysSo(t *testing.T) {
	in := vimInput(t, "foo", 0)
	typeVim(in, "Q")
	if in.GetText() != "foo" {
		t.Errorf("Q changed the text: %q", in.GetText())
	}
	scr := simScreen(t, 60, 4)
	in.Draw(scr)
	scr.Show()
	if got := screenText(scr); !strings.Contains(got, "Q not built in the chat") {
		t.Errorf("the input does not say Q is not built:\n%s", got)
	}
}

// k on the first line and j on the last recall the history, as Up and
// Down do.
func TestChatVimHistory(t *testing.T) {
	in := NewInput(darkCtx().Th, ChatKeys(), commands.New())
	in.SetVimKeys(true)
	in.AddHistory("earlier")
	typeVim(in, "now<Esc>k")
	if in.GetText() != "earlier" {
		t.Errorf("k on the first line shows %q, want the previous message", in.GetText())
	}
	typeVim(in, "j")
	if in.GetText() != "now" {
		t.Errorf("j on the last line shows %q, want the draft back", in.GetText())
	}
}

// Vim's <Esc> in the chat input is ChatVimKeys' key: bound to Ctrl-],
// Esc no longer leaves insert mode and Ctrl-] does.
func TestChatVimEscapeIsRebindable(t *testing.T) {
	keys := ChatVimKeys()
	if unknown, err := keys.Override(map[string][]string{"chat.vim_normal": {"ctrl+]"}}); err != nil || len(unknown) > 0 {
		t.Fatalf("override: %v %v", unknown, err)
	}
	in := NewInput(darkCtx().Th, ChatKeys(), commands.New())
	in.SetRect(0, 0, 60, 4)
	in.SetVimKeyTable(keys)
	in.SetVimKeys(true)
	in.SetText("hello", true)
	typeVim(in, "<Esc>")
	if in.VimMode() != "INSERT" {
		t.Fatalf("Esc left insert mode after chat.vim_normal was bound to Ctrl-]: %s", in.VimMode())
	}
	in.InputHandler()(tcell.NewEventKey(tcell.KeyRune, ']', tcell.ModCtrl), nil)
	if in.VimMode() != "NORMAL" {
		t.Fatalf("Ctrl-] did not leave insert mode: %s", in.VimMode())
	}
	typeVim(in, "0x")
	if got := in.GetText(); got != "ello" {
		t.Fatalf("normal mode 0x gave %q", got)
	}
}
