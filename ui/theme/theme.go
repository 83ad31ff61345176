// Package theme holds fawn's colours: one Theme per ui.theme value (dark,
// light), with the chroma style the code views use, so every widget draws
// from the same palette.
//
// It imports nothing of fawn; cmd/fawn and every ui package import it.
package theme

import (
	"github.com/alecthomas/chroma/v2"
	"github.com/gdamore/tcell/v2"
)

// Theme is a palette. Widgets take the styles they need from it.
type Theme struct {
	Name string
	// Syntax colours code by chroma token type (fawn's own palettes:
	// chroma's style registry costs milliseconds at every start).
	Syntax *chroma.Style

	Background tcell.Color
	// Paper is what the background is taken to be where it is the
	// terminal's own (Background is the default): programs in the
	// terminal pane that ask for the background colour are told it.
	Paper      tcell.Color
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
	Name: "dark", Syntax: darkSyntax,
	Background: tcell.ColorDefault, Paper: tcell.NewRGBColor(0x1c, 0x1c, 0x1c), Foreground: tcell.NewRGBColor(0xd8, 0xd8, 0xd8),
	Dim: tcell.NewRGBColor(0x80, 0x80, 0x80), Accent: tcell.NewRGBColor(0x5f, 0xaf, 0xff),
	Border: tcell.NewRGBColor(0x58, 0x58, 0x58), Selection: tcell.NewRGBColor(0x26, 0x4f, 0x78),
	CursorLine: tcell.NewRGBColor(0x26, 0x26, 0x26),
	Added:      tcell.NewRGBColor(0x5f, 0xd7, 0x5f), Removed: tcell.NewRGBColor(0xff, 0x5f, 0x5f),
	Changed: tcell.NewRGBColor(0x1f, 0x3a, 0x1f), Error: tcell.NewRGBColor(0xff, 0x5f, 0x5f),
	Warning: tcell.NewRGBColor(0xff, 0xd7, 0x00), Success: tcell.NewRGBColor(0x5f, 0xd7, 0x5f),
	UserText: tcell.NewRGBColor(0xaf, 0xd7, 0xff), CodeBg: tcell.NewRGBColor(0x30, 0x30, 0x30),
}

var light = Theme{
	Name: "light", Syntax: lightSyntax,
	Background: tcell.ColorDefault, Paper: tcell.NewRGBColor(0xff, 0xff, 0xff), Foreground: tcell.NewRGBColor(0x1c, 0x1c, 0x1c),
	Dim: tcell.NewRGBColor(0x80, 0x80, 0x80), Accent: tcell.NewRGBColor(0x00, 0x5f, 0xd7),
	Border: tcell.NewRGBColor(0xa8, 0xa8, 0xa8), Selection: tcell.NewRGBColor(0xb5, 0xd5, 0xff),
	CursorLine: tcell.NewRGBColor(0xee, 0xee, 0xee),
	Added:      tcell.NewRGBColor(0x00, 0x87, 0x00), Removed: tcell.NewRGBColor(0xd7, 0x00, 0x00),
	Changed: tcell.NewRGBColor(0xdf, 0xf5, 0xdf), Error: tcell.NewRGBColor(0xd7, 0x00, 0x00),
	Warning: tcell.NewRGBColor(0xaf, 0x87, 0x00), Success: tcell.NewRGBColor(0x00, 0x87, 0x00),
	UserText: tcell.NewRGBColor(0x00, 0x5f, 0xaf), CodeBg: tcell.NewRGBColor(0xee, 0xee, 0xee),
}

// The code colours of the themes. A token type without an entry takes its
// parent's (NameFunction from Name, LiteralStringDoc from LiteralString).
var (
	darkSyntax = chroma.MustNewStyle("fawn-dark", chroma.StyleEntries{
		chroma.Background:          "#d8d8d8",
		chroma.Error:               "#ff5f5f",
		chroma.Comment:             "italic #8a8a8a",
		chroma.CommentPreproc:      "#87afd7",
		chroma.Keyword:             "#ff5f87",
		chroma.KeywordConstant:     "#af87ff",
		chroma.KeywordType:         "#5fd7ff",
		chroma.KeywordNamespace:    "#ff5f87",
		chroma.Name:                "#d8d8d8",
		chroma.NameBuiltin:         "#5fd7ff",
		chroma.NameFunction:        "#87d75f",
		chroma.NameClass:           "#87d75f",
		chroma.NameDecorator:       "#87d75f",
		chroma.NameException:       "#87d75f",
		chroma.NameTag:             "#ff5f87",
		chroma.NameAttribute:       "#87d75f",
		chroma.NameConstant:        "#af87ff",
		chroma.LiteralString:       "#ffd75f",
		chroma.LiteralStringEscape: "#af87ff",
		chroma.LiteralNumber:       "#af87ff",
		chroma.Operator:            "#ff5f87",
		chroma.Punctuation:         "#d8d8d8",
		chroma.GenericHeading:      "bold #5fafff",
		chroma.GenericSubheading:   "bold #5fafff",
		chroma.GenericDeleted:      "#ff5f5f",
		chroma.GenericInserted:     "#5fd75f",
		chroma.GenericEmph:         "italic",
		chroma.GenericStrong:       "bold",
	})
	lightSyntax = chroma.MustNewStyle("fawn-light", chroma.StyleEntries{
		chroma.Background:          "#1c1c1c",
		chroma.Error:               "#d70000",
		chroma.Comment:             "italic #808080",
		chroma.CommentPreproc:      "#5f5f87",
		chroma.Keyword:             "bold #af0000",
		chroma.KeywordConstant:     "#005faf",
		chroma.KeywordType:         "#5f00af",
		chroma.KeywordNamespace:    "bold #af0000",
		chroma.Name:                "#1c1c1c",
		chroma.NameBuiltin:         "#005f87",
		chroma.NameFunction:        "#8700af",
		chroma.NameClass:           "bold #8700af",
		chroma.NameDecorator:       "#8700af",
		chroma.NameException:       "#af0000",
		chroma.NameTag:             "#005f00",
		chroma.NameAttribute:       "#005faf",
		chroma.NameConstant:        "#005faf",
		chroma.LiteralString:       "#00005f",
		chroma.LiteralStringEscape: "#005f87",
		chroma.LiteralNumber:       "#005f87",
		chroma.Operator:            "#af0000",
		chroma.Punctuation:         "#1c1c1c",
		chroma.GenericHeading:      "bold #005fd7",
		chroma.GenericSubheading:   "bold #005fd7",
		chroma.GenericDeleted:      "#d70000",
		chroma.GenericInserted:     "#008700",
		chroma.GenericEmph:         "italic",
		chroma.GenericStrong:       "bold",
	})
)

// Names lists the themes ui.theme accepts.
var Names = []string{"dark", "light"}

// Get returns the theme called name; unknown names get dark (config validation reports them).
func Get(name string) Theme {
	if name == "light" {
		return light
	}
	return dark
}
