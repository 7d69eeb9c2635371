package provider_test

import (
	"math"
	"testing"

	"github.com/tick-agent/tick/provider"
)

// TestPriceCost: the prompt's cached part is charged at the cached rate
// (the input rate when there is none); figures are per million tokens.
func TestPriceCost(t *testing.T) {
	tests := []struct {
		name  string
		price provider.Price
		usage provider.Usage
		want  float64
	}{
		{"plain", provider.Price{Input: 2, Output: 8}, provider.Usage{PromptTokens: 1_000_000, CompletionTokens: 500_000}, 6},
		{"cached at its rate", provider.Price{Input: 2, CachedInput: 0.5, Output: 8}, provider.Usage{PromptTokens: 1_000_000, CachedTokens: 1_000_000}, 0.5},
		{"cached without a rate", provider.Price{Input: 2, Output: 8}, provider.Usage{PromptTokens: 1_000_000, CachedTokens: 400_000}, 2},
		{"cached above prompt is capped", provider.Price{Input: 2, CachedInput: 1}, provider.Usage{PromptTokens: 100, CachedTokens: 1_000_000}, 100e-6},
		{"negative counts are nothing", provider.Price{Input: 2, Output: 8}, provider.Usage{PromptTokens: -5, CompletionTokens: -5}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.price.Cost(tt.usage); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("Cost = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestLookupPrice: a dated name matches its family, the longest first;
// a name that only starts like one does not.
func TestLookupPrice(t *testing.T) {
	table := map[string]provider.Price{"gpt-4o": {Input: 2.5}, "gpt-4o-mini": {Input: 0.15}, "Deepseek-Chat": {Input: 0.28}}
	tests := []struct {
		model string
		want  float64 // Input; 0 for none
	}{
		{"gpt-4o", 2.5},
		{"gpt-4o-mini", 0.15},
		{"gpt-4o-2024-08-06", 2.5},
		{"GPT-4o-mini-2024", 0.15},
		{"gpt-4oo", 0},
		{"deepseek-chat", 0.28},
		{"llama3", 0},
	}
	for _, tt := range tests {
		p, ok := provider.LookupPrice(table, tt.model)
		if ok != (tt.want != 0) || p.Input != tt.want {
			t.Errorf("LookupPrice(%q) = %+v, %v; want input %v", tt.model, p, ok, tt.want)
		}
	}
}
