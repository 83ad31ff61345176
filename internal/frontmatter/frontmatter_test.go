package frontmatter

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	type fm struct {
		Name  string `yaml:"name"`
		Tools any    `yaml:"tools"`
	}
	for _, c := range []struct {
		name, text, body, err string
		has                   bool
		want                  fm
	}{
		{"none", "just a body\n", "just a body\n", "", false, fm{}},
		{"plain", "---\nname: x\n---\nbody\n", "body\n", "", true, fm{Name: "x"}},
		{"bom and crlf", "\ufeff---\r\nname: y\r\n---\r\nbody\r\n", "body\n", "", true, fm{Name: "y"}},
		{"unclosed", "---\nname: x\n", "", "no closing ---", true, fm{}},
		{"bad yaml", "---\nname: [x\n---\nb", "", "front matter:", true, fm{}},
	} {
		var got fm
		body, has, err := Parse(c.text, &got)
		if has != c.has || (c.err == "" && (err != nil || body != c.body || got.Name != c.want.Name)) || (c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err))) {
			t.Errorf("%s: body %q has %v err %v fm %+v", c.name, body, has, err, got)
		}
	}
}

func TestList(t *testing.T) {
	for _, c := range []struct {
		in   any
		want string
		err  bool
	}{
		{nil, "", false},
		{"Read, Grep ,, Bash", "Read|Grep|Bash", false},
		{[]any{"a", " b ", 3}, "a|b|3", false},
		{map[string]any{"a": 1}, "", true},
	} {
		got, err := List(c.in)
		if strings.Join(got, "|") != c.want || (err != nil) != c.err {
			t.Errorf("List(%v) = %q, %v", c.in, got, err)
		}
	}
}
