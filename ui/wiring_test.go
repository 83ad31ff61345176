package ui

import (
	"github.com/fawn-ide/fawn/ui/chat"
	"github.com/fawn-ide/fawn/ui/editor"
	"github.com/fawn-ide/fawn/ui/termview"
)

// The panes fawn wires in have every optional method the App looks for on
// them; a signature that drifts fails the build of these tests instead of
// quietly turning a feature off (tabs kept with a session, diffs, recovery).
var (
	_ EditorPane     = (*editor.Tabs)(nil)
	_ tabbedEditor   = (*editor.Tabs)(nil)
	_ recoveryEditor = (*editor.Tabs)(nil)
	_ unsavedEditor  = (*editor.Tabs)(nil)
	_ TerminalPane   = (*termview.View)(nil)

	_ chat.ShellRunner = (*termview.View)(nil)
)
