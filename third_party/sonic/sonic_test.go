package sonic

import (
	"strings"
	"testing"
)

func TestMarshalLikeSonicDefault(t *testing.T) {
	b, err := Marshal(map[string]any{"html": "<a href='x'>&</a>", "n": 1.5})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"html":"<a href='x'>&</a>","n":1.5}`
	if string(b) != want {
		t.Fatalf("Marshal = %s, want %s (no HTML escaping, no trailing newline)", b, want)
	}
	s, err := MarshalString([]int{1, 2})
	if err != nil || s != "[1,2]" {
		t.Fatalf("MarshalString = %q, %v", s, err)
	}
	if _, err := Marshal(func() {}); err == nil {
		t.Fatal("Marshal of a func: want an error")
	}
}

func TestUnmarshalRoundTrip(t *testing.T) {
	type call struct {
		Name string         `json:"name"`
		Args map[string]any `json:"args"`
	}
	var c call
	if err := UnmarshalString(`{"name":"bash","args":{"command":"ls","n":3}}`, &c); err != nil {
		t.Fatal(err)
	}
	if c.Name != "bash" || c.Args["command"] != "ls" || c.Args["n"] != float64(3) {
		t.Fatalf("got %+v", c)
	}
	if err := Unmarshal([]byte(`{"name":`), &c); err == nil {
		t.Fatal("truncated JSON: want an error")
	}
}

func TestGetFromString(t *testing.T) {
	doc := `{"a": {"list": [10, {"b": "x<y"}]}, "z": null}`
	n, err := GetFromString(doc, "a", "list", 1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := n.MarshalJSON()
	if err != nil || string(b) != `{"b": "x<y"}` {
		t.Fatalf("node = %s, %v", b, err)
	}
	if v, err := n.Interface(); err != nil || v.(map[string]any)["b"] != "x<y" {
		t.Fatalf("Interface = %v, %v", v, err)
	}
	n, err = GetFromString(doc)
	if err != nil {
		t.Fatal(err)
	}
	if raw, _ := n.Raw(); raw != doc {
		t.Fatalf("empty path: got %s", raw)
	}
	for _, bad := range [][]any{{"missing"}, {"a", "list", 5}, {"a", 0}, {"a", 1.5}} {
		if _, err := GetFromString(doc, bad...); err == nil {
			t.Errorf("path %v: want an error", bad)
		}
	}
	if _, err := GetFromString(`{"a": [1,`, "a"); err == nil || !strings.Contains(err.Error(), "sonic") {
		t.Errorf("torn document: got %v", err)
	}
}
