package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/ui/app"
)

// TestSeamParallelTasksGitGuardPrint: the git guard, parallel tasks and
// -p. Two tasks run side by side; one writes a git hook, which nobody can
// approve in -p, the other an ordinary file. The run ends refused (exit
// 3) naming the write into .git alone; the hook never lands, and the
// other task's file is merged.
func TestSeamParallelTasksGitGuardPrint(t *testing.T) {
	srv := providertest.New(t)
	var together atomic.Bool // both tasks' first requests were open at once
	writes := map[string]map[string]any{
		"make hook": {"path": ".git/hooks/pre-commit", "content": "#!/bin/sh\nexit 0\n"},
		"make b":    {"path": "b.txt", "content": "b"},
	}
	srv.SetFunc(func(req providertest.Request) providertest.Reply {
		first, last := "", req.Messages[len(req.Messages)-1]
		for _, m := range req.Messages {
			if m.Role == "user" {
				first = m.Content
				break
			}
		}
		switch w, ok := writes[first]; {
		case ok && last.Role == "user":
			if srv.WaitOpen(2, 5*time.Second) {
				together.Store(true)
			}
			return call("write_file", w)
		case ok:
			return providertest.Reply{Text: "did " + first}
		case last.Role == "user":
			var cs []providertest.Call
			for _, d := range []string{"make hook", "make b"} {
				b, _ := json.Marshal(map[string]any{"description": d, "prompt": d})
				cs = append(cs, providertest.Call{Name: "task", Args: string(b)})
			}
			return providertest.Reply{ToolCalls: cs}
		}
		return providertest.Reply{Text: "Both tried."}
	})
	args, ws := headless(t, srv, "build both", "--output-format", "json")
	// A local fake server reports no slots: the config allows two tasks at once.
	if err := os.MkdirAll(filepath.Join(ws, ".tick"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, ".tick", "config.toml"), []byte("max_parallel_tasks = 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := tick(t, nil, "", args...)
	obj := resultOf(t, r)
	if r.code != app.ExitRefused || obj["exit_reason"] != app.ReasonRefused {
		t.Fatalf("exit %d, reason %v; want %d, %s\nstdout:\n%s\nstderr:\n%s", r.code, obj["exit_reason"], app.ExitRefused, app.ReasonRefused, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "1 tool call(s) refused") || !strings.Contains(r.stdout, "write into .git") {
		t.Errorf("the result does not name the one refused write into .git:\n%s", r.stdout)
	}
	if _, err := os.Stat(filepath.Join(ws, ".git", "hooks", "pre-commit")); err == nil {
		t.Error("the refused hook landed in the workspace")
	}
	if !together.Load() {
		t.Error("the two tasks did not run side by side")
	}
	if b, err := os.ReadFile(filepath.Join(ws, "b.txt")); err != nil || string(b) != "b" {
		t.Errorf("b.txt = %q, %v; want the other task's file merged", b, err)
	}
}
