package ui

import (
	"image/color"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tick-agent/tick/agent"
)

// backgroundModel is a w×h model drawn for dark, showing a prompt, an
// answer with a heading, a list and code, a notice and some typed text.
func backgroundModel(t *testing.T, dark bool) *Model {
	t.Helper()
	m := New(Config{Agent: &scriptAgent{}, Model: "test-model", Workspace: "/tmp/ws", Dark: dark, AskBackground: true, Version: "test"})
	mp := &m
	update(mp, tea.WindowSizeMsg{Width: 100, Height: 30})
	mp.chat.AddUser("explain")
	mp.chat.AssistantDone("# Title\n\n- one\n- **two**\n\n```go\nfunc f() int { return 1 }\n```\n")
	mp.chat.AddNotice("a notice")
	typeText(mp, "typed")
	return mp
}

// TestBackgroundAnswerRestyles checks the terminal's answer to the
// background query: a light background restyles a model drawn for dark
// into exactly what a model made for light shows, answers included; an
// answer that agrees with the guess changes nothing.
func TestBackgroundAnswerRestyles(t *testing.T) {
	m := backgroundModel(t, true)
	if m.askBackground() == nil {
		t.Fatal("a model with AskBackground does not ask the terminal")
	}
	before := m.View().Content
	update(m, tea.BackgroundColorMsg{Color: color.Black})
	if got := m.View().Content; got != before {
		t.Errorf("a dark answer changed the dark frame")
	}

	update(m, tea.BackgroundColorMsg{Color: color.White})
	if m.st.Dark {
		t.Fatal("a white background left the dark styles in place")
	}
	got := m.View().Content
	want := backgroundModel(t, false).View().Content
	if got == before {
		t.Fatal("the frame did not change after a white background answer")
	}
	if ansi.Strip(got) != ansi.Strip(before) {
		t.Errorf("restyling changed the text:\n%s\nwas\n%s", ansi.Strip(got), ansi.Strip(before))
	}
	if got != want {
		t.Errorf("restyled frame differs from a model made for light:\n%q\nwant\n%q", got, want)
	}
}

// TestBackgroundNotAsked checks that a model without AskBackground never
// queries the terminal, and that a nil colour (no answer) is ignored.
func TestBackgroundNotAsked(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	if m.askBackground() != nil {
		t.Error("a model without AskBackground asks the terminal")
	}
	update(m, tea.BackgroundColorMsg{})
	if !m.st.Dark {
		t.Error("an empty background answer changed the styles")
	}
}

// TestBackgroundRestylesStreamingAnswer checks that an answer still
// streaming when the styles change goes on streaming into the chat.
func TestBackgroundRestylesStreamingAnswer(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	typeText(m, "go")
	update(m, tea.KeyPressMsg{Code: tea.KeyEnter})
	events(t, m, agent.TextDelta{Text: "first "})
	update(m, tea.BackgroundColorMsg{Color: color.White})
	events(t, m, agent.TextDelta{Text: "second"})
	if plain := ansi.Strip(m.View().Content); !strings.Contains(plain, "first second") {
		t.Errorf("the streamed answer lost text across the restyle:\n%s", plain)
	}
}

// TestSetupBackgroundRestyles checks that the setup screen takes the
// terminal's answer too: drawn for dark, restyled for a white background
// into what a setup screen made for light shows.
func TestSetupBackgroundRestyles(t *testing.T) {
	view := func(s *Setup) string {
		s.Update(tea.WindowSizeMsg{Width: 90, Height: 24})
		s.Update(foundMsg(nil))
		return s.View().Content
	}
	s := NewSetup(SetupConfig{Dark: true, AskBackground: true, Version: "test", ConfigPath: "/tmp/config.toml"})
	before := view(s)
	s.Update(tea.BackgroundColorMsg{Color: color.White})
	got := view(s)
	want := view(NewSetup(SetupConfig{Dark: false, Version: "test", ConfigPath: "/tmp/config.toml"}))
	if got == before || got != want {
		t.Errorf("setup screen after a white background answer:\n%q\nwant (as made for light)\n%q", got, want)
	}
}
