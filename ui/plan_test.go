package ui

import (
	"github.com/tick-agent/tick/ui/status"

	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
	"github.com/tick-agent/tick/ui/dialog"
)

// planScript is a scriptAgent with the plan side of a real agent, which is
// never asked to run a turn (its model refuses every call).
type planScript struct {
	*scriptAgent
	real *agent.Agent
}

type noModel struct{}

func (noModel) Stream(context.Context, provider.Request, provider.Handler) (*provider.Response, error) {
	return nil, errors.New("no model in this test")
}

func (p planScript) SetMode(m agent.Mode)                             { p.real.SetMode(m) }
func (p planScript) Mode() agent.Mode                                 { return p.real.Mode() }
func (p planScript) ApprovePlan() (string, error)                     { return p.real.ApprovePlan() }
func (p planScript) EditPlan(e agent.PlanEdit) ([]agent.Event, error) { return p.real.EditPlan(e) }
func (p planScript) Continue()                                        { p.real.Continue() }

func newPlanModel(t *testing.T, list todo.List) (*Model, planScript) {
	t.Helper()
	real, err := agent.New(agent.Config{Model: noModel{}, Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if err := real.Restore(nil, list); err != nil {
		t.Fatal(err)
	}
	a := planScript{scriptAgent: &scriptAgent{}, real: real}
	m := New(Config{Agent: a, Model: "test-model", Workspace: "/tmp/ws", Dark: true})
	mp := &m
	mp.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	return mp, a
}

func TestPlanModeProposalApprove(t *testing.T) {
	proposed := plan("Fix it", "p Read code", "p Change code")
	m, a := newPlanModel(t, todo.List{})
	c := &fakeClock{t: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	m.clock = c.now
	press(m, "shift+tab")
	if a.Mode() != agent.ModePlan || !strings.Contains(screen(m), "plan mode: nothing changes") {
		t.Fatalf("shift+tab: mode %s, status bar:\n%s", a.Mode(), screen(m))
	}
	submit(m, "plan a fix")
	a.real.Restore(nil, proposed) // what the turn's todo call left
	events(t, m, agent.TodoUpdate{List: proposed, Rev: 1}, agent.PlanProposed{List: proposed, Rev: 1})
	endTurn(t, m, a.scriptAgent, agent.TurnEnd{Reason: agent.ReasonDone})
	s := screen(m)
	for _, want := range []string{"Implement this plan?", "y approve", "e edit", "Read code", "Change code"} {
		if !strings.Contains(s, want) {
			t.Fatalf("proposal lacks %q:\n%s", want, s)
		}
	}
	// A revision marks what changed.
	submit(m, "drop the change, add a test")
	revised := plan("Fix it", "p Read the code")
	revised.Items = append(revised.Items, todo.Item{ID: "3", Text: "Test", Status: todo.Pending})
	events(t, m, agent.PlanProposed{List: revised, Rev: 2, Changes: todo.Diff(proposed, revised)})
	endTurn(t, m, a.scriptAgent, agent.TurnEnd{Reason: agent.ReasonDone})
	s = screen(m)
	for _, want := range []string{"~ ○ Read the code", "+ ○ Test", "−   Change code"} {
		if !strings.Contains(s, want) {
			t.Fatalf("revision lacks %q:\n%s", want, s)
		}
	}
	a.real.Restore(nil, revised)
	c.advance(time.Second) // a deliberate y
	press(m, "y")
	p := a.prompts()
	if len(p) != 3 || !strings.Contains(p[2], "I approve this plan") || !strings.Contains(p[2], "#3: Test") {
		t.Fatalf("prompts after y = %q", p)
	}
	if a.Mode() != agent.ModeAuto {
		t.Errorf("mode after approval = %s, want auto (the mode before plan mode)", a.Mode())
	}
	if strings.Contains(screen(m), "Implement this plan?") {
		t.Error("the proposal is still shown while the plan is carried out")
	}
	// The status bar follows the state: the note goes with the turn.
	if !strings.Contains(screen(m), "carrying out the plan") {
		t.Errorf("the status bar does not say the plan is carried out:\n%s", screen(m))
	}
	endTurn(t, m, a.scriptAgent, agent.TurnEnd{Reason: agent.ReasonDone})
	if strings.Contains(screen(m), "carrying out the plan") {
		t.Errorf("the turn ended and the status bar still says the plan is carried out:\n%s", screen(m))
	}
}

// TestPlanProposalIgnoresTyping: y and e typed without a pause (after the
// proposal appeared or the turn ended, or after the previous key) are the
// start of a revision: they go to the input and neither approve nor edit;
// the same keys after a pause answer.
func TestPlanProposalIgnoresTyping(t *testing.T) {
	const gap = 80 * time.Millisecond // a typist's pace
	tests := []struct {
		name     string
		before   time.Duration // from the end of the turn to the first key
		typed    string        // typed at gap intervals
		approved bool
		editor   bool
		input    string
	}{
		{"yes typed on answers nothing", 100 * time.Millisecond, "yes but add tests", false, false, "yes but add tests"},
		{"extend typed on opens no editor", 100 * time.Millisecond, "extend item 2", false, false, "extend item 2"},
		{"y just after the turn ended", 10 * time.Millisecond, "y", false, false, "y"},
		{"y after a pause approves", time.Second, "y", true, false, ""},
		{"e after a pause edits", time.Second, "e", false, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			proposed := plan("Fix it", "p Read code", "p Change code")
			m, a := newPlanModel(t, todo.List{})
			c := &fakeClock{t: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
			m.clock = c.now
			press(m, "shift+tab")
			submit(m, "plan a fix")
			a.real.Restore(nil, proposed)
			events(t, m, agent.TodoUpdate{List: proposed, Rev: 1}, agent.PlanProposed{List: proposed, Rev: 1})
			c.advance(2 * time.Second) // the proposal came early; the turn ends later
			endTurn(t, m, a.scriptAgent, agent.TurnEnd{Reason: agent.ReasonDone})
			c.advance(tt.before)
			for i, r := range tt.typed {
				if i > 0 {
					c.advance(gap)
				}
				typeText(m, string(r))
			}
			settle(m)
			approved := len(a.prompts()) == 2
			if approved != tt.approved || (a.Mode() == agent.ModePlan) == tt.approved {
				t.Fatalf("approved %v (prompts %q, mode %s), want %v", approved, a.prompts(), a.Mode(), tt.approved)
			}
			if (overlayOf[*dialog.PlanEditor](m) != nil) != tt.editor {
				t.Fatalf("editor open %v, want %v", overlayOf[*dialog.PlanEditor](m) != nil, tt.editor)
			}
			if v := m.input.Value(); v != tt.input {
				t.Fatalf("input %q, want %q", v, tt.input)
			}
			if tt.input == "" {
				return
			}
			// enter sends the typing as a revision, still in plan mode.
			press(m, "enter")
			if p := a.prompts(); len(p) != 2 || p[1] != tt.input || a.Mode() != agent.ModePlan {
				t.Fatalf("after enter: prompts %q, mode %s; want the revision %q in plan mode", p, a.Mode(), tt.input)
			}
		})
	}
}

func TestPlanEditorKeys(t *testing.T) {
	list := plan("G", "x ALPHA", "> BRAVO", "p CHARLIE")
	m, a := newPlanModel(t, list)
	m.panel.SetList(list, m.now)
	submit(m, "go")
	press(m, "ctrl+p")
	if overlayOf[*dialog.PlanEditor](m) == nil || m.panel.Sel() != 1 {
		t.Fatalf("ctrl+p: editor %v, selection %d (want the running item)", overlayOf[*dialog.PlanEditor](m) != nil, m.panel.Sel())
	}
	press(m, "a")
	typeText(m, "ZULU verify")
	press(m, "enter")
	press(m, "down")
	press(m, "down")
	press(m, "x")
	typeText(m, "not needed")
	press(m, "enter")
	press(m, "up")
	press(m, "g")
	press(m, "esc") // closes the editor, never interrupts
	if overlayOf[*dialog.PlanEditor](m) != nil || m.turn.act == status.ActInterrupting {
		t.Fatal("esc did not just close the editor")
	}
	got := a.real.Todos().Render()
	for _, want := range []string{"[ ] #4: ZULU verify", "[-] #3: CHARLIE (cancelled: not needed)"} {
		if !strings.Contains(got, want) {
			t.Errorf("agent's list lacks %q:\n%s", want, got)
		}
	}
	if it := a.real.Todos().Items[2]; it.ID != "4" || !it.StopAfter {
		t.Errorf("item 3 = %+v, want #4 marked stop after", it)
	}
	s := screen(m)
	if !strings.Contains(s, "ZULU verify") || !strings.Contains(s, "stop after") {
		t.Errorf("panel does not show the edits:\n%s", s)
	}
	// The slash forms.
	submit(m, "/plan move 4 1")
	if a.real.Todos().Items[0].ID != "4" {
		t.Errorf("/plan move: %+v", a.real.Todos().Items)
	}
	submit(m, "/plan drop 9")
	if !strings.Contains(screen(m), "no item #9") {
		t.Errorf("/plan drop 9 did not say why:\n%s", screen(m))
	}
}

func TestUnfinishedKeepsPanelOpen(t *testing.T) {
	m, a := newTestModel(t, 120, 40)
	submit(m, "do it")
	l := plan("G", "x ALPHA", "> BRAVO", "p CHARLIE")
	events(t, m, agent.TodoUpdate{List: l}, agent.Unfinished{Items: l.Open()})
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	s := screen(m)
	if !strings.Contains(s, "Ended with 2 open items (#2, #3)") {
		t.Errorf("no open-items line:\n%s", s)
	}
	if !m.panel.Open() || strings.Contains(s, "all done") {
		t.Errorf("the panel collapsed:\n%s", s)
	}
}

func TestSubagentUnderItem(t *testing.T) {
	m, a := newTestModel(t, 120, 40)
	submit(m, "go")
	l := plan("G", "> ALPHA", "p BRAVO")
	events(t, m, agent.TodoUpdate{List: l},
		agent.ToolStart{ID: "t1", Name: "task", Summary: "search the code"},
		agent.Subagent{ParentID: "t1", Event: agent.ToolStart{ID: "c1", Name: "bash", Summary: "grep -r TODO"}},
	)
	if s := screen(m); !strings.Contains(s, "search the code · 1 tool · 0 tok") {
		t.Fatalf("the running subagent is not under its item:\n%s", s)
	}
	events(t, m, agent.Subagent{ParentID: "t1", Event: agent.ToolEnd{ID: "c1", Name: "bash"}},
		agent.ToolEnd{ID: "t1", Name: "task", Output: "Found 3 TODOs in main.go\nmore detail"})
	s := screen(m)
	alpha, sub, bravo := strings.Index(s, "ALPHA"), strings.Index(s, "search the code ● Found 3 TODOs"), strings.Index(s, "BRAVO")
	if sub < 0 || !(alpha < sub && sub < bravo) {
		t.Fatalf("the finished subagent's result is not between its item and the next:\n%s", s)
	}
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
}

func (p planScript) PreviewUndo(ctx context.Context, item string) (agent.UndoPreview, error) {
	return p.real.PreviewUndo(ctx, item)
}

func (p planScript) Undo(ctx context.Context, item string) (agent.UndoPreview, []agent.Event, error) {
	return p.real.Undo(ctx, item)
}

func TestUndoDuringTurnInterruptsFirst(t *testing.T) {
	m, a := newPlanModel(t, plan("G", "> ALPHA"))
	submit(m, "go")
	run := a.last()
	if cmd := submit(m, "/undo"); cmd != nil {
		t.Fatal("/undo during a turn previewed before the turn ended")
	}
	if run.ctx.Err() == nil {
		t.Fatal("/undo did not interrupt the running turn")
	}
	cmd := endTurn(t, m, a.scriptAgent, agent.TurnEnd{Reason: agent.ReasonInterrupted})
	if cmd == nil {
		t.Fatal("no undo preview after the turn ended")
	}
	update(m, cmd()) // this agent has no undo points: the chat says why
	if s := screen(m); !strings.Contains(s, "/undo: nothing to undo") || !strings.Contains(s, "undo is off") {
		t.Errorf("no reason shown:\n%s", s)
	}
}
