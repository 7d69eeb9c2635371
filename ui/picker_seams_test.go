package ui

import (
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
)

// TestSeamSessionsListedUnderApproval: the /sessions listing that comes
// back after a turn started and asked for an approval opens no picker (a
// resume never replaces a running conversation); the approval stays on
// top and its deliberate key still answers it.
func TestSeamSessionsListedUnderApproval(t *testing.T) {
	f := &fakeSessions{list: sessionList(3)}
	m, _ := newPickerModel(t, f, 100, 30)
	list := submit(m, "/sessions")
	submit(m, "work")
	reply := make(chan agent.Approval, 1)
	events(t, m, agent.ApprovalRequest{Tool: "bash", Summary: "make", Reply: reply})
	update(m, list())
	s := screen(m)
	if m.sessionPicker() != nil || !strings.Contains(s, "Allow bash?") || !strings.Contains(s, "cannot switch sessions while a turn runs") {
		t.Fatalf("want the approval, a refusal and no picker:\n%s", s)
	}
	pause(m)
	press(m, "y")
	settle(m)
	if ans, ok := answered(reply); !ok || !ans.Allow {
		t.Fatalf("the approval was not answered yes: %+v %v", ans, ok)
	}
	if len(f.resumed) != 0 {
		t.Fatalf("resumed %q", f.resumed)
	}
}

// TestSeamModelPickerWhileTasksRun: /model opened while parallel tasks
// run switches the model from the next request without touching the
// running turn; a task's approval that arrives meanwhile sits above the
// picker's question and takes the keys, and the question comes back once
// it is answered.
func TestSeamModelPickerWhileTasksRun(t *testing.T) {
	var switched, saved []string
	m, a := newTestModel(t, 120, 40)
	m.cfg.Services = fakeServices{models: &fakeModels{
		List:        func() ([]string, error) { return []string{"alpha", "beta"}, nil },
		Switch:      func(n string) error { switched = append(switched, n); return nil },
		SaveDefault: func(n string) (string, error) { saved = append(saved, n); return "", nil },
		Path:        "/cfg/config.toml",
	}}
	m.addConfigCommands()
	submit(m, "split the work")
	events(t, m, agent.TodoUpdate{List: plan("g", "> Build", "> Test")},
		agent.ToolStart{ID: "t1", Name: agent.TaskTool, Summary: "build part", Item: "1"},
		agent.ToolStart{ID: "t2", Name: agent.TaskTool, Summary: "test part", Item: "2"})
	runCmd(m, m.openModels())
	if m.modelPicker() == nil {
		t.Fatalf("the picker did not open while tasks run:\n%s", screen(m))
	}
	typeText(m, "beta")
	runCmd(m, press(m, "enter"))
	if len(switched) != 1 || m.cfg.Model != "beta" || !strings.Contains(screen(m), "Also make beta the default") {
		t.Fatalf("switched %v, model %q:\n%s", switched, m.cfg.Model, screen(m))
	}
	if m.turn == nil || a.runs[0].ctx.Err() != nil {
		t.Fatal("the switch stopped the running turn")
	}
	reply := make(chan agent.Approval, 1)
	events(t, m, agent.ApprovalRequest{ID: "c1", Tool: "bash", Summary: "go test", Task: "t2", TaskName: "test part", Reply: reply})
	if s := screen(m); !strings.Contains(s, "Allow bash?") || !strings.Contains(s, "from the task test part") {
		t.Fatalf("the task's approval is not on top:\n%s", s)
	}
	pause(m)
	press(m, "n")
	press(m, "esc")
	settle(m)
	if ans, ok := answered(reply); !ok || ans.Allow {
		t.Fatalf("the keys did not deny the task's approval: %+v %v", ans, ok)
	}
	if len(saved) != 0 || !strings.Contains(screen(m), "Also make beta the default") {
		t.Fatalf("the approval's keys answered the picker (saved %v):\n%s", saved, screen(m))
	}
	events(t, m, agent.ToolEnd{ID: "t1", Name: agent.TaskTool, Output: "built"})
	pause(m)
	runCmd(m, press(m, "y"))
	settle(m)
	if len(saved) != 1 || saved[0] != "beta" || m.modelPicker() != nil {
		t.Fatalf("saved %v, picker open %v", saved, m.modelPicker() != nil)
	}
	if m.turn == nil {
		t.Fatal("the turn ended with the picker")
	}
}
