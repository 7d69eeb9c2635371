package agent_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider/providertest"
)

// TestToolEndCarriesExitCode: a command's exit status is data — ToolEnd
// has exit_code, and a failing command is an error.
func TestToolEndCarriesExitCode(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(
		calls(call("bash", `{"command":"echo ok"}`), call("bash", `{"command":"exit 128"}`), call("read_file", `{"path":"nope"}`)),
		providertest.Reply{Text: "done"})
	ends := toolEnds(h.run("go"))
	if len(ends) != 3 {
		t.Fatalf("got %d tool ends, want 3", len(ends))
	}
	for i, want := range []struct {
		code  *int
		isErr bool
	}{{ptr(0), false}, {ptr(128), true}, {nil, true}} {
		got := ends[i]
		if (got.ExitCode == nil) != (want.code == nil) || (got.ExitCode != nil && *got.ExitCode != *want.code) || got.IsError != want.isErr {
			t.Errorf("call %d (%s): exit code %v, is_error %v; want %v, %v", i, got.Name, deref(got.ExitCode), got.IsError, deref(want.code), want.isErr)
		}
	}
}

// TestToolEndErrorPrefixedOutput: a command whose output begins with
// "Error:" (gh, helm, kubectl print that) keeps its exit status — the
// status comes from the process, not from the text.
func TestToolEndErrorPrefixedOutput(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(
		calls(call("bash", `{"command":"echo 'Error: release not found' >&2; exit 1"}`),
			call("bash", `{"command":"echo 'Error: only a word'"}`)),
		providertest.Reply{Text: "done"})
	ends := toolEnds(h.run("go"))
	if len(ends) != 2 {
		t.Fatalf("got %d tool ends, want 2", len(ends))
	}
	if c := ends[0].ExitCode; c == nil || *c != 1 || !ends[0].IsError {
		t.Errorf("failing command printing Error: — exit code %v, is_error %v; want 1, true", deref(c), ends[0].IsError)
	}
	if c := ends[1].ExitCode; c == nil || *c != 0 || ends[1].IsError {
		t.Errorf("succeeding command printing Error: — exit code %v, is_error %v; want 0, false", deref(c), ends[1].IsError)
	}
}

func ptr(n int) *int { return &n }

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestToolEndRefusedHeadless: headless without --yolo, a command is not
// run and its ToolEnd says it was refused.
func TestToolEndRefusedHeadless(t *testing.T) {
	h := newHarness(t, func(c *agent.Config) { c.Approval, c.Headless = agent.ApproveNone, true })
	h.srv.Enqueue(calls(call("bash", `{"command":"touch x"}`)), providertest.Reply{Text: "could not"})
	ends := toolEnds(h.run("go"))
	if len(ends) != 1 || !ends[0].Refused || !ends[0].IsError || ends[0].ExitCode != nil {
		t.Fatalf("tool ends = %+v, want one refused error without an exit code", ends)
	}
}

// TestToolEndSandboxBlocked: a write into .git, which the sandbox keeps
// read-only, fails and its ToolEnd says the sandbox blocked it.
func TestToolEndSandboxBlocked(t *testing.T) {
	h := newHarness(t, withSandbox(t))
	if err := os.Mkdir(filepath.Join(h.dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	h.srv.Enqueue(calls(call("bash", `{"command":"echo x > .git/index.lock"}`)), providertest.Reply{Text: "blocked"})
	ends := toolEnds(h.run("go"))
	if len(ends) != 1 || !ends[0].Blocked || !ends[0].IsError || ends[0].ExitCode == nil || *ends[0].ExitCode == 0 {
		t.Fatalf("tool ends = %+v, want one blocked failure with its exit code", ends)
	}
	if !strings.Contains(ends[0].Output, "the sandbox refused a write into .git, to "+filepath.Join(h.dir, ".git", "index.lock")) {
		t.Errorf("output does not say the sandbox blocked it:\n%s", ends[0].Output)
	}
}

// TestOneFinalAnswerAfterReminder: an answer the loop answers with a
// completion reminder is not final; only the answer after it is.
func TestOneFinalAnswerAfterReminder(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(
		calls(call("todo", `{"items":[{"id":"1","text":"a","status":"in_progress"},{"id":"2","text":"b","status":"pending"}]}`)),
		providertest.Reply{Text: "I am done."},
		providertest.Reply{Text: "Really done."})
	var finals []string
	for _, ev := range h.run("go") {
		if d, ok := ev.(agent.AssistantDone); ok && d.Final {
			finals = append(finals, d.Text)
		}
	}
	if len(finals) != 1 || finals[0] != "Really done." {
		t.Fatalf("final answers = %q, want only %q", finals, "Really done.")
	}
}
