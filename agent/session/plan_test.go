package session

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tick-agent/tick/todo"
)

// userPlan is a user's side of a plan with every field set.
func userPlan() todo.UserPlan {
	_, list := conversation()
	return todo.UserPlan{
		Added:     []string{"3"},
		Cancelled: []string{"2"},
		Text:      map[string]string{"1": "Add type hints <carefully> & well"},
		Pending:   []string{"added #3 Add a CLI"},
		Undone:    []string{"The user undid #1"},
		Proposal:  &list,
	}
}

func TestPlanAndModeLines(t *testing.T) {
	_, list := conversation()
	later := todo.UserPlan{Added: []string{"3"}}
	tests := []struct {
		name       string
		write      func(t *testing.T, st *Store)
		plan       todo.UserPlan
		mode, from string
	}{
		{"none (an older tick's file)", func(*testing.T, *Store) {}, todo.UserPlan{}, "", ""},
		{"one of each", func(t *testing.T, st *Store) {
			must(t, st.Plan(userPlan()))
			must(t, st.Mode("plan", "ask"))
		}, userPlan(), "plan", "ask"},
		{"the last of each counts", func(t *testing.T, st *Store) {
			must(t, st.Mode("plan", "auto"))
			must(t, st.Plan(userPlan()))
			must(t, st.Plan(later))
			must(t, st.Mode("ask", "auto"))
		}, later, "ask", "auto"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st, err := Create(t.TempDir(), t.TempDir(), "m")
			if err != nil {
				t.Fatal(err)
			}
			msgs, _ := conversation()
			recordAll(t, st, msgs, &list)
			tc.write(t, st)
			must(t, st.Close())
			ld, err := Load(st.Path())
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(ld.Plan, tc.plan) || ld.Mode != tc.mode || ld.BeforePlan != tc.from {
				t.Errorf("loaded plan %+v, mode %q before %q; want %+v, %q, %q", ld.Plan, ld.Mode, ld.BeforePlan, tc.plan, tc.mode, tc.from)
			}
			if len(ld.Warnings) != 0 || len(ld.History) != len(msgs) {
				t.Errorf("warnings %q, %d messages", ld.Warnings, len(ld.History))
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestBadPlanAndModeLinesSkipped(t *testing.T) {
	tests := []struct {
		name, line, warn string
	}{
		{"plan not an object", `{"type":"plan","plan":5}`, "a plan line that cannot be read"},
		{"plan missing", `{"type":"plan"}`, `a plan line without "plan"`},
		{"empty id", `{"type":"plan","plan":{"added":[" "]}}`, "empty item id"},
		{"bad proposal", `{"type":"plan","plan":{"proposal":{"items":[{"id":"1","text":"","status":"pending"}]}}}`, "the proposal"},
		{"mode not a string", `{"type":"mode","mode":["plan"]}`, "a mode line that cannot be read"},
		{"unknown mode", `{"type":"mode","mode":"turbo"}`, `unknown mode "turbo"`},
		{"unknown before", `{"type":"mode","mode":"plan","before":"x"}`, `unknown mode "plan" (before "x")`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			msgs, list := conversation()
			st, err := Create(t.TempDir(), t.TempDir(), "m")
			if err != nil {
				t.Fatal(err)
			}
			recordAll(t, st, msgs[:1], &list)
			must(t, st.Plan(todo.UserPlan{Added: []string{"3"}}))
			must(t, st.Mode("ask", ""))
			must(t, st.Close())
			appendBytes(t, st.Path(), []byte(tc.line+"\n"))
			// Open continues the file after the skipped line.
			st2, ld, err := Open(st.Path())
			if err != nil {
				t.Fatal(err)
			}
			if st2.ID() != ld.Info.ID {
				t.Errorf("a bad plan or mode line made Open continue in a new file")
			}
			recordAll(t, st2, msgs[1:], nil)
			must(t, st2.Close())
			ld, err = Load(st.Path())
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			w := strings.Join(ld.Warnings, "\n")
			if !strings.Contains(w, "skipped line 6") || !strings.Contains(w, tc.warn) {
				t.Errorf("warnings %q, want one skipping line 6 naming %q", ld.Warnings, tc.warn)
			}
			if len(ld.History) != len(msgs) || ld.Mode != "ask" || !reflect.DeepEqual(ld.Plan.Added, []string{"3"}) {
				t.Errorf("%d messages, mode %q, plan %+v: the lines around the bad one were lost", len(ld.History), ld.Mode, ld.Plan)
			}
		})
	}
}

func TestRecorderModeBeforeTheFile(t *testing.T) {
	dir, ws := t.TempDir(), t.TempDir()
	rec := NewRecorder(dir, ws, "m")
	must(t, rec.Mode("plan", "auto")) // --plan at start: no file yet
	if _, err := Latest(dir, ws); err == nil {
		t.Fatal("switching modes created a session file")
	}
	msgs, list := conversation()
	must(t, rec.Message(msgs[0]))
	must(t, rec.Plan(todo.UserPlan{Cancelled: []string{"3"}}))
	must(t, rec.Todo(list))
	must(t, rec.Close())
	info, err := Latest(dir, ws)
	if err != nil {
		t.Fatal(err)
	}
	ld, err := Load(info.Path)
	if err != nil {
		t.Fatal(err)
	}
	if ld.Mode != "plan" || ld.BeforePlan != "auto" || !reflect.DeepEqual(ld.Plan.Cancelled, []string{"3"}) || len(ld.History) != 1 {
		t.Errorf("mode %q before %q, plan %+v, %d messages", ld.Mode, ld.BeforePlan, ld.Plan, len(ld.History))
	}
}

func TestForkKeepsPlanAndMode(t *testing.T) {
	msgs, list := conversation()
	st, err := Create(t.TempDir(), t.TempDir(), "m")
	if err != nil {
		t.Fatal(err)
	}
	recordAll(t, st, msgs, &list)
	must(t, st.Plan(userPlan()))
	must(t, st.Mode("plan", "ask"))
	defer st.Close() // still open: the picker offers fork
	fk, _, err := Fork(st.Path())
	if err != nil {
		t.Fatal(err)
	}
	must(t, fk.Close())
	ld, err := Load(fk.Path())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ld.Plan, userPlan()) || ld.Mode != "plan" || ld.BeforePlan != "ask" {
		t.Errorf("the fork has plan %+v, mode %q before %q", ld.Plan, ld.Mode, ld.BeforePlan)
	}
}
