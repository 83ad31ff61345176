package editor

import (
	"fmt"
	"strings"

	"github.com/fawn-ide/fawn/ui/keymap"
)

func (t *Tabs) newWelcome() *tab {
	tb := &tab{welcome: true, readOnly: true, title: "Welcome", source: welcomeText(t.keys)}
	tb.buf = NewBuffer([]byte(tb.source))
	v := newCodeView(tb.buf, t.th, t.keys, nil, t.box, t.clip)
	v.readOnly, v.noGutter, v.wrap = true, true, true
	d := make([]decor, tb.buf.LineCount())
	d[1].fg = t.th.Accent
	v.setDecor(d, true)
	t.hookView(tb, v)
	tb.view = v
	return tb
}

// welcomeText introduces the editor with the keys of the table in use.
func welcomeText(keys *keymap.Table) string {
	k := func(action keymap.Action) string {
		ks := keys.Keys(action)
		if len(ks) == 0 {
			return "(unbound)"
		}
		return keymap.Display(ks[0])
	}
	rows := [][2]string{
		{k(actFinder), "open a project file"},
		{k(actSave), "save"},
		{k(actFind), "find in the file (" + k(actFindNext) + " for the next match)"},
		{k(actGotoLine), "go to a line"},
		{k(actDiff), "show the agent's last edit to the file as a diff"},
		{"r R o", "in a diff: revert the hunk, revert the file, open the file at the hunk"},
		{"s", "in a diff: side by side (when the editor is wide) or unified"},
		{k(actTab+"1") + "…9", "go to a tab; " + k(actNextTab) + " / " + k(actPrevTab) + " next and previous"},
		{k(actClose), "close the tab"},
	}
	var sb strings.Builder
	sb.WriteString("\n  fawn editor\n\n")
	sb.WriteString("  Files open here as the agent reads and edits them; the lines\n" +
		"  it changes are marked in the gutter. On a tab, " + string(markAgent) + " means\n" +
		"  changed by the agent since you last looked, " + string(markUnsaved) + " unsaved\n" +
		"  changes. While a file has unsaved changes, the agent may\n" +
		"  not edit it.\n\n")
	for _, r := range rows {
		fmt.Fprintf(&sb, "  %-11s %s\n", r[0], r[1])
	}
	return sb.String()
}
