package ui

import (
	"errors"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/ui/termsafe"
)

// ErrNoClipboardTool is the error of Services.ClipboardImage when no
// clipboard tool is there to read from; its text says which to install.
var ErrNoClipboardTool = errors.New("no clipboard tool")

// clipImageMsg is the answer of Services.ClipboardImage to a ctrl+v: the
// saved image's path, or "" when the clipboard holds no image; key is the
// ctrl+v, handed to the input (a text paste) when there was none.
type clipImageMsg struct {
	path string
	err  error
	key  tea.KeyPressMsg
}

// clipboardKey takes the textarea's paste key (ctrl+v) when
// Services offers ClipboardImage: it asks for a clipboard image off the
// update loop, and the answer comes back as a clipImageMsg.
func (m *Model) clipboardKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	svc := m.cfg.Services
	if !svc.Offers().ClipboardImage || !key.Matches(k, m.input.PasteKey()) {
		return nil, false
	}
	return func() tea.Msg {
		path, err := svc.ClipboardImage()
		return clipImageMsg{path: path, err: err, key: k}
	}, true
}

// handleClipImage inserts the clipboard image's @ mention into the input,
// or pastes text as the textarea does when the clipboard held no image.
func (m *Model) handleClipImage(msg clipImageMsg) tea.Cmd {
	switch {
	case errors.Is(msg.err, ErrNoClipboardTool):
		m.chat.AddNotice("ctrl+v: " + termsafe.Line(msg.err.Error()))
	case msg.err != nil:
		m.chat.AddNotice("could not paste the clipboard's image: " + termsafe.Line(msg.err.Error()))
	case msg.path == "":
		return m.toInput(msg.key) // no image: the textarea pastes text
	case strings.ContainsAny(msg.path, " \t\n@"):
		m.chat.AddNotice("could not paste the clipboard's image: its path has a space or @: " + termsafe.Line(msg.path))
	default:
		m.input.Insert("@" + msg.path + " ")
		m.chat.AddNotice("pasted the clipboard's image: it is attached when you send")
	}
	return nil
}
