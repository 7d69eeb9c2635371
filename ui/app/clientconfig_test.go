package app

import (
	"testing"

	tickcfg "github.com/tick-agent/tick/agent/config"
	"github.com/tick-agent/tick/provider"
)

// TestClientKnowsTheServerByProvider: a preset's name says the server's
// kind even on a port other than its usual one; another name, or none,
// leaves it to the URL.
func TestClientKnowsTheServerByProvider(t *testing.T) {
	tests := []struct {
		provider, baseURL string
		want              provider.Server
	}{
		{"ollama", "http://127.0.0.1:11500/v1", provider.ServerOllama},
		{"llamacpp", "http://10.0.0.5:9000/v1", provider.ServerLlamaCpp},
		{"vllm", "http://gpu-box:9999/v1", provider.ServerVLLM},
		{"mybox", "http://127.0.0.1:11434/v1", provider.ServerOllama},
		{"mybox", "http://127.0.0.1:9999/v1", provider.ServerUnknown},
		{"", "http://127.0.0.1:8080/v1", provider.ServerLlamaCpp},
	}
	for _, tt := range tests {
		s := &tickcfg.Settings{BaseURL: tt.baseURL}
		s.Provider = tt.provider
		s.Model = "m"
		cfg := &config{Run: tickcfg.Run{Settings: s}}
		c, err := provider.New(clientConfig(cfg))
		if err != nil {
			t.Fatalf("%s at %s: %v", tt.provider, tt.baseURL, err)
		}
		if got := c.Server(); got != tt.want {
			t.Errorf("%q at %s: server %q, want %q", tt.provider, tt.baseURL, got, tt.want)
		}
	}
}
