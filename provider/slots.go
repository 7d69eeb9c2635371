package provider

import (
	"context"
	"net/http"
	"strings"
)

// maxSlots bounds the slots a server may claim: a hostile or broken
// server must not make tick start hundreds of subagents at once.
const maxSlots = 16

// DiscoverSlots asks the self-hosted server at baseURL how many requests
// it serves at the same time: llama.cpp's /props total_slots (its
// --parallel). It returns 0 when the server does not say (vLLM, Ollama
// and LM Studio publish no such number), and at most maxSlots.
func DiscoverSlots(ctx context.Context, baseURL, apiKey string) int {
	root := strings.TrimSuffix(strings.TrimRight(baseURL, "/"), "/v1")
	var props struct {
		TotalSlots int `json:"total_slots"`
	}
	if getJSON(ctx, &http.Client{}, http.MethodGet, root+"/props", apiKey, nil, &props) != nil {
		return 0
	}
	return min(max(props.TotalSlots, 0), maxSlots)
}
