// Package nodes is fawn's stand-in for gonja's nodes package (see ../FAWN.md).
package nodes

// Statement would be a parsed template statement.
type Statement interface{}
