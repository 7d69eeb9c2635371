package dialog

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/ui/style"
)

// The pickers are dialogs: the root needs nothing else of them.
var (
	_ Dialog = (*Sessions)(nil)
	_ Dialog = (*Models)(nil)
	_ Asker  = (*Models)(nil)
	_ Asker  = (*Undo)(nil)
	_ Asker  = (*Replace)(nil)
)

// pickerContext is a Context at now with an area of 100×30, the last key
// long before.
func pickerContext(now time.Time, running bool) Context {
	st := style.DefaultStyles(true)
	return Context{St: &st, Keys: style.DefaultKeyMap(), Now: now, LastKey: now.Add(-time.Hour),
		Running: running, ModelName: "alpha", Width: 100, Height: 30}
}

func keyPress(s string) tea.KeyPressMsg {
	switch s {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "ctrl+w":
		return tea.KeyPressMsg{Code: 'w', Mod: tea.ModCtrl}
	}
	return tea.KeyPressMsg{Code: rune(s[0]), Text: s}
}

func sessionsOf(n int) []SessionInfo {
	list := make([]SessionInfo, n)
	for i := range list {
		list[i] = SessionInfo{ID: fmt.Sprintf("s%02d", i), Started: time.Unix(0, 0), Current: i == 0}
	}
	return list
}

// TestSessionsActions: what the /sessions picker asks the root to do for
// each key, in each of its states.
func TestSessionsActions(t *testing.T) {
	closed := Seq{Close{}, FocusInput{}}
	tests := []struct {
		name      string
		running   bool
		canResume bool
		keys      []string
		want      Action // of the last key
		note      string // on screen after it
	}{
		{"esc closes", false, true, []string{"esc"}, closed, ""},
		{"ctrl+c closes", false, true, []string{"ctrl+c"}, closed, ""},
		{"enter resumes the selected", false, true, []string{"down", "enter"}, ResumeSession{"s02"}, "resuming s02"},
		{"keys wait while resuming", false, true, []string{"enter", "esc"}, nil, "resuming s01"},
		{"ctrl+c quits while resuming", false, true, []string{"enter", "ctrl+c"}, Quit{}, "resuming s01"},
		{"the current session", false, true, []string{"k", "enter"}, Seq{Close{}, FocusInput{}, Notice{"already in session s00"}}, ""},
		{"refused while a turn runs", true, true, []string{"enter"}, nil, "cannot resume while a turn runs"},
		{"the run cannot resume", false, false, []string{"enter"}, nil, noResume},
		{"f without an offer", false, true, []string{"f"}, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := pickerContext(time.Now(), tt.running)
			p := NewSessions(sessionsOf(4), tt.canResume)
			var act Action
			for _, k := range tt.keys {
				act, _ = p.Update(c, keyPress(k))
			}
			if !reflect.DeepEqual(act, tt.want) {
				t.Fatalf("action %#v, want %#v", act, tt.want)
			}
			if s := strings.Join(p.View(c, 100, 30), "\n"); !strings.Contains(s, tt.note) {
				t.Fatalf("no %q:\n%s", tt.note, s)
			}
		})
	}
}

// TestSessionsFork: after OfferFork, f forks the refused session; moving
// the selection withdraws the offer; a running turn refuses it.
func TestSessionsFork(t *testing.T) {
	c := pickerContext(time.Now(), false)
	p := NewSessions(sessionsOf(3), true)
	p.Update(c, keyPress("enter"))
	p.OfferFork("s01", "the session is open in another tick (pid 7)")
	if s := strings.Join(p.View(c, 100, 30), "\n"); !strings.Contains(s, "pid 7) · f fork it into a new session · esc close") {
		t.Fatalf("no offer:\n%s", s)
	}
	if act, _ := p.Update(pickerContext(time.Now(), true), keyPress("f")); act != nil {
		t.Fatalf("forked while a turn runs: %#v", act)
	}
	if act, _ := p.Update(c, keyPress("f")); act != (ForkSession{"s01"}) {
		t.Fatalf("f gave %#v", act)
	}

	p = NewSessions(sessionsOf(3), true)
	p.Update(c, keyPress("enter"))
	p.OfferFork("s01", "open elsewhere")
	p.Update(c, keyPress("down"))
	if act, _ := p.Update(c, keyPress("f")); act != nil {
		t.Fatalf("f after moving away gave %#v", act)
	}
}

// TestPickersViewIsPure: drawing a picker changes nothing of it, however
// far the selection is from the rows last shown.
func TestPickersViewIsPure(t *testing.T) {
	c := pickerContext(time.Now(), false)
	s := NewSessions(sessionsOf(40), true)
	s.sel = 39 // behind Update's back
	var models []string
	for i := range 40 {
		models = append(models, fmt.Sprintf("model-%02d", i))
	}
	m := NewModels(style.DefaultModelPickerKeyMap(), models, "model-39", "/cfg")
	for _, d := range []Dialog{s, m} {
		before := reflect.ValueOf(d).Elem().Interface()
		var list ModelList
		if m, ok := d.(*Models); ok {
			list = *m.list
		}
		view := strings.Join(d.View(c, 100, 30), "\n")
		if !strings.Contains(view, "39") {
			t.Fatalf("%T: the selection is not in view:\n%s", d, view)
		}
		if !reflect.DeepEqual(reflect.ValueOf(d).Elem().Interface(), before) {
			t.Fatalf("%T: View changed the dialog", d)
		}
		if m, ok := d.(*Models); ok && !reflect.DeepEqual(*m.list, list) {
			t.Fatalf("View changed the model list: offset %d, was %d", m.list.off, list.off)
		}
	}
}

// TestModelsActions: the /model picker filters, asks the root to switch,
// then takes only a deliberate y or n to the question, typing going to
// the input.
func TestModelsActions(t *testing.T) {
	now := time.Now()
	c := pickerContext(now, false)
	p := NewModels(style.DefaultModelPickerKeyMap(), []string{"alpha", "beta-coder", "gamma"}, "alpha", "/cfg/config.toml")
	for _, k := range "cod" {
		p.Update(c, keyPress(string(k)))
	}
	if act, _ := p.Update(c, keyPress("enter")); act != (SwitchModel{"beta-coder"}) {
		t.Fatalf("enter gave %#v", act)
	}
	if act, _ := p.Update(c, keyPress("y")); act != (TypeAside{keyPress("y")}) || p.AsksNow() {
		t.Fatalf("a key while switching: %#v, asks %v", act, p.AsksNow())
	}
	p.Ask("beta-coder", now)
	if act, _ := p.Update(c, keyPress("y")); act != (TypeAside{keyPress("y")}) {
		t.Fatalf("a y on the heels of the question gave %#v", act)
	}
	if s := strings.Join(p.View(c, 100, 30), "\n"); !strings.Contains(s, "Also make beta-coder the default in /cfg/config.toml?") || !strings.Contains(s, "your typing went to the input") {
		t.Fatalf("the question:\n%s", s)
	}
	later := pickerContext(now.Add(time.Second), false)
	want := Seq{Close{}, FocusInput{}, SaveDefaultModel{"beta-coder"}}
	if act, _ := p.Update(later, keyPress("y")); !reflect.DeepEqual(act, want) {
		t.Fatalf("a deliberate y gave %#v", act)
	}
}
