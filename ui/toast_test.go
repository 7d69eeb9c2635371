package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/tick-agent/tick/agent"
)

// TestCopyIsAToast: a copy says so in the status bar, not as a chat line;
// the chat keeps its scroll position; the notice fades when its timer
// fires (and a stale timer leaves a newer toast alone). Fails on code
// where the copy added a permanent chat line.
func TestCopyIsAToast(t *testing.T) {
	m, a := newTestModel(t, 100, 30)
	var timers []tea.Msg
	m.after = func(_ time.Duration, msg tea.Msg) tea.Cmd { timers = append(timers, msg); return nil }
	submit(m, "go")
	events(t, m, agent.AssistantDone{Text: strings.Repeat("line of the answer\n\n", 40) + answerWithCode, Final: true})
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	m.chat.ScrollUp(10)
	top := m.chat.Top()
	chatBefore := m.chat.Len()
	for _, msg := range runCmds(submit(m, "/copy 1")) {
		update(m, msg)
	}
	if m.chat.Len() != chatBefore {
		t.Errorf("the copy added %d chat entries", m.chat.Len()-chatBefore)
	}
	if m.chat.Following() || m.chat.Top() != top {
		t.Errorf("the copy moved the chat from %+v to %+v (follow %v)", top, m.chat.Top(), m.chat.Following())
	}
	bar := lastLine(screen(m))
	if !strings.Contains(bar, "copied code block 1") {
		t.Fatalf("the status bar does not say the copy:\n%s", bar)
	}
	if len(timers) == 0 {
		t.Fatal("the toast set no timer")
	}
	first := timers[len(timers)-1]
	for _, msg := range runCmds(submit(m, "/copy 2")) {
		update(m, msg)
	}
	update(m, first) // the first toast's timer: the second toast stays
	if bar := lastLine(screen(m)); !strings.Contains(bar, "copied code block 2") {
		t.Fatalf("a stale timer ended the newer toast:\n%s", bar)
	}
	update(m, timers[len(timers)-1])
	if bar := lastLine(screen(m)); strings.Contains(bar, "copied") {
		t.Fatalf("the toast did not fade:\n%s", bar)
	}
}

// TestQuitArmExpires: ctrl+c's "again to quit" holds for quitWindow and
// the hint says so; a second ctrl+c after it asks again instead of
// quitting, and the timer takes the hint away. Fails on code where the arm
// never expired.
func TestQuitArmExpires(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	c := &fakeClock{t: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	m.clock = c.now
	var timer tea.Msg
	m.after = func(d time.Duration, msg tea.Msg) tea.Cmd {
		if d != quitWindow {
			t.Errorf("the hint's timer is %v, want %v", d, quitWindow)
		}
		timer = msg
		return nil
	}
	press(m, "ctrl+c")
	if s := lastLine(screen(m)); !strings.Contains(s, "ctrl+c again to quit (2s)") {
		t.Fatalf("the hint does not say how long:\n%s", s)
	}
	c.advance(quitWindow + time.Millisecond)
	if isQuit(press(m, "ctrl+c")) {
		t.Fatal("a ctrl+c after the window quit")
	}
	c.advance(time.Second)
	if !isQuit(press(m, "ctrl+c")) {
		t.Fatal("a second ctrl+c within the window did not quit")
	}

	m, _ = newTestModel(t, 100, 30)
	m.after = func(_ time.Duration, msg tea.Msg) tea.Cmd { timer = msg; return nil }
	press(m, "ctrl+c")
	update(m, timer)
	if s := lastLine(screen(m)); strings.Contains(s, "again to quit") {
		t.Fatalf("the hint stayed after its time:\n%s", s)
	}
	if isQuit(press(m, "ctrl+c")) {
		t.Fatal("ctrl+c quit after the hint had faded")
	}
}

// TestTransientNoticeIsAToast: a notice of a passing state (the undo
// point still being finished before the first change) shows in the status
// bar and fades, adding no chat line, even over an open approval dialog,
// which it leaves open and unanswered; a lasting notice stays a chat line.
// Fails on code where "finishing the undo point…" stayed in the chat.
func TestTransientNoticeIsAToast(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	var done tea.Msg
	m.after = func(_ time.Duration, msg tea.Msg) tea.Cmd { done = msg; return nil }
	reply := askApproval(t, m)
	before := m.chat.Len()
	events(t, m, agent.Notice{Text: "finishing the undo point of this message before the first change…", Transient: true})
	if m.chat.Len() != before {
		t.Errorf("the transient notice added %d chat entries", m.chat.Len()-before)
	}
	if bar := statusLine(m); !strings.Contains(bar, "finishing the undo point") {
		t.Fatalf("the transient notice is not in the status bar: %q", bar)
	}
	if _, ok := answered(reply); ok || !strings.Contains(screen(m), "Allow bash?") {
		t.Fatalf("the notice touched the approval:\n%s", screen(m))
	}
	if done == nil {
		t.Fatal("the transient notice set no timer to fade")
	}
	update(m, done)
	if bar := statusLine(m); strings.Contains(bar, "finishing") {
		t.Fatalf("the transient notice stayed: %q", bar)
	}
	events(t, m, agent.Notice{Text: "the undo point of this message leaves out big.bin"})
	if m.chat.Len() != before+1 {
		t.Errorf("a lasting notice added %d chat entries, want 1", m.chat.Len()-before)
	}
}
