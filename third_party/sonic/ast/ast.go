// Package ast is fawn's stand-in for sonic's ast package: a Node is a JSON
// value found by sonic.GetFromString, kept as its raw text. See ../FAWN.md.
package ast

import (
	"bytes"
	"encoding/json"
	"errors"
)

// Node is one JSON value.
type Node struct {
	raw json.RawMessage
}

// NewRaw makes a Node of the JSON text raw, which the caller has validated.
func NewRaw(raw []byte) Node {
	return Node{raw: append(json.RawMessage(nil), bytes.TrimSpace(raw)...)}
}

// Exists reports whether the node holds a value.
func (n Node) Exists() bool { return len(n.raw) > 0 }

// Raw returns the node's JSON text.
func (n Node) Raw() (string, error) {
	if !n.Exists() {
		return "", errors.New("ast: empty node")
	}
	return string(n.raw), nil
}

// MarshalJSON returns the node's JSON text.
func (n Node) MarshalJSON() ([]byte, error) {
	if !n.Exists() {
		return nil, errors.New("ast: empty node")
	}
	return append([]byte(nil), n.raw...), nil
}

// Interface decodes the node into Go values as encoding/json does.
func (n Node) Interface() (any, error) {
	var v any
	if err := json.Unmarshal(n.raw, &v); err != nil {
		return nil, err
	}
	return v, nil
}
