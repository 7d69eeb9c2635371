package dialog

import (
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/ui/style"
)

var _ Asker = (*Approvals)(nil)

// openApprovals returns the dialog showing one request per req at start,
// each with a reply channel, and a Context at start.
func openApprovals(start time.Time, reqs ...agent.ApprovalRequest) (*Approvals, []chan agent.Approval, Context) {
	c := pickerContext(start, true)
	q := &Approvals{}
	var replies []chan agent.Approval
	for _, r := range reqs {
		ch := make(chan agent.Approval, 1)
		r.Reply = ch
		q.Add(c.St, r, "", start)
		replies = append(replies, ch)
	}
	return q, replies, c
}

// answered returns the answer on ch, or nil.
func answered(ch chan agent.Approval) *agent.Approval {
	select {
	case a := <-ch:
		return &a
	default:
		return nil
	}
}

// TestApprovalsActions: what the approval dialog asks the root to do
// after each run of keys, a second apart (a deliberate pace) unless the
// last is hurried, and the answer it sent. Typing never answers; an
// answer closes the dialog and tells the root the tool runs.
func TestApprovalsActions(t *testing.T) {
	bash := agent.ApprovalRequest{ID: "1", Tool: "bash", Summary: "go test ./...", Detail: "go test ./...", Scope: "go test …"}
	once := agent.ApprovalRequest{ID: "2", Tool: "write_file", Summary: ".git/hooks/x", Detail: "+x", Once: true}
	rerun := agent.ApprovalRequest{ID: "3", Tool: "bash", Summary: "make test", Detail: "make test", Rerun: true}
	done := Seq{Close{}, FocusInput{}, Answered{Tool: "bash"}}
	tests := []struct {
		name    string
		req     agent.ApprovalRequest
		keys    []string
		hurried bool
		want    Action
		reply   *agent.Approval
	}{
		{"y allows once", bash, []string{"y"}, false, done, &agent.Approval{Allow: true}},
		{"a allows for the session", bash, []string{"a"}, false,
			Seq{Notice{"allowed `go test …` for this session"}, Close{}, FocusInput{}, Answered{Tool: "bash"}}, &agent.Approval{Allow: true, Always: true}},
		{"a rerun allowed for the session", rerun, []string{"a"}, false,
			Seq{Notice{"allowed `make test` without the sandbox for this session"}, Close{}, FocusInput{}, Answered{Tool: "bash"}}, &agent.Approval{Allow: true, Always: true}},
		{"a does nothing on a request for once", once, []string{"a"}, false, nil, nil},
		{"a hurried y goes to the input", bash, []string{"y"}, true, TypeAside{keyPress("y")}, nil},
		{"a hurried enter sends the input", bash, []string{"enter"}, true, SubmitInput{}, nil},
		{"text of no use goes to the input", bash, []string{"x"}, false, TypeAside{keyPress("x")}, nil},
		{"backspace edits the text typed aside", bash, []string{"x", "backspace"}, true, TypeAside{keyPress("backspace")}, nil},
		{"ctrl+w edits it after a pause too", bash, []string{"x", "ctrl+w"}, false, TypeAside{keyPress("ctrl+w")}, nil},
		{"n, a reason, backspace edits the reason", bash, []string{"n", "o", "k", "backspace", "enter"}, false, done, &agent.Approval{Reason: "o"}},
		{"ctrl+c interrupts the turn", bash, []string{"ctrl+c"}, false, Interrupt{}, nil},
		{"esc denies", bash, []string{"esc"}, false, done, &agent.Approval{}},
		{"n, a reason, enter", bash, []string{"n", "o", "k", "enter"}, false, done, &agent.Approval{Reason: "ok"}},
		{"n, a hurried reason, enter", bash, []string{"n", "o", "k", "enter"}, true, done, &agent.Approval{Reason: "ok"}},
		{"n then esc denies without a reason", bash, []string{"n", "o", "esc"}, false, done, &agent.Approval{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Unix(1000, 0)
			q, replies, c := openApprovals(start, tt.req)
			var act Action
			for i, k := range tt.keys {
				c.LastKey = c.Now
				if i < len(tt.keys)-1 || !tt.hurried {
					c.Now = c.Now.Add(time.Second)
				}
				var handled bool
				if act, handled = q.Update(c, keyPress(k)); !handled {
					t.Fatalf("key %q passed on", k)
				}
			}
			if !reflect.DeepEqual(act, tt.want) {
				t.Fatalf("got %#v, want %#v", act, tt.want)
			}
			if got := answered(replies[0]); !reflect.DeepEqual(got, tt.reply) {
				t.Fatalf("answered %+v, want %+v", got, tt.reply)
			}
		})
	}
}

// TestApprovalsQueue: a second request waits behind the first, is shown
// once the first is answered, and counts as shown from then: a key right
// after the first answer goes to the input.
func TestApprovalsQueue(t *testing.T) {
	start := time.Unix(1000, 0)
	q, replies, c := openApprovals(start,
		agent.ApprovalRequest{ID: "1", Tool: "bash", Summary: "ls", Detail: "ls"},
		agent.ApprovalRequest{ID: "2", Tool: "edit_file", Summary: "a.go", Detail: "--- a/a.go\n+++ b/a.go\n@@ -1 +1 @@\n-a\n+b\n", TaskName: "fix a"})
	view := func() string { return ansi.Strip(strings.Join(q.View(c, 100, 30), "\n")) }
	if v := view(); !strings.Contains(v, "Allow bash?") || q.Len() != 2 {
		t.Fatalf("%d waiting, shown:\n%s", q.Len(), v)
	}
	c.Now, c.LastKey = start.Add(time.Second), start
	if act, _ := q.Update(c, keyPress("y")); act != nil || q.Len() != 1 {
		t.Fatalf("the first answer did %#v with %d left", act, q.Len())
	}
	if got := answered(replies[0]); got == nil || !got.Allow {
		t.Fatalf("first answered %+v", got)
	}
	if v := view(); !strings.Contains(v, "Allow edit_file?") || !strings.Contains(v, "from the task fix a") {
		t.Fatalf("the second request is not shown with its task:\n%s", v)
	}
	c.LastKey = c.Now.Add(-time.Hour)
	if act, _ := q.Update(c, keyPress("y")); !reflect.DeepEqual(act, TypeAside{keyPress("y")}) {
		t.Fatalf("a key as the second appeared did %#v", act)
	}
	c.Now = c.Now.Add(time.Second)
	c.LastKey = c.Now.Add(-time.Second)
	if act, _ := q.Update(c, keyPress("esc")); !reflect.DeepEqual(act, Seq{Close{}, FocusInput{}, Answered{Tool: "edit_file"}}) {
		t.Fatalf("the last answer did %#v", act)
	}
	if got := answered(replies[1]); got == nil || got.Allow {
		t.Fatalf("second answered %+v, want a denial", got)
	}
}

// TestApprovalsPasteWheelDenyAll: a paste goes to the input unless a
// reason is typed, the wheel scrolls without answering, and DenyAll
// denies every request waiting.
func TestApprovalsPasteWheelDenyAll(t *testing.T) {
	start := time.Unix(1000, 0)
	long := strings.Repeat("echo line;\n", 80)
	q, replies, c := openApprovals(start, agent.ApprovalRequest{ID: "1", Tool: "bash", Summary: "echo", Detail: long},
		agent.ApprovalRequest{ID: "2", Tool: "bash", Summary: "ls", Detail: "ls"})
	c.Now = start.Add(time.Second)
	paste := tea.PasteMsg{Content: "also"}
	if act, ok := q.Update(c, paste); !ok || !reflect.DeepEqual(act, PasteAside{paste}) {
		t.Fatalf("a paste did %#v (handled %v)", act, ok)
	}
	before := strings.Join(q.View(c, 80, 24), "\n")
	if act, ok := q.Update(c, tea.MouseWheelMsg{Button: tea.MouseWheelDown}); !ok || act != nil {
		t.Fatalf("the wheel did %#v (handled %v)", act, ok)
	}
	if after := strings.Join(q.View(c, 80, 24), "\n"); after == before || !strings.Contains(ansi.Strip(after), "scrolls") {
		t.Fatalf("the wheel did not scroll the detail:\n%s", after)
	}
	q.Update(c, keyPress("n"))
	if act, ok := q.Update(c, tea.PasteMsg{Content: "no"}); !ok || act != nil && !isRun(act) {
		t.Fatalf("a paste into the reason did %#v", act)
	}
	if !strings.Contains(ansi.Strip(strings.Join(q.View(c, 80, 24), "\n")), "Reason: no") || q.AsksNow() {
		t.Fatal("the paste did not reach the reason, or the dialog asks while a reason is typed")
	}
	q.DenyAll()
	for i, ch := range replies {
		if got := answered(ch); got == nil || got.Allow {
			t.Fatalf("request %d answered %+v, want a denial", i+1, got)
		}
	}
}

// isRun reports whether act is a Run.
func isRun(act Action) bool { _, ok := act.(Run); return ok }

// TestQuestionsPassErasingToTheInput: every question that sends typing
// aside to the input (the approval dialog, the undo, /export and /rewind
// confirmations, /model's "save as the default?") sends backspace and
// ctrl+w after it, so a mistyped character can be taken back while it
// waits, and answers nothing with them. Before, they did nothing.
func TestQuestionsPassErasingToTheInput(t *testing.T) {
	keys := style.DefaultKeyMap()
	start := time.Unix(1000, 0)
	pts := []agent.RewindPoint{{ID: "p1", Text: "first"}}
	tests := []struct {
		name string
		open func(c Context) Dialog
		pre  []string
	}{
		{"approval", func(Context) Dialog {
			q, _, _ := openApprovals(start, agent.ApprovalRequest{ID: "1", Tool: "bash", Summary: "ls", Detail: "ls"})
			return q
		}, nil},
		{"undo", func(Context) Dialog { return NewUndo(keys.Undo, agent.UndoPreview{Item: "1"}, start, nil) }, nil},
		{"replace", func(Context) Dialog { return NewReplace(keys.Undo, "out.md", start, nil) }, nil},
		{"rewind's list", func(Context) Dialog { return NewRewind(keys.Rewind, keys.Undo, pts) }, nil},
		{"rewind's confirmation", func(Context) Dialog { return NewRewind(keys.Rewind, keys.Undo, pts) }, []string{"enter", "enter"}},
		{"model's save as default", func(Context) Dialog {
			p := NewModels(style.DefaultModelPickerKeyMap(), []string{"alpha", "beta"}, "alpha", "")
			p.Ask("beta", start)
			return p
		}, nil},
	}
	for _, tt := range tests {
		for _, k := range []string{"backspace", "ctrl+w"} {
			t.Run(tt.name+" "+k, func(t *testing.T) {
				c := pickerContext(start.Add(time.Second), true)
				d := tt.open(c)
				for _, p := range tt.pre {
					d.Update(c, keyPress(p))
				}
				act, handled := d.Update(c, keyPress(k))
				if want := (TypeAside{keyPress(k)}); !handled || !reflect.DeepEqual(act, want) {
					t.Fatalf("%s: got %#v, %v; want %#v", k, act, handled, want)
				}
			})
		}
	}
}
