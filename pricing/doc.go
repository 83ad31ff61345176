// Package pricing owns what a model's tokens cost: the prices a model entry
// sets (price_per_mtok: {input, output, cached}, US dollars per million
// tokens) and, for a model that sets none, a small built-in table of
// common hosted models. A model neither names has no price, and fawn shows
// no cost for it rather than $0.
//
// The built-in prices are the providers' published list prices per
// million tokens (anthropic.com/pricing, openai.com/api/pricing), as they
// stood in August 2025; they change, and a model entry's price_per_mtok is
// how a user corrects one. Cache writes (Anthropic) are charged at the
// input price: the table has no column for their 1.25× surcharge.
//
// It imports config (the model entry); agent imports it.
package pricing
