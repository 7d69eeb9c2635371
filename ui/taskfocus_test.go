package ui

import (
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/ui/dialog"
)

// stopAgent is a scriptAgent that records StopTask calls.
type stopAgent struct {
	*scriptAgent
	mu      sync.Mutex
	stopped []string
}

func (a *stopAgent) StopTask(id string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.stopped = append(a.stopped, id)
	return true
}

// threeTasks starts a turn with a plan of three items and a running task
// under each, the second with a tool running.
func threeTasks(t *testing.T, m *Model) {
	t.Helper()
	submit(m, "split the work")
	events(t, m, agent.TodoUpdate{List: plan("g", "> Build", "> Test", "> Docs")},
		agent.ToolStart{ID: "t1", Name: agent.TaskTool, Summary: "build part", Item: "1"},
		agent.ToolStart{ID: "t2", Name: agent.TaskTool, Summary: "test part", Item: "2"},
		agent.ToolStart{ID: "t3", Name: agent.TaskTool, Summary: "docs part", Item: "3"},
		agent.Subagent{ParentID: "t2", Event: agent.ToolStart{ID: "c1", Name: "bash", Summary: "go test ./..."}},
		agent.Subagent{ParentID: "t2", Event: agent.Usage{Usage: provider.Usage{TotalTokens: 1500}}},
		agent.Subagent{ParentID: "t2", Event: agent.AssistantDone{Text: "checking the tests\nsecond thought"}},
	)
}

func TestTaskRowsUnderTheirItems(t *testing.T) {
	m, _ := newTestModel(t, 140, 30)
	threeTasks(t, m)
	s := screen(m)
	for _, want := range []string{"build part", "test part · 1 tool · 1.5k tok · ", "docs part"} {
		if !strings.Contains(s, want) {
			t.Errorf("the panel lacks the row %q:\n%s", want, s)
		}
	}
	lines := strings.Split(s, "\n")
	row := func(text string) int {
		for i, l := range lines {
			if strings.Contains(l, text) {
				return i
			}
		}
		return -1
	}
	if !(row("Build") < row("build part") && row("build part") < row("Test") && row("Test") < row("test part") && row("test part") < row("Docs")) {
		t.Errorf("the task rows are not each under its item:\n%s", s)
	}
}

func TestStopOneTaskFromItsRow(t *testing.T) {
	m, base := newTestModel(t, 140, 30)
	a := &stopAgent{scriptAgent: base}
	m.cfg.Agent = a
	threeTasks(t, m)
	press(m, "ctrl+x") // selects the first row
	press(m, "down")
	if !strings.Contains(screen(m), "▸") {
		t.Fatalf("no row is marked selected:\n%s", screen(m))
	}
	press(m, "ctrl+x") // stops the selected (second) task alone
	if len(a.stopped) != 1 || a.stopped[0] != "t2" {
		t.Fatalf("stopped %v, want only t2", a.stopped)
	}
	if !m.running() {
		t.Error("stopping one task ended the turn")
	}
	press(m, "enter") // its transcript
	s := screen(m)
	if !strings.Contains(s, "task test part · #2") || !strings.Contains(s, "checking the tests") || !strings.Contains(s, "> bash go test") {
		t.Fatalf("the task's transcript is not shown:\n%s", s)
	}
	typeText(m, "x")
	if strings.Contains(m.input.Value(), "x") {
		t.Error("the read-only transcript let a key through to the input")
	}
	press(m, "esc") // back to the rows
	if strings.Contains(screen(m), "checking the tests") {
		t.Fatal("esc did not close the transcript")
	}
	press(m, "esc") // leaves the rows; the turn still runs
	if !m.running() || overlayOf[*dialog.TaskFocus](m) != nil {
		t.Error("esc on the rows should only leave them")
	}
}

func TestApprovalNamesItsTask(t *testing.T) {
	m, _ := newTestModel(t, 140, 40)
	threeTasks(t, m)
	reply := make(chan agent.Approval, 1)
	events(t, m, agent.ApprovalRequest{ID: "c9", Tool: "bash", Summary: "rm -rf build", Detail: "rm -rf build", Task: "t3", Reply: reply},
		agent.ApprovalRequest{ID: "c10", Tool: "bash", Summary: "make", Detail: "make", Task: "t1", Reply: make(chan agent.Approval, 1)})
	s := screen(m)
	if !strings.Contains(s, "from the task docs part · item #3 Docs") {
		t.Errorf("the approval does not name its task and item:\n%s", s)
	}
	if strings.Contains(s, "build part · item #1") {
		t.Errorf("the second request is shown before the first is answered:\n%s", s)
	}
}

// TestSubagentDeltasCostNothing: a subagent's streamed text, which the
// screen never shows, does not reach the update loop: a batch of it alone
// is quiet and draws no frame, and beside other events it is left out.
func TestSubagentDeltasCostNothing(t *testing.T) {
	m, _ := newTestModel(t, 120, 30)
	threeTasks(t, m)
	ch := make(chan agent.Event, 8)
	for _, id := range []string{"t1", "t2", "t3"} {
		ch <- agent.Subagent{ParentID: id, Event: agent.TextDelta{Text: "streaming"}}
		ch <- agent.Subagent{ParentID: id, Event: agent.ReasoningDelta{Text: "thinking"}}
	}
	msg := waitEvents(m.turn.id, ch)().(eventsMsg)
	if len(msg.events) != 0 {
		t.Fatalf("the batch carries %d subagent deltas, want none", len(msg.events))
	}
	msg.ch = m.turn.ch
	if _, quiet := m.route(msg); !quiet {
		t.Error("a batch of subagent deltas alone marked the frame changed")
	}
	ch <- agent.Subagent{ParentID: "t1", Event: agent.TextDelta{Text: "more"}}
	ch <- agent.Subagent{ParentID: "t1", Event: agent.ToolStart{ID: "c7", Name: "read_file", Summary: "x.go"}}
	msg = waitEvents(m.turn.id, ch)().(eventsMsg)
	if len(msg.events) != 1 {
		t.Fatalf("batch = %#v, want only the subagent's tool call", msg.events)
	}
}

// TestResumedTasksUnderTheirItems: a resumed session shows each task's
// saved work under its task call in the chat, and its row under its item
// in the panel.
func TestResumedTasksUnderTheirItems(t *testing.T) {
	hist := []provider.Message{
		{Role: provider.RoleUser, Content: "split"},
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "p", Name: "todo", Arguments: `{"items":[{"id":"1","text":"ALPHA","status":"in_progress"},{"id":"2","text":"BRAVO","status":"pending"}]}`}}},
		{Role: provider.RoleTool, ToolCallID: "p", Content: "ok"},
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "t1", Name: "task", Arguments: `{"description":"look around","prompt":"CHILD","item":"1"}`}}},
		{Role: provider.RoleTool, ToolCallID: "t1", Content: "found 3 things"},
		{Role: provider.RoleAssistant, Content: "done"},
	}
	child := []provider.Message{
		{Role: provider.RoleUser, Content: "CHILD"},
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "c1", Name: "bash", Arguments: `{"command":"grep -r TODO"}`}}},
		{Role: provider.RoleTool, ToolCallID: "c1", Content: "a.go: TODO"},
		{Role: provider.RoleAssistant, Content: "found 3 things"},
	}
	evs := agent.ReplayTasks(agent.Replay(hist), map[string][]provider.Message{"t1": child})
	mv := New(Config{Agent: &scriptAgent{}, History: evs})
	m := &mv
	update(m, tea.WindowSizeMsg{Width: 140, Height: 30})
	press(m, "ctrl+t")
	s := screen(m)
	if !strings.Contains(s, "task  look around  1 tool call") {
		t.Errorf("the task's saved work is not under its call:\n%s", s)
	}
	if a, r, b := strings.Index(s, "ALPHA"), strings.Index(s, "look around ● found 3 things"), strings.Index(s, "BRAVO"); r < 0 || !(a < r && r < b) {
		t.Errorf("the task's row is not under its item:\n%s", s)
	}
}

// TestCtrlXNeverStopsAnUnpickedTask (issue 30 §8): when the selected task
// finished, ctrl+x selects a running one (marked) and stops nothing; a
// second ctrl+x stops the task now selected. The selection follows its
// task when the rows above it go.
func TestCtrlXNeverStopsAnUnpickedTask(t *testing.T) {
	m, base := newTestModel(t, 140, 30)
	a := &stopAgent{scriptAgent: base}
	m.cfg.Agent = a
	threeTasks(t, m)
	press(m, "ctrl+x") // selects the first row
	press(m, "down")
	press(m, "down") // the third task
	events(t, m, agent.ToolEnd{ID: "t1", Name: agent.TaskTool, Output: "built"})
	if ln := lineWith(screen(m), "docs part"); !strings.Contains(ln, "▸") {
		t.Fatalf("the selection did not follow its task when a row above went:\n%s", screen(m))
	}
	events(t, m, agent.ToolEnd{ID: "t3", Name: agent.TaskTool, Output: "documented"})
	press(m, "ctrl+x")
	if len(a.stopped) != 0 {
		t.Fatalf("ctrl+x after the selected task finished stopped %v at once", a.stopped)
	}
	if ln := lineWith(screen(m), "test part"); !strings.Contains(ln, "▸") || !strings.Contains(screen(m), "the selected task finished") {
		t.Fatalf("the running task is not selected, or nothing says why:\n%s", screen(m))
	}
	press(m, "ctrl+x")
	if len(a.stopped) != 1 || a.stopped[0] != "t2" {
		t.Fatalf("stopped %v, want t2, the task selected", a.stopped)
	}
}

// TestTaskFocusUnderATaskApproval (seams: parallel tasks, an open
// approval dialog): a task asks for approval while its transcript is open
// over the task rows; the approval goes on top and takes the keys: ctrl+x
// stops nothing and esc does not close the transcript below. Once it is
// answered the transcript has the keys again, esc goes back to the rows
// with the task still selected, and ctrl+x stops that task alone.
func TestTaskFocusUnderATaskApproval(t *testing.T) {
	m, base := newTestModel(t, 140, 40)
	a := &stopAgent{scriptAgent: base}
	m.cfg.Agent = a
	c := &fakeClock{t: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	m.clock = c.now
	threeTasks(t, m)
	press(m, "ctrl+x")
	press(m, "down")
	press(m, "down") // the third task
	press(m, "enter")
	if _, ok := m.over.top().(*dialog.TaskLog); !ok {
		t.Fatalf("enter did not open the task's transcript: top is %T", m.over.top())
	}
	reply := make(chan agent.Approval, 1)
	events(t, m, agent.Subagent{ParentID: "t3", Event: agent.ToolStart{ID: "c5", Name: "bash", Summary: "rm -rf docs/old"}},
		agent.ApprovalRequest{ID: "c5", Tool: "bash", Summary: "rm -rf docs/old", Detail: "rm -rf docs/old", Task: "t3", Reply: reply})
	if _, ok := m.over.top().(*dialog.Approvals); !ok {
		t.Fatalf("the task's approval is not on top of its transcript: top is %T", m.over.top())
	}
	if s := screen(m); !strings.Contains(s, "from the task docs part · item #3 Docs") {
		t.Fatalf("the approval does not name its task:\n%s", s)
	}
	c.advance(time.Second)
	press(m, "ctrl+x")
	if len(a.stopped) != 0 {
		t.Fatalf("ctrl+x under the approval stopped %v", a.stopped)
	}
	c.advance(time.Second)
	press(m, "y")
	select {
	case ans := <-reply:
		if !ans.Allow {
			t.Fatalf("y answered %+v, want allowed", ans)
		}
	default:
		t.Fatal("y did not answer the task's approval")
	}
	if _, ok := m.over.top().(*dialog.TaskLog); !ok {
		t.Fatalf("after the answer the transcript is not on top: %T", m.over.top())
	}
	press(m, "esc") // back to the rows
	if _, ok := m.over.top().(*dialog.TaskFocus); !ok {
		t.Fatalf("esc did not go back to the task rows: top is %T", m.over.top())
	}
	if ln := lineWith(screen(m), "docs part"); !strings.Contains(ln, "▸") {
		t.Fatalf("the third task is no longer selected:\n%s", screen(m))
	}
	press(m, "ctrl+x")
	if len(a.stopped) != 1 || a.stopped[0] != "t3" {
		t.Fatalf("stopped %v, want only t3", a.stopped)
	}
	if !m.running() {
		t.Error("stopping one task ended the turn")
	}
}
