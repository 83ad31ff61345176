// Package yaml is fawn's stand-in for gopkg.in/yaml.v3: the same library
// under its newer path, go.yaml.in/yaml/v3, which fawn and viper already
// link, so the binary holds one YAML implementation, not two. Everything
// here is an alias of, or a call to, go.yaml.in/yaml/v3. See FAWN.md.
package yaml

import (
	"io"

	v3 "go.yaml.in/yaml/v3"
)

type (
	Node        = v3.Node
	Kind        = v3.Kind
	Style       = v3.Style
	Marshaler   = v3.Marshaler
	Unmarshaler = v3.Unmarshaler
	IsZeroer    = v3.IsZeroer
	Encoder     = v3.Encoder
	Decoder     = v3.Decoder
	TypeError   = v3.TypeError
)

const (
	DocumentNode = v3.DocumentNode
	SequenceNode = v3.SequenceNode
	MappingNode  = v3.MappingNode
	ScalarNode   = v3.ScalarNode
	AliasNode    = v3.AliasNode

	TaggedStyle       = v3.TaggedStyle
	DoubleQuotedStyle = v3.DoubleQuotedStyle
	SingleQuotedStyle = v3.SingleQuotedStyle
	LiteralStyle      = v3.LiteralStyle
	FoldedStyle       = v3.FoldedStyle
	FlowStyle         = v3.FlowStyle
)

// Marshal is go.yaml.in/yaml/v3's Marshal.
func Marshal(in any) ([]byte, error) { return v3.Marshal(in) }

// Unmarshal is go.yaml.in/yaml/v3's Unmarshal.
func Unmarshal(in []byte, out any) error { return v3.Unmarshal(in, out) }

// NewEncoder is go.yaml.in/yaml/v3's NewEncoder.
func NewEncoder(w io.Writer) *Encoder { return v3.NewEncoder(w) }

// NewDecoder is go.yaml.in/yaml/v3's NewDecoder.
func NewDecoder(r io.Reader) *Decoder { return v3.NewDecoder(r) }
