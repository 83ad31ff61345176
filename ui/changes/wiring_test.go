package changes

import "github.com/fawn-ide/fawn/ui/editor"

// The editor fawn wires in has every optional method a Tracker looks for
// on it; a signature that drifts fails the build of this test instead of
// quietly turning diffs, recorded saves, reverts or the three versions off.
var (
	_ Editor        = (*editor.Tabs)(nil)
	_ diffEditor    = (*editor.Tabs)(nil)
	_ saveHooked    = (*editor.Tabs)(nil)
	_ revertHooked  = (*editor.Tabs)(nil)
	_ versionEditor = (*editor.Tabs)(nil)
)
