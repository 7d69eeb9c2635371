package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/ui/dialog"
	"github.com/tick-agent/tick/ui/style"
)

// Messages of the picker's commands.
type (
	modelsListedMsg struct {
		models []string
		err    error
	}
	modelSwitchedMsg struct {
		name string
		err  error
	}
	modelSavedMsg struct {
		name, note string
		err        error
	}
)

// openModels is the /model command: it lists the models off the update
// loop and opens the picker (dialog.Models) when they arrive.
func (m *Model) openModels() tea.Cmd {
	svc := m.cfg.Services
	m.note = "listing the models…"
	return func() tea.Msg {
		models, err := svc.ListModels()
		return modelsListedMsg{models, err}
	}
}

// handleModelMsg applies the picker's messages; ok is false for others.
func (m *Model) handleModelMsg(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case modelsListedMsg:
		m.note = ""
		switch {
		case msg.err != nil:
			m.chat.AddNotice("could not list the models: " + msg.err.Error())
		case len(msg.models) == 0:
			m.chat.AddNotice("the server lists no models")
		default:
			m.over.push(dialog.NewModels(style.DefaultModelPickerKeyMap(), msg.models, m.cfg.Model, m.cfg.Services.DefaultModelFile()))
			m.input.Blur()
		}
	case modelSwitchedMsg:
		m.modelSwitched(msg)
	case modelCheckMsg:
		m.modelChecked(msg)
	case modelSavedMsg:
		if msg.err != nil {
			m.chat.AddNotice("could not save the default model: " + msg.err.Error())
		} else {
			note := msg.name + " is now the default model (" + m.cfg.Services.DefaultModelFile() + ")"
			if msg.note != "" {
				note += "; " + msg.note
			}
			m.chat.AddNotice(note)
		}
	default:
		return nil, false
	}
	return nil, true
}

// switchModel carries out the picker's dialog.SwitchModel:
// Services.SwitchModel off the update loop.
func (m *Model) switchModel(name string) tea.Cmd {
	svc := m.cfg.Services
	return func() tea.Msg { return modelSwitchedMsg{name, svc.SwitchModel(name)} }
}

// saveDefaultModel carries out the picker's dialog.SaveDefaultModel:
// Services.SaveDefaultModel off the update loop.
func (m *Model) saveDefaultModel(name string) tea.Cmd {
	svc := m.cfg.Services
	if svc.DefaultModelFile() == "" { // the picker asks only when it can save
		return nil
	}
	return func() tea.Msg {
		note, err := svc.SaveDefaultModel(name)
		return modelSavedMsg{name, note, err}
	}
}

// modelSwitched shows the new model and asks whether to keep it as the
// default.
func (m *Model) modelSwitched(msg modelSwitchedMsg) {
	p := m.modelPicker()
	if msg.err != nil {
		m.closeModels()
		m.chat.AddNotice("could not switch the model: " + msg.err.Error())
		return
	}
	m.cfg.Model = msg.name
	m.chat.AddNotice("model: " + msg.name + " from the next request")
	if p == nil || m.cfg.Services.DefaultModelFile() == "" {
		m.closeModels()
		return
	}
	p.Ask(msg.name, m.now)
}

// modelPicker returns the open /model picker, or nil.
func (m *Model) modelPicker() *dialog.Models { return overlayOf[*dialog.Models](m) }

// closeModels closes the picker and gives the focus back to the input.
func (m *Model) closeModels() {
	m.over.remove(m.modelPicker())
	m.input.Focus()
}
