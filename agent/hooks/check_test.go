package hooks

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
)

// TestCheckFailureSkipsHook: a hook whose Check fails (a trusted
// project's script changed) is not run and is reported with the reason;
// the next hook of the event still runs, and once the check passes the
// hook runs again.
func TestCheckFailureSkipsHook(t *testing.T) {
	dir := t.TempDir()
	ran := filepath.Join(dir, "ran")
	var changed error = errors.New(".tick/hooks/lint.sh changed since you trusted this project's hooks")
	r := newRunner(t, Config{PostToolUse: []Hook{
		{Command: "echo checked >> " + ran, Check: func(string) error { return changed }},
		{Command: "echo other >> " + ran},
	}})
	out := r.Run(context.Background(), agent.HookInput{Event: agent.HookPostToolUse, Tool: "bash"})
	if len(out.Failures) != 1 || !strings.Contains(out.Failures[0].Error, "not run: .tick/hooks/lint.sh changed") {
		t.Fatalf("failures %+v", out.Failures)
	}
	if b, _ := os.ReadFile(ran); string(b) != "other\n" {
		t.Fatalf("ran %q, want only the other hook", b)
	}
	changed = nil
	if out := r.Run(context.Background(), agent.HookInput{Event: agent.HookPostToolUse, Tool: "bash"}); len(out.Failures) != 0 {
		t.Fatalf("failures %+v", out.Failures)
	}
	if b, _ := os.ReadFile(ran); string(b) != "other\nchecked\nother\n" {
		t.Fatalf("ran %q", b)
	}
}
