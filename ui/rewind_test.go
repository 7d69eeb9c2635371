package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/checkpoint"
	"github.com/tick-agent/tick/ui/dialog"
)

// rewindAgent is a scriptAgent with two rewind points (an item, then the
// message before it) and one item diff; it records the rewinds asked.
type rewindAgent struct {
	*scriptAgent
	noFiles bool   // the message's point has no snapshot of the files
	text    string // the message's first line
	rewound []string
	patch   string
	notKept []checkpoint.Skip // of the message's point
}

func (r *rewindAgent) points() []agent.RewindPoint {
	at := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	return []agent.RewindPoint{
		{ID: "2", Kind: agent.PointItem, Item: "1", Text: "Write the file", At: at,
			Files: []checkpoint.Change{{Kind: checkpoint.Changed, Path: "main.go"}}, Messages: 3},
		{ID: "1", Kind: agent.PointTurn, Text: r.text, At: at, NoFiles: r.noFiles, Messages: 6, NotKept: r.notKept,
			Files: []checkpoint.Change{{Kind: checkpoint.Changed, Path: "main.go"}, {Kind: checkpoint.Created, Path: "new.go"}}},
	}
}

func (r *rewindAgent) RewindPoints(context.Context) ([]agent.RewindPoint, error) {
	return r.points(), nil
}

func (r *rewindAgent) Rewind(_ context.Context, id string, scope agent.RewindScope) (agent.Rewound, error) {
	r.rewound = append(r.rewound, id+" "+string(scope))
	p := r.points()[1]
	res := agent.Rewound{Point: p, Scope: scope, Events: []agent.Event{agent.TodoUpdate{Rev: 9}}}
	if scope != agent.RewindConversation {
		res.Files = p.Files
	}
	if scope != agent.RewindFiles {
		res.Dropped, res.Prompt = 6, r.text
		res.History = []agent.Event{agent.UserMessage{Text: "the first question"}, agent.AssistantDone{Text: "THE FIRST ANSWER", Final: true}}
	}
	return res, nil
}

func (r *rewindAgent) ItemDiff(_ context.Context, item string) (agent.ItemChanges, error) {
	if item != "1" {
		return agent.ItemChanges{}, agent.ErrNoUndo
	}
	return agent.ItemChanges{Item: "1", Text: "Write the file", Patch: r.patch,
		Files: []checkpoint.Change{{Kind: checkpoint.Changed, Path: "main.go"}}}, nil
}

// openRewind shows the /rewind list on a model whose chat holds two
// turns, with a hand-moved clock.
func openRewind(t *testing.T, ra *rewindAgent) (*Model, *fakeClock) {
	t.Helper()
	m, c := rewindModel(t, ra, ra)
	cmd := m.rewindCommand()
	if cmd == nil {
		t.Fatal("/rewind asked for no points")
	}
	update(m, cmd())
	if overlayOf[*dialog.Rewind](m) == nil {
		t.Fatalf("the rewind list did not open:\n%s", screen(m))
	}
	return m, c
}

// rewindModel returns a model talking to a (ra, or an agent wrapping it)
// whose chat holds two turns, with a hand-moved clock.
func rewindModel(t *testing.T, a Agent, ra *rewindAgent) (*Model, *fakeClock) {
	t.Helper()
	if ra.text == "" {
		ra.text = "fix the bug"
	}
	mv := New(Config{Agent: a, Model: "test-model", Workspace: "/tmp/ws", Dark: true, Version: "test"})
	m := &mv
	c := &fakeClock{t: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	m.clock = c.now
	update(m, tea.WindowSizeMsg{Width: 100, Height: 40})
	for _, turn := range []string{"the first question", "fix the bug"} {
		submit(m, turn)
		events(t, m, agent.AssistantDone{Text: strings.ToUpper(turn) + " ANSWER", Final: true})
		endTurn(t, m, ra.scriptAgent, agent.TurnEnd{Reason: agent.ReasonDone})
	}
	return m, c
}

// confirmKey is the undo confirmation's key, whichever it is.
func confirmKey(m *Model) string { return m.keys.Undo.Confirm.Keys()[0] }

// TestRewindListsPoints: /rewind lists the item and the message newest
// first, each with the files restoring it would change.
func TestRewindListsPoints(t *testing.T) {
	m, _ := openRewind(t, &rewindAgent{scriptAgent: &scriptAgent{}})
	s := screen(m)
	item, turn := strings.Index(s, "item #1 Write the file"), strings.Index(s, "“fix the bug”")
	if item < 0 || turn < 0 || item > turn {
		t.Fatalf("the list does not show the item above the message:\n%s", s)
	}
	for _, want := range []string{"1 file: main.go", "2 files: main.go, new.go"} {
		if !strings.Contains(s, want) {
			t.Errorf("the list lacks %q:\n%s", want, s)
		}
	}
}

// TestRewindShowsFilesNotKept: a 10 MB file a command made is over the
// snapshot's cap; the list said "no file changed since" and the
// confirmation offered nothing. Both name it, and why it stays.
func TestRewindShowsFilesNotKept(t *testing.T) {
	ra := &rewindAgent{scriptAgent: &scriptAgent{}, notKept: []checkpoint.Skip{{Path: "big.txt", Why: "not kept: 10 MB over the 5 MB cap"}}}
	m, _ := openRewind(t, ra)
	if s := screen(m); !strings.Contains(s, "big.txt not kept: 10 MB over the 5 MB cap") {
		t.Errorf("the list does not say big.txt is not kept:\n%s", s)
	}
	press(m, "down")
	press(m, "enter")
	press(m, "f")
	if s := screen(m); !strings.Contains(s, "big.txt  not kept: 10 MB over the 5 MB cap") || !strings.Contains(s, "new.go") {
		t.Errorf("the confirmation does not say big.txt is not kept:\n%s", s)
	}
}

// TestRewindScopes: a point, then what to restore, then a deliberate
// confirmation. A rewind of the conversation replaces the transcript
// with the rewound one and offers the message again; a rewind of the
// files keeps the transcript. The chat says what was restored.
func TestRewindScopes(t *testing.T) {
	tests := []struct {
		key, scope, says string
		chatKept         bool
	}{
		{"f", "files", "rewound the files to before the message “fix the bug”: 2 files restored", true},
		{"c", "conversation", "rewound the conversation to before the message “fix the bug”: 6 messages dropped", false},
		{"b", "both", "rewound the conversation and the files to before the message “fix the bug”: 2 files restored · 6 messages dropped", false},
	}
	for _, tt := range tests {
		t.Run(tt.scope, func(t *testing.T) {
			ra := &rewindAgent{scriptAgent: &scriptAgent{}}
			m, c := openRewind(t, ra)
			press(m, "down")
			press(m, "enter")
			if s := screen(m); !strings.Contains(s, "What goes back?") || !strings.Contains(s, "drop the 6 messages after it") {
				t.Fatalf("no choice of what to restore:\n%s", s)
			}
			press(m, tt.key)
			c.advance(time.Second)
			cmd := press(m, confirmKey(m))
			if cmd == nil {
				t.Fatalf("the confirmation did not rewind:\n%s", screen(m))
			}
			update(m, cmd())
			if len(ra.rewound) != 1 || ra.rewound[0] != "1 "+tt.scope {
				t.Fatalf("rewinds = %q, want point 1 %s", ra.rewound, tt.scope)
			}
			s := screen(m)
			if flat := strings.Join(strings.Fields(s), " "); !strings.Contains(flat, tt.says) || !strings.Contains(flat, "the model is told with your next message") {
				t.Errorf("the chat does not say what was restored (%q):\n%s", tt.says, s)
			}
			if kept := strings.Contains(s, "FIX THE BUG ANSWER"); kept != tt.chatKept {
				t.Errorf("the answer after the point is on screen: %v, want %v:\n%s", kept, tt.chatKept, s)
			}
			if !strings.Contains(s, "THE FIRST QUESTION ANSWER") && !strings.Contains(s, "THE FIRST ANSWER") {
				t.Errorf("the turn before the point is gone:\n%s", s)
			}
			wantInput := "fix the bug"
			if tt.chatKept {
				wantInput = ""
			}
			if got := m.input.Raw(); got != wantInput {
				t.Errorf("the input holds %q, want %q", got, wantInput)
			}
			if overlayOf[*dialog.Rewind](m) != nil {
				t.Error("the dialog is still open")
			}
		})
	}
}

// TestRewindConfirmIgnoresTyping: like /undo's, the confirmation takes
// its key only after a pause; what is typed meanwhile goes to the input.
// esc steps back from the choice to the list, and closes the list.
func TestRewindConfirmIgnoresTyping(t *testing.T) {
	ra := &rewindAgent{scriptAgent: &scriptAgent{}}
	m, c := openRewind(t, ra)
	press(m, "enter")
	press(m, "esc")
	if r := overlayOf[*dialog.Rewind](m); r == nil || r.Step() != dialog.RewindList {
		t.Fatal("esc on the choice did not go back to the list")
	}
	press(m, "enter")
	press(m, "b")
	typed := confirmKey(m) + "es now"
	for _, r := range typed {
		c.advance(80 * time.Millisecond)
		if cmd := update(m, tea.KeyPressMsg{Code: r, Text: string(r)}); cmd != nil {
			update(m, cmd())
		}
	}
	if len(ra.rewound) != 0 || overlayOf[*dialog.Rewind](m) == nil {
		t.Fatalf("typing answered the confirmation: rewinds %q", ra.rewound)
	}
	if got := m.input.Raw(); got != typed {
		t.Errorf("the input holds %q, want %q", got, typed)
	}
	if !strings.Contains(screen(m), "your typing went to the input") {
		t.Errorf("the confirmation does not say where the typing went:\n%s", screen(m))
	}
	c.advance(time.Second)
	press(m, "esc")
	if overlayOf[*dialog.Rewind](m) != nil || len(ra.rewound) != 0 || !strings.Contains(screen(m), "/rewind cancelled") {
		t.Errorf("esc did not cancel: rewinds %q\n%s", ra.rewound, screen(m))
	}
}

// TestRewindKeepsTypedText: text typed while the confirmation was open
// stays in the input; the rewound message is not put over it.
func TestRewindKeepsTypedText(t *testing.T) {
	ra := &rewindAgent{scriptAgent: &scriptAgent{}}
	m, c := openRewind(t, ra)
	press(m, "down")
	press(m, "enter")
	press(m, "c")
	typeText(m, "draft")
	c.advance(time.Second)
	update(m, press(m, confirmKey(m))())
	if got := m.input.Raw(); got != "draft" || len(ra.rewound) != 1 {
		t.Errorf("input %q after the rewind (rewinds %q), want the typed draft", got, ra.rewound)
	}
	if strings.Contains(strings.Join(strings.Fields(screen(m)), " "), "offered in the input") {
		t.Errorf("the chat says the message is in the input:\n%s", screen(m))
	}
}

// TestRewindWithoutSnapshot: a message whose snapshot was not taken
// offers its conversation only; f does nothing.
func TestRewindWithoutSnapshot(t *testing.T) {
	ra := &rewindAgent{scriptAgent: &scriptAgent{}, noFiles: true}
	m, c := openRewind(t, ra)
	if !strings.Contains(screen(m), "conversation only") {
		t.Errorf("the list does not say the point has no files:\n%s", screen(m))
	}
	press(m, "down")
	press(m, "enter")
	press(m, "f")
	if s := screen(m); strings.Contains(s, "files         the workspace") || overlayOf[*dialog.Rewind](m).Step() != dialog.RewindScope {
		t.Fatalf("a point without files offers them:\n%s", s)
	}
	press(m, "enter")
	c.advance(time.Second)
	cmd := press(m, confirmKey(m))
	if cmd == nil {
		t.Fatal("no rewind")
	}
	update(m, cmd())
	if len(ra.rewound) != 1 || ra.rewound[0] != "1 conversation" {
		t.Errorf("rewinds = %q, want the conversation of point 1", ra.rewound)
	}
}

// TestRewindSanitises: a prompt's first line with control sequences is
// shown as text, never sent to the terminal.
func TestRewindSanitises(t *testing.T) {
	m, _ := openRewind(t, &rewindAgent{scriptAgent: &scriptAgent{}, text: "evil \x1b]0;owned\x07 \x1b[2J prompt"})
	v := m.View().Content
	if strings.Contains(v, "\x1b]0;owned") || strings.Contains(v, "\x1b[2J") {
		t.Fatalf("a control sequence of the prompt reached the terminal: %q", v)
	}
	if !strings.Contains(screen(m), "prompt") {
		t.Errorf("the prompt is not shown:\n%s", screen(m))
	}
}

// TestReplayShowsRewind: a resumed session's replay shows a rewind of the
// conversation as one, sanitised, and a compaction as a compaction.
func TestReplayShowsRewind(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	update(m, ResetMsg{History: []agent.Event{
		agent.UserMessage{Text: "first"}, agent.Compacted{},
		agent.UserMessage{Text: "second"}, agent.Compacted{Rewound: "the message \"second\"\x1b[2J"},
		agent.UserMessage{Text: "third"},
	}})
	s := screen(m)
	if !strings.Contains(s, "── compacted ──") || !strings.Contains(s, `── rewound to before the message "second"`) {
		t.Errorf("the replay does not tell the rewind from the compaction:\n%s", s)
	}
	if strings.Contains(m.View().Content, "\x1b[2J") {
		t.Error("a control sequence of the session file reached the terminal")
	}
}

// TestRewindNoPoints: with undo off (or nothing yet) /rewind says why.
func TestRewindNoPoints(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	update(m, m.rewindCommand()())
	if overlayOf[*dialog.Rewind](m) != nil || !strings.Contains(screen(m), "/rewind: "+agent.ErrNoUndo.Error()) {
		t.Errorf("/rewind without points:\n%s", screen(m))
	}
}
