// Package parser is fawn's stand-in for gonja's parser package (see ../FAWN.md).
package parser

// Parser would read a template.
type Parser struct{}
