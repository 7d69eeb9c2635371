package agent_test

import (
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/session"
	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/todo"
)

// The list the model starts with, before the user's edits.
const startList = `{"items":[{"id":"1","text":"ALPHA","status":"in_progress"},{"id":"2","text":"BRAVO","status":"pending"}]}`

// resumed saves h's session (recorded through rec into dir), loads it back
// as tick -c does and restores it into a new agent recording to the same
// file, which it returns with what was loaded.
func resumed(t *testing.T, rec *session.Recorder, dir, ws string) (*harness, *session.Loaded, *session.Recorder) {
	t.Helper()
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	info, err := session.Latest(dir, ws)
	if err != nil {
		t.Fatal(err)
	}
	st, ld, err := session.Open(info.Path)
	if err != nil {
		t.Fatal(err)
	}
	rec2 := session.Continue(dir, ws, "test-model", st)
	t.Cleanup(func() { _ = rec2.Close() })
	h := newHarness(t, noReminder, func(c *agent.Config) { c.Recorder = rec2 })
	if err := h.ag.Restore(ld.ModelHistory, ld.Todos); err != nil {
		t.Fatal(err)
	}
	if err := h.ag.RestorePlan(ld.Plan); err != nil {
		t.Fatal(err)
	}
	if err := h.ag.RestoreMode(ld.Mode, ld.BeforePlan); err != nil {
		t.Fatal(err)
	}
	return h, ld, rec2
}

func TestPlanAuthoritySurvivesResume(t *testing.T) {
	tests := []struct {
		name  string
		mode  agent.Mode
		edits []agent.PlanEdit
		try   string // the model's todo call after the resume
		want  string // in its Error; "" when it must be accepted
		note  string // in the note the model gets with its first request
	}{
		{
			name:  "an item the user added may not be dropped",
			mode:  agent.ModeAuto,
			edits: []agent.PlanEdit{{Op: agent.PlanAdd, ID: "1", Text: "ZULU verify"}},
			try:   startList,
			want:  "#3 was added by the user and may not be dropped",
			note:  "added #3 ZULU verify",
		},
		{
			name:  "an item the user cancelled may not be re-opened",
			mode:  agent.ModeAsk,
			edits: []agent.PlanEdit{{Op: agent.PlanCancel, ID: "2", Reason: "not needed"}},
			try:   startList,
			want:  "#2 was cancelled by the user and may not be re-opened",
			note:  "cancelled #2: not needed",
		},
		{
			name:  "a text the user wrote may not be changed",
			mode:  agent.ModePlan,
			edits: []agent.PlanEdit{{Op: agent.PlanText, ID: "2", Text: "BRAVO carefully"}},
			try:   startList,
			want:  `keep it as "BRAVO carefully"`,
			note:  `reworded #2 to "BRAVO carefully"`,
		},
		{
			name:  "a gate stays on the item",
			mode:  agent.ModeAuto,
			edits: []agent.PlanEdit{{Op: agent.PlanStopAfter, ID: "2"}},
			try:   `{"items":[{"id":"1","text":"ALPHA","status":"completed"},{"id":"2","text":"BRAVO","status":"in_progress"}]}`,
			note:  `marked #2 "stop after"`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var rec *session.Recorder
			h := newHarness(t, noReminder, func(c *agent.Config) {
				rec = session.NewRecorder(dir, c.Workspace, "test-model")
				c.Recorder = rec
			})
			h.srv.Enqueue(calls(call("todo", startList)), providertest.Reply{Text: "started"})
			h.run("start")
			h.ag.SetMode(tc.mode)
			for _, e := range tc.edits {
				if _, err := h.ag.EditPlan(e); err != nil {
					t.Fatal(err)
				}
			}
			want := h.ag.Todos()

			h2, ld, rec2 := resumed(t, rec, dir, h.dir)
			if got := h2.ag.Mode(); got != tc.mode {
				t.Errorf("mode after the resume: %v, want %v", got, tc.mode)
			}
			if got, w := h2.ag.Todos().Render(), want.Render(); got != w {
				t.Errorf("list after the resume:\n%s\nwant:\n%s", got, w)
			}
			if len(ld.Plan.Pending) != len(tc.edits) {
				t.Errorf("loaded pending notes %q, want %d", ld.Plan.Pending, len(tc.edits))
			}
			h2.srv.Enqueue(calls(call("todo", tc.try)), providertest.Reply{Text: "ok"})
			evs := h2.run("go on")
			h2.checkValid()
			if first := h2.srv.Requests()[0].LastUser(); !strings.Contains(first, tc.note) {
				t.Errorf("the first request after the resume lacks the edit note %q:\n%s", tc.note, first)
			}
			ends := toolEnds(evs)
			if len(ends) != 1 {
				t.Fatalf("got %d tool results, want 1", len(ends))
			}
			switch {
			case tc.want == "" && ends[0].IsError:
				t.Errorf("the model's list was refused: %s", ends[0].Output)
			case tc.want != "" && (!ends[0].IsError || !strings.Contains(ends[0].Output, tc.want)):
				t.Errorf("result %q (error %v), want an Error naming %q", ends[0].Output, ends[0].IsError, tc.want)
			}
			for _, it := range h2.ag.Todos().Items {
				if want.Find(it.ID) >= 0 && it.StopAfter != want.Items[want.Find(it.ID)].StopAfter {
					t.Errorf("item #%s: gate %v after the model's call, want %v", it.ID, it.StopAfter, !it.StopAfter)
				}
			}

			// The notes were delivered: a second resume does not repeat them,
			// and the user's authority is still saved.
			_, ld2, _ := resumed(t, rec2, dir, h.dir)
			if len(ld2.Plan.Pending) != 0 {
				t.Errorf("notes still pending after they were delivered: %q", ld2.Plan.Pending)
			}
			if tc.want != "" && ld2.Plan.Zero() {
				t.Error("the user's authority was lost by the second resume")
			}
		})
	}
}

func TestPlanModeSurvivesResume(t *testing.T) {
	dir := t.TempDir()
	var rec *session.Recorder
	h := newHarness(t, func(c *agent.Config) {
		rec = session.NewRecorder(dir, c.Workspace, "test-model")
		c.Recorder = rec
	})
	h.ag.SetMode(agent.ModeAsk)
	h.ag.SetMode(agent.ModePlan) // approving returns to ask
	h.srv.Enqueue(calls(call("todo", startList)), providertest.Reply{Text: "Plan: alpha, then bravo."})
	evs := h.run("plan it")
	if len(eventsOf[agent.PlanProposed](evs)) != 1 {
		t.Fatal("no plan proposed")
	}

	h2, ld, rec2 := resumed(t, rec, dir, h.dir)
	if ld.Mode != "plan" || ld.BeforePlan != "ask" || ld.Plan.Proposal == nil {
		t.Fatalf("loaded mode %q before %q, proposal %v; want plan, ask and the proposal", ld.Mode, ld.BeforePlan, ld.Plan.Proposal)
	}
	if got := h2.ag.Mode(); got != agent.ModePlan {
		t.Fatalf("mode after the resume: %v, want plan", got)
	}
	if _, err := h2.ag.ApprovePlan(); err != nil {
		t.Fatal(err)
	}
	if got := h2.ag.Mode(); got != agent.ModeAsk {
		t.Errorf("mode after approving the resumed plan: %v, want ask (the mode before plan mode)", got)
	}
	_, ld2, _ := resumed(t, rec2, dir, h.dir)
	if ld2.Mode != "ask" || ld2.Plan.Proposal != nil {
		t.Errorf("after approving: saved mode %q, proposal %v; want ask and none", ld2.Mode, ld2.Plan.Proposal)
	}
}

func TestRestorePlanDropsItemsNotInTheList(t *testing.T) {
	tests := []struct {
		name string
		up   todo.UserPlan
	}{
		{"added", todo.UserPlan{Added: []string{"9"}}},
		{"cancelled", todo.UserPlan{Cancelled: []string{"9"}}},
		{"text", todo.UserPlan{Text: map[string]string{"9": "GONE"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, noReminder)
			list, err := todo.Parse([]byte(startList))
			if err != nil {
				t.Fatal(err)
			}
			if err := h.ag.Restore(nil, list); err != nil {
				t.Fatal(err)
			}
			if err := h.ag.RestorePlan(tc.up); err != nil {
				t.Fatal(err)
			}
			h.srv.Enqueue(calls(call("todo", startList)), providertest.Reply{Text: "ok"})
			if ends := toolEnds(h.run("go on")); len(ends) != 1 || ends[0].IsError {
				t.Errorf("a list without item #9 was refused: %+v", ends)
			}
		})
	}
}

func TestRestoreModeRejectsUnknownNames(t *testing.T) {
	h := newHarness(t)
	h.ag.SetMode(agent.ModeAsk)
	for _, args := range [][2]string{{"yolo", ""}, {"plan", "never"}} {
		if err := h.ag.RestoreMode(args[0], args[1]); err == nil || !strings.Contains(err.Error(), "unknown mode") {
			t.Errorf("RestoreMode(%q, %q): %v, want an unknown mode error", args[0], args[1], err)
		}
	}
	if got := h.ag.Mode(); got != agent.ModeAsk {
		t.Errorf("mode %v after bad restores, want ask unchanged", got)
	}
}
