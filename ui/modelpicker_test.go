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
	m.cfg.Models = &ModelConfig{
		List:        func() ([]string, error) { return []string{"alpha", "beta-coder", "gamma"}, nil },
		Switch:      func(n string) error { switched = append(switched, n); return nil },
		SaveDefault: func(n string) (string, error) { saved = append(saved, n); return "the file was rewritten", nil },
		Path:        "/cfg/config.toml",
	}
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
	m.cfg.Models = &ModelConfig{
		List:   func() ([]string, error) { return nil, errors.New("connection refused") },
		Switch: func(string) error { return nil },
	}
	m.addConfigCommands()
	runCmd(m, submit(m, "/model"))
	if m.modelPicker() != nil || !strings.Contains(screen(m), "could not list the models: connection refused") {
		t.Errorf("a failed listing:\n%s", screen(m))
	}
}
