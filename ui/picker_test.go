package ui

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
)

// fakeSessions is what main supplies as Config.Sessions and Config.Resume:
// a fixed list, and a resume that hands out a fresh scriptAgent with a
// transcript naming the session.
type fakeSessions struct {
	mu        sync.Mutex
	list      []SessionInfo
	listErr   error
	resumeErr error
	resumed   []string
	agents    map[string]*scriptAgent
}

func (f *fakeSessions) sessions() ([]SessionInfo, error) { return f.list, f.listErr }

func (f *fakeSessions) resume(id string) (ResetMsg, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.resumed = append(f.resumed, id)
	if f.resumeErr != nil {
		return ResetMsg{}, f.resumeErr
	}
	a := &scriptAgent{}
	if f.agents == nil {
		f.agents = map[string]*scriptAgent{}
	}
	f.agents[id] = a
	return ResetMsg{
		Agent: a,
		History: agent.Replay([]provider.Message{
			{Role: provider.RoleUser, Content: "prompt of " + id},
			{Role: provider.RoleAssistant, Content: "answer of " + id},
		}),
		Todos:  todo.List{Goal: "Goal of " + id, Items: []todo.Item{{ID: "1", Text: "Only step", Status: todo.Pending}}},
		Notice: "resumed session " + id,
	}, nil
}

// sessionList returns n sessions, the first one current.
func sessionList(n int) []SessionInfo {
	start := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	list := make([]SessionInfo, n)
	for i := range list {
		list[i] = SessionInfo{
			ID: fmt.Sprintf("s%02d", i), Started: start.Add(-time.Duration(i) * time.Hour),
			FirstPrompt: fmt.Sprintf("task number %d", i), Done: i % 4, Total: 4, Turns: i + 1, Current: i == 0,
		}
	}
	if n > 2 {
		list[2].Total, list[2].Done = 0, 0 // no todo list
	}
	return list
}

// newPickerModel returns a w×h model whose /sessions lists f.
func newPickerModel(t *testing.T, f *fakeSessions, w, h int) (*Model, *scriptAgent) {
	t.Helper()
	a := &scriptAgent{}
	mv := New(Config{Agent: a, Model: "test-model", Services: fakeServices{sessions: f.sessions, resume: f.resume}})
	m := &mv
	update(m, tea.WindowSizeMsg{Width: w, Height: h})
	return m, a
}

// openPicker types /sessions and delivers the listing.
func openPicker(t *testing.T, m *Model) {
	t.Helper()
	cmd := submit(m, "/sessions")
	if cmd == nil {
		t.Fatalf("/sessions returned no command:\n%s", screen(m))
	}
	update(m, cmd())
}

// selected returns the picker's selected session id.
func selected(t *testing.T, m *Model) string {
	t.Helper()
	if m.sessionPicker() == nil {
		t.Fatal("the picker is not open")
	}
	return m.sessionPicker().Selected().ID
}

func TestSessionsPickerResumes(t *testing.T) {
	f := &fakeSessions{list: sessionList(4)}
	m, old := newPickerModel(t, f, 100, 30)
	submit(m, "hello")
	endTurn(t, m, old, agent.TurnEnd{Reason: agent.ReasonDone})

	openPicker(t, m)
	s := screen(m)
	for _, want := range []string{"Sessions", "s00", "task number 0", "(current)", "s01", "2 turns", "1/4", "s03", "task number 3", "enter resume", "esc close"} {
		if !strings.Contains(s, want) {
			t.Fatalf("picker lacks %q:\n%s", want, s)
		}
	}
	if !strings.Contains(s, "› s01") {
		t.Fatalf("the most recent other session is not selected:\n%s", s)
	}
	for _, step := range []struct{ key, want string }{
		{"down", "s02"}, {"j", "s03"}, {"j", "s03"}, {"k", "s02"}, {"up", "s01"}, {"up", "s00"}, {"up", "s00"}, {"end", "s03"}, {"home", "s00"}, {"down", "s01"}, {"down", "s02"},
	} {
		press(m, step.key)
		if got := selected(t, m); got != step.want {
			t.Fatalf("after %s: selected %s, want %s", step.key, got, step.want)
		}
	}
	press(m, "x") // letters do not reach the input
	if !m.input.Empty() {
		t.Fatalf("a key went to the input behind the picker: %q", m.input.Value())
	}

	cmd := press(m, "enter")
	if cmd == nil {
		t.Fatal("enter did not resume")
	}
	if s := screen(m); !strings.Contains(s, "resuming s02") {
		t.Fatalf("no resuming note:\n%s", s)
	}
	press(m, "esc") // waits for the resume
	if m.sessionPicker() == nil {
		t.Fatal("esc closed the picker while resuming")
	}
	update(m, cmd())
	if m.sessionPicker() != nil {
		t.Fatal("the picker stayed open after resuming")
	}
	s = screen(m)
	for _, want := range []string{"› prompt of s02", "answer of s02", "resumed session s02", "Plan 0/1 · next: Only step"} {
		if !strings.Contains(s, want) {
			t.Fatalf("resumed screen lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "› hello") {
		t.Fatalf("the old transcript is still shown:\n%s", s)
	}
	if len(f.resumed) != 1 || f.resumed[0] != "s02" {
		t.Fatalf("resumed %q, want s02", f.resumed)
	}
	submit(m, "carry on")
	if p := f.agents["s02"].prompts(); len(p) != 1 || p[0] != "carry on" {
		t.Fatalf("the resumed agent got %q", p)
	}
	if p := old.prompts(); len(p) != 1 {
		t.Fatalf("the old agent got %q after the resume", p)
	}
}

func TestSessionsPickerCloses(t *testing.T) {
	tests := []struct {
		name string
		keys []string
		note string // in the chat after closing
	}{
		{name: "esc", keys: []string{"esc"}},
		{name: "ctrl+c", keys: []string{"ctrl+c"}},
		{name: "enter on the current session", keys: []string{"home", "enter"}, note: "already in session s00"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeSessions{list: sessionList(3)}
			m, a := newPickerModel(t, f, 100, 30)
			openPicker(t, m)
			for _, k := range tt.keys {
				if isQuit(press(m, k)) {
					t.Fatalf("%s quit the app", k)
				}
			}
			s := screen(m)
			if m.sessionPicker() != nil || strings.Contains(s, "esc close") {
				t.Fatalf("picker still open:\n%s", s)
			}
			if tt.note != "" && !strings.Contains(s, tt.note) {
				t.Fatalf("no %q notice:\n%s", tt.note, s)
			}
			if len(f.resumed) != 0 {
				t.Fatalf("resumed %q", f.resumed)
			}
			submit(m, "still here") // the input has the focus again
			if p := a.prompts(); len(p) != 1 || p[0] != "still here" {
				t.Fatalf("prompts after closing = %q", p)
			}
		})
	}
}

func TestSessionsRefusedWhileRunning(t *testing.T) {
	f := &fakeSessions{list: sessionList(3)}
	m, a := newPickerModel(t, f, 100, 30)
	cmd := submit(m, "/sessions") // the listing arrives after a turn started
	submit(m, "work")
	update(m, cmd())
	if m.sessionPicker() != nil {
		t.Fatal("the picker opened while a turn runs")
	}
	if cmd := submit(m, "/sessions"); cmd != nil {
		t.Fatal("/sessions listed while a turn runs")
	}
	s := screen(m)
	if strings.Count(s, "cannot switch sessions while a turn runs") != 2 {
		t.Fatalf("refusal not said each time:\n%s", s)
	}
	if len(a.steers) != 0 {
		t.Fatalf("/sessions was sent as a steer: %q", a.steers)
	}
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	openPicker(t, m)
	if m.sessionPicker() == nil {
		t.Fatal("the picker does not open once the turn ended")
	}
	// Also refused on enter should a turn be running (a resume never
	// replaces a running conversation).
	m.turn = &turn{id: 99, cancel: func() {}}
	if cmd := press(m, "enter"); cmd != nil || len(f.resumed) != 0 {
		t.Fatal("resumed while a turn runs")
	}
	if !strings.Contains(screen(m), "cannot resume while a turn runs") {
		t.Fatalf("refusal not shown in the picker:\n%s", screen(m))
	}
}

func TestSessionsFailures(t *testing.T) {
	tests := []struct {
		name      string
		f         *fakeSessions
		resume    bool
		want      string
		keepsChat bool
	}{
		{name: "listing fails", f: &fakeSessions{listErr: errors.New("read dir: permission denied")}, want: "could not list the sessions: read dir: permission denied"},
		{name: "no sessions", f: &fakeSessions{}, want: "no saved sessions in this workspace yet"},
		{name: "resume fails", f: &fakeSessions{list: sessionList(2), resumeErr: errors.New("open session s01: permission denied")},
			resume: true, want: "could not resume session s01: open session s01: permission denied", keepsChat: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, a := newPickerModel(t, tt.f, 100, 30)
			submit(m, "before")
			endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
			openPicker(t, m)
			if tt.resume {
				update(m, press(m, "enter")())
			}
			s := screen(m)
			if m.sessionPicker() != nil || !strings.Contains(s, tt.want) {
				t.Fatalf("want %q and no picker:\n%s", tt.want, s)
			}
			if tt.keepsChat && !strings.Contains(s, "› before") {
				t.Fatalf("a failed resume cleared the chat:\n%s", s)
			}
		})
	}
}

func TestSessionsPickerSizes(t *testing.T) {
	for _, size := range [][2]int{{60, 15}, {80, 24}, {130, 40}} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			f := &fakeSessions{list: sessionList(40)}
			m, _ := newPickerModel(t, f, size[0], size[1])
			openPicker(t, m)
			checkFits(t, m, size[0], size[1])
			press(m, "end")
			s := screen(m)
			checkFits(t, m, size[0], size[1])
			if !strings.Contains(s, "s39") || !strings.Contains(s, "40/40") {
				t.Fatalf("the last session is not in view after end:\n%s", s)
			}
			press(m, "pgup")
			if selected(t, m) == "s39" {
				t.Fatal("pgup did not move")
			}
			if !strings.Contains(screen(m), selected(t, m)) {
				t.Fatalf("selected %s not in view:\n%s", selected(t, m), screen(m))
			}
			if n := len(strings.Split(screen(m), "\n")); n != size[1] {
				t.Fatalf("frame has %d lines", n)
			}
		})
	}
}

// TestSessionsPickerShowsTitle: a session's row shows its short title
// when it has one, the first prompt when not. Fails on code that showed
// the first prompt only.
func TestSessionsPickerShowsTitle(t *testing.T) {
	list := sessionList(2)
	list[1].FirstPrompt = "please refactor the whole parser package so that it reads tokens lazily and reports errors with positions"
	list[1].Title = "please refactor the parser, short"
	f := &fakeSessions{list: list}
	m, _ := newPickerModel(t, f, 120, 30)
	openPicker(t, m)
	s := screen(m)
	if !strings.Contains(s, "please refactor the parser, short") || strings.Contains(s, "reads tokens lazily") {
		t.Fatalf("the row does not show the title:\n%s", s)
	}
	if !strings.Contains(s, "task number 0") {
		t.Fatalf("a session without a title lost its first prompt:\n%s", s)
	}
}
