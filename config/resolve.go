package config

import (
	"encoding/base64"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A configuration file is read from its YAML node tree (for the line
// numbers), and what the tree says must be what fawn shows and does. YAML
// lets a file say a thing in one place and use it in another: an alias
// (*name) repeats what an anchor (&name) holds, a merge key (<<) copies
// a mapping's entries into another, and !!binary hides text as base64. A
// walk over the raw tree would skip an alias, read "<<" as a key and show
// base64, while decoding would act on what they stand for — so a hook
// behind an alias would run without ever being shown for trust. The
// loader therefore walks the tree resolve returns, in which none of the
// three is left, and decodes every value from that same tree.

// maxResolvedNodes bounds the tree resolve builds: a few aliases of
// aliases can stand for billions of nodes.
const maxResolvedNodes = 100_000

// maxResolveDepth bounds nesting, aliases followed included.
const maxResolveDepth = 1_000

type resolver struct {
	nodes int
}

// resolve returns a copy of n without aliases (each replaced by a copy of
// what it names), merge keys (their mappings' entries added where the
// mapping does not set them itself, the first mapping named winning) or
// !!binary scalars (decoded into the text they hold). Line numbers stay:
// what an alias stands for keeps the anchor's lines, which is where it is
// written.
func resolve(n *yaml.Node) (*yaml.Node, error) {
	r := &resolver{}
	return r.node(n, 0)
}

func (r *resolver) node(n *yaml.Node, depth int) (*yaml.Node, error) {
	if n == nil {
		return nil, nil
	}
	if depth > maxResolveDepth {
		return nil, fmt.Errorf("line %d: nested too deeply (aliases included); fawn does not read it", n.Line)
	}
	r.nodes++
	if r.nodes > maxResolvedNodes {
		return nil, fmt.Errorf("holds more than %d values once its aliases are expanded; fawn does not read it", maxResolvedNodes)
	}
	switch n.Kind {
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil, fmt.Errorf("line %d: alias *%s names no anchor", n.Line, n.Value)
		}
		return r.node(n.Alias, depth+1)
	case yaml.ScalarNode:
		c := *n
		c.Anchor = ""
		if n.ShortTag() == "!!binary" {
			data, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(n.Value), ""))
			if err != nil {
				return nil, fmt.Errorf("line %d: the !!binary value is not valid base64", n.Line)
			}
			c.Tag, c.Value, c.Style = "!!str", string(data), yaml.DoubleQuotedStyle
		}
		return &c, nil
	case yaml.MappingNode:
		return r.mapping(n, depth)
	}
	c := *n
	c.Anchor = ""
	c.Content = make([]*yaml.Node, 0, len(n.Content))
	for _, e := range n.Content {
		rc, err := r.node(e, depth+1)
		if err != nil {
			return nil, err
		}
		c.Content = append(c.Content, rc)
	}
	return &c, nil
}

// mapping resolves a mapping and its merge keys.
func (r *resolver) mapping(n *yaml.Node, depth int) (*yaml.Node, error) {
	c := *n
	c.Anchor = ""
	c.Content = nil
	explicit := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; !isMergeKey(k) && k.Kind == yaml.ScalarNode {
			explicit[k.Value] = true
		}
	}
	merged := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !isMergeKey(k) {
			rk, err := r.node(k, depth+1)
			if err != nil {
				return nil, err
			}
			rv, err := r.node(v, depth+1)
			if err != nil {
				return nil, err
			}
			c.Content = append(c.Content, rk, rv)
			continue
		}
		rv, err := r.node(v, depth+1)
		if err != nil {
			return nil, err
		}
		sources := []*yaml.Node{rv}
		if rv.Kind == yaml.SequenceNode {
			sources = rv.Content
		}
		for _, m := range sources {
			if m.Kind != yaml.MappingNode {
				return nil, fmt.Errorf("line %d: a merge key (<<) must name a mapping or a list of mappings", k.Line)
			}
			for j := 0; j+1 < len(m.Content); j += 2 {
				mk := m.Content[j]
				if mk.Kind == yaml.ScalarNode {
					if explicit[mk.Value] || merged[mk.Value] {
						continue
					}
					merged[mk.Value] = true
				}
				c.Content = append(c.Content, mk, m.Content[j+1])
			}
		}
	}
	return &c, nil
}

func isMergeKey(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.Value == "<<" && k.ShortTag() == "!!merge"
}
