// Package render owns what fawn's widgets draw with and nothing that knows
// the App: the cell Buffer the frame is drawn on and diffed into the real
// screen (with the guard that never hands the terminal a control
// character, and the mapping of RGB colours to a terminal's palette),
// styled text (Span, Line) with its width, wrapping, truncation and
// sanitizing of untrusted text, drawing a Line or a plain string, Kept for
// a widget that skips redrawing what a chat-only frame would draw the
// same, and syntax highlighting with chroma (lexers from ui/syntax).
//
// It may import theme, syntax and internal packages (safetext, words); ui and its other
// sub-packages import it, never the other way round. Everything here runs
// on the UI goroutine.
package render
