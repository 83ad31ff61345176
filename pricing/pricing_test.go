package pricing

import (
	"math"
	"testing"

	"github.com/fawn-ide/fawn/config"
)

func TestBuiltinFindsAModelByItsNames(t *testing.T) {
	for name, want := range map[string]*Price{
		"claude-sonnet-4-5":           {3, 15, 0.30},
		"claude-sonnet-4-5-20250929":  {3, 15, 0.30},
		"anthropic/claude-sonnet-4.5": {3, 15, 0.30},
		"claude-opus-4-5":             {5, 25, 0.50},
		"claude-opus-4-20250514":      {15, 75, 1.50},
		"gpt-4o-2024-08-06":           {2.50, 10, 1.25},
		"gpt-4o-mini":                 {0.15, 0.60, 0.075},
		"openai/gpt-4.1-mini":         {0.40, 1.60, 0.10},
		"o3-mini":                     {1.10, 4.40, 0.55},
		"GPT-5":                       {1.25, 10, 0.125},
		"claude-opus-4-6":             nil, // a later model: its price is not known
		"gpt-4o-audio-preview":        nil,
		"qwen2.5-coder":               nil,
		"llama3:8b":                   nil,
		"":                            nil,
	} {
		got, ok := Builtin(name)
		switch {
		case want == nil && ok:
			t.Errorf("%q: priced %v, want no price", name, got)
		case want != nil && (!ok || got != *want):
			t.Errorf("%q: %v (%v), want %v", name, got, ok, *want)
		}
	}
}

func TestConfiguredPriceWins(t *testing.T) {
	p, ok := Of(config.Model{Type: "openai", Model: "gpt-4o", PricePerMTok: map[string]float64{"input": 1, "output": 2}})
	if !ok || p != (Price{Input: 1, Output: 2, Cached: 1}) {
		t.Errorf("configured price = %v, %v; want input 1, output 2, cached as input", p, ok)
	}
	if _, ok := Of(config.Model{Type: "openai", Model: "my-local-model"}); ok {
		t.Error("a model in neither the config nor the table has a price")
	}
	if _, ok := Of(config.Model{Type: "demo", Model: "gpt-4o"}); ok {
		t.Error("the demo model has a price")
	}
}

func TestCost(t *testing.T) {
	p := Price{Input: 3, Output: 15, Cached: 0.30}
	// 1M prompt tokens of which 800k cached, 100k out: 0.2×3 + 0.8×0.3 + 0.1×15.
	if got := p.Cost(1_000_000, 800_000, 100_000); math.Abs(got-2.34) > 1e-9 {
		t.Errorf("cost = %v, want 2.34", got)
	}
	for usd, want := range map[float64]string{0: "$0.00", 0.004213: "$0.0042", 0.4249: "$0.42", 12.5: "$12.50"} {
		if got := Format(usd); got != want {
			t.Errorf("Format(%v) = %q, want %q", usd, got, want)
		}
	}
}
