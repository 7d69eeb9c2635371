package config

import "testing"

func TestIsHosted(t *testing.T) {
	tests := []struct {
		base string
		want bool
	}{
		{"https://api.openai.com/v1", true},
		{"https://openrouter.ai/api/v1/", true},
		{"https://api.groq.com/openai/v1", true},
		{"http://127.0.0.1:11434/v1", false},
		{"http://localhost:8080/v1", false},
		{"https://api.openai.com.evil.example/v1", false},
		{"::not a url", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := IsHosted(tt.base); got != tt.want {
			t.Errorf("IsHosted(%q) = %v, want %v", tt.base, got, tt.want)
		}
	}
}
