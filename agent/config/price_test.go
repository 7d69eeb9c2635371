package config

import (
	"errors"
	"strings"
	"testing"
)

// TestPriceOf: the user's prices table wins, a self-hosted server is free,
// a hosted one without a configured price is left to the agent's list
// prices, and a project file cannot set prices.
func TestPriceOf(t *testing.T) {
	tests := []struct {
		name, user, project, model string
		wantSrc                    PriceSource
		wantInput                  float64
	}{
		{"config overrides table", "provider = \"openai\"\nmodel = \"gpt-4o\"\n[providers.openai.prices.\"gpt-4o\"]\ninput = 1\noutput = 2\n", "", "gpt-4o", PriceConfig, 1},
		{"preset without a price", "provider = \"openai\"\nmodel = \"gpt-4o\"\n", "", "gpt-4o", PriceUnknown, 0},
		{"preset, unknown model", "provider = \"openai\"\n", "", "my-finetune", PriceUnknown, 0},
		{"local server is free", localUser, "", "qwen2.5-coder:7b", PriceLocal, 0},
		{"config price for a local model", localUser + "[providers.local.prices.\"qwen2.5-coder\"]\ninput = 0.5\noutput = 0.5\n", "", "qwen2.5-coder", PriceConfig, 0.5},
		{"project prices ignored", "provider = \"openai\"\n", "[providers.openai.prices.\"gpt-4o\"]\ninput = 0\noutput = 0\n", "gpt-4o", PriceUnknown, 0},
		{"hosted elsewhere is unknown", "provider = \"x\"\n[providers.x]\nbase_url = \"https://api.example.com/v1\"\n", "", "m", PriceUnknown, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Load(setup(t, tc.user, tc.project, map[string]string{"OPENAI_API_KEY": "k"}))
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			p, src := s.PriceOf(tc.model)
			if src != tc.wantSrc || p.Input != tc.wantInput {
				t.Errorf("PriceOf(%q) = %+v, %q; want input %v from %q", tc.model, p, src, tc.wantInput, tc.wantSrc)
			}
		})
	}
}

// TestBadPrice: a negative price is refused at its line.
func TestBadPrice(t *testing.T) {
	_, err := Load(setup(t, "[providers.a.prices.\"m\"]\ninput = -1\n", "", nil))
	var fe *FileError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "non-negative") {
		t.Fatalf("Load = %v, want a FileError about the price", err)
	}
}

// TestIsLocalURL names what counts as a self-hosted server.
func TestIsLocalURL(t *testing.T) {
	for base, want := range map[string]bool{
		"http://127.0.0.1:11434/v1": true,
		"http://localhost:8080/v1":  true,
		"http://192.168.1.20:8000":  true,
		"http://[::1]:8000":         true,
		"http://gpu-box:8000/v1":    true,
		"http://llm.lan/v1":         true,
		"https://api.openai.com/v1": false,
		"https://8.8.8.8/v1":        false,
		"":                          false,
	} {
		if got := IsLocalURL(base); got != want {
			t.Errorf("IsLocalURL(%q) = %v, want %v", base, got, want)
		}
	}
}

// TestMouseAndPricesKnown: mouse and a prices table are keys of the file
// format: no unknown-key warning, and mouse = false turns the mouse off.
func TestMouseAndPricesKnown(t *testing.T) {
	s, err := Load(setup(t, "mouse = false\n[providers.openai.prices.\"gpt-4o\"]\ninput = 1\ncached_input = 0.5\noutput = 2\n", "", nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Warnings) > 0 || s.MouseOn() {
		t.Errorf("warnings %q, mouse on %v", s.Warnings, s.MouseOn())
	}
	if on := (Config{}).MouseOn(); !on {
		t.Error("the mouse is off by default")
	}
}
