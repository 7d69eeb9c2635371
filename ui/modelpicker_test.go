package ui

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// runCmd runs cmd and feeds its message back into m, like the program.
func runCmd(m *Model, cmd tea.Cmd) {
	for cmd != nil {
		msg := cmd()
		if msg == nil {
			return
		}
		_, cmd = m.Update(msg)
	}
}

func TestModelPicker(t *testing.T) {
	var switched, saved []string
	m, _ := newTestModel(t, 100, 30)
	m.cfg.Services = fakeServices{models: &fakeModels{
		List:        func() ([]string, error) { return []string{"alpha", "beta-coder", "gamma"}, nil },
		Switch:      func(n string) error { switched = append(switched, n); return nil },
		SaveDefault: func(n string) (string, error) { saved = append(saved, n); return "the file was rewritten", nil },
		Path:        "/cfg/config.toml",
	}}
	m.cfg.Model = "alpha"
	m.addConfigCommands()
	runCmd(m, submit(m, "/model"))
	if m.modelPicker() == nil {
		t.Fatalf("/model did not open the picker:\n%s", screen(m))
	}
	if scr := screen(m); !strings.Contains(scr, "alpha (current)") || !strings.Contains(scr, "gamma") {
		t.Fatalf("picker:\n%s", scr)
	}
	typeText(m, "cod")
	if scr := screen(m); strings.Contains(scr, "gamma") {
		t.Errorf("the filter did not narrow the list:\n%s", scr)
	}
	runCmd(m, press(m, "enter"))
	if len(switched) != 1 || switched[0] != "beta-coder" || m.cfg.Model != "beta-coder" {
		t.Fatalf("switched %v, status model %q", switched, m.cfg.Model)
	}
	if !strings.Contains(screen(m), "Also make beta-coder the default in /cfg/config.toml?") {
		t.Fatalf("no question:\n%s", screen(m))
	}
	pause(m)
	runCmd(m, press(m, "y"))
	if len(saved) != 1 || saved[0] != "beta-coder" || m.modelPicker() != nil {
		t.Errorf("saved %v, picker open %v", saved, m.modelPicker() != nil)
	}
	// The save's note (the file was rewritten) follows the confirmation.
	if scr := screen(m); !strings.Contains(scr, "beta-coder is now the default model (/cfg/config.toml); the file was rewritten") {
		t.Errorf("the save's note is not shown:\n%s", scr)
	}
}

func TestModelPickerErrors(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	m.cfg.Services = fakeServices{models: &fakeModels{
		List:   func() ([]string, error) { return nil, errors.New("connection refused") },
		Switch: func(string) error { return nil },
	}}
	m.addConfigCommands()
	runCmd(m, submit(m, "/model"))
	if m.modelPicker() != nil || !strings.Contains(screen(m), "could not list the models: connection refused") {
		t.Errorf("a failed listing:\n%s", screen(m))
	}
}

// TestModelDefaultQuestionKeepsTyping: keys typed while "Also make it the
// default?" is open go to the input, as with every other question: the y
// of "yes", typed on from the pick, saves nothing, and enter sends
// nothing; y after a pause answers.
func TestModelDefaultQuestionKeepsTyping(t *testing.T) {
	var saved []string
	m, a := newTestModel(t, 100, 30)
	m.cfg.Services = fakeServices{models: &fakeModels{
		List:        func() ([]string, error) { return []string{"alpha", "beta"}, nil },
		Switch:      func(string) error { return nil },
		SaveDefault: func(n string) (string, error) { saved = append(saved, n); return "", nil },
		Path:        "/cfg/config.toml",
	}}
	m.addConfigCommands()
	runCmd(m, submit(m, "/model"))
	typeText(m, "beta")
	runCmd(m, press(m, "enter"))
	if !strings.Contains(screen(m), "Also make beta the default") {
		t.Fatalf("no question:\n%s", screen(m))
	}
	typeText(m, "yes, now fix it")
	press(m, "enter")
	if len(saved) != 0 || m.modelPicker() == nil {
		t.Fatalf("typing answered the question: saved %v, open %v", saved, m.modelPicker() != nil)
	}
	if v := m.input.Value(); v != "yes, now fix it" {
		t.Errorf("input = %q, want the typed keys", v)
	}
	if p := a.prompts(); len(p) != 0 {
		t.Errorf("enter sent %q while the question was open", p)
	}
	if !strings.Contains(screen(m), "your typing went to the input") {
		t.Errorf("the question does not say where the typing went:\n%s", screen(m))
	}
	pause(m)
	runCmd(m, press(m, "n"))
	if m.modelPicker() != nil || len(saved) != 0 {
		t.Fatalf("a deliberate n: open %v, saved %v", m.modelPicker() != nil, saved)
	}
	if v := m.input.Value(); v != "yes, now fix it" {
		t.Errorf("input = %q after the answer", v)
	}
}

// TestModelCheckWarns: when the server does not list the model tick
// starts with, the status bar says so once the check (made off the update
// loop, after start-up) comes back; not when the model changed meanwhile.
func TestModelCheckWarns(t *testing.T) {
	var asked []string
	check := func(model string) string {
		asked = append(asked, model)
		return "model " + model + " is not on the server's list · /model picks one"
	}
	mv := New(Config{Agent: &scriptAgent{}, Model: "gpt-nope", ModelCheck: check})
	m := &mv
	update(m, tea.WindowSizeMsg{Width: 120, Height: 30})
	if s := screen(m); strings.Contains(s, "not on the server's list") {
		t.Fatalf("the warning came before the check:\n%s", s)
	}
	runCmd(m, m.checkModel())
	if len(asked) != 1 || asked[0] != "gpt-nope" {
		t.Fatalf("asked about %q", asked)
	}
	if s := screen(m); !strings.Contains(s, "model gpt-nope is not on the server's list") {
		t.Fatalf("the status bar does not warn:\n%s", s)
	}
	typeText(m, "x") // a key clears transient notes, not this warning
	if s := screen(m); !strings.Contains(s, "model gpt-nope is not on the server's list") {
		t.Fatalf("the warning went at the first key:\n%s", s)
	}
	m.cfg.Model = "picked-since"
	update(m, tea.WindowSizeMsg{Width: 120, Height: 30})
	if s := screen(m); strings.Contains(s, "not on the server's list") {
		t.Fatalf("the warning stayed after the model changed:\n%s", s)
	}

	mv = New(Config{Agent: &scriptAgent{}, Model: "gpt-nope", ModelCheck: check})
	m = &mv
	update(m, tea.WindowSizeMsg{Width: 120, Height: 30})
	cmd := m.checkModel()
	m.cfg.Model = "picked-since"
	runCmd(m, cmd)
	if s := screen(m); strings.Contains(s, "not on the server's list") {
		t.Fatalf("a warning about the old model:\n%s", s)
	}
}
