package ui

import (
	"github.com/tick-agent/tick/ui/dialog"

	"github.com/tick-agent/tick/ui/style"

	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// ModelConfig is what the /model picker needs; set Config.Models to offer
// it. The functions run off the update loop.
type ModelConfig struct {
	// List returns the models the configured server lists.
	List func() ([]string, error)
	// Switch makes name the model of the conversation from the next
	// request (and saves it with the session).
	Switch func(name string) error
	// SaveDefault writes name as the default model into the config file
	// and returns what else the user should know of the save, shown
	// after the confirmation ("" for nothing; e.g. that the file was
	// rewritten); nil leaves the question out. Path names the file in the
	// question.
	SaveDefault func(name string) (note string, err error)
	Path        string
}

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

// modelPicker is the /model dialog: the server's models, filtered as the
// user types, then the question whether to save the pick as the default.
type modelPicker struct {
	keys     ModelPickerKeyMap
	list     *modelList
	asking   string    // the model switched to, while asking "save as default?"
	shown    time.Time // when the question appeared (see dialog.AnswerPause)
	diverted bool      // keys typed while it was asked went to the input
	busy     string
}

// openModels is the /model command: it lists the models off the update
// loop and opens the picker when they arrive.
func (m *Model) openModels() tea.Cmd {
	list := m.cfg.Models.List
	m.note = "listing the models…"
	return func() tea.Msg {
		models, err := list()
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
			m.chat.addNotice("could not list the models: " + msg.err.Error())
		case len(msg.models) == 0:
			m.chat.addNotice("the server lists no models")
		default:
			m.over.push(&modelPicker{keys: style.DefaultModelPickerKeyMap(), list: newModelList(msg.models, m.cfg.Model)})
			m.input.blur()
		}
	case modelSwitchedMsg:
		return m.modelSwitched(msg), true
	case modelCheckMsg:
		m.modelChecked(msg)
	case modelSavedMsg:
		if msg.err != nil {
			m.chat.addNotice("could not save the default model: " + msg.err.Error())
		} else {
			note := msg.name + " is now the default model (" + m.cfg.Models.Path + ")"
			if msg.note != "" {
				note += "; " + msg.note
			}
			m.chat.addNotice(note)
		}
	default:
		return nil, false
	}
	return nil, true
}

// modelSwitched shows the new model and asks whether to keep it as the
// default.
func (m *Model) modelSwitched(msg modelSwitchedMsg) tea.Cmd {
	p := m.modelPicker()
	if msg.err != nil {
		m.closeModels()
		m.chat.addNotice("could not switch the model: " + msg.err.Error())
		return nil
	}
	m.cfg.Model = msg.name
	m.chat.addNotice("model: " + msg.name + " from the next request")
	if p == nil || m.cfg.Models.SaveDefault == nil {
		m.closeModels()
		return nil
	}
	p.busy, p.asking, p.shown = "", msg.name, m.now
	return nil
}

func (p *modelPicker) Layer() int { return dialog.LayerPicker }

// update takes every key while the picker is open; a paste and the wheel
// pass to the screen below. While it switches and while it asks "save as
// the default?", typing goes to the input as with every other question:
// only y or n after a pause (see dialog.AnswerPause) answers it.
func (p *modelPicker) update(m *Model, msg tea.Msg, lastKey time.Time) (tea.Cmd, bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, false
	}
	if (p.busy != "" || p.asking != "") && dialog.IsTyping(k, m.keys) &&
		(p.busy != "" || !dialog.Deliberate(m.now, p.shown, lastKey) || !key.Matches(k, p.keys.Yes, p.keys.No)) {
		p.diverted = p.asking != ""
		if key.Matches(k, m.keys.Send) {
			return nil, true // nothing is sent while it is open
		}
		return m.typeAside(k), true
	}
	return p.key(m, k), true
}

// modelPicker returns the open /model picker, or nil.
func (m *Model) modelPicker() *modelPicker { return overlayOf[*modelPicker](m) }

// key handles a key while the picker is open.
func (p *modelPicker) key(m *Model, k tea.KeyPressMsg) tea.Cmd {
	if key.Matches(k, m.keys.Quit) {
		m.closeModels()
		return nil
	}
	if p.busy != "" {
		return nil
	}
	if p.asking != "" {
		return m.answerDefault(k)
	}
	switch {
	case key.Matches(k, p.keys.Close):
		if p.list.filter != "" {
			p.list.filter = ""
			p.list.refilter()
		} else {
			m.closeModels()
		}
	case key.Matches(k, p.keys.Up):
		p.list.move(-1)
	case key.Matches(k, p.keys.Down):
		p.list.move(1)
	case key.Matches(k, p.keys.Erase):
		p.list.backspace()
	case key.Matches(k, p.keys.Pick):
		name := p.list.selected()
		if name == "" {
			return nil
		}
		p.busy = "switching to " + name + "…"
		sw := m.cfg.Models.Switch
		return func() tea.Msg { return modelSwitchedMsg{name, sw(name)} }
	case k.Text != "":
		p.list.typeText(k.Text)
	}
	return nil
}

// answerDefault handles the answer to "save as the default?".
func (m *Model) answerDefault(k tea.KeyPressMsg) tea.Cmd {
	p := m.modelPicker()
	switch {
	case key.Matches(k, p.keys.Yes):
		name, save := p.asking, m.cfg.Models.SaveDefault
		m.closeModels()
		return func() tea.Msg {
			note, err := save(name)
			return modelSavedMsg{name, note, err}
		}
	case key.Matches(k, p.keys.No):
		m.closeModels()
	}
	return nil
}

// closeModels closes the picker and gives the focus back to the input.
func (m *Model) closeModels() {
	m.over.remove(m.modelPicker())
	m.input.focus()
}

// view draws the picker centred over the whole area above the input.
func (p *modelPicker) view(m *Model, w, h int) []string {
	return fitBox(p.box(m.st, m.help, m.cfg.Model, m.cfg.Models.Path, w, h), w, h)
}

// box renders the picker centred in a w×h area.
func (p *modelPicker) box(st *Styles, hm help.Model, current, path string, w, h int) string {
	g := st.Glyphs
	iw := max(min(w-4, style.DialogMaxWidth), 1)
	lines := []string{ansi.Truncate(st.DialogTitle.Render("Model")+st.DialogDesc.Render(g.Separator+"now "+style.OneLine(current)), iw, g.Ellipsis), ""}
	var keys []key.Binding
	if p.asking != "" {
		lines = append(lines, st.DialogText.Render("Also make "+style.OneLine(p.asking)+" the default in "+style.OneLine(path)+"?"))
		lines = append(lines, dialog.GuardLines(st, p.diverted, iw)...)
		keys = []key.Binding{p.keys.Yes, p.keys.No}
	} else {
		lines = append(lines, p.list.lines(st, iw, max(h-8, 1))...)
		keys = []key.Binding{p.keys.Up, p.keys.Down, p.keys.Pick, p.keys.Close}
	}
	lines = append(lines, "")
	if p.busy != "" {
		lines = append(lines, st.DialogDesc.Render(style.OneLine(p.busy))) // names a model
	} else {
		hm.SetWidth(iw)
		lines = append(lines, hm.ShortHelpView(keys))
	}
	for i, l := range lines {
		l = ansi.Truncate(l, iw, g.Ellipsis)
		lines[i] = l + strings.Repeat(" ", max(iw-ansi.StringWidth(l), 0))
	}
	return lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, st.DialogBox.Render(strings.Join(lines, "\n")))
}
