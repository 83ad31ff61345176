// Package config is fawn's stand-in for gonja's config package (see ../FAWN.md).
package config

// Config would set a template environment's delimiters and options.
type Config struct{}

// DefaultConfig is the configuration eino passes to gonja.NewEnvironment.
var DefaultConfig = &Config{}
