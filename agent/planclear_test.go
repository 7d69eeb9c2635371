package agent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider/providertest"
)

// TestUserItemsDoNotBlockTheNextPlan: once the model's work on a plan is
// done, the next request's list replaces it; the user's items no longer
// bind the new list, and one still open is carried into it (the chat and
// the model are told). Before, the new list was refused for good.
func TestUserItemsDoNotBlockTheNextPlan(t *testing.T) {
	tests := []struct {
		name        string
		userStatus  string // the user's item in the model's last list of the old plan
		wantCarried bool
	}{
		{"the user's item completed", "completed", false},
		{"the user's item still open", "pending", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			lists := map[string]string{
				"fix the parser":            `{"goal":"Fix the parser","items":[{"id":"1","text":"Fix it","status":"in_progress"},{"id":"2","text":"Test it","status":"pending"}]}`,
				"go on":                     `{"goal":"Fix the parser","items":[{"id":"1","text":"Fix it","status":"completed","note":"done"},{"id":"2","text":"Test it","status":"completed","note":"done"},{"id":"3","text":"Update the changelog","status":"` + tt.userStatus + `","note":"done"}]}`,
				"now rename the --out flag": `{"goal":"Rename the CLI flag","items":[{"id":"1","text":"Rename --out","status":"in_progress"},{"id":"2","text":"Update the help","status":"pending"}]}`,
			}
			h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
				if list, ok := lists[promptOf(r)]; ok {
					return calls(call("todo", list))
				}
				return providertest.Reply{Text: "stopping here"}
			})
			h.run("fix the parser")
			if _, err := h.ag.EditPlan(agent.PlanEdit{Op: agent.PlanAdd, Text: "Update the changelog"}); err != nil {
				t.Fatal(err)
			}
			h.run("go on")
			evs := h.run("now rename the --out flag")
			h.checkValid()
			if out := strings.Join(toolOutputs(evs, "todo"), "\n"); strings.Contains(out, "Error") {
				t.Fatalf("the new plan was refused: %s", out)
			}
			got := h.ag.Todos()
			if got.Goal != "Rename the CLI flag" {
				t.Fatalf("the plan is %+v", got)
			}
			carried := len(got.Items) == 3 && got.Items[2].Text == "Update the changelog" && got.Items[2].ID == "3"
			if carried != tt.wantCarried {
				t.Fatalf("carried = %v, want %v: %+v", carried, tt.wantCarried, got)
			}
			notice := noticeText(evs)
			if !strings.Contains(notice, "replaced the finished one") {
				t.Errorf("the chat does not say the finished plan was archived: %q", notice)
			}
			if tt.wantCarried != strings.Contains(notice, `carried into the new plan: #3 "Update the changelog"`) {
				t.Errorf("the chat's notice about the user's item: %q", notice)
			}
			if ar := h.ag.Archived(); len(ar) != 1 || ar[0].Goal != "Fix the parser" {
				t.Errorf("archived = %+v", ar)
			}
		})
	}
}

// TestInProgressPlanSetsUserItemsAside: a new goal replacing a plan still
// in progress sets the user's open items aside with it, and the chat
// names them.
func TestInProgressPlanSetsUserItemsAside(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(calls(call("todo", `{"goal":"Old","items":[{"id":"1","text":"Old step","status":"in_progress"}]}`)), providertest.Reply{Text: "later"})
	h.run("old work")
	if _, err := h.ag.EditPlan(agent.PlanEdit{Op: agent.PlanAdd, Text: "User step"}); err != nil {
		t.Fatal(err)
	}
	h.srv.Enqueue(calls(call("todo", `{"goal":"New","items":[{"id":"1","text":"New step","status":"in_progress"}]}`)), providertest.Reply{Text: "ok"})
	evs := h.run("new work")
	if n := noticeText(evs); !strings.Contains(n, `set aside with it: #2 "User step"`) {
		t.Errorf("the chat does not name the user's item set aside: %q", n)
	}
}

// noticeText joins the texts of evs' Notices.
func noticeText(evs []agent.Event) string {
	var b strings.Builder
	for _, ev := range evs {
		if n, ok := ev.(agent.Notice); ok {
			b.WriteString(n.Text + "\n")
		}
	}
	return b.String()
}

// TestRewoundUserItemNoLongerBinds: rewinding the conversation to before
// a /plan add takes the user's item back with the list, so the model's
// next list is not refused for dropping it.
func TestRewoundUserItemNoLongerBinds(t *testing.T) {
	h := newHarness(t, withStore(t))
	first := `{"goal":"Ship","items":[{"id":"1","text":"Build","status":"in_progress"},{"id":"2","text":"Test","status":"pending"}]}`
	again := `{"goal":"Ship","items":[{"id":"1","text":"Build again","status":"in_progress"}]}`
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		switch promptOf(r) {
		case "ship it":
			return calls(call("todo", first))
		case "start over":
			return calls(call("todo", again))
		}
		return providertest.Reply{Text: "ok"}
	})
	h.run("ship it")
	if _, err := h.ag.EditPlan(agent.PlanEdit{Op: agent.PlanAdd, Text: "Write the release notes"}); err != nil {
		t.Fatal(err)
	}
	h.run("hello")
	pts, err := h.ag.RewindPoints(context.Background())
	id := ""
	for _, p := range pts {
		if p.Kind == agent.PointTurn && p.Text == "ship it" {
			id = p.ID
		}
	}
	if err != nil || id == "" {
		t.Fatalf("no point for the first message: %+v %v", pts, err)
	}
	if _, err := h.ag.Rewind(context.Background(), id, agent.RewindConversation); err != nil {
		t.Fatal(err)
	}
	if l := h.ag.Todos(); !l.Empty() {
		t.Fatalf("the list after rewinding to the first message: %+v", l)
	}
	evs := h.run("start over")
	h.checkValid()
	if out := strings.Join(toolOutputs(evs, "todo"), "\n"); strings.Contains(out, "added by the user") {
		t.Fatalf("a rewound user item still binds: %s", out)
	}
	if l := h.ag.Todos(); len(l.Items) != 1 || l.Items[0].Text != "Build again" {
		t.Fatalf("the list after the rewind: %+v", l)
	}
}

// promptOf is the user's prompt a request answers when it answers one (the
// loop's reminders may follow it), or "" when it carries tool results.
func promptOf(r providertest.Request) string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		m := r.Messages[i]
		switch {
		case m.Role == "user" && agent.IsReminder(m.Content):
			continue
		case m.Role == "user":
			return m.Content
		}
		return ""
	}
	return ""
}
