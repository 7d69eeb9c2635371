package main

import (
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
)

// TestE2EPlanSurvivesContinue: in plan mode, the user adds an item to the
// proposed plan in the editor and quits; `tick -c` comes back in plan mode
// with the plan awaiting approval and the user's item; the model, told of
// the edit, tries to drop the item and is refused, and the item stays on
// screen.
func TestE2EPlanSurvivesContinue(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	pending := func(items ...todoItem) []todoItem {
		for i := range items {
			items[i].Status = "pending"
		}
		return items
	}
	script(t, srv,
		todoStep("Greet", pending(todoItem{ID: "1", Text: "Read main.go"}, todoItem{ID: "2", Text: "Write hello.txt"})...),
		textStep("Plan: read, then write."),
		// After the resume: the model drops the user's item, is refused,
		// and ends its plan-mode turn with the list as it is.
		todoStep("Greet", pending(todoItem{ID: "1", Text: "Read main.go"}, todoItem{ID: "2", Text: "Write hello.txt"})...),
		textStep("Kept your item."),
	)
	home, ws := t.TempDir(), t.TempDir()
	p := startAppAt(t, srv, home, ws)
	p.send("BTab")
	p.waitFor("plan mode: nothing changes")
	p.prompt("plan a greeting")
	p.waitFor("Plan: read, then write.", "Implement this plan?", "Write hello.txt")

	p.send("C-p") // the plan editor, on the first item
	p.waitFor("a add after")
	p.send("a")
	p.waitFor("Add after #1")
	p.typeText("ZULU verify")
	p.send("Enter")
	p.waitFor("ZULU verify")
	p.send("Escape")
	p.waitGone("a add after")
	p.send("C-d")
	if !waitFor(screenTimeout, func() bool { gone, _ := p.dead(); return gone }) {
		t.Fatalf("ctrl+d did not quit:\n%s", p.screen())
	}

	p2 := startAppAt(t, srv, home, ws, "-c")
	scr := p2.waitFor("resumed session", "ZULU verify", "Implement this plan?")
	if !strings.Contains(scr, "plan ·") {
		t.Errorf("the resumed session is not in plan mode:\n%s", scr)
	}
	p2.prompt("go on")
	scr = p2.waitFor("Kept your item.", "was added by the user")
	if !strings.Contains(scr, "ZULU verify") || !strings.Contains(scr, "plan ·") {
		t.Errorf("after the refused call: the user's item or plan mode is gone:\n%s", scr)
	}
	reqs := srv.Requests()
	if len(reqs) < 3 || !strings.Contains(dump(reqs[2].Messages), "added #3 ZULU verify") {
		t.Errorf("the edit made before quitting did not reach the model after the resume")
	}
	if len(reqs) < 3 || !strings.Contains(reqs[2].Messages[0].Content, "PLAN MODE IS ON") || strings.Contains(strings.Join(reqs[2].Tools, ","), "write_file") {
		t.Errorf("the resumed turn was not a plan-mode turn")
	}
	checkValid(t, srv)
}
