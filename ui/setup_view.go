package ui

import (
	"github.com/tick-agent/tick/ui/style"

	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tick-agent/tick/ui/termsafe"
)

// View implements tea.Model: the setup screen, full screen, as Update
// drew it last (View is pure).
func (m *Setup) View() tea.View {
	v := tea.NewView(m.frame)
	v.AltScreen = true
	v.WindowTitle = "tick · setup"
	return v
}

// modelRows is how many models the model stage lists.
func (m *Setup) modelRows() int { return max(max(m.height, 12)-14, 3) }

// render draws the current stage in a box.
func (m *Setup) render() string {
	st, g := m.st, m.st.Glyphs
	w, h := max(m.width, 40), max(m.height, 12)
	iw := max(min(w-4, style.DialogMaxWidth), 20)
	lines := []string{st.DialogTitle.Render("Welcome to tick")}
	lines = append(lines, wrapStyled(st.DialogDesc, "No model is set up yet. Pick one; tick saves it in "+m.cfg.ConfigPath, iw)...)
	lines = append(lines, "")
	switch m.stage {
	case stageChoose:
		lines = append(lines, m.chooseLines(iw)...)
	case stageURL:
		lines = append(lines, st.DialogText.Render("The server's API root (the part before /chat/completions):"), "", m.text.View())
	case stageKey:
		title := "API key for " + m.target.Title + " (" + hostOf(m.target.BaseURL) + ")"
		if m.target.Provider == "custom" {
			title += ", empty if it needs none"
		}
		lines = append(lines, st.DialogText.Render(title+":"), "", m.text.View())
	case stageModels:
		lines = append(lines, st.DialogText.Render("Models of "+m.target.Title+g.Separator+hostOf(m.target.BaseURL)+" (type to filter)"), "")
		lines = append(lines, m.models.Lines(st, iw, m.modelRows())...)
	}
	lines = append(lines, "")
	switch {
	case m.busy != "":
		lines = append(lines, st.ToolRun.Render(m.busy))
	case m.errText != "":
		lines = append(lines, wrapStyled(st.ErrorTitle, m.errText, iw)...)
	}
	hm := style.HelpModel(st)
	hm.SetWidth(iw)
	lines = append(lines, hm.ShortHelpView(m.helpKeys()))
	for i, l := range lines {
		l = style.TruncateWidth(l, iw, g.Ellipsis)
		lines[i] = l + strings.Repeat(" ", max(iw-ansi.StringWidth(l), 0))
	}
	return lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, st.DialogBox.Render(strings.Join(lines, "\n")))
}

// chooseLines lists the local servers found and the hosted providers.
func (m *Setup) chooseLines(w int) []string {
	st := m.st
	out := []string{st.HelpGroup.Render("On this machine")}
	if m.probing {
		out = append(out, st.DialogDesc.Render("  looking for Ollama, LM Studio, llama.cpp, vLLM and Jan…"))
	} else if len(m.found) == 0 {
		out = append(out, st.DialogDesc.Render("  no local server answered (start Ollama or another server, then look again)"))
	}
	titleW := 0
	for _, r := range m.rows {
		titleW = max(titleW, ansi.StringWidth(r.title))
	}
	hostedStarted := false
	for i, r := range m.rows {
		if (r.hosted != nil || r.custom) && !hostedStarted {
			hostedStarted = true
			out = append(out, "", st.HelpGroup.Render("Hosted (needs an API key)"))
		}
		mark := "  "
		if i == m.sel {
			mark = st.Glyphs.UserPrompt
		}
		line := style.TruncateWidth(mark+style.Pad(r.title, titleW)+"  "+r.detail, w, st.Glyphs.Ellipsis)
		if i == m.sel {
			out = append(out, st.PickerSel.Render(line))
		} else {
			out = append(out, st.DialogText.Render(line))
		}
	}
	return out
}

// wrapStyled wraps text to w cells and styles each line.
func wrapStyled(s lipgloss.Style, text string, w int) []string {
	var out []string
	for _, l := range style.WrapText(termsafe.Text(text), w) { // may quote a server or a path
		out = append(out, s.Render(l))
	}
	return out
}

// helpKeys are the keys shown at the bottom for the current stage.
func (m *Setup) helpKeys() []key.Binding {
	k := m.keys
	switch m.stage {
	case stageChoose:
		return []key.Binding{k.Up, k.Down, k.Confirm, k.Quit}
	case stageModels:
		pick := k.Confirm
		pick.SetHelp(pick.Help().Key, "use this model")
		return []key.Binding{k.Up, k.Down, pick, k.Back, k.Quit}
	}
	next := k.Confirm
	next.SetHelp(next.Help().Key, "next")
	return []key.Binding{next, k.Back, k.Quit}
}
