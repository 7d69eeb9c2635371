package ui

import (
	"charm.land/lipgloss/v2"
	"fmt"

	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/todo"
	"github.com/tick-agent/tick/ui/internal/uitest"
)

// scriptAgent is an Agent whose turns the test drives by hand: each Run
// records its context and prompt and returns a channel the test fills.
type scriptAgent struct {
	mu      sync.Mutex
	runs    []*scriptRun
	steers  []string
	refuse  bool // Steer returns false
	running bool
	verify  string // SetVerify's command
	// sessionDiff answers SessionDiff (nil: ErrNoUndo).
	sessionDiff func(since string) (agent.ItemChanges, error)
}

type scriptRun struct {
	ctx     context.Context
	prompt  string
	compact bool // a Compact call, not a Run
	ch      chan agent.Event
}

func (a *scriptAgent) Run(ctx context.Context, prompt string) <-chan agent.Event {
	a.mu.Lock()
	defer a.mu.Unlock()
	r := &scriptRun{ctx: ctx, prompt: prompt, ch: make(chan agent.Event, 64)}
	a.runs = append(a.runs, r)
	a.running = true
	return r.ch
}

// Compact records a compaction as a run without a prompt.
func (a *scriptAgent) Compact(ctx context.Context) <-chan agent.Event {
	a.mu.Lock()
	defer a.mu.Unlock()
	r := &scriptRun{ctx: ctx, compact: true, ch: make(chan agent.Event, 64)}
	a.runs = append(a.runs, r)
	a.running = true
	return r.ch
}

// compactions counts the Compact calls.
func (a *scriptAgent) compactions() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := 0
	for _, r := range a.runs {
		if r.compact {
			n++
		}
	}
	return n
}

// Steer records text; its id is its 1-based number among the steers.
func (a *scriptAgent) Steer(text string) (int, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.refuse || !a.running {
		return 0, false
	}
	a.steers = append(a.steers, text)
	return len(a.steers), true
}

// The rest of Agent: a scriptAgent has the auto mode, no plan, no undo
// points and nothing to retry (the fakes that embed it add those).

func (a *scriptAgent) SetMode(agent.Mode)           {}
func (a *scriptAgent) Mode() agent.Mode             { return agent.ModeAuto }
func (a *scriptAgent) ApprovePlan() (string, error) { return "", agent.ErrNoPlan }
func (a *scriptAgent) EditPlan(agent.PlanEdit) ([]agent.Event, error) {
	return nil, agent.ErrNoPlan
}
func (a *scriptAgent) Continue() {}

// ClearPlan is not scripted: the fake keeps no plan to put aside.
func (a *scriptAgent) ClearPlan() ([]agent.Event, error) { return nil, errPlanUsage }
func (a *scriptAgent) StopTask(string) bool              { return false }
func (a *scriptAgent) CanRetry() bool                    { return false }
func (a *scriptAgent) Effort() string                    { return "" }
func (a *scriptAgent) SetVerify(c string)                { a.verify = c }
func (a *scriptAgent) Verify() agent.VerifyCheck {
	return agent.VerifyCheck{Command: a.verify}
}
func (a *scriptAgent) SetEffort(string) error {
	return errors.New("this agent takes no thinking level")
}

// Retry is a run that ends at once: the last turn did not fail.
func (a *scriptAgent) Retry(context.Context) <-chan agent.Event {
	ch := make(chan agent.Event, 1)
	ch <- agent.TurnEnd{Reason: agent.ReasonError, Err: agent.ErrNothingToRetry}
	close(ch)
	return ch
}

func (a *scriptAgent) PreviewUndo(context.Context, string) (agent.UndoPreview, error) {
	return agent.UndoPreview{}, agent.ErrNoUndo
}

func (a *scriptAgent) Undo(context.Context, string) (agent.UndoPreview, []agent.Event, error) {
	return agent.UndoPreview{}, nil, agent.ErrNoUndo
}

func (a *scriptAgent) RewindPoints(context.Context) ([]agent.RewindPoint, error) {
	return nil, agent.ErrNoUndo
}

func (a *scriptAgent) Rewind(context.Context, string, agent.RewindScope) (agent.Rewound, error) {
	return agent.Rewound{}, agent.ErrNoUndo
}

func (a *scriptAgent) ItemDiff(context.Context, string) (agent.ItemChanges, error) {
	return agent.ItemChanges{}, agent.ErrNoUndo
}

func (a *scriptAgent) SessionDiff(_ context.Context, since string) (agent.ItemChanges, error) {
	if a.sessionDiff == nil {
		return agent.ItemChanges{}, agent.ErrNoUndo
	}
	return a.sessionDiff(since)
}

func (a *scriptAgent) last() *scriptRun {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.runs) == 0 {
		return nil
	}
	return a.runs[len(a.runs)-1]
}

func (a *scriptAgent) prompts() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var p []string
	for _, r := range a.runs {
		if !r.compact {
			p = append(p, r.prompt)
		}
	}
	return p
}

// newTestModel returns a model of size w×h talking to a fresh scriptAgent.
func newTestModel(t testing.TB, w, h int) (*Model, *scriptAgent) {
	t.Helper()
	a := &scriptAgent{}
	m := New(Config{Agent: a, Model: "test-model", Workspace: "/tmp/ws", Dark: true, Version: "test"})
	mp := &m
	mp.after = noTimer
	mp.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return mp, a
}

// update sends msgs to m in order and returns the last command.
func update(m *Model, msgs ...tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	for _, msg := range msgs {
		_, cmd = m.Update(msg)
	}
	return cmd
}

// events delivers evs to the running turn as one batch, then repaints.
func events(t testing.TB, m *Model, evs ...agent.Event) tea.Cmd {
	t.Helper()
	if m.turn == nil {
		t.Fatalf("no turn is running")
	}
	cmd := update(m, eventsMsg{turn: m.turn.id, ch: m.turn.ch, events: evs})
	update(m, paintMsg{})
	return cmd
}

// endTurn delivers TurnEnd and the close of the channel.
func endTurn(t testing.TB, m *Model, a *scriptAgent, end agent.TurnEnd) tea.Cmd {
	t.Helper()
	a.mu.Lock()
	a.running = false
	a.mu.Unlock()
	events(t, m, end)
	return update(m, eventsMsg{turn: m.turn.id, ch: m.turn.ch, closed: true})
}

// typeText types s into the input, key by key.
func typeText(m *Model, s string) {
	for _, r := range s {
		update(m, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// press sends a named key ("enter", "esc", "ctrl+c", "tab", "up", ...)
// and then lets the keyboard rest: a key held back from a question (see
// AnswerHold) answers, as when no other key follows it.
func press(m *Model, name string) tea.Cmd {
	cmd := update(m, keyPress(name))
	if !m.held.on {
		return cmd
	}
	return settle(m)
}

// settle lets the keyboard rest after a key held back from a question
// (see AnswerHold): the clock moves on by the hold and the hold ends, so
// the key answers (or goes on as typing). It returns the command of the
// key's answer; nil when nothing was held.
func settle(m *Model) tea.Cmd {
	if !m.held.on {
		return nil
	}
	clock := m.clock
	m.clock = func() time.Time { return clock().Add(answerHold) }
	return update(m, heldMsg{seq: m.held.seq})
}

func keyPress(name string) tea.KeyPressMsg {
	switch name {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "end":
		return tea.KeyPressMsg{Code: tea.KeyEnd}
	case "ctrl+j":
		return tea.KeyPressMsg{Code: 'j', Mod: tea.ModCtrl}
	}
	if strings.HasPrefix(name, "ctrl+") {
		return tea.KeyPressMsg{Code: rune(name[len("ctrl+")]), Mod: tea.ModCtrl}
	}
	r := []rune(name)[0]
	return tea.KeyPressMsg{Code: r, Text: name}
}

// screen returns the current frame without styles.
func screen(m *Model) string {
	return ansi.Strip(m.View().Content)
}

// submit types s and presses enter.
func submit(m *Model, s string) tea.Cmd {
	typeText(m, s)
	return press(m, "enter")
}

// plan is uitest.Plan: a todo list with the given statuses ("p", ">", "x", "-").
func plan(goal string, items ...string) todo.List { return uitest.Plan(goal, items...) }

func stripANSI(s string) string { return ansi.Strip(s) }

func stripWidth(s string) int { return ansi.StringWidth(s) }

// pause moves m's clock a second on, as if the user waited before the
// next key (an approval dialog takes only keys that come after a pause).
func pause(m *Model) {
	clock := m.clock
	m.clock = func() time.Time { return clock().Add(time.Second) }
}

// sgrOf is a style's escape sequences around a text, as the status bar
// draws it.
type sgrOf struct{ pre, post string }

// newSGR reduces s to the sequences before and after its text.
func newSGR(s lipgloss.Style) sgrOf {
	r := s.Render("x")
	i := strings.IndexByte(r, 'x')
	return sgrOf{r[:i], r[i+1:]}
}

// noTimer is the tests' afterFunc: the timer never fires by itself; a
// test delivers its message (toastDoneMsg) when it means to.
func noTimer(time.Duration, tea.Msg) tea.Cmd { return nil }

func (a *scriptAgent) KeptTasks() []agent.KeptTask { return nil }

func (a *scriptAgent) TaskPatch(n int) (agent.ItemChanges, error) {
	return agent.ItemChanges{}, fmt.Errorf("%w: %d", agent.ErrNoKeptTask, n)
}

func (a *scriptAgent) ApplyTask(_ context.Context, n int) ([]agent.Event, error) {
	return nil, fmt.Errorf("%w: %d", agent.ErrNoKeptTask, n)
}
