package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/checkpoint"
	"github.com/tick-agent/tick/agent/hooks"
	"github.com/tick-agent/tick/agent/tools"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

// oneWritingTask has the parent send one task ("part 1") whose subagent
// writes a.txt with content in its copy.
func oneWritingTask(h *harness, content string) {
	writingServer(h, map[string]map[string]string{"1": {"a.txt": content}}, calls(taskCall(1, "")))
}

// Issue 31 §6: a post_tool_use formatter for a task's write runs in the
// task's copy, told the copy as its workspace and the task by name: the
// user's file is left alone until the task's patch (formatted) merges.
func TestTaskHooksRunInItsCopy(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	out := t.TempDir()
	h := newHarness(t, func(c *agent.Config) {
		r, err := hooks.New(hooks.Options{Dir: c.Workspace, Environ: append(os.Environ(), "OUT="+out), Hooks: hooks.Config{
			PostToolUse: []hooks.Hook{{Matcher: "write_file", Command: `cat > "$OUT/in.json"; pwd -P > "$OUT/pwd"; echo formatted >> a.txt`}},
		}})
		if err != nil {
			t.Fatal(err)
		}
		c.Hooks = r
	})
	if err := os.WriteFile(filepath.Join(h.dir, "a.txt"), []byte("original\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	oneWritingTask(h, "from one\n")
	if te := end(t, h.run("PARENT: one task")); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	h.checkValid()
	if b, _ := os.ReadFile(filepath.Join(h.dir, "a.txt")); string(b) != "from one\nformatted\n" {
		t.Errorf("a.txt = %q, want the task's write, formatted in its copy, merged", b)
	}
	var in struct{ Workspace, Task string }
	raw, err := os.ReadFile(filepath.Join(out, "in.json"))
	if err != nil || json.Unmarshal(raw, &in) != nil {
		t.Fatalf("the hook's input: %q, %v", raw, err)
	}
	pwd, _ := os.ReadFile(filepath.Join(out, "pwd"))
	real, _ := filepath.EvalSymlinks(h.dir)
	if got := strings.TrimSpace(string(pwd)); got == real || !strings.Contains(got, "tick-task-") {
		t.Errorf("the hook ran in %s, want the task's copy", got)
	}
	if in.Task != "part 1" || !strings.Contains(in.Workspace, "tick-task-") {
		t.Errorf("hook input workspace %q task %q, want the copy and the task's name", in.Workspace, in.Task)
	}
	noLoopGoroutines(t)
}

// A project's hook runs in a task's copy only when the script it runs
// there is the trusted one (Check asked about the copy): a task that rewrote its copy's
// script does not get it run outside the sandbox.
func TestTaskHookChangedScriptNotRun(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	out := t.TempDir()
	h := newHarness(t, func(c *agent.Config) {
		trusted := "#!/bin/sh\necho trusted > \"$OUT/ran\"\n"
		r, err := hooks.New(hooks.Options{Dir: c.Workspace, Environ: append(os.Environ(), "OUT="+out), Hooks: hooks.Config{
			PostToolUse: []hooks.Hook{{Matcher: "write_file", Command: "sh fmt.sh",
				Check: func(dir string) error {
					if dir == "" {
						return nil // the workspace's is the trusted one
					}
					if b, _ := os.ReadFile(filepath.Join(dir, "fmt.sh")); string(b) != trusted {
						return errors.New("fmt.sh changed since it was trusted")
					}
					return nil
				}}},
		}})
		if err != nil {
			t.Fatal(err)
		}
		c.Hooks = r
		if err := os.WriteFile(filepath.Join(c.Workspace, "fmt.sh"), []byte(trusted), 0o755); err != nil {
			t.Fatal(err)
		}
	})
	writingServer(h, map[string]map[string]string{"1": {"fmt.sh": "#!/bin/sh\necho evil > \"$OUT/ran\"\n"}}, calls(taskCall(1, "")))
	evs := h.run("PARENT: one task")
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	if b, err := os.ReadFile(filepath.Join(out, "ran")); err == nil {
		t.Errorf("the hook ran the task's rewritten script: %q", b)
	}
	failed := false
	for _, ev := range evs {
		if s, ok := ev.(agent.Subagent); ok {
			if f, ok := s.Event.(agent.HookFailed); ok && strings.Contains(f.Error, "changed") {
				failed = true
			}
		}
	}
	if !failed {
		t.Error("no HookFailed says the copy's script changed")
	}
}

// fileSource offers one MCP-like tool that writes mcp.txt in dir, the
// way a server started in the workspace does.
type fileSource struct{ dir string }

func (s fileSource) Tools(context.Context, func(string)) []tools.Tool {
	return []tools.Tool{fileTool(s)}
}

type fileTool fileSource

func (fileTool) Spec() provider.ToolSpec {
	return provider.ToolSpec{Name: "mcp__fs__write", Description: "write", Parameters: json.RawMessage(`{"type":"object"}`)}
}

func (f fileTool) Run(context.Context, json.RawMessage) (string, error) {
	return "written", os.WriteFile(filepath.Join(f.dir, "mcp.txt"), []byte("from the server"), 0o644)
}

// Issue 31 §7: an MCP tool a task on #1 calls writes in the workspace (its
// server runs there), so #1's undo point is saved before the call: /undo 1
// takes the call's effect back.
func TestTaskMCPCallUnderItsItemPoint(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	h := newHarness(t, func(c *agent.Config) {
		s, err := checkpoint.Open(context.Background(), filepath.Join(t.TempDir(), "cp"), c.Workspace)
		if err != nil {
			t.Fatal(err)
		}
		c.Checkpoints = s
		c.ToolSource = fileSource{c.Workspace}
	})
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		if strings.HasPrefix(r.Messages[1].Content, "CHILD ") {
			if answersOf(r) == 0 {
				return calls(call("mcp__fs__write", `{}`))
			}
			return providertest.Reply{Text: "report 1"}
		}
		switch answersOf(r) {
		case 0:
			return calls(call("todo", threeItems))
		case 1:
			return calls(taskCall(1, `,"item":"1"`))
		}
		return providertest.Reply{Text: "parent done"}
	})
	if te := end(t, h.run("PARENT: plan")); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	if _, err := os.Stat(filepath.Join(h.dir, "mcp.txt")); err != nil {
		t.Fatalf("the server's write is missing: %v", err)
	}
	if _, _, err := h.ag.Undo(context.Background(), "1"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(h.dir, "mcp.txt")); err == nil {
		t.Error("/undo 1 left the write of the MCP call the task on #1 made")
	}
}
