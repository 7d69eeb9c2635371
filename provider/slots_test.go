package provider_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/tick-agent/tick/provider"
)

func TestDiscoverSlots(t *testing.T) {
	tests := []struct {
		name  string
		props string // the /props body; "" answers 404
		want  int
	}{
		{"llama.cpp --parallel 4", `{"total_slots":4,"default_generation_settings":{"n_ctx":8192}}`, 4},
		{"llama.cpp one slot", `{"total_slots":1}`, 1},
		{"no slot count", `{"default_generation_settings":{"n_ctx":8192}}`, 0},
		{"no /props (vLLM, Ollama)", "", 0},
		{"negative", `{"total_slots":-3}`, 0},
		{"absurd", `{"total_slots":100000}`, 16},
		{"not JSON", `<html>`, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/props" || tc.props == "" {
					http.NotFound(w, r)
					return
				}
				_, _ = w.Write([]byte(tc.props))
			}))
			defer srv.Close()
			if got := provider.DiscoverSlots(context.Background(), srv.URL+"/v1", ""); got != tc.want {
				t.Errorf("DiscoverSlots = %d, want %d", got, tc.want)
			}
		})
	}
}
