package yaml

import (
	"strings"
	"testing"
)

// The calls go-ordered-map makes (a MappingNode built and marshalled, a
// document decoded into a Node) behave as the library they forward to.
func TestForwardsToGoYamlV3(t *testing.T) {
	n := &Node{Kind: MappingNode, Content: []*Node{
		{Kind: ScalarNode, Value: "b"}, {Kind: ScalarNode, Value: "2"},
		{Kind: ScalarNode, Value: "a"}, {Kind: ScalarNode, Value: "1"},
	}}
	out, err := Marshal(n)
	if err != nil || string(out) != "b: 2\na: 1\n" {
		t.Fatalf("Marshal = %q, %v (want the keys in the node's order)", out, err)
	}
	var back Node
	if err := Unmarshal(out, &back); err != nil {
		t.Fatal(err)
	}
	if back.Kind != DocumentNode || len(back.Content) != 1 || back.Content[0].Kind != MappingNode {
		t.Fatalf("Unmarshal gave %+v", back)
	}
	var m map[string]int
	if err := NewDecoder(strings.NewReader("x: 3\n")).Decode(&m); err != nil || m["x"] != 3 {
		t.Fatalf("Decode = %v, %v", m, err)
	}
	if err := Unmarshal([]byte("a: [1,"), &m); err == nil {
		t.Fatal("a torn document: want an error")
	}
}
