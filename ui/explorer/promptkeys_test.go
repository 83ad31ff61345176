package explorer

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// The explorer's questions answer by their tables' keys: rebound, the new
// keys act, the old ones do not, and the question names the keys.
func TestPromptKeysAreRebindable(t *testing.T) {
	ask := DefaultPromptKeys()
	for tb, over := range map[int]map[string][]string{
		0: {"explorer.answer_yes": {"j"}, "explorer.answer_no": {"k"}},
		1: {"explorer.name_done": {"ctrl+o"}, "explorer.name_clear": {"ctrl+l"}},
	} {
		if unknown, err := ask.Tables()[tb].Override(over); err != nil || len(unknown) > 0 {
			t.Fatalf("override: %v %v", unknown, err)
		}
	}
	f := newFixture(t, map[string]string{"a.go": "package a\n", "keep.txt": "keep\n"}, WithPromptKeys(ask))

	f.selectRow("a.go")
	f.key(tcell.KeyRune, 'r')
	f.key(tcell.KeyCtrlU, 0)
	f.ex.HandleKey(tcell.NewEventKey(tcell.KeyCtrlL, 0, tcell.ModCtrl))
	f.typeText("b.go")
	f.key(tcell.KeyEnter, 0)
	if f.exists("b.go") || f.ex.prompt != promptRename {
		t.Fatal("Enter still renames after name_done was bound to Ctrl-O")
	}
	f.ex.HandleKey(tcell.NewEventKey(tcell.KeyCtrlO, 0, tcell.ModCtrl))
	if !f.exists("b.go") || f.exists("a.go") {
		t.Fatal("Ctrl-O did not rename (Ctrl-L clearing the name first)")
	}

	f.until("the renamed file shown", func() bool { return f.has("b.go") })
	f.selectRow("keep.txt")
	f.key(tcell.KeyRune, 'd')
	if s := f.screen(60, 10); !strings.Contains(s, "delete keep.txt? j/k") {
		t.Fatalf("the question does not name the bound keys:\n%s", s)
	}
	f.key(tcell.KeyRune, 'y')
	f.key(tcell.KeyRune, 'n')
	f.key(tcell.KeyEscape, 0)
	if !f.exists("keep.txt") || f.ex.prompt != promptDelete {
		t.Fatal("y, n or Esc still answer after the answers were bound to j and k")
	}
	f.key(tcell.KeyRune, 'J')
	if f.exists("keep.txt") {
		t.Fatal("J (j in either case) did not delete")
	}
}
