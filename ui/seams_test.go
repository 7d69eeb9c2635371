package ui

import (
	"image/color"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/checkpoint"
	"github.com/tick-agent/tick/agent/tools"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/ui/dialog"
)

// The seams of the TUI's features with each other: each test combines a
// feature (suspend, /diff, themes, toasts, the cost in the status bar,
// /verify) with an open approval dialog, parallel tasks or undo.

// askApproval starts a turn and opens an approval dialog for a bash
// command; it returns the channel its answer is sent on.
func askApproval(t *testing.T, m *Model) chan agent.Approval {
	t.Helper()
	if !m.running() {
		submit(m, "go")
	}
	reply := make(chan agent.Approval, 1)
	events(t, m, agent.ApprovalRequest{Tool: "bash", Summary: "rm -rf build", Reply: reply})
	if !strings.Contains(screen(m), "Allow bash?") {
		t.Fatalf("no approval dialog:\n%s", screen(m))
	}
	return reply
}

// answered returns the approval's answer, if one was sent.
func answered(reply chan agent.Approval) (agent.Approval, bool) {
	select {
	case ans := <-reply:
		return ans, true
	default:
		return agent.Approval{}, false
	}
}

// TestSeamSuspendOverApproval: ctrl+z suspends while an approval dialog
// waits, as it does without one, and answers nothing; after fg the
// question is still there and a deliberate y answers it. The dialog
// took every key, ctrl+z included, so tick could not be suspended while
// it asked.
func TestSeamSuspendOverApproval(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	req := make(chan struct{}, 1)
	m.suspendReq = req
	reply := askApproval(t, m)
	pause(m)
	runCmds(press(m, "ctrl+z"))
	select {
	case <-req:
	default:
		t.Fatal("ctrl+z over the approval dialog asked for no suspension")
	}
	if ans, ok := answered(reply); ok {
		t.Fatalf("ctrl+z answered the approval: %+v", ans)
	}
	update(m, tea.ResumeMsg{})
	if !strings.Contains(screen(m), "Allow bash?") {
		t.Fatalf("the approval is gone after fg:\n%s", screen(m))
	}
	pause(m)
	press(m, "y")
	settle(m)
	if ans, ok := answered(reply); !ok || !ans.Allow {
		t.Fatalf("y after fg: answer %+v (sent %v), want allow", ans, ok)
	}
}

// TestSeamDiffUnderApproval: /diff opened during a turn stays below an
// approval that arrives later; the approval's y answers it and never
// reaches the /diff list, which is back once the question is answered.
func TestSeamDiffUnderApproval(t *testing.T) {
	m, a := newTestModel(t, 100, 30)
	a.sessionDiff = func(string) (agent.ItemChanges, error) {
		return agent.ItemChanges{Text: "the start of this session", Files: []checkpoint.Change{
			{Kind: checkpoint.Changed, Path: "conf.txt"}, {Kind: checkpoint.Created, Path: "new.go"}}, Patch: sessionPatch}, nil
	}
	submit(m, "go")
	update(m, submit(m, "/diff")())
	d := overlayOf[*dialog.Diff](m)
	if d == nil {
		t.Fatalf("/diff during a turn opened nothing:\n%s", screen(m))
	}
	reply := askApproval(t, m)
	if m.over.top() != overlay(m.approvalQueue()) {
		t.Fatal("the approval is not on top of /diff")
	}
	pause(m)
	press(m, "y")
	settle(m)
	if ans, ok := answered(reply); !ok || !ans.Allow {
		t.Fatalf("y over /diff: answer %+v (sent %v), want allow", ans, ok)
	}
	s := screen(m)
	if overlayOf[*dialog.Diff](m) != d || !strings.Contains(s, "Changes since the start of this session") || strings.Contains(s, "Allow bash?") {
		t.Fatalf("after the answer, want the /diff list back:\n%s", s)
	}
	if !strings.Contains(s, "changed  conf.txt") {
		t.Fatalf("the approval's key moved the /diff list:\n%s", s)
	}
}

// TestSeamThemeOverApproval: the terminal's background answer, arriving
// while an approval dialog is open, restyles the dialog too, its reason
// field included: the frame is the one a model made for that background
// draws.
func TestSeamThemeOverApproval(t *testing.T) {
	open := func(dark bool) *Model {
		m := backgroundModel(t, dark)
		askApproval(t, m)
		return m
	}
	deny := func(m *Model) string {
		pause(m)
		press(m, "n") // deny: the reason field opens
		settle(m)
		return dialogBox(m)
	}
	m := open(true)
	update(m, tea.BackgroundColorMsg{Color: color.White})
	got, want := dialogBox(m), dialogBox(open(false))
	if ansi := stripANSI(got); !strings.Contains(ansi, "Allow bash?") {
		t.Fatalf("the dialog is gone after the restyle:\n%s", ansi)
	}
	if got != want {
		t.Errorf("the restyled approval differs from one opened in the light styles:\n%q\nwant\n%q", got, want)
	}
	got, want = deny(m), deny(open(false))
	if !strings.Contains(stripANSI(got), "Reason: ") {
		t.Fatalf("n opened no reason field:\n%s", stripANSI(got))
	}
	if got != want {
		t.Errorf("the restyled reason field differs from one opened in the light styles:\n%q\nwant\n%q", got, want)
	}
}

// dialogBox is the frame's lines from the top of the dialog's box to its
// bottom (the status bar's clock is left out).
func dialogBox(m *Model) string {
	lines := strings.Split(m.View().Content, "\n")
	from, to := -1, -1
	for i, l := range lines {
		if p := stripANSI(l); strings.HasPrefix(p, "╭") && from < 0 {
			from = i
		} else if strings.HasPrefix(p, "╰") {
			to = i
		}
	}
	if from < 0 || to < from {
		return ""
	}
	return strings.Join(lines[from:to+1], "\n")
}

// TestSeamToastUnderApproval: a toast (a copy finished off the update
// loop) shows in the status bar while an approval waits, without
// answering or closing it, and fades on its own.
func TestSeamToastUnderApproval(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	var done tea.Msg
	m.after = func(_ time.Duration, msg tea.Msg) tea.Cmd { done = msg; return nil }
	reply := askApproval(t, m)
	update(m, toastMsg{Text: "copied 12 lines"})
	if bar := statusLine(m); !strings.Contains(bar, "copied 12 lines") {
		t.Fatalf("the toast is not in the status bar: %q", bar)
	}
	if !strings.Contains(screen(m), "Allow bash?") {
		t.Fatalf("the toast closed the approval:\n%s", screen(m))
	}
	if done == nil {
		t.Fatal("the toast set no timer to fade")
	}
	update(m, done)
	if bar := statusLine(m); strings.Contains(bar, "copied") {
		t.Fatalf("the toast stayed: %q", bar)
	}
	if _, ok := answered(reply); ok || !strings.Contains(screen(m), "Allow bash?") {
		t.Fatalf("the toast's end touched the approval:\n%s", screen(m))
	}
}

// TestSeamCostWithParallelTasks: while parallel tasks run, the status
// bar's cost counts every task's calls with the parent's, as they come,
// not only once the turn ends; the context share stays the parent's.
func TestSeamCostWithParallelTasks(t *testing.T) {
	m, _ := newTestModel(t, 140, 30)
	taskCall := func(id string, cost float64) agent.Event {
		return agent.Subagent{ParentID: id, Event: agent.Usage{Usage: provider.Usage{PromptTokens: 900, CompletionTokens: 10}, CostUSD: cost, CostFrom: agent.CostServer}}
	}
	submit(m, "split the work")
	events(t, m, agent.Usage{Usage: provider.Usage{PromptTokens: 32000, CompletionTokens: 100}, Window: 128000, CostUSD: 0.01, CostFrom: agent.CostServer},
		agent.TodoUpdate{List: plan("g", "> Build", "> Test")},
		agent.ToolStart{ID: "t1", Name: agent.TaskTool, Summary: "build part", Item: "1"},
		agent.ToolStart{ID: "t2", Name: agent.TaskTool, Summary: "test part", Item: "2"},
		taskCall("t1", 0.02), taskCall("t2", 0.03), taskCall("t1", 0.04))
	bar := statusLine(m)
	if !strings.Contains(bar, "$0.1000") {
		t.Fatalf("the bar's cost leaves out the running tasks' calls (want $0.1000): %q", bar)
	}
	if !strings.Contains(bar, "25%") {
		t.Fatalf("the tasks' calls changed the context share (want the parent's 25%%): %q", bar)
	}
}

// TestSeamEditDiffsInParallelTasks: edits made by tasks running side by
// side show as diffs under their own task call while they run, each with
// its own removed and added lines, as the parent's edits do.
func TestSeamEditDiffsInParallelTasks(t *testing.T) {
	m, _ := newTestModel(t, 120, 50)
	edit := func(task, id, file, from, to string) []agent.Event {
		diff := tools.UnifiedDiff("a/"+file, "b/"+file, "keep\n"+from+"\n", "keep\n"+to+"\n")
		return []agent.Event{
			agent.Subagent{ParentID: task, Event: agent.ToolStart{ID: id, Name: "edit_file", Summary: file}},
			agent.Subagent{ParentID: task, Event: agent.ToolEnd{ID: id, Name: "edit_file", Output: "Edited " + file, Diff: diff}},
		}
	}
	submit(m, "split the work")
	evs := []agent.Event{agent.TodoUpdate{List: plan("g", "> Build", "> Test")},
		agent.ToolStart{ID: "t1", Name: agent.TaskTool, Summary: "build part", Item: "1"},
		agent.ToolStart{ID: "t2", Name: agent.TaskTool, Summary: "test part", Item: "2"}}
	evs = append(evs, edit("t1", "c1", "a.go", "port = 80", "port = 8080")...)
	evs = append(evs, edit("t2", "c2", "b.go", "debug = false", "debug = true")...)
	events(t, m, evs...)
	lines := strings.Split(screen(m), "\n")
	at := func(s string) int {
		for i, l := range lines {
			if strings.Contains(l, s) {
				return i
			}
		}
		t.Fatalf("the chat lacks %q:\n%s", s, strings.Join(lines, "\n"))
		return -1
	}
	b1, d1, a1 := at("task  build part"), at("2 - port = 80"), at("2 + port = 8080")
	b2, d2, a2 := at("task  test part"), at("2 - debug = false"), at("2 + debug = true")
	if !(b1 < d1 && d1 < a1 && a1 < b2 && b2 < d2 && d2 < a2) {
		t.Fatalf("each task's diff is not under its own call (lines %d %d %d, %d %d %d):\n%s", b1, d1, a1, b2, d2, a2, strings.Join(lines, "\n"))
	}
}

// TestSeamThemeOverEditApproval: an edit's approval shows its diff in the
// palette's diff colours; the terminal's background answer, arriving
// while it is open, draws the diff in the new palette too.
func TestSeamThemeOverEditApproval(t *testing.T) {
	diff := tools.UnifiedDiff("a/conf.txt", "b/conf.txt", "name = tick\nport = 80\n", "name = tick\nport = 8080\n")
	open := func(dark bool) *Model {
		m := backgroundModel(t, dark)
		submit(m, "go")
		events(t, m, agent.ApprovalRequest{Tool: "edit_file", Summary: "conf.txt", Detail: diff, Reply: make(chan agent.Approval, 1)})
		if !strings.Contains(stripANSI(dialogBox(m)), "2 + port = 8080") {
			t.Fatalf("the approval shows no diff:\n%s", screen(m))
		}
		return m
	}
	m := open(true)
	update(m, tea.BackgroundColorMsg{Color: color.White})
	if got, want := dialogBox(m), dialogBox(open(false)); got != want {
		t.Errorf("the restyled edit approval differs from one opened in the light styles:\n%q\nwant\n%q", got, want)
	}
}

// TestSeamVerifyAcrossSessionSwitch: after a switch to another
// conversation with its own agent (/sessions, /new), the panel's last
// line and the status bar both show the new agent's check, not the old
// one's failure. The panel kept the old line: it was a copy of the state
// set apart from it.
func TestSeamVerifyAcrossSessionSwitch(t *testing.T) {
	old := &scriptAgent{verify: "make check"}
	mv := New(Config{Agent: old, Model: "m", Workspace: "/tmp/ws", Dark: true})
	m := &mv
	update(m, tea.WindowSizeMsg{Width: 140, Height: 30})
	submit(m, "fix it")
	code := 2
	events(t, m, agent.TodoUpdate{List: plan("g", "x Fix")},
		agent.VerifyStarted{Command: "make check", Attempt: 3, Max: 3},
		agent.Verified{Command: "make check", Attempt: 3, Max: 3, ExitCode: &code, Final: true})
	endTurn(t, m, old, agent.TurnEnd{Reason: agent.ReasonDone})
	if s := screen(m); !strings.Contains(s, "verify ✗ exit 2 · 3/3") {
		t.Fatalf("the failure is not shown:\n%s", s)
	}
	update(m, ResetMsg{Agent: &scriptAgent{verify: "go vet ./..."}, Todos: plan("other", "> Build")})
	if !m.panel.Open() {
		press(m, "ctrl+t") // the panel's last line is the check's
	}
	s := screen(m)
	if strings.Contains(s, "exit 2") || strings.Contains(s, "make check") {
		t.Errorf("the old conversation's check is still shown:\n%s", s)
	}
	if strings.Count(s, "verify: go vet ./...") < 2 {
		t.Errorf("the panel and the status bar do not both name the new check:\n%s", s)
	}
}
