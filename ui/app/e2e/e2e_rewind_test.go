package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/ui/app"
)

// TestHeadlessEmptyAnswer checks that -p says on stderr that the model
// returned an empty answer (no text, no tool call) and exits non-zero.
func TestHeadlessEmptyAnswer(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{})
	args, _ := headless(t, srv, "hello")
	r := tick(t, nil, "", args...)
	if r.code != app.ExitEmpty || !strings.Contains(r.stderr, "the model returned an empty answer") {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	if r.stdout != "" {
		t.Errorf("stdout = %q", r.stdout)
	}
}

// TestE2EChangeStartsItem: with a plan and no item in progress, a change
// marks the next item in progress, says so on screen and to the model.
func TestE2EChangeStartsItem(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	script(t, srv,
		todoStep("Greet", pending(todoItem{ID: "1", Text: "Write HELLO"}, todoItem{ID: "2", Text: "Check it"})...),
		step{reply: call("write_file", map[string]any{"path": "hello.txt", "content": "hi\n"})},
		textStep("Wrote hello."),
	)
	p := startApp(t, srv, "--yolo")
	p.prompt("write hello")
	p.waitFor("Wrote hello.", "started #1 Write HELLO: a change came with no item in progress")
	reqs := srv.Requests()
	if got := dump(reqs[len(reqs)-1].Messages); !strings.Contains(got, `tick marked #1 "Write HELLO" in_progress`) {
		t.Errorf("the model was not told:\n%s", got)
	}
	checkValid(t, srv)
}

// TestE2EStalePlan: a turn that ended with an item open does not push two
// later unrelated prompts back into it: one request each, no reminder.
func TestE2EStalePlan(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	script(t, srv,
		todoStep("Ship", todoItem{ID: "1", Text: "Build", Status: "in_progress"}, todoItem{ID: "2", Text: "Docs", Status: "pending"}),
		textStep("Stopping for now."),
		textStep("Really stopping."),
		textStep("Four."),
		textStep("Paris."),
	)
	p := startApp(t, srv, "--yolo", "--completion-reminder=true")
	p.prompt("ship it")
	p.waitFor("Really stopping.")
	p.prompt("what is 2+2?")
	p.waitFor("Four.")
	p.prompt("capital of France?")
	p.waitFor("Paris.")
	reqs := srv.Requests()
	if len(reqs) != 5 {
		t.Fatalf("%d requests, want 5 (3 for the plan's turn, 1 for each question)", len(reqs))
	}
	for _, r := range reqs[3:] {
		if strings.Contains(r.LastUser(), "still open") {
			t.Errorf("an unrelated prompt carried the reminder: %q", r.LastUser())
		}
	}
	checkValid(t, srv)
}

// TestE2ERejectedPlanRefusesChanges: after a todo call that drops the
// user's item is refused, the model's write is refused too, quoting why.
func TestE2ERejectedPlanRefusesChanges(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	ws := t.TempDir()
	script(t, srv,
		todoStep("Tidy", pending(todoItem{ID: "1", Text: "Tidy code"})...),
		textStep("Planned."),
		todoStep("Tidy", todoItem{ID: "1", Text: "Tidy code", Status: "in_progress"}),
		step{reply: call("write_file", map[string]any{"path": "x.txt", "content": "x\n"})},
		textStep("Stopped."),
	)
	p := startAppAt(t, srv, t.TempDir(), ws, "--yolo")
	p.prompt("plan tidying")
	p.waitFor("Planned.")
	p.prompt("/plan add Write TESTS")
	p.waitFor("Write TESTS")
	p.prompt("go")
	p.waitFor("Stopped.")
	reqs := srv.Requests()
	if got := dump(reqs[len(reqs)-1].Messages); !strings.Contains(got, "your last todo call was refused") || !strings.Contains(got, "added by the user") {
		t.Errorf("the write was not refused with the reason:\n%s", got)
	}
	if _, err := os.Stat(filepath.Join(ws, "x.txt")); err == nil {
		t.Error("the refused write happened")
	}
	checkValid(t, srv)
}

// TestE2EGateModelWalksPast: a gate after #1 holds when the model moves on
// to #2 without completing #1: its change waits until enter.
func TestE2EGateModelWalksPast(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	ws := t.TempDir()
	script(t, srv,
		todoStep("Two", pending(todoItem{ID: "1", Text: "Design ALPHA"}, todoItem{ID: "2", Text: "Build BRAVO"})...),
		textStep("Planned."),
		todoStep("Two", todoItem{ID: "1", Text: "Design ALPHA", Status: "pending"}, todoItem{ID: "2", Text: "Build BRAVO", Status: "in_progress"}),
		step{reply: call("write_file", map[string]any{"path": "bravo.txt", "content": "b\n"})},
		textStep("Built."),
	)
	p := startAppAt(t, srv, t.TempDir(), ws, "--yolo")
	p.prompt("plan two steps")
	p.waitFor("Planned.")
	p.prompt("/plan")
	p.waitFor("a add after", "g stop after")
	p.send("g") // stop after the selected item, #1
	p.waitFor("stop after")
	p.send("Escape")
	p.waitGone("a add after")
	p.prompt("build it")
	p.waitFor("the user asked to stop after #1, and the model moved on to #2")
	if _, err := os.Stat(filepath.Join(ws, "bravo.txt")); err == nil {
		t.Fatal("the change ran past the gate")
	}
	p.send("Enter")
	p.waitFor("Built.")
	if _, err := os.Stat(filepath.Join(ws, "bravo.txt")); err != nil {
		t.Errorf("the change did not run after enter: %v", err)
	}
	checkValid(t, srv)
}

// TestE2EPlanClear: /plan clear puts an open plan aside; the panel empties
// and the model hears of it with the next prompt.
func TestE2EPlanClear(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	script(t, srv,
		todoStep("Old goal", todoItem{ID: "1", Text: "Step KILO", Status: "in_progress"}),
		textStep("Later."),
		textStep("Hello."),
	)
	p := startApp(t, srv, "--yolo")
	p.prompt("start")
	p.waitFor("Later.", "Step KILO")
	p.prompt("/plan clear")
	p.waitFor("put the plan aside")
	p.waitGone("Step KILO")
	p.prompt("hi")
	p.waitFor("Hello.")
	reqs := srv.Requests()
	if got := dump(reqs[len(reqs)-1].Messages); !strings.Contains(got, "The user put the plan aside") {
		t.Errorf("the model was not told:\n%s", got)
	}
	checkValid(t, srv)
}
