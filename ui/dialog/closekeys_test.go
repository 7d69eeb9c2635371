package dialog

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/todo"
	"github.com/tick-agent/tick/ui/style"
)

// closeKeyExempt are the dialogs without a back or a close, and why.
var closeKeyExempt = map[string]string{
	"Approvals": "esc answers it (deny); ctrl+c interrupts the turn (TestApprovalsActions)",
	"Proposal":  "it takes only y and e; the root's keys work under it",
}

// TestCtrlCIsEsc: in every dialog with a back or a close, in each of its
// steps, ctrl+c does exactly what esc does (the same Action, the same
// dialog after it), closes it or goes one step back, and never asks the
// root to quit. Before, ctrl+c did nothing in the help overlay, an item's
// diff, a task's transcript, the plan editor, the undo and /export
// confirmations and /rewind, and fell through to the root's quit (or the
// turn's interrupt) from the task rows and a kept task's offer. The table
// must name every dialog type of the package (parsed from its files).
func TestCtrlCIsEsc(t *testing.T) {
	st := style.DefaultStyles(true)
	keys := style.DefaultKeyMap()
	now := time.Unix(1000, 0)
	shown := now.Add(-time.Minute)
	plan := todo.List{Items: []todo.Item{{ID: "1", Text: "build"}, {ID: "2", Text: "test"}}}
	tasks := []Task{{ID: "t1", Desc: "build", Row: true, Log: []string{"ran make"}}, {ID: "t2", Desc: "test", Row: true}}
	pts := []agent.RewindPoint{{ID: "p1", Text: "first"}, {ID: "p2", Text: "second"}}
	ch := agent.ItemChanges{Item: "1", Text: "build", Patch: "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"}
	tests := []struct {
		typ, name string
		open      func() Dialog
		pre       []string // keys that bring the dialog to the step tested
	}{
		{"Help", "help", func() Dialog { return NewHelp(keys.HelpScreen) }, nil},
		{"ItemDiff", "an item's changes", func() Dialog { return NewItemDiff(&st, ch) }, nil},
		{"TaskFocus", "the task rows", func() Dialog { return NewTaskFocus("t1") }, nil},
		{"TaskLog", "a task's transcript", func() Dialog { return &TaskLog{id: "t1"} }, nil},
		{"Sessions", "/sessions", func() Dialog { return NewSessions(sessionsOf(3), true) }, nil},
		{"Models", "/model", func() Dialog {
			return NewModels(style.DefaultModelPickerKeyMap(), []string{"alpha", "beta"}, "alpha", "")
		}, nil},
		{"PlanEditor", "the plan editor", func() Dialog { return NewPlanEditor(&st, keys.Plan) }, nil},
		{"PlanEditor", "the plan editor, typing", func() Dialog { return NewPlanEditor(&st, keys.Plan) }, []string{"e"}},
		{"Rewind", "/rewind's list", func() Dialog { return NewRewind(keys.Rewind, keys.Undo, pts) }, nil},
		{"Rewind", "/rewind's scope", func() Dialog { return NewRewind(keys.Rewind, keys.Undo, pts) }, []string{"enter"}},
		{"Rewind", "/rewind's confirmation", func() Dialog { return NewRewind(keys.Rewind, keys.Undo, pts) }, []string{"enter", "enter"}},
		{"Diff", "/diff's list", func() Dialog { return NewDiff(keys.Diff, bigDiff(3)) }, nil},
		{"Diff", "/diff's hunks", func() Dialog { return NewDiff(keys.Diff, bigDiff(3)) }, []string{"enter"}},
		{"Undo", "the undo confirmation", func() Dialog { return NewUndo(keys.Undo, agent.UndoPreview{Item: "1", Text: "build"}, shown, nil) }, nil},
		{"Replace", "/export's replace", func() Dialog { return NewReplace(keys.Undo, "out.md", shown, nil) }, nil},
		{"Kept", "a kept task's offer", func() Dialog { return NewKept(keys.Kept, 1, "build", shown, nil, nil) }, nil},
	}
	covered := map[string]bool{}
	for _, tt := range tests {
		covered[tt.typ] = true
		t.Run(tt.name, func(t *testing.T) {
			c := pickerContext(now, true)
			c.Tasks, c.Plan, c.PlanSel = tasks, plan, 0
			after := func(k string) (Action, bool, string) {
				d := tt.open()
				for _, p := range tt.pre {
					d.Update(c, keyPress(p))
				}
				before := dialogState(d, c)
				act, handled := d.Update(c, keyPress(k))
				if !handled {
					t.Fatalf("%s passed %s on to the root", tt.name, k)
				}
				state := dialogState(d, c)
				if !closes(act) && state == before {
					t.Fatalf("%s: %s neither closed it nor went back (action %#v)", tt.name, k, act)
				}
				return act, handled, state
			}
			escAct, _, escState := after("esc")
			act, _, state := after("ctrl+c")
			if !reflect.DeepEqual(act, escAct) {
				t.Errorf("ctrl+c asked for %#v, esc for %#v", act, escAct)
			}
			if state != escState {
				t.Errorf("ctrl+c left the dialog unlike esc:\n%s\nesc:\n%s", state, escState)
			}
			if quits(act) {
				t.Errorf("ctrl+c asked the root to quit: %#v", act)
			}
		})
	}
	for _, typ := range dialogTypes(t) {
		if !covered[typ] && closeKeyExempt[typ] == "" {
			t.Errorf("dialog %s is not in the table (nor exempt, with a reason)", typ)
		}
	}
}

// dialogState is what shows of d after a key: its view, and the plan
// editor's typing (it draws in the panel).
func dialogState(d Dialog, c Context) string {
	s := strings.Join(d.View(c, 100, 30), "\n")
	if e, ok := d.(*PlanEditor); ok {
		s += "\ntyping: " + string(e.Typing())
	}
	if r, ok := d.(*Rewind); ok {
		s += "\nstep: " + string(rune('0'+r.Step()))
	}
	return s
}

// closes reports whether act closes the dialog that returned it.
func closes(act Action) bool {
	switch a := act.(type) {
	case Close, CloseEditor:
		return true
	case Seq:
		for _, x := range a {
			if closes(x) {
				return true
			}
		}
	}
	return false
}

// quits reports whether act asks the root to quit.
func quits(act Action) bool {
	switch a := act.(type) {
	case Quit:
		return true
	case Seq:
		for _, x := range a {
			if quits(x) {
				return true
			}
		}
	}
	return false
}

// dialogTypes are the types of this package's files with a Layer method:
// every dialog.
func dialogTypes(t *testing.T) []string {
	t.Helper()
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatalf("parse the package: %v", err)
	}
	seen := map[string]bool{}
	for _, p := range pkgs {
		for _, f := range p.Files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Recv == nil || fd.Name.Name != "Layer" {
					continue
				}
				rt := fd.Recv.List[0].Type
				if s, ok := rt.(*ast.StarExpr); ok {
					rt = s.X
				}
				if id, ok := rt.(*ast.Ident); ok {
					seen[id.Name] = true
				}
			}
		}
	}
	var out []string
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	if len(out) < 10 {
		t.Fatalf("found only %d dialog types: %v", len(out), out)
	}
	return out
}
