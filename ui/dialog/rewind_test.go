package dialog

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/checkpoint"
	"github.com/tick-agent/tick/ui/style"
)

var _ Asker = (*Rewind)(nil)

// rewindPoints are an item's point and, before it, a message's; noFiles
// says the message's has no snapshot of the files.
func rewindPoints(noFiles bool) []agent.RewindPoint {
	return []agent.RewindPoint{
		{ID: "2", Kind: agent.PointItem, Item: "1", Text: "Write the file", Messages: 3,
			Files: []checkpoint.Change{{Kind: checkpoint.Changed, Path: "main.go"}}},
		{ID: "1", Kind: agent.PointTurn, Text: "fix the bug", Messages: 6, NoFiles: noFiles},
	}
}

// TestRewindActions: what /rewind asks the root to do after each run of
// keys; the last key comes a second after the others (a deliberate one)
// unless hurried. Only the confirmation's key rewinds.
func TestRewindActions(t *testing.T) {
	yes := style.DefaultKeyMap().Undo.Confirm.Keys()[0]
	no := style.DefaultKeyMap().Undo.Cancel.Keys()[0]
	cancelled := Seq{Close{}, FocusInput{}, Notice{"/rewind cancelled: nothing changed"}}
	tests := []struct {
		name    string
		noFiles bool
		keys    []string
		hurried bool
		want    Action
		step    RewindStep
	}{
		{"esc on the list cancels", false, []string{"esc"}, false, cancelled, RewindList},
		{"esc on the choice steps back", false, []string{"enter", "esc"}, false, nil, RewindList},
		{"text on the list goes to the input", false, []string{"a"}, false, TypeAside{keyPress("a")}, RewindList},
		{"a scope's key asks", false, []string{"down", "enter", "c"}, false, nil, RewindConfirm},
		{"the conversation of the message", false, []string{"down", "enter", "c", yes}, false,
			Seq{Close{}, FocusInput{}, RewindTo{Point: "1", Scope: agent.RewindConversation}}, RewindConfirm},
		{"both of the item", false, []string{"enter", "b", yes}, false,
			Seq{Close{}, FocusInput{}, RewindTo{Point: "2", Scope: agent.RewindBoth}}, RewindConfirm},
		{"enter takes the selected scope", false, []string{"enter", "enter", yes}, false,
			Seq{Close{}, FocusInput{}, RewindTo{Point: "2", Scope: agent.RewindFiles}}, RewindConfirm},
		{"a hurried yes goes to the input", false, []string{"enter", "f", yes}, true, TypeAside{keyPress(yes)}, RewindConfirm},
		{"no cancels", false, []string{"enter", "f", no}, false, cancelled, RewindConfirm},
		{"no snapshot: f does nothing", true, []string{"down", "enter", "f"}, false, nil, RewindScope},
		{"no snapshot: the conversation only", true, []string{"down", "enter", "enter", yes}, false,
			Seq{Close{}, FocusInput{}, RewindTo{Point: "1", Scope: agent.RewindConversation}}, RewindConfirm},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Unix(1000, 0)
			c := pickerContext(start, false)
			c.LastKey = start
			r := NewRewind(style.DefaultKeyMap().Rewind, style.DefaultKeyMap().Undo, rewindPoints(tt.noFiles))
			var act Action
			for i, k := range tt.keys {
				if i == len(tt.keys)-1 && !tt.hurried {
					c.Now = start.Add(time.Second)
				}
				var handled bool
				if act, handled = r.Update(c, keyPress(k)); !handled {
					t.Fatalf("key %q passed on", k)
				}
			}
			if !reflect.DeepEqual(act, tt.want) || r.Step() != tt.step {
				t.Fatalf("got %#v at step %v; want %#v at step %v", act, r.Step(), tt.want, tt.step)
			}
			if r.AsksNow() != (tt.step == RewindConfirm) {
				t.Errorf("AsksNow %v at step %v", r.AsksNow(), r.Step())
			}
		})
	}
}

// TestRewindViewSteps: each step's box names what it is about, within
// its width; the list shows the files of each point.
func TestRewindViewSteps(t *testing.T) {
	c := pickerContext(time.Unix(1000, 0), false)
	r := NewRewind(style.DefaultKeyMap().Rewind, style.DefaultKeyMap().Undo, rewindPoints(false))
	view := func() string { return strings.Join(r.View(c, 80, 30), "\n") }
	for _, want := range []string{"Rewind to before… (newest first)", "item #1 Write the file", "1 file: main.go", "“fix the bug”"} {
		if !strings.Contains(view(), want) {
			t.Errorf("the list lacks %q:\n%s", want, view())
		}
	}
	r.Update(c, keyPress("down"))
	r.Update(c, keyPress("enter"))
	if v := view(); !strings.Contains(v, "What goes back?") || !strings.Contains(v, "drop the 6 messages after it") {
		t.Errorf("the choice:\n%s", v)
	}
	r.Update(c, keyPress("c"))
	if v := view(); !strings.Contains(v, "Rewind the conversation to before the message “fix the bug”") || !strings.Contains(v, "drops the 6 messages") {
		t.Errorf("the confirmation:\n%s", v)
	}
	for _, l := range r.View(c, 80, 30) {
		if w := ansi.StringWidth(l); w > 80 {
			t.Errorf("a line is %d cells wide: %q", w, l)
		}
	}
}
