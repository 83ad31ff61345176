package agent

import (
	"context"
	"math"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// Every response is priced at the price of the model that gave it: a
// switch to a model without a price leaves the session's cost unknown
// from then on, never a sum that leaves part out.
func TestCostFollowsTheModelOfEachResponse(t *testing.T) {
	h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "one", Usage: &llmtest.Usage{PromptTokens: 1_000_000, CompletionTokens: 100_000}},
		{Text: "two", Usage: &llmtest.Usage{PromptTokens: 1000, CompletionTokens: 10}},
	}}, ModeAsk, func(o *Options) {
		o.Config.Models.Chat.PricePerMTok = map[string]float64{"input": 3, "output": 15}
	})
	end := last(h.run(context.Background(), "first", nil))
	if c := end.Usage.Cost; !c.Known() || math.Abs(c.USD-4.5) > 1e-9 {
		t.Fatalf("turn cost = %+v, want $4.50 known (1M in at $3, 100k out at $15)", c)
	}
	if c := h.s.Usage().Cost; c.String() != "$4.50" {
		t.Fatalf("session cost = %+v (%q)", c, c.String())
	}
	mc := h.s.ModelConfig()
	mc.Model, mc.PricePerMTok = "my-local-model", nil
	if err := h.s.SetModel(context.Background(), mc); err != nil {
		t.Fatal(err)
	}
	end = last(h.run(context.Background(), "second", nil))
	if c := end.Usage.Cost; c.Known() || c.Unpriced != 1 {
		t.Errorf("a response of a model without a price: cost %+v, want unpriced", c)
	}
	if c := h.s.Usage().Cost; c.Known() || c.String() != "" {
		t.Errorf("session cost after an unpriced response = %+v (%q), want not known", c, c.String())
	}
}
