package app

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/tick-agent/tick/provider"
)

// TestParseConfig checks how flags and the environment combine.
func TestParseConfig(t *testing.T) {
	ws := t.TempDir()
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want func(c config) string // "" when c is right
	}{
		{"defaults", []string{"-C", ws}, nil, func(c config) string {
			if c.model != provider.DefaultModel || c.baseURL != "" || c.headless || c.yolo {
				return fmt.Sprintf("%+v", c)
			}
			return ""
		}},
		{"env", []string{"-C", ws}, map[string]string{"TICK_MODEL": "m1", "OPENAI_BASE_URL": "http://h/v1", "OPENAI_API_KEY": " k "}, func(c config) string {
			if c.model != "m1" || c.baseURL != "http://h/v1" || c.apiKey != "k" {
				return fmt.Sprintf("%+v", c)
			}
			return ""
		}},
		{"flags win over env", []string{"--model=m2", "--base-url", "http://x/v1", "-C", ws}, map[string]string{"TICK_MODEL": "m1", "OPENAI_BASE_URL": "http://h/v1"}, func(c config) string {
			if c.model != "m2" || c.baseURL != "http://x/v1" {
				return fmt.Sprintf("%+v", c)
			}
			return ""
		}},
		{"double and single dashes", []string{"--p", "hi", "-json", "--yolo", "--workspace", ws, "--context-window", "4096"}, nil, func(c config) string {
			if !c.headless || c.prompt != "hi" || !c.json || !c.yolo || c.workspace != ws || c.contextWindow != 4096 {
				return fmt.Sprintf("%+v", c)
			}
			return ""
		}},
		{"NO_COLOR", []string{"-C", ws}, map[string]string{"NO_COLOR": "1"}, func(c config) string {
			if !c.noColor {
				return "noColor not set"
			}
			return ""
		}},
		{"relative workspace becomes absolute", []string{"-C", "."}, nil, func(c config) string {
			if !filepath.IsAbs(c.workspace) {
				return c.workspace
			}
			return ""
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := parseConfig(tc.args, func(k string) string { return tc.env[k] })
			if err != nil {
				t.Fatalf("parseConfig: %v", err)
			}
			if bad := tc.want(c); bad != "" {
				t.Errorf("config wrong: %s", bad)
			}
		})
	}
}
