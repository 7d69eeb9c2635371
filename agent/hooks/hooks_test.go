package hooks

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
)

func newRunner(t *testing.T, cfg Config) *Runner {
	t.Helper()
	r, err := New(Options{Hooks: cfg, Dir: t.TempDir(), Environ: os.Environ()})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestPreToolUseOutcomes(t *testing.T) {
	tests := []struct {
		name        string
		hook        Hook
		tool        string
		wantBlock   bool
		wantMessage string
		wantFailure string
	}{
		{name: "allow", hook: Hook{Command: "exit 0"}, tool: "bash"},
		{name: "block", hook: Hook{Command: "echo 'no rm, please' >&2; exit 2"}, tool: "bash", wantBlock: true, wantMessage: "no rm, please"},
		{name: "other status fails", hook: Hook{Command: "echo broken >&2; exit 1"}, tool: "bash", wantFailure: "exit status 1: broken"},
		{name: "missing command fails", hook: Hook{Command: "/nonexistent/hook"}, tool: "bash", wantFailure: "exit status 127"},
		{name: "timeout fails", hook: Hook{Command: "sleep 30", Timeout: 200 * time.Millisecond}, tool: "bash", wantFailure: "timed out after 200ms"},
		{name: "matcher skips", hook: Hook{Matcher: "bash", Command: "exit 2"}, tool: "read_file"},
		{name: "matcher alternatives", hook: Hook{Matcher: "write_file|edit_file", Command: "exit 2"}, tool: "edit_file", wantBlock: true},
		{name: "matcher is anchored", hook: Hook{Matcher: "bash", Command: "exit 2"}, tool: "mcp__x__bash"},
		{name: "matcher pattern", hook: Hook{Matcher: "mcp__.*", Command: "exit 2"}, tool: "mcp__x__bash", wantBlock: true},
		{name: "star matches all", hook: Hook{Matcher: "*", Command: "exit 2"}, tool: "todo", wantBlock: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRunner(t, Config{PreToolUse: []Hook{tc.hook}})
			out := r.Run(context.Background(), agent.HookInput{Event: agent.HookPreToolUse, Tool: tc.tool, Args: json.RawMessage(`{}`)})
			if out.Block != tc.wantBlock || out.Message != tc.wantMessage {
				t.Errorf("outcome %+v, want block=%v message %q", out, tc.wantBlock, tc.wantMessage)
			}
			switch {
			case tc.wantFailure == "" && len(out.Failures) > 0:
				t.Errorf("unexpected failures %+v", out.Failures)
			case tc.wantFailure != "" && (len(out.Failures) != 1 || !strings.Contains(out.Failures[0].Error, tc.wantFailure) || out.Failures[0].Command != tc.hook.Command):
				t.Errorf("failures %+v, want one with %q", out.Failures, tc.wantFailure)
			}
		})
	}
}

func TestHookReceivesJSONOnStdin(t *testing.T) {
	out := filepath.Join(t.TempDir(), "in.json")
	r := newRunner(t, Config{PostToolUse: []Hook{{Command: "cat > " + out}}})
	res, failed := "file written", false
	in := agent.HookInput{Event: agent.HookPostToolUse, SessionID: "s1", Workspace: "/w", Tool: "write_file", Args: json.RawMessage(`{"path":"a"}`), Result: &res, Failed: &failed}
	if o := r.Run(context.Background(), in); o.Block || len(o.Failures) > 0 {
		t.Fatalf("outcome %+v", o)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("stdin %q is not JSON: %v", b, err)
	}
	want := map[string]any{"event": "post_tool_use", "session_id": "s1", "workspace": "/w", "tool": "write_file", "arguments": map[string]any{"path": "a"}, "result": "file written", "failed": false}
	for k, v := range want {
		if gb, _ := json.Marshal(got[k]); string(gb) != mustJSON(v) {
			t.Errorf("%s = %s, want %s", k, gb, mustJSON(v))
		}
	}
}

func mustJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

func TestPromptHookBlocksAndStopsTheRest(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "second-ran")
	r := newRunner(t, Config{UserPromptSubmit: []Hook{
		{Command: `grep -q password && { echo "no passwords" >&2; exit 2; }; exit 0`},
		{Command: "touch " + marker},
	}})
	out := r.Run(context.Background(), agent.HookInput{Event: agent.HookUserPromptSubmit, Prompt: "my password"})
	if !out.Block || out.Message != "no passwords" {
		t.Fatalf("outcome %+v, want blocked", out)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("a hook after the blocking one ran")
	}
	out = r.Run(context.Background(), agent.HookInput{Event: agent.HookUserPromptSubmit, Prompt: "hello"})
	if out.Block {
		t.Fatalf("outcome %+v for a harmless prompt", out)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Error("the second hook did not run for an allowed prompt")
	}
}

func TestInterruptedHookIsNoFailure(t *testing.T) {
	r := newRunner(t, Config{Stop: []Hook{{Command: "sleep 30"}}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan agent.HookOutcome, 1)
	go func() { done <- r.Run(ctx, agent.HookInput{Event: agent.HookStop}) }()
	cancel()
	select {
	case out := <-done:
		if out.Block || len(out.Failures) > 0 {
			t.Fatalf("outcome %+v after an interrupt", out)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
}

func TestBadConfig(t *testing.T) {
	tests := []struct {
		cfg  Config
		want string
	}{
		{Config{PreToolUse: []Hook{{Matcher: "(", Command: "true"}}}, "hooks.pre_tool_use[0]: matcher"},
		{Config{Stop: []Hook{{Command: " "}}}, "hooks.stop[0]: command is empty"},
	}
	for _, tc := range tests {
		if _, err := New(Options{Hooks: tc.cfg}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%+v) = %v, want %q", tc.cfg, err, tc.want)
		}
	}
}

func TestOutputIsBoundedAndClean(t *testing.T) {
	r := newRunner(t, Config{PreToolUse: []Hook{{Command: `printf '\033[31mred\n' >&2; head -c 100000 /dev/zero | tr '\0' x >&2; exit 2`}}})
	out := r.Run(context.Background(), agent.HookInput{Event: agent.HookPreToolUse, Tool: "bash"})
	if strings.Contains(out.Message, "\x1b") || !strings.HasPrefix(out.Message, "[31mred\nxx") {
		t.Errorf("message starts %q, want the escape dropped", out.Message[:12])
	}
	if !out.Block || len(out.Message) > outputMax+10 || !strings.HasSuffix(out.Message, "…") {
		t.Fatalf("message of %d bytes, want at most %d and marked cut", len(out.Message), outputMax)
	}
}
