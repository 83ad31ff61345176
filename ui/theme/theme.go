// Package theme holds fawn's colours: one Theme per ui.theme value (dark,
// light), with the chroma style the code views use, so every widget draws
// from the same palette.
package theme

import "github.com/gdamore/tcell/v2"

// Theme is a palette. Widgets take the styles they need from it.
type Theme struct {
	Name        string
	ChromaStyle string // chroma style name for syntax highlighting

	Background tcell.Color
	Foreground tcell.Color
	Dim        tcell.Color // secondary text, reasoning, gutters
	Accent     tcell.Color // focused borders, links, headings
	Border     tcell.Color // unfocused borders
	Selection  tcell.Color // selected text background
	CursorLine tcell.Color // current line background

	Added   tcell.Color // changed-line marks, diff +
	Removed tcell.Color // diff −
	Changed tcell.Color // tint of lines the agent just changed
	Error   tcell.Color
	Warning tcell.Color
	Success tcell.Color

	UserText tcell.Color // the user's messages in the chat
	CodeBg   tcell.Color // inline code and code blocks in the chat
}

// Dark is the default theme.
var dark = Theme{
	Name: "dark", ChromaStyle: "monokai",
	Background: tcell.ColorDefault, Foreground: tcell.NewRGBColor(0xd8, 0xd8, 0xd8),
	Dim: tcell.NewRGBColor(0x80, 0x80, 0x80), Accent: tcell.NewRGBColor(0x5f, 0xaf, 0xff),
	Border: tcell.NewRGBColor(0x58, 0x58, 0x58), Selection: tcell.NewRGBColor(0x26, 0x4f, 0x78),
	CursorLine: tcell.NewRGBColor(0x26, 0x26, 0x26),
	Added:      tcell.NewRGBColor(0x5f, 0xd7, 0x5f), Removed: tcell.NewRGBColor(0xff, 0x5f, 0x5f),
	Changed: tcell.NewRGBColor(0x1f, 0x3a, 0x1f), Error: tcell.NewRGBColor(0xff, 0x5f, 0x5f),
	Warning: tcell.NewRGBColor(0xff, 0xd7, 0x00), Success: tcell.NewRGBColor(0x5f, 0xd7, 0x5f),
	UserText: tcell.NewRGBColor(0xaf, 0xd7, 0xff), CodeBg: tcell.NewRGBColor(0x30, 0x30, 0x30),
}

var light = Theme{
	Name: "light", ChromaStyle: "github",
	Background: tcell.ColorDefault, Foreground: tcell.NewRGBColor(0x1c, 0x1c, 0x1c),
	Dim: tcell.NewRGBColor(0x80, 0x80, 0x80), Accent: tcell.NewRGBColor(0x00, 0x5f, 0xd7),
	Border: tcell.NewRGBColor(0xa8, 0xa8, 0xa8), Selection: tcell.NewRGBColor(0xb5, 0xd5, 0xff),
	CursorLine: tcell.NewRGBColor(0xee, 0xee, 0xee),
	Added:      tcell.NewRGBColor(0x00, 0x87, 0x00), Removed: tcell.NewRGBColor(0xd7, 0x00, 0x00),
	Changed: tcell.NewRGBColor(0xdf, 0xf5, 0xdf), Error: tcell.NewRGBColor(0xd7, 0x00, 0x00),
	Warning: tcell.NewRGBColor(0xaf, 0x87, 0x00), Success: tcell.NewRGBColor(0x00, 0x87, 0x00),
	UserText: tcell.NewRGBColor(0x00, 0x5f, 0xaf), CodeBg: tcell.NewRGBColor(0xee, 0xee, 0xee),
}

// Names lists the themes ui.theme accepts.
var Names = []string{"dark", "light"}

// Get returns the theme called name; unknown names get dark (config validation reports them).
func Get(name string) Theme {
	if name == "light" {
		return light
	}
	return dark
}
