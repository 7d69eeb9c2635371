package ui

import (
	"bytes"
	"io"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// blankModel is the least a Program needs to render frames; it closes
// started on the first message it gets.
type blankModel struct{ started chan struct{} }

// startedMsg is sent to see that the program runs.
type startedMsg struct{}

func (blankModel) Init() tea.Cmd { return nil }
func (m blankModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(startedMsg); ok {
		close(m.started)
	}
	return m, nil
}
func (blankModel) View() tea.View { return tea.NewView("frame") }

// renderLoops counts the goroutines that run Bubble Tea's frame loop.
func renderLoops() int {
	return bytes.Count(allStacks(), []byte(renderLoop))
}

// TestRenderLoopEndedFindsTheLoop: suspendOnce waits for Bubble Tea's
// frame loop to end after ReleaseTerminal, found by its name in the
// goroutines' stacks (else the loop, slow to stop the shared ticker,
// stopped the one RestoreTerminal restarted, and tick never painted again
// after fg: TestE2ESuspendAndResume failed so on a busy machine). This
// holds the name to the Bubble Tea in go.mod: a running program has one
// loop, none once released and waited for, one again once restored; and
// it is found among thousands of goroutines (the stacks' buffer grows).
func TestRenderLoopEndedFindsTheLoop(t *testing.T) {
	m := blankModel{started: make(chan struct{})}
	p := tea.NewProgram(m, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithWindowSize(40, 10))
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	defer func() { p.Quit(); <-done }()
	p.Send(startedMsg{})
	<-m.started // the program has set itself up
	waitLoops := func(want int) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); renderLoops() != want; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%d frame loops running, want %d (is %q still Bubble Tea's name for it?)", renderLoops(), want, renderLoop)
			}
		}
	}
	waitLoops(1)
	// thousands of goroutines (a busy tick): the loop is still found
	hold := make(chan struct{})
	defer close(hold)
	for range 5000 {
		go func() { <-hold }()
	}
	if n := renderLoops(); n != 1 {
		t.Fatalf("%d frame loops found among 5,000 other goroutines, want 1", n)
	}
	if err := p.ReleaseTerminal(); err != nil {
		t.Fatal(err)
	}
	renderLoopEnded(10 * time.Second)
	if n := renderLoops(); n != 0 {
		t.Fatalf("%d frame loops after the release and the wait, want 0", n)
	}
	if err := p.RestoreTerminal(); err != nil {
		t.Fatal(err)
	}
	waitLoops(1)
}
