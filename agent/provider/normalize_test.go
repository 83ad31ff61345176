package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"
)

func ix(i int) *int { return &i }

// frag is a tool-call fragment as a server might send it.
func frag(index *int, id, name, args string) *schema.Message {
	return &schema.Message{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{Index: index, ID: id, Function: schema.FunctionCall{Name: name, Arguments: args}}}}
}

func TestNormalizer(t *testing.T) {
	cases := []struct {
		name   string
		chunks []*schema.Message
		want   string // merged calls: id name args; …
	}{
		{"openai", []*schema.Message{frag(ix(0), "a", "f", ""), frag(ix(0), "", "", `{"x":`), frag(ix(0), "", "", `1}`), frag(ix(1), "b", "g", `{}`)},
			"a f {\"x\":1}; b g {}"},
		{"no index", []*schema.Message{frag(nil, "a", "f", `{"x"`), frag(nil, "", "", `:1}`), frag(nil, "b", "g", ""), frag(nil, "", "", `{}`)},
			"a f {\"x\":1}; b g {}"},
		{"index zero", []*schema.Message{frag(ix(0), "a", "f", `{"x"`), frag(ix(0), "", "", `:1}`), frag(ix(0), "b", "g", `{`), frag(ix(0), "", "", `}`)},
			"a f {\"x\":1}; b g {}"},
		{"no ids", []*schema.Message{frag(ix(0), "", "f", `{"x":1}`), frag(ix(1), "", "g", `{`), frag(ix(1), "", "", `}`)},
			"call_fawn_1 f {\"x\":1}; call_fawn_2 g {}"},
		{"no ids, no index", []*schema.Message{frag(nil, "", "f", `{"x":1}`), frag(nil, "", "g", `{`), frag(nil, "", "", `}`)},
			"call_fawn_1 f {\"x\":1}; call_fawn_2 g {}"},
		{"repeated ids", []*schema.Message{frag(ix(0), "a", "f", `{"x"`), frag(ix(0), "a", "f", `:1}`), frag(ix(1), "b", "g", `{}`)},
			"a f {\"x\":1}; b g {}"},
		{"one id for two calls", []*schema.Message{frag(ix(0), "same", "f", `{}`), frag(ix(1), "same", "g", `{}`)},
			"same f {}; same_1 g {}"},
		{"two calls in one chunk", []*schema.Message{{Role: schema.Assistant, ToolCalls: []schema.ToolCall{
			{ID: "a", Function: schema.FunctionCall{Name: "f", Arguments: "{}"}},
			{ID: "b", Function: schema.FunctionCall{Name: "g", Arguments: "{}"}},
		}}}, "a f {}; b g {}"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := NewNormalizer(NewIDSet())
			for _, m := range c.chunks {
				n.apply(m)
			}
			msg, err := schema.ConcatMessages(c.chunks)
			if err != nil {
				t.Fatalf("merge: %v", err)
			}
			var got []string
			for _, tc := range msg.ToolCalls {
				got = append(got, fmt.Sprintf("%s %s %s", tc.ID, tc.Function.Name, tc.Function.Arguments))
			}
			if strings.Join(got, "; ") != c.want {
				t.Errorf("got  %s\nwant %s", strings.Join(got, "; "), c.want)
			}
		})
	}
}

func TestIDSetAcrossResponses(t *testing.T) {
	ids := NewIDSet()
	a := NewNormalizer(ids)
	b := NewNormalizer(ids)
	m1, m2 := frag(ix(0), "call_0", "f", "{}"), frag(ix(0), "call_0", "f", "{}")
	a.apply(m1)
	b.apply(m2)
	if m1.ToolCalls[0].ID != "call_0" || m2.ToolCalls[0].ID == "call_0" {
		t.Errorf("IDs %s and %s", m1.ToolCalls[0].ID, m2.ToolCalls[0].ID)
	}
}
