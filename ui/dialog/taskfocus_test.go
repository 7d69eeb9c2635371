package dialog

import (
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// The task rows' focus and a task's transcript are dialogs.
var (
	_ Dialog = (*TaskFocus)(nil)
	_ Dialog = (*TaskLog)(nil)
	_ Dialog = (*ItemDiff)(nil)
)

// TestTaskFocusActions: what the task rows' focus asks the root to do for
// each key, with the selected task running or finished, or no task left.
func TestTaskFocusActions(t *testing.T) {
	running := []Task{{ID: "t1", Desc: "build", Row: true}, {ID: "t2", Desc: "test", Row: true}, {ID: "t0", Desc: "old"}}
	ctrlX := tea.KeyPressMsg{Code: 'x', Mod: tea.ModCtrl}
	tests := []struct {
		name    string
		sel     string
		tasks   []Task
		key     tea.KeyPressMsg
		want    Action
		handled bool
	}{
		{"down moves", "t1", running, keyPress("down"), SelectTask{"t2"}, true},
		{"down stops at the last row", "t2", running, keyPress("down"), SelectTask{"t2"}, true},
		{"ctrl+x stops the selected", "t2", running, ctrlX, Seq{StopTask{ID: "t2", Desc: "test"}, SelectTask{"t2"}}, true},
		{"ctrl+x on a finished one selects again", "t0", running, ctrlX,
			Seq{Notice{"the selected task finished; now selected: build (ctrl+x again stops it)"}, SelectTask{"t1"}}, true},
		{"enter opens the transcript", "t1", running, keyPress("enter"), Seq{Open{&TaskLog{id: "t1"}}, SelectTask{"t1"}}, true},
		{"esc leaves", "t1", running, keyPress("esc"), Seq{Close{}, SelectTask{}}, true},
		{"typing passes on", "t1", running, keyPress("a"), nil, false},
		{"no task left closes it and passes on", "t1", running[2:], keyPress("down"), Seq{Close{}, SelectTask{}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := pickerContext(time.Unix(0, 0), true)
			c.Tasks = tt.tasks
			act, handled := NewTaskFocus(tt.sel).Update(c, tt.key)
			if handled != tt.handled || !reflect.DeepEqual(act, tt.want) {
				t.Fatalf("got %#v, %v; want %#v, %v", act, handled, tt.want, tt.handled)
			}
		})
	}
}

// TestTaskLogView: the transcript shows its task's last lines that fit,
// sanitised to one line each, keeps every key, and draws nothing once its
// task is gone.
func TestTaskLogView(t *testing.T) {
	c := pickerContext(time.Unix(0, 0), true)
	c.Tasks = []Task{{ID: "t1", Item: "2", Desc: "test \x1b[2Jpart", Log: []string{"first", "second", "third\nline"}}}
	lg := &TaskLog{id: "t1"}
	out := strings.Join(lg.View(c, 60, 5), "\n")
	for _, want := range []string{"task test", "#2", "second", "third"} {
		if !strings.Contains(out, want) {
			t.Errorf("the transcript lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "first") || strings.Contains(out, "\x1b[2J") {
		t.Errorf("the transcript shows more than fits, or a control sequence:\n%q", out)
	}
	if act, handled := lg.Update(c, keyPress("a")); act != nil || !handled {
		t.Errorf("a key in the transcript: %#v, %v; want kept, nothing done", act, handled)
	}
	if act, _ := lg.Update(c, keyPress("esc")); act != (Close{}) {
		t.Errorf("esc: %#v, want Close", act)
	}
	c.Tasks = nil
	if v := lg.View(c, 60, 5); v != nil {
		t.Errorf("a gone task's transcript draws %q", v)
	}
}
