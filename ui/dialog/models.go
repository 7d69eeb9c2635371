package dialog

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tick-agent/tick/ui/style"
)

// SwitchModel asks the root to make Name the conversation's model off the
// update loop; the picker stays open, busy, until the root closes it or
// asks whether to keep Name as the default (Models.Ask).
type SwitchModel struct{ Name string }

// SaveDefaultModel asks the root to write Name as the default model into
// the config file, off the update loop.
type SaveDefaultModel struct{ Name string }

func (SwitchModel) action()      {}
func (SaveDefaultModel) action() {}

// Models is the /model picker: the server's models, filtered as the user
// types, then the question whether to save the pick as the default.
type Models struct {
	keys     style.ModelPickerKeyMap
	list     *ModelList
	path     string    // the config file the question names
	asking   string    // the model switched to, while asking "save as default?"
	shown    time.Time // when the question appeared (see AnswerPause)
	diverted bool      // keys typed while it was asked went to the input
	busy     string
}

// NewModels returns the picker over models with current selected; path
// is the config file a default would be saved in.
func NewModels(keys style.ModelPickerKeyMap, models []string, current, path string) *Models {
	return &Models{keys: keys, list: NewModelList(models, current), path: path}
}

// Layer puts it with the pickers.
func (p *Models) Layer() int { return LayerPicker }

// AsksNow reports whether it asks "save as the default?" now.
func (p *Models) AsksNow() bool { return p.asking != "" }

// Ask turns the picker, after the switch to name at now, into the
// question whether to keep name as the default.
func (p *Models) Ask(name string, now time.Time) {
	p.busy, p.asking, p.shown = "", name, now
}

// Update takes every key while the picker is open; a paste and the wheel
// pass to the screen below. While it switches and while it asks "save as
// the default?", typing goes to the input as with every other question
// (the erasing keys too, to edit it): only y or n after a pause (see
// AnswerPause) answers it.
func (p *Models) Update(c Context, msg tea.Msg) (Action, bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, false
	}
	if (p.busy != "" || p.asking != "") && IsTyping(k, c.Keys) &&
		(p.busy != "" || !Deliberate(c.Now, p.shown, c.LastKey) || !key.Matches(k, p.keys.Yes, p.keys.No)) {
		p.diverted = p.asking != ""
		if key.Matches(k, c.Keys.Send) {
			return nil, true // nothing is sent while it is open
		}
		return TypeAside{k}, true
	}
	if (p.busy != "" || p.asking != "") && IsErasing(k, c.Keys) {
		return TypeAside{k}, true // it edits what was typed aside
	}
	rows := modelRows(c.Height)
	p.list.Follow(rows) // where the last frame had it
	act := p.key(c, k)
	p.list.Follow(rows)
	return act, true
}

// key handles a key while the picker is open.
func (p *Models) key(c Context, k tea.KeyPressMsg) Action {
	closed := Seq{Close{}, FocusInput{}}
	if key.Matches(k, c.Keys.Quit) {
		return closed
	}
	if p.busy != "" {
		return nil
	}
	if p.asking != "" {
		switch {
		case key.Matches(k, p.keys.Yes):
			return Seq{Close{}, FocusInput{}, SaveDefaultModel{p.asking}}
		case key.Matches(k, p.keys.No):
			return closed
		}
		return nil
	}
	switch {
	case key.Matches(k, p.keys.Close):
		if p.list.Filter() == "" {
			return closed
		}
		p.list.ClearFilter()
	case key.Matches(k, p.keys.Up):
		p.list.Move(-1)
	case key.Matches(k, p.keys.Down):
		p.list.Move(1)
	case key.Matches(k, p.keys.Erase):
		p.list.Backspace()
	case key.Matches(k, p.keys.Pick):
		name := p.list.Selected()
		if name == "" {
			return nil
		}
		p.busy = "switching to " + name + "…"
		return SwitchModel{name}
	case k.Text != "":
		p.list.TypeText(k.Text)
	}
	return nil
}

// modelRows is how many models a picker in an area h lines high lists.
func modelRows(h int) int { return max(h-8, 1) }

// View draws the picker centred over the whole area above the input.
func (p *Models) View(c Context, w, h int) []string {
	return fitBox(p.box(c, w, h), w, h)
}

// box renders the picker centred in a w×h area.
func (p *Models) box(c Context, w, h int) string {
	st := c.St
	g := st.Glyphs
	iw := max(min(w-4, style.DialogMaxWidth), 1)
	lines := []string{style.TruncateWidth(st.DialogTitle.Render("Model")+st.DialogDesc.Render(g.Separator+"now "+style.OneLine(c.ModelName)), iw, g.Ellipsis), ""}
	var keys []key.Binding
	if p.asking != "" {
		lines = append(lines, st.DialogText.Render("Also make "+style.OneLine(p.asking)+" the default in "+style.OneLine(p.path)+"?"))
		lines = append(lines, GuardLines(st, p.diverted, iw)...)
		keys = []key.Binding{p.keys.Yes, p.keys.No}
	} else {
		lines = append(lines, p.list.Lines(st, iw, modelRows(h))...)
		keys = []key.Binding{p.keys.Up, p.keys.Down, p.keys.Pick, p.keys.Close}
	}
	lines = append(lines, "")
	if p.busy != "" {
		lines = append(lines, st.DialogDesc.Render(style.OneLine(p.busy))) // names a model
	} else {
		hm := style.HelpModel(st)
		hm.SetWidth(iw)
		lines = append(lines, hm.ShortHelpView(keys))
	}
	for i, l := range lines {
		l = style.TruncateWidth(l, iw, g.Ellipsis)
		lines[i] = l + strings.Repeat(" ", max(iw-ansi.StringWidth(l), 0))
	}
	return lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, st.DialogBox.Render(strings.Join(lines, "\n")))
}
