package config

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider"
)

// TestResolve checks how flags and the environment combine.
func TestResolve(t *testing.T) {
	ws := t.TempDir()
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want func(c Run) string // "" when c is right
	}{
		{"defaults", []string{"-C", ws}, nil, func(c Run) string {
			if c.Settings.Model != provider.DefaultModel || c.Settings.BaseURL != "" || c.Headless || c.Yolo {
				return fmt.Sprintf("%+v", c)
			}
			return ""
		}},
		{"env", []string{"-C", ws}, map[string]string{"TICK_MODEL": "m1", "OPENAI_BASE_URL": "http://h/v1", "OPENAI_API_KEY": " k "}, func(c Run) string {
			if c.Settings.Model != "m1" || c.Settings.BaseURL != "http://h/v1" || c.Settings.APIKey != "k" {
				return fmt.Sprintf("%+v", c)
			}
			return ""
		}},
		{"flags win over env", []string{"--model=m2", "--base-url", "http://x/v1", "-C", ws}, map[string]string{"TICK_MODEL": "m1", "OPENAI_BASE_URL": "http://h/v1"}, func(c Run) string {
			if c.Settings.Model != "m2" || c.Settings.BaseURL != "http://x/v1" {
				return fmt.Sprintf("%+v", c)
			}
			return ""
		}},
		{"double and single dashes", []string{"--p", "hi", "-json", "--yolo", "--workspace", ws, "--context-window", "4096"}, nil, func(c Run) string {
			if !c.Headless || c.Prompt != "hi" || !c.JSON || !c.Yolo || c.Workspace != ws || c.Settings.ContextWindow != 4096 {
				return fmt.Sprintf("%+v", c)
			}
			return ""
		}},
		{"NO_COLOR", []string{"-C", ws}, map[string]string{"NO_COLOR": "1"}, func(c Run) string {
			if !c.NoColor {
				return "noColor not set"
			}
			return ""
		}},
		{"relative workspace becomes absolute", []string{"-C", "."}, nil, func(c Run) string {
			if !filepath.IsAbs(c.Workspace) {
				return c.Workspace
			}
			return ""
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := ParseArgs(tc.args)
			if err != nil {
				t.Fatalf("ParseArgs: %v", err)
			}
			c, err := Resolve(a, func(k string) string { return tc.env[k] }, nil)
			if err != nil {
				t.Fatalf("Resolve: %v", err)
			}
			if bad := tc.want(c); bad != "" {
				t.Errorf("config wrong: %s", bad)
			}
		})
	}
}

// TestParseArgsRefuses checks the command lines ParseArgs refuses, each
// with a UsageError that names the problem.
func TestParseArgsRefuses(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"mcp"}, "tick mcp takes list or trust"},
		{[]string{"mcp", "start"}, "tick mcp takes list or trust"},
		{[]string{"--bogus"}, "flag provided but not defined"},
		{[]string{"--resume", " "}, "--resume needs a session id"},
		{[]string{"sessions", "extra"}, `unexpected argument "extra": tick sessions takes no arguments`},
		{[]string{"-p", "hi", "extra"}, `unexpected argument "extra": -p takes the prompt`},
		{[]string{"config", "--yolo"}, "tick config takes only -C DIR and the model flags"},
		{[]string{"config", "path", "--json"}, "tick config path takes only"},
		{[]string{"mcp", "list", "-c"}, "tick mcp list takes only -C DIR and --json"},
		{[]string{"doctor", "--json"}, "tick doctor takes only"},
		{[]string{"sessions", "-p", "x"}, "tick sessions only lists"},
		{[]string{"-c", "--resume", "abc"}, "give either --continue or --resume ID"},
		{[]string{"-p", "  "}, "-p needs a prompt"},
		{[]string{"--json"}, "--json works only with -p PROMPT"},
		{[]string{"--verbose"}, "--verbose works only with -p PROMPT"},
		{[]string{"--context-window", "-1"}, "--context-window must be a positive number"},
		{[]string{"--sandbox", "none"}, "invalid value"},
		{[]string{"--env-allow", "A=B"}, "--env-allow needs a variable name"},
		{[]string{"--idle-timeout", "soon"}, "--idle-timeout needs a duration"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			_, err := ParseArgs(tc.args)
			var ue *UsageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("ParseArgs(%q) = %v; want a UsageError with %q", tc.args, err, tc.want)
			}
		})
	}
}

// TestParseArgsAccepts checks what ParseArgs makes of good command lines.
func TestParseArgsAccepts(t *testing.T) {
	tests := []struct {
		args []string
		want Args
	}{
		{[]string{"config", "path"}, Args{Cmd: "config path"}},
		{[]string{"mcp", "trust", "-C", "x"}, Args{Cmd: "mcp trust", Workspace: "x"}},
		{[]string{"sessions", "--json"}, Args{Cmd: "sessions", JSON: true}},
		{[]string{"fix", " the build "}, Args{Initial: "fix  the build"}},
		{[]string{"--completion-reminder=false", "--idle-timeout", "0"}, Args{NoReminder: true, IdleTimeout: -1}},
		{[]string{"--help", "--json"}, Args{JSON: true, Help: true}},
		{[]string{"--version", "sessions"}, Args{Version: true}},
		{[]string{"--resume", " abc "}, Args{Resume: "abc"}},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			got, err := ParseArgs(tc.args)
			if err != nil {
				t.Fatalf("ParseArgs(%q): %v", tc.args, err)
			}
			if fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", tc.want) {
				t.Fatalf("ParseArgs(%q) = %+v, want %+v", tc.args, got, tc.want)
			}
		})
	}
}
