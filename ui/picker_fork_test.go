package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestPickerOffersFork resumes a session that another tick has open: the
// picker stays, says so and offers f, which forks it into a new session.
func TestPickerOffersFork(t *testing.T) {
	f := &fakeSessions{list: sessionList(3), resumeErr: fmt.Errorf("%w (pid 4242)", ErrSessionOpen)}
	var forked []string
	a := &scriptAgent{}
	mv := New(Config{Agent: a, Model: "test-model", Services: fakeServices{sessions: f.sessions, resume: f.resume,
		fork: func(id string) (ResetMsg, error) {
			forked = append(forked, id)
			return ResetMsg{Agent: &scriptAgent{}, Notice: "forked " + id + " into the new session n3w"}, nil
		}}})
	m := &mv
	update(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	openPicker(t, m)
	press(m, "f") // nothing to fork yet
	if len(forked) != 0 || m.sessionPicker() == nil {
		t.Fatal("f forked before a resume was refused")
	}
	cmd := press(m, "enter")
	update(m, cmd())
	s := screen(m)
	if m.sessionPicker() == nil || !strings.Contains(s, "open in another tick (pid 4242)") || !strings.Contains(s, "f fork it into a new session") {
		t.Fatalf("the picker does not offer to fork:\n%s", s)
	}
	cmd = press(m, "f")
	if cmd == nil {
		t.Fatal("f did not fork")
	}
	update(m, cmd())
	if len(forked) != 1 || forked[0] != "s01" {
		t.Fatalf("forked %q, want [s01]", forked)
	}
	if m.sessionPicker() != nil || !strings.Contains(screen(m), "forked s01 into the new session n3w") {
		t.Fatalf("the fork was not opened:\n%s", screen(m))
	}
}

// TestPickerForkMovedAway: moving the selection withdraws the offer.
func TestPickerForkMovedAway(t *testing.T) {
	f := &fakeSessions{list: sessionList(3), resumeErr: fmt.Errorf("%w", ErrSessionOpen)}
	calls := 0
	mv := New(Config{Agent: &scriptAgent{}, Services: fakeServices{sessions: f.sessions, resume: f.resume,
		fork: func(string) (ResetMsg, error) { calls++; return ResetMsg{}, nil }}})
	m := &mv
	update(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	openPicker(t, m)
	update(m, press(m, "enter")())
	press(m, "down")
	if cmd := press(m, "f"); cmd != nil || calls != 0 {
		t.Fatal("f forked a session that was not refused")
	}
}
