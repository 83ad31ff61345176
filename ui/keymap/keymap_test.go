package keymap

import (
	"testing"

	"github.com/gdamore/tcell/v2"
)

func TestActionMatchesTcellEvents(t *testing.T) {
	tb := New("Test",
		Binding{Action: "save", Keys: []string{"ctrl+s"}},
		Binding{Action: "tab1", Keys: []string{"alt+1"}},
		Binding{Action: "help", Keys: []string{"f1", "?"}},
		Binding{Action: "scroll", Keys: []string{"shift+pgup"}},
	)
	cases := []struct {
		ev   *tcell.EventKey
		want Action
	}{
		{tcell.NewEventKey(tcell.KeyCtrlS, 0, tcell.ModCtrl), "save"},
		{tcell.NewEventKey(tcell.KeyRune, 's', tcell.ModCtrl), "save"},
		{tcell.NewEventKey(tcell.KeyRune, '1', tcell.ModAlt), "tab1"},
		{tcell.NewEventKey(tcell.KeyRune, '1', tcell.ModNone), ""},
		{tcell.NewEventKey(tcell.KeyF1, 0, tcell.ModNone), "help"},
		{tcell.NewEventKey(tcell.KeyRune, '?', tcell.ModShift), "help"},
		{tcell.NewEventKey(tcell.KeyPgUp, 0, tcell.ModShift), "scroll"},
		{tcell.NewEventKey(tcell.KeyPgUp, 0, tcell.ModNone), ""},
	}
	for _, c := range cases {
		if got := tb.Action(c.ev); got != c.want {
			t.Errorf("%s: got %q, want %q", c.ev.Name(), got, c.want)
		}
	}
}

func TestOverride(t *testing.T) {
	tb := New("Test", Binding{Action: "save", Keys: []string{"ctrl+s"}})
	unknown, err := tb.Override(map[string][]string{"save": {"ctrl+w"}, "nope": {"x"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(unknown) != 1 || unknown[0] != "nope" {
		t.Fatalf("unknown = %v", unknown)
	}
	if tb.Action(tcell.NewEventKey(tcell.KeyCtrlW, 0, tcell.ModCtrl)) != "save" {
		t.Fatal("override not applied")
	}
	if tb.Action(tcell.NewEventKey(tcell.KeyCtrlS, 0, tcell.ModCtrl)) != "" {
		t.Fatal("old key still bound")
	}
	if _, err := tb.Override(map[string][]string{"save": {"hyper+x"}}); err == nil {
		t.Fatal("bad modifier accepted")
	}
}

func TestDisplay(t *testing.T) {
	for in, want := range map[string]string{"ctrl+s": "Ctrl-S", "alt+shift+up": "Alt-Shift-Up", "f1": "F1", "shift+pgup": "Shift-PgUp",
		"y": "y", "G": "G", "space": "Space", "alt+>": "Alt->", "alt+-": "Alt--", "esc": "Esc"} {
		if got := Display(in); got != want {
			t.Errorf("Display(%q) = %q, want %q", in, got, want)
		}
	}
}

// A capital letter is its own key: "G" (go to the last message) is not "g"
// (the first), and Shift-G reaches it.
func TestCapitalLettersAreTheirOwnKeys(t *testing.T) {
	tb := New("Test",
		Binding{Action: "top", Keys: []string{"g"}},
		Binding{Action: "bottom", Keys: []string{"G"}},
		Binding{Action: "code", Keys: []string{"shift+y"}},
		Binding{Action: "save", Keys: []string{"Ctrl+S"}},
	)
	cases := []struct {
		ev   *tcell.EventKey
		want Action
	}{
		{tcell.NewEventKey(tcell.KeyRune, 'g', tcell.ModNone), "top"},
		{tcell.NewEventKey(tcell.KeyRune, 'G', tcell.ModShift), "bottom"},
		{tcell.NewEventKey(tcell.KeyRune, 'G', tcell.ModNone), "bottom"},
		{tcell.NewEventKey(tcell.KeyRune, 'Y', tcell.ModShift), "code"},
		{tcell.NewEventKey(tcell.KeyCtrlS, 0, tcell.ModCtrl), "save"},
	}
	for _, c := range cases {
		if got := tb.Action(c.ev); got != c.want {
			t.Errorf("%s: got %q, want %q", c.ev.Name(), got, c.want)
		}
	}
}

// Ctrl-\ and its neighbours arrive from a legacy terminal as tcell's
// KeyCtrlBackslash…KeyCtrlUnderscore and from one with extended key
// reporting as the rune with Ctrl; "ctrl+\" matches both.
func TestCtrlPunctuationMatchesBothForms(t *testing.T) {
	tb := New("Test",
		Binding{Action: "escape", Keys: []string{"ctrl+\\"}},
		Binding{Action: "under", Keys: []string{"ctrl+_"}},
	)
	cases := []struct {
		ev   *tcell.EventKey
		want Action
	}{
		{tcell.NewEventKey(tcell.KeyCtrlBackslash, 0, tcell.ModCtrl), "escape"},
		{tcell.NewEventKey(tcell.KeyRune, '\\', tcell.ModCtrl), "escape"},
		{tcell.NewEventKey(tcell.KeyCtrlUnderscore, 0, tcell.ModCtrl), "under"},
		{tcell.NewEventKey(tcell.KeyRune, '\\', tcell.ModNone), ""},
	}
	for _, c := range cases {
		if got := tb.Action(c.ev); got != c.want {
			t.Errorf("%s: got %q, want %q", c.ev.Name(), got, c.want)
		}
	}
}

// tcell reports the Backspace key as KeyBackspace (whatever it was
// created with) and 0x08 as KeyBackspace with Ctrl: "backspace",
// "ctrl+backspace" and "alt+backspace" match them.
func TestBackspaceMatches(t *testing.T) {
	tb := New("Test",
		Binding{Action: "back", Keys: []string{"backspace"}},
		Binding{Action: "word", Keys: []string{"ctrl+backspace"}},
		Binding{Action: "alt", Keys: []string{"alt+backspace"}},
	)
	cases := []struct {
		ev   *tcell.EventKey
		want Action
	}{
		{tcell.NewEventKey(tcell.KeyBackspace2, 0, tcell.ModNone), "back"},
		{tcell.NewEventKey(tcell.KeyBackspace, 0, tcell.ModNone), "back"},
		{tcell.NewEventKey(tcell.KeyBackspace, 0, tcell.ModCtrl), "word"},
		{tcell.NewEventKey(tcell.KeyBackspace2, 0, tcell.ModAlt), "alt"},
	}
	for _, c := range cases {
		if got := tb.Action(c.ev); got != c.want {
			t.Errorf("%s: got %q, want %q", c.ev.Name(), got, c.want)
		}
	}
}

// ActionFold lets a capital letter find its small letter's binding, unless
// the capital is bound itself.
func TestActionFold(t *testing.T) {
	tb := New("Test", Binding{Action: "yes", Keys: []string{"y"}}, Binding{Action: "revert", Keys: []string{"R"}}, Binding{Action: "down", Keys: []string{"r"}})
	for _, c := range []struct {
		r    rune
		want Action
	}{{'y', "yes"}, {'Y', "yes"}, {'R', "revert"}, {'r', "down"}, {'x', ""}, {'X', ""}} {
		if got := tb.ActionFold(tcell.NewEventKey(tcell.KeyRune, c.r, tcell.ModNone)); got != c.want {
			t.Errorf("%c: %q, want %q", c.r, got, c.want)
		}
	}
	if got := tb.Action(tcell.NewEventKey(tcell.KeyRune, 'Y', tcell.ModNone)); got != "" {
		t.Errorf("Action folds case: %q", got)
	}
}

// A Scope checks keys of several tables in force at once together.
func TestScopeConflicts(t *testing.T) {
	a := New("Question", Binding{Action: "save", Keys: []string{"s"}})
	b := New("Prompt", Binding{Action: "cancel", Keys: []string{"esc"}}, Binding{Action: "clear", Keys: []string{"ctrl+u"}})
	if c := Conflicts(nil, nil, []*Table{a, b}); len(c) != 0 {
		t.Fatalf("separate tables conflict: %v", c)
	}
	if _, err := a.Override(map[string][]string{"save": {"esc"}}); err != nil {
		t.Fatal(err)
	}
	c := Conflicts(nil, nil, []*Table{Scope("Question", a.Bindings, b.Only("cancel"))})
	if len(c) != 1 || c[0].A != "save" || c[0].B != "cancel" {
		t.Fatalf("conflicts %v", c)
	}
	if got := b.Hint("clear"); got != "Ctrl-U" {
		t.Errorf("Hint = %q", got)
	}
}
