package app

import (
	"bytes"
	"strings"
	"testing"
)

// TestMaxCostUnpricedRefused: --max-cost on a model with no known price
// behind a non-local server that reports no cost would never stop
// anything: tick refuses to start (exit 2), naming the model and the
// prices table; a local server (free) or a known model is fine.
func TestMaxCostUnpricedRefused(t *testing.T) {
	env := func(k string) string {
		switch k {
		case "HOME":
			return t.TempDir()
		case "OPENAI_API_KEY":
			return "sk-test-key-0123456789"
		}
		return ""
	}
	ws := t.TempDir()
	var out, errb bytes.Buffer
	code := Main([]string{"-p", "x", "--base-url", "https://llm.corp.example/v1", "--model", "corp-gpt", "--max-cost", "1", "-C", ws, "--output-format", "json"},
		strings.NewReader(""), &out, &errb, env)
	if code != ExitUsage || !strings.Contains(errb.String(), "corp-gpt") || !strings.Contains(errb.String(), ".prices]") {
		t.Fatalf("exit %d, stderr %q; want 2 naming the model and the prices table", code, errb.String())
	}
	if !strings.Contains(out.String(), `"exit_code":2`) {
		t.Errorf("stdout %q: want the result object", out.String())
	}
	for _, tt := range []struct{ name, url, model string }{
		{"a local server", "http://127.0.0.1:1/v1", "corp-gpt"},
		{"a model of the price table", "https://llm.corp.example/v1", "gpt-4.1-mini"},
		{"a server that reports costs", "https://openrouter.ai/api/v1", "corp-gpt"},
	} {
		cfg, err := parseConfig([]string{"-p", "x", "--base-url", tt.url, "--model", tt.model, "--max-cost", "1", "-C", ws}, env)
		if err != nil {
			t.Fatal(err)
		}
		if err := checkCostBudget(cfg); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}
