package pricing

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/fawn-ide/fawn/config"
)

// Price is US dollars per million tokens.
type Price struct {
	Input, Output float64
	// Cached is the price of a prompt token read from the server's prompt
	// cache.
	Cached float64
}

// Cost is what tokens cost at p: prompt tokens (cached ones included, as
// the servers count them), of which cached were read from the cache, and
// output tokens.
func (p Price) Cost(prompt, cached, output int) float64 {
	cached = min(cached, prompt)
	return (float64(prompt-cached)*p.Input + float64(cached)*p.Cached + float64(output)*p.Output) / 1e6
}

// builtin is the table for models that set no price: the model's name as
// its provider spells it (dots and dashes alike), in dollars per million
// input, output and cached-input tokens. See the package doc for the source
// and date.
var builtin = map[string]Price{
	// Anthropic; cached is the cache read price.
	"claude-opus-4-5":   {5, 25, 0.50},
	"claude-opus-4-1":   {15, 75, 1.50},
	"claude-opus-4":     {15, 75, 1.50},
	"claude-sonnet-4-5": {3, 15, 0.30},
	"claude-sonnet-4":   {3, 15, 0.30},
	"claude-3-7-sonnet": {3, 15, 0.30},
	"claude-3-5-sonnet": {3, 15, 0.30},
	"claude-haiku-4-5":  {1, 5, 0.10},
	"claude-3-5-haiku":  {0.80, 4, 0.08},
	// OpenAI; cached is the cached input price.
	"gpt-5":        {1.25, 10, 0.125},
	"gpt-5-mini":   {0.25, 2, 0.025},
	"gpt-5-nano":   {0.05, 0.40, 0.005},
	"gpt-4-1":      {2, 8, 0.50},
	"gpt-4-1-mini": {0.40, 1.60, 0.10},
	"gpt-4-1-nano": {0.10, 0.40, 0.025},
	"gpt-4o":       {2.50, 10, 1.25},
	"gpt-4o-mini":  {0.15, 0.60, 0.075},
	"o3":           {2, 8, 0.50},
	"o3-mini":      {1.10, 4.40, 0.55},
	"o4-mini":      {1.10, 4.40, 0.275},
}

// suffix is what may follow a table name in a model's name and still be
// that model: a date stamp ("-20250929", "-2024-08-06") or "-latest", and
// a ":…" or "@…" tag. Anything else ("claude-opus-4-6") is another model,
// whose price the table does not know.
var suffix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(-\d{4}-?\d{2}-?\d{2}|-latest)?([:@].*)?$`) })

// Of is the price of the model m names: its price_per_mtok, else the
// built-in table's for its name; ok is false when neither has one.
func Of(m config.Model) (p Price, ok bool) {
	if len(m.PricePerMTok) > 0 {
		in, out := m.PricePerMTok["input"], m.PricePerMTok["output"]
		cached, set := m.PricePerMTok["cached"]
		if !set {
			cached = in
		}
		return Price{Input: in, Output: out, Cached: cached}, true
	}
	if m.Type == "demo" {
		return Price{}, false
	}
	return Builtin(m.Model)
}

// Builtin is the table's price for a model name: "claude-sonnet-4-5",
// "claude-sonnet-4-5-20250929", "anthropic/claude-sonnet-4.5" and
// "gpt-4o-2024-08-06" are found; the longest name that fits wins.
func Builtin(model string) (p Price, ok bool) {
	name := strings.ToLower(strings.TrimSpace(model))
	name = name[strings.LastIndexByte(name, '/')+1:] // openrouter's "anthropic/…"
	name = strings.ReplaceAll(name, ".", "-")
	best := ""
	for k := range builtin {
		if len(k) > len(best) && strings.HasPrefix(name, k) && suffix().MatchString(name[len(k):]) {
			best = k
		}
	}
	if best == "" {
		return Price{}, false
	}
	return builtin[best], true
}

// Format shows a cost in dollars: cents from a cent up, finer below.
func Format(usd float64) string {
	if usd >= 0.01 || usd == 0 {
		return fmt.Sprintf("$%.2f", usd)
	}
	return fmt.Sprintf("$%.4f", usd)
}
