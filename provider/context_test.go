package provider_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider"
)

func TestDiscoverContext(t *testing.T) {
	tests := []struct {
		name   string
		routes map[string]string // "METHOD /path" -> JSON body
		want   provider.ServedContext
	}{
		{"vLLM", map[string]string{"GET /v1/models": `{"data":[{"id":"other","max_model_len":4096},{"id":"m","max_model_len":32768}]}`},
			provider.ServedContext{Tokens: 32768, Source: "vLLM max_model_len"}},
		{"llama.cpp", map[string]string{"GET /v1/models": `{"data":[{"id":"m"}]}`, "GET /props": `{"default_generation_settings":{"n_ctx":8192}}`},
			provider.ServedContext{Tokens: 8192, Source: "llama.cpp /props n_ctx"}},
		{"LM Studio loaded", map[string]string{"GET /api/v0/models/m": `{"max_context_length":131072,"loaded_context_length":16384}`},
			provider.ServedContext{Tokens: 16384, Source: "LM Studio loaded_context_length"}},
		{"Ollama default", map[string]string{"POST /api/show": `{"parameters":"stop \"<|im_end|>\"","model_info":{"qwen2.context_length":32768}}`, "GET /api/ps": `{"models":[]}`},
			provider.ServedContext{Ollama: true, OllamaDefault: true, Ceiling: 32768}},
		{"Ollama num_ctx", map[string]string{"POST /api/show": `{"parameters":"num_ctx                        16384\nstop x"}`},
			provider.ServedContext{Ollama: true, Tokens: 16384, Source: "Ollama num_ctx"}},
		{"Ollama loaded", map[string]string{"POST /api/show": `{"parameters":"num_ctx 16384"}`, "GET /api/ps": `{"models":[{"name":"m","model":"m","context_length":4096}]}`},
			provider.ServedContext{Ollama: true, Tokens: 4096, Source: "Ollama /api/ps context_length"}},
		{"nothing", map[string]string{"GET /v1/models": `{"data":[{"id":"m"}]}`}, provider.ServedContext{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, ok := tc.routes[r.Method+" "+r.URL.Path]
				if !ok {
					http.NotFound(w, r)
					return
				}
				_, _ = w.Write([]byte(body))
			}))
			defer srv.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if got := provider.DiscoverContext(ctx, srv.URL+"/v1", "", "m"); got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}
