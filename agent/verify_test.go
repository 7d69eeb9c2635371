package agent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider/providertest"
)

// TestVerifyWithPlanEdit: the user's plan edit made while the check runs
// reaches the model with the check's failure note, in one valid request;
// the item the user added keeps the plan open, and the turn ends with the
// check's final failure and that item unfinished.
func TestVerifyWithPlanEdit(t *testing.T) {
	h := newHarness(t, func(c *agent.Config) { c.Verify = agent.VerifyCheck{Command: "echo broken; exit 1", Attempts: 2} })
	h.srv.Enqueue(
		calls(call("todo", `{"items":[{"id":"1","text":"Fix it","status":"completed"}]}`)),
		providertest.Reply{Text: "Done."},
		providertest.Reply{Text: "Done again."},
		providertest.Reply{Text: "Still done."})
	var finals []agent.Verified
	var unfinished []agent.Unfinished
	edited := false
	for ev := range h.ag.Run(context.Background(), "fix it") {
		switch e := ev.(type) {
		case agent.VerifyStarted:
			if !edited {
				edited = true
				if _, err := h.ag.EditPlan(agent.PlanEdit{Op: agent.PlanAdd, Text: "Also update the docs"}); err != nil {
					t.Fatal(err)
				}
			}
		case agent.Verified:
			finals = append(finals, e)
		case agent.Unfinished:
			unfinished = append(unfinished, e)
		}
	}
	if errs := h.srv.Errors(); len(errs) > 0 {
		t.Fatalf("invalid requests: %v", errs)
	}
	reqs := h.srv.Requests()
	var third []string
	for _, m := range reqs[2].Messages {
		third = append(third, m.Content)
	}
	joined := strings.Join(third, "\n")
	if !strings.Contains(joined, "The verify check failed") || !strings.Contains(joined, "Also update the docs") {
		t.Errorf("the request after the check lacks the failure note or the user's edit:\n%s", joined)
	}
	if len(finals) != 2 || finals[1].Passed || !finals[1].Final || finals[0].Final {
		t.Errorf("verified events %+v: want two failures, the second final", finals)
	}
	if len(unfinished) != 1 || len(unfinished[0].Items) != 1 || unfinished[0].Items[0].Text != "Also update the docs" {
		t.Errorf("unfinished %+v: want the user's item alone, once", unfinished)
	}
}

// TestVerifyNotInPlanModeNorOff: plan mode does not run the check, and
// SetVerify("") turns it off for the next turns.
func TestVerifyNotInPlanModeNorOff(t *testing.T) {
	h := newHarness(t, func(c *agent.Config) { c.Verify = agent.VerifyCheck{Command: "exit 1"} })
	h.ag.SetMode(agent.ModePlan)
	h.srv.Enqueue(providertest.Reply{Text: "A plan."})
	for _, ev := range h.run("plan") {
		if _, ok := ev.(agent.VerifyStarted); ok {
			t.Fatal("the check ran in plan mode")
		}
	}
	h.ag.SetMode(agent.ModeAuto)
	h.ag.SetVerify("")
	h.srv.Enqueue(providertest.Reply{Text: "Done."})
	for _, ev := range h.run("go") {
		if _, ok := ev.(agent.VerifyStarted); ok {
			t.Fatal("the check ran after SetVerify(\"\")")
		}
	}
	if got := h.ag.Verify(); got.Command != "" || got.Attempts != agent.DefaultVerifyAttempts || got.Timeout != agent.DefaultVerifyTimeout {
		t.Errorf("Verify() = %+v", got)
	}
}
