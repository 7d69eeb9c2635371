package ui_test

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/tick-agent/tick/ui"
)

// Example drives the model the way Bubble Tea does: a window size, then a
// frame. The last line of the frame is the status bar.
func Example() {
	m := ui.New(ui.Config{Model: "gpt-4.1-mini", Workspace: "/src/app"})
	m.Update(tea.WindowSizeMsg{Width: 60, Height: 15})
	lines := strings.Split(ansi.Strip(m.View().Content), "\n")
	fmt.Println(len(lines))
	fmt.Println(strings.TrimSpace(lines[len(lines)-2]))
	fmt.Println(strings.Join(strings.Fields(lines[len(lines)-1]), " "))
	// Output:
	// 15
	// › Ask tick to do something…
	// gpt-4.1-mini · /src/app · idle ? help
}
