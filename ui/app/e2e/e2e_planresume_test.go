package e2e

import (
	"github.com/tick-agent/tick/ui/app/apptest"

	"strings"
	"testing"

	"github.com/tick-agent/tick/agent/session"
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
	// The item in the list, the editor back on its keys: the typed text
	// alone shows before enter is read, and an escape sent on its heels
	// could be read with the next key as one alt+key.
	p.waitFor("○ ZULU verify", "a add after")
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

// TestHeadlessContinueOfPlanSession: -p cannot approve a plan or switch
// modes, so `tick -c -p` of a session left in plan mode runs in the mode
// its flags say (auto here; --plan keeps plan mode) and saves that mode.
func TestHeadlessContinueOfPlanSession(t *testing.T) {
	tests := []struct {
		name     string
		flags    []string
		planMode bool
		saved    string
	}{
		{"without --plan", nil, false, "auto"},
		{"with --plan", []string{"--plan"}, true, "plan"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := providertest.New(t)
			env, state := apptest.StateEnv(t)
			ws := t.TempDir()
			srv.Enqueue(
				todoReply(todoCall("Greet", "1:pending:Read main.go", "2:pending:Write hello.txt")),
				providertest.Reply{Text: "Plan: read, then write."},
				providertest.Reply{Text: "Carrying on."},
				providertest.Reply{Text: "Still carrying on."},
			)
			mustRun(t, env, "-p", "plan a greeting", "--plan", "--yolo", "--base-url", srv.URL, "-C", ws)
			if ld := loadLatest(t, state, ws); ld.Mode != "plan" {
				t.Fatalf("the plan-mode run saved mode %q, want plan", ld.Mode)
			}
			mustRun(t, env, append([]string{"-c", "-p", "carry on", "--yolo", "--completion-reminder=false", "--base-url", srv.URL, "-C", ws}, tc.flags...)...)
			req := apptest.LastRequest(t, srv)
			inPlan := strings.Contains(req.Messages[0].Content, "PLAN MODE IS ON")
			if inPlan != tc.planMode || inPlan == strings.Contains(strings.Join(req.Tools, ","), "write_file") {
				t.Errorf("plan mode %v (tools %v), want %v", inPlan, req.Tools, tc.planMode)
			}
			if ld := loadLatest(t, state, ws); ld.Mode != tc.saved || ld.BeforePlan != "auto" {
				t.Errorf("saved mode %q before %q, want %q before auto", ld.Mode, ld.BeforePlan, tc.saved)
			}
			checkValid(t, srv)
		})
	}
}

// loadLatest loads ws's latest session under state.
func loadLatest(t *testing.T, state, ws string) *session.Loaded {
	t.Helper()
	all := apptest.ListSessions(t, state, ws)
	if len(all) == 0 {
		t.Fatal("no session saved")
	}
	ld, err := session.Load(all[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	return ld
}
