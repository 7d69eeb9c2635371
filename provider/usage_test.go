package provider_test

import (
	"context"
	"testing"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

func costPtr(f float64) *float64 { return &f }

// TestUsageCostAndCache: the usage a server reports reaches the Response
// with the cached part of the prompt and OpenRouter's usage.cost; a cost
// that is not a finite non-negative number is dropped, not shown.
func TestUsageCostAndCache(t *testing.T) {
	tests := []struct {
		name       string
		reply      providertest.Reply
		wantCached int
		wantCost   *float64
	}{
		{
			name: "openrouter cost and cached tokens",
			reply: providertest.Reply{Text: "hi", Usage: &providertest.Usage{PromptTokens: 1200, CompletionTokens: 30, TotalTokens: 1230,
				Details: &providertest.PromptDetails{CachedTokens: 1000}, Cost: 0.00042}},
			wantCached: 1000, wantCost: costPtr(0.00042),
		},
		{
			name:  "no cost reported",
			reply: providertest.Reply{Text: "hi", Usage: &providertest.Usage{PromptTokens: 10, CompletionTokens: 2, TotalTokens: 12}},
		},
		{
			name:     "whole answer (no stream) with cost",
			reply:    providertest.Reply{Body: `{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":1,"total_tokens":6,"cost":0.5}}`},
			wantCost: costPtr(0.5),
		},
		{
			name:  "cost not a number",
			reply: providertest.Reply{Body: `{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":1,"total_tokens":6,"cost":"free"}}`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.New(t)
			srv.Enqueue(tt.reply)
			c := newClient(t, srv.URL, nil)
			resp, err := c.Stream(context.Background(), userRequest("hi"), provider.Handler{})
			if err != nil {
				t.Fatalf("Stream: %v", err)
			}
			u := resp.Usage
			if u == nil {
				t.Fatal("no usage")
			}
			if u.CachedTokens != tt.wantCached {
				t.Errorf("cached = %d, want %d", u.CachedTokens, tt.wantCached)
			}
			switch {
			case tt.wantCost == nil && u.CostUSD != nil:
				t.Errorf("cost = %v, want none", *u.CostUSD)
			case tt.wantCost != nil && (u.CostUSD == nil || *u.CostUSD != *tt.wantCost):
				t.Errorf("cost = %v, want %v", u.CostUSD, *tt.wantCost)
			}
		})
	}
}
