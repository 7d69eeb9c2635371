package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider/providertest"
)

// TestE2EPlanModeApprove: shift+tab switches to plan mode; the plan-mode
// turn ends with its plan open as a proposal; a typed revision marks what
// changed; the editor (e) adds an item the user owns; y approves, switches
// back to auto mode and carries the plan out, with the user's item kept.
func TestE2EPlanModeApprove(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	script(t, srv,
		todoStep("Add a greeting", pending(todoItem{ID: "1", Text: "Read main.go"}, todoItem{ID: "2", Text: "Write hello.txt"})...),
		textStep("Plan: read, then write."),
		todoStep("Add a greeting", pending(todoItem{ID: "1", Text: "Read main.go carefully"}, todoItem{ID: "3", Text: "Write hello.md"})...),
		textStep("Revised plan."),
		// Carrying it out: the model first tries to drop the user's item,
		// then keeps it and finishes every item.
		todoStep("Add a greeting", todoItem{ID: "1", Text: "Read main.go carefully", Status: "in_progress"}, todoItem{ID: "3", Text: "Write hello.md", Status: "pending"}),
		todoStep("Add a greeting", todoItem{ID: "1", Text: "Read main.go carefully", Status: "completed"}, todoItem{ID: "4", Text: "ZULU verify", Status: "completed"}, todoItem{ID: "3", Text: "Write hello.md", Status: "completed"}),
		textStep("Done with the greeting."),
	)
	p := startApp(t, srv, "--yolo")
	p.send("BTab")
	p.waitFor("plan mode: nothing changes")
	p.prompt("plan a greeting")
	p.waitFor("Plan: read, then write.", "Implement this plan?", "y approve", "Write hello.txt")

	p.prompt("write markdown instead")
	scr := p.waitFor("Revised plan.", "Implement this plan?", "~ ○ Read main.go carefully", "+ ○ Write hello.md", "Write hello.txt")

	time.Sleep(deliberatePause) // the proposal waits for a deliberate key
	p.send("e")                 // the editor, on the first item
	p.waitFor("a add after")
	p.send("a")
	p.waitFor("Add after #1")
	p.typeText("ZULU verify")
	p.send("Enter")
	p.waitFor("ZULU verify")
	p.send("Escape")
	p.waitGone("a add after")
	scr = p.waitFor("Implement this plan?")
	if !strings.Contains(scr, "plan ·") {
		t.Errorf("the status bar does not show plan mode:\n%s", scr)
	}

	time.Sleep(deliberatePause) // a deliberate y
	p.send("y")
	scr = p.waitFor("Done with the greeting.", "was added by the user")
	if !strings.Contains(scr, "auto ·") || strings.Contains(scr, "Implement this plan?") {
		t.Errorf("after approval: not back in auto mode, or the proposal is still open:\n%s", scr)
	}
	reqs := srv.Requests()
	approved := reqs[4]
	if !strings.Contains(approved.LastUser(), "added #4 ZULU verify") && !strings.Contains(dump(approved.Messages), "added #4 ZULU verify") {
		t.Errorf("the user's edit did not reach the model:\n%s", dump(approved.Messages))
	}
	if !strings.Contains(dump(approved.Messages), "I approve this plan") || strings.Contains(approved.Messages[0].Content, "PLAN MODE IS ON") {
		t.Errorf("the approved turn did not carry the plan, or was still in plan mode")
	}
	if !strings.Contains(reqs[0].Messages[0].Content, "PLAN MODE IS ON") || strings.Contains(strings.Join(reqs[0].Tools, ","), "write_file") {
		t.Errorf("the plan-mode turn offered %v", reqs[0].Tools)
	}
	checkValid(t, srv)
}

// TestE2EPlanEditorWhileRunning: /plan opens the editor while a turn runs;
// esc closes it without interrupting; a gate ("g") pauses the turn after
// its item until enter.
func TestE2EPlanEditorWhileRunning(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	hold := newGate(t)
	held := bashStep("echo one")
	held.gate = hold
	script(t, srv,
		todoStep("Two steps", todoItem{ID: "1", Text: "Step ALPHA", Status: "in_progress"}, todoItem{ID: "2", Text: "Step BRAVO", Status: "pending"}),
		held,
		todoStep("Two steps", todoItem{ID: "1", Text: "Step ALPHA", Status: "completed"}, todoItem{ID: "2", Text: "Step BRAVO", Status: "in_progress"}),
		todoStep("Two steps", todoItem{ID: "1", Text: "Step ALPHA", Status: "completed"}, todoItem{ID: "2", Text: "Step BRAVO", Status: "completed"}),
		textStep("Both steps done."),
	)
	p := startApp(t, srv, "--yolo")
	p.prompt("do two steps")
	hold.waitReached(t)
	p.waitFor("Step ALPHA", "Step BRAVO", "esc to interrupt")
	p.prompt("/plan")
	p.waitFor("a add after", "g stop after")
	p.send("g") // stop after the running item, #1
	p.waitFor("stop after")
	p.send("Escape")
	p.waitGone("a add after")
	if scr := p.screen(); strings.Contains(scr, "Interrupted") {
		t.Fatalf("esc in the editor interrupted the turn:\n%s", scr)
	}
	hold.open()
	p.waitFor("paused after #1")
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("%d requests while paused, want 3", n)
	}
	p.send("Enter")
	p.waitFor("Both steps done.")
	checkValid(t, srv)
}

// TestE2EUndo: /undo shows which files change back before the last item,
// restores them on a deliberate y, marks the item undone and tells the
// model with the next prompt.
func TestE2EUndo(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "keep.txt"), []byte("original\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script(t, srv,
		todoStep("Two files", todoItem{ID: "1", Text: "Write NEWFILE", Status: "in_progress"}),
		step{reply: call("write_file", map[string]any{"path": "newfile.txt", "content": "new\n"})},
		step{reply: call("write_file", map[string]any{"path": "keep.txt", "content": "edited\n"})},
		todoStep("Two files", todoItem{ID: "1", Text: "Write NEWFILE", Status: "completed"}),
		textStep("Wrote it."),
		textStep("Noted the undo."),
	)
	p := startAppAt(t, srv, t.TempDir(), ws, "--yolo")
	p.prompt("write the files")
	p.waitFor("Wrote it.")
	p.prompt("/undo")
	p.waitFor("Undo #1 Write NEWFILE", "newfile.txt  deleted (created since)", "keep.txt  changed back", "restore these files")
	p.send("x") // not a key of the confirmation: it goes to the input
	p.send("y") // straight after another key: not deliberate, to the input too
	p.waitFor("your typing went to the input")
	if _, err := os.Stat(filepath.Join(ws, "newfile.txt")); err != nil {
		t.Fatalf("a hasty y restored the files: %v", err)
	}
	time.Sleep(deliberatePause)
	p.send("y") // a plain y after a pause, like every other question
	p.waitFor("undid #1: 2 files restored")
	p.send("BSpace", "BSpace") // the "xy" the confirmation passed on
	if _, err := os.Stat(filepath.Join(ws, "newfile.txt")); err == nil {
		t.Error("newfile.txt survived the undo")
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "keep.txt")); string(b) != "original\n" {
		t.Errorf("keep.txt = %q after the undo", b)
	}
	p.prompt("what happened?")
	p.waitFor("Noted the undo.")
	reqs := srv.Requests()
	if sent := dump(reqs[len(reqs)-1].Messages); !strings.Contains(sent, "The user undid #1") || !strings.Contains(sent, "newfile.txt (deleted") {
		t.Errorf("the model was not told about the undo:\n%s", sent)
	}
	checkValid(t, srv)
}
