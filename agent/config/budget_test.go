package config

import (
	"strings"
	"testing"
	"time"
)

// TestProviderFlagBeatsEnvBaseURL: --provider brings its provider's URL
// and key over OPENAI_BASE_URL; --base-url still wins over both.
func TestProviderFlagBeatsEnvBaseURL(t *testing.T) {
	env := map[string]string{"OPENAI_BASE_URL": "http://env.example/v1", "OPENAI_API_KEY": "sk-env", "OR_KEY": "sk-or"}
	user := localUser + "\n[providers.openrouter]\napi_key_env = \"OR_KEY\"\n"
	for _, tt := range []struct {
		name             string
		flags            Flags
		wantURL, wantKey string
		wantSrcKind      SourceKind
	}{
		{"no flag: the environment", Flags{}, "http://env.example/v1", "sk-env", SourceEnv},
		{"--provider local", Flags{Provider: "local"}, "http://127.0.0.1:11434/v1", "", SourceUser},
		{"--provider openrouter", Flags{Provider: "openrouter"}, "https://openrouter.ai/api/v1", "sk-or", SourceDefault},
		{"--provider with --base-url", Flags{Provider: "local", BaseURL: "http://flag.example/v1"}, "http://flag.example/v1", "sk-env", SourceFlag},
	} {
		t.Run(tt.name, func(t *testing.T) {
			opts := setup(t, user, "", env)
			opts.Flags = tt.flags
			s, err := Load(opts)
			if err != nil {
				t.Fatal(err)
			}
			if s.BaseURL != tt.wantURL || s.APIKey != tt.wantKey || s.Sources["base_url"].Kind != tt.wantSrcKind {
				t.Errorf("base URL %q (from %v), key %q; want %q (from %v), %q", s.BaseURL, s.Sources["base_url"], s.APIKey, tt.wantURL, tt.wantSrcKind, tt.wantKey)
			}
		})
	}
}

// TestBudgetKeys: the user file's budgets apply, flags win, bad values
// are refused naming the key.
func TestBudgetKeys(t *testing.T) {
	opts := setup(t, "max_turns = 30\nmax_cost = 1.5\nmax_time = \"10m\"\n", "", nil)
	s, err := Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Budgets(Budgets{}); got != (Budgets{Turns: 30, Cost: 1.5, Time: 10 * time.Minute}) {
		t.Errorf("Budgets() = %+v", got)
	}
	if got := s.Budgets(Budgets{Turns: 5, Time: time.Minute}); got != (Budgets{Turns: 5, Cost: 1.5, Time: time.Minute}) {
		t.Errorf("Budgets(flags) = %+v", got)
	}
	if _, err := Load(setup(t, "max_time = \"soon\"\n", "", nil)); err == nil || !strings.Contains(err.Error(), "max_time") {
		t.Errorf("a bad max_time: %v", err)
	}
	if _, err := ParseCost("-1"); err == nil {
		t.Error("ParseCost(-1) took a negative amount")
	}
}
