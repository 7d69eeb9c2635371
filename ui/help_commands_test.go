package ui

import (
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestHelpDescribesEveryCommand (issue 30 §12): the help overlay lists
// every slash command with its description, at 120×40 and 80×24, however
// many lines that takes (the overlay scrolls).
func TestHelpDescribesEveryCommand(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		noop := func() tea.Cmd { return nil }
		m0 := New(Config{Agent: &scriptAgent{}, Model: "test-model", Workspace: "/tmp/ws", Dark: true, Version: "test",
			Commands:    map[string]func() tea.Cmd{"new": noop, "init": noop, "trust": noop},
			CommandHelp: map[string]string{"new": "start a new conversation", "init": "have the model write AGENTS.md", "trust": "allow this project's MCP servers and hooks"}})
		m := &m0
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		press(m, "?")
		seen := screen(m)
		for range 10 {
			press(m, "pgdown")
			seen += screen(m)
		}
		for name, c := range m.commands {
			desc := c.desc
			if len(desc) > 12 {
				desc = desc[:12]
			}
			re := regexp.MustCompile(`/` + regexp.QuoteMeta(name) + `\s+` + regexp.QuoteMeta(desc))
			if !re.MatchString(seen) {
				t.Errorf("%d×%d: /%s is not listed with its description %q:\n%s", size[0], size[1], name, c.desc, seen)
			}
		}
		if strings.Count(seen, "/help") == 0 {
			t.Fatalf("no command listed:\n%s", seen)
		}
	}
}

// TestHelpListsCommandsAfterPopupClosed: the help lists the commands
// whatever the / popup's state: after "/" and esc closed the popup, the
// help opened with ctrl+g listed none (it took the list from the popup's
// matches, which are empty once it is closed).
func TestHelpListsCommandsAfterPopupClosed(t *testing.T) {
	m, _ := newTestModel(t, 120, 40)
	typeText(m, "/")
	press(m, "esc")
	press(m, "ctrl+g")
	if s := screen(m); !strings.Contains(s, "/help") || !strings.Contains(s, "/diff") {
		t.Fatalf("the help lists no commands after the popup was closed:\n%s", s)
	}
}
