package ui

import (
	"github.com/tick-agent/tick/ui/dialog"

	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/agent"
)

// TestOverlayStackLayers: an overlay sits above those of lower layers
// whenever it opened, and above those of its own layer opened before it;
// remove takes out just the one.
func TestOverlayStackLayers(t *testing.T) {
	help, sessions, models := &dialog.Help{}, &dialog.Sessions{}, &dialog.Models{}
	ask, proposed := &dialog.Approvals{}, &dialog.Proposal{}
	tests := []struct {
		name string
		push []overlay
		want []overlay
	}{
		{"in layer order", []overlay{help, sessions, ask}, []overlay{help, sessions, ask}},
		{"a question under a later picker", []overlay{ask, sessions}, []overlay{sessions, ask}},
		{"help opened last stays lowest", []overlay{ask, models, help}, []overlay{help, models, ask}},
		{"same layer: the later above", []overlay{models, sessions}, []overlay{models, sessions}},
		{"a proposal under everything", []overlay{ask, help, proposed}, []overlay{proposed, help, ask}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s overlays
			for _, o := range tt.push {
				s.push(o)
			}
			if len(s) != len(tt.want) {
				t.Fatalf("stack %v, want %v", s, tt.want)
			}
			for i := range s {
				if s[i] != tt.want[i] {
					t.Fatalf("stack[%d] = %T, want %T", i, s[i], tt.want[i])
				}
			}
			top := s.top()
			s.remove(tt.push[0])
			if len(s) != len(tt.want)-1 || (top != tt.push[0] && s.top() != top) {
				t.Errorf("after removing %T: %v", tt.push[0], s)
			}
		})
	}
}

// TestApprovalAboveModelPicker: a question the turn waits on that comes
// while the /model picker is open is drawn on top, where its keys go (the
// picker used to cover it while it took the keys).
func TestApprovalAboveModelPicker(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	m.cfg.Services = fakeServices{models: &fakeModels{
		List:   func() ([]string, error) { return []string{"alpha", "beta"}, nil },
		Switch: func(string) error { return nil },
	}}
	m.addConfigCommands()
	submit(m, "go")
	runCmd(m, m.openModels())
	if m.modelPicker() == nil {
		t.Fatalf("the picker did not open:\n%s", screen(m))
	}
	reply := make(chan agent.Approval, 1)
	events(t, m, agent.ApprovalRequest{Tool: "bash", Summary: "rm -rf build", Reply: reply})
	if s := screen(m); !strings.Contains(s, "Allow bash?") {
		t.Fatalf("the approval is hidden under the picker:\n%s", s)
	}
	pause(m)
	press(m, "n")
	press(m, "esc")
	select {
	case ans := <-reply:
		if ans.Allow {
			t.Fatalf("answer %+v, want a denial", ans)
		}
	default:
		t.Fatal("the keys did not answer the approval")
	}
	if s := screen(m); m.modelPicker() == nil || strings.Contains(s, "Allow bash?") || !strings.Contains(s, "beta") {
		t.Fatalf("after the answer, want the picker back:\n%s", s)
	}
}

// TestViewIsPure: View draws nothing and changes nothing; the frame is
// drawn by Update.
func TestViewIsPure(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	m.chat.AddNotice("added behind Update's back")
	m.paint.changed()
	before := m.paint
	for range 2 {
		if strings.Contains(screen(m), "behind Update's back") {
			t.Fatal("View drew the frame")
		}
	}
	if m.paint != before {
		t.Fatalf("View changed the repaint state: %+v, was %+v", m.paint, before)
	}
	update(m, NoticeMsg{Text: "through Update"})
	if s := screen(m); !strings.Contains(s, "behind Update's back") || !strings.Contains(s, "through Update") {
		t.Fatalf("Update did not draw the frame:\n%s", s)
	}
}

// TestOverlayWheelAndPaste: the wheel and a paste go to the overlay on
// top when it takes them, else to the chat and the input.
func TestOverlayWheelAndPaste(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	m.openHelp()
	update(m, tea.PasteMsg{Content: "pasted"})
	if overlayOf[*dialog.Help](m) != nil || m.input.Value() != "pasted" {
		t.Fatalf("a paste over the help: help open %v, input %q", overlayOf[*dialog.Help](m) != nil, m.input.Value())
	}
	m.over.push(dialog.NewSessions([]SessionInfo{{ID: "a", Started: time.Now()}, {ID: "b", Started: time.Now()}}, true))
	sel := m.sessionPicker().Selection()
	update(m, tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	update(m, tea.PasteMsg{Content: " more"})
	if m.sessionPicker().Selection() != sel+1 || m.input.Value() != "pasted" {
		t.Fatalf("picker: selection %d (was %d), input %q", m.sessionPicker().Selection(), sel, m.input.Value())
	}
}

// editAgent is a scriptAgent whose plan edits cause the events it holds.
type editAgent struct {
	*scriptAgent
	evs   []agent.Event
	edits []agent.PlanEdit
}

func (a *editAgent) EditPlan(e agent.PlanEdit) ([]agent.Event, error) {
	a.edits = append(a.edits, e)
	return a.evs, nil
}

// TestPlanEditResultArrivesAsEvents: what a plan edit changes reaches the
// screen only as the events the agent returns for it, through the turn's
// event handler: the new list as a TodoUpdate (an older revision than the
// one shown is ignored, as in a turn) and a Notice.
func TestPlanEditResultArrivesAsEvents(t *testing.T) {
	a := &editAgent{scriptAgent: &scriptAgent{}}
	mv := New(Config{Agent: a, Model: "test-model", Dark: true})
	m := &mv
	update(m, tea.WindowSizeMsg{Width: 120, Height: 40})
	a.evs = []agent.Event{
		agent.TodoUpdate{List: plan("Ship", "p ALPHA", "p ZULU added"), Rev: 3},
		agent.Notice{Text: "could not save the edited plan: disk full"},
	}
	runCmd(m, submit(m, "/plan add ZULU added"))
	s := screen(m)
	if len(a.edits) != 1 || a.edits[0].Op != agent.PlanAdd || a.edits[0].Text != "ZULU added" {
		t.Fatalf("edits %+v", a.edits)
	}
	if !strings.Contains(s, "ZULU added") || !strings.Contains(s, "disk full") {
		t.Fatalf("the edit's events are not on screen:\n%s", s)
	}
	a.evs = []agent.Event{agent.TodoUpdate{List: plan("Ship", "p STALE"), Rev: 2}}
	runCmd(m, submit(m, "/plan add STALE"))
	if s := screen(m); strings.Contains(s, "STALE") || !strings.Contains(s, "ZULU added") {
		t.Fatalf("an older revision replaced the list:\n%s", s)
	}
}
