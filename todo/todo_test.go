package todo_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tick-agent/tick/todo"
)

func TestParse(t *testing.T) {
	cases := []struct {
		name    string
		args    string
		wantErr string // empty: valid
		check   func(t *testing.T, l todo.List)
	}{
		{name: "minimal", args: `{"items":[{"id":"1","text":"A","status":"pending"}]}`},
		{name: "aliases and case", args: `{"items":[{"id":"1","text":"A","status":"Done"},{"id":"2","text":"B","status":"in-progress"},{"id":"3","text":"C","status":"canceled","note":"n"},{"id":"4","text":"D","status":"TODO"}]}`,
			check: func(t *testing.T, l todo.List) {
				want := []todo.Status{todo.Completed, todo.InProgress, todo.Cancelled, todo.Pending}
				for i, w := range want {
					if l.Items[i].Status != w {
						t.Errorf("item %d status %q, want %q", i, l.Items[i].Status, w)
					}
				}
			}},
		{name: "numeric ids", args: `{"items":[{"id":1,"text":"A","status":"pending"},{"id":2.5,"text":"B","status":"pending"}]}`,
			check: func(t *testing.T, l todo.List) {
				if l.Items[0].ID != "1" || l.Items[1].ID != "2.5" {
					t.Errorf("ids %q %q", l.Items[0].ID, l.Items[1].ID)
				}
			}},
		{name: "missing ids numbered", args: `{"items":[{"text":"A"},{"text":"B"}]}`,
			check: func(t *testing.T, l todo.List) {
				if l.Items[0].ID != "1" || l.Items[1].ID != "2" || l.Items[0].Status != todo.Pending {
					t.Errorf("items %+v", l.Items)
				}
			}},
		{name: "todos and content aliases", args: `{"todos":[{"id":"a","content":"A","status":"pending","activeForm":"Doing A"}]}`,
			check: func(t *testing.T, l todo.List) {
				if l.Items[0].Text != "A" || l.Items[0].ActiveForm != "Doing A" {
					t.Errorf("item %+v", l.Items[0])
				}
			}},
		{name: "goal folded to one line", args: `{"goal":"  Ship\nit ","items":[]}`,
			check: func(t *testing.T, l todo.List) {
				if l.Goal != "Ship it" {
					t.Errorf("goal %q", l.Goal)
				}
			}},
		{name: "empty list allowed", args: `{"items":[]}`},
		{name: "not json", args: `{"items":`, wantErr: "not a JSON object"},
		{name: "no items", args: `{"goal":"x"}`, wantErr: `missing "items"`},
		{name: "two in progress", args: `{"items":[{"id":"1","text":"A","status":"in_progress"},{"id":"2","text":"B","status":"in_progress"}]}`, wantErr: "at most one may be in_progress"},
		{name: "unknown status", args: `{"items":[{"id":"1","text":"A","status":"blocked"}]}`, wantErr: "use one of pending, in_progress, completed, cancelled"},
		{name: "cancelled without note", args: `{"items":[{"id":"1","text":"A","status":"cancelled"}]}`, wantErr: "without a note"},
		{name: "duplicate ids", args: `{"items":[{"id":"1","text":"A"},{"id":"1","text":"B"}]}`, wantErr: "used twice"},
		{name: "empty text", args: `{"items":[{"id":"1","text":"  ","status":"pending"}]}`, wantErr: "empty text"},
		{name: "bad id type", args: `{"items":[{"id":{},"text":"A"}]}`, wantErr: "id must be"},
		{name: "too many", args: tooMany(21), wantErr: "at most 20"},
		{name: "twenty is fine", args: tooMany(20)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, err := todo.Parse([]byte(c.args))
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, c.wantErr)
				}
				if !l.Empty() {
					t.Fatal("a rejected update returned items")
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if c.check != nil {
				c.check(t, l)
			}
		})
	}
}

func tooMany(n int) string {
	items := make([]string, n)
	for i := range items {
		items[i] = fmt.Sprintf(`{"id":"%d","text":"step %d","status":"pending"}`, i+1, i+1)
	}
	return `{"items":[` + strings.Join(items, ",") + `]}`
}

func TestRender(t *testing.T) {
	l := todo.List{Goal: "Make utils.py production-ready", Items: []todo.Item{
		{ID: "1", Text: "Add type hints", Status: todo.Completed, Note: "14 functions annotated"},
		{ID: "2", Text: "Add docstrings", Status: todo.InProgress, ActiveForm: "Adding docstrings"},
		{ID: "3", Text: "Add main guard", Status: todo.Pending},
		{ID: "4", Text: "Add a CLI", Status: todo.Cancelled, Note: "not wanted"},
	}}
	want := `Goal: Make utils.py production-ready
[x] #1: Add type hints -> 14 functions annotated
[>] #2: Add docstrings
[ ] #3: Add main guard
[-] #4: Add a CLI (cancelled: not wanted)

(1/3 completed)
`
	if got := l.Render(); got != want {
		t.Fatalf("Render() =\n%s\nwant\n%s", got, want)
	}
	if next, ok := l.Next(); !ok || next.ID != "2" {
		t.Errorf("Next() = %+v, %v", next, ok)
	}
	if got := (todo.List{}).Render(); !strings.Contains(got, "empty") {
		t.Errorf("empty Render() = %q", got)
	}
}

func TestCloneIsIndependent(t *testing.T) {
	l := todo.List{Items: []todo.Item{{ID: "1", Text: "A", Status: todo.Pending}}}
	c := l.Clone()
	c.Items[0].Status = todo.Completed
	if l.Items[0].Status != todo.Pending {
		t.Fatal("Clone shares items with the original")
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"goal":"g","items":[{"id":"1","text":"A","status":"in_progress","active_form":"Doing"}]}`))
	f.Add([]byte(`{"items":[{"id":1,"text":"A","status":"done","note":"ok"},{"id":"2","text":"B","status":"cancelled"}]}`))
	f.Add([]byte(`{"todos":[{"content":"x"}]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := todo.Parse(data)
		if err != nil {
			if !l.Empty() {
				t.Fatal("rejected input returned items")
			}
			return
		}
		if verr := l.Validate(); verr != nil {
			t.Fatalf("Parse accepted a list that Validate rejects: %v", verr)
		}
		running := 0
		for _, it := range l.Items {
			if it.Status == todo.InProgress {
				running++
			}
			if strings.ContainsAny(it.Text, "\n\r") {
				t.Fatalf("item text has a line break: %q", it.Text)
			}
		}
		if running > 1 || len(l.Items) > todo.MaxItems {
			t.Fatalf("invalid list accepted: %+v", l)
		}
		_ = l.Render()
	})
}

func ExampleList_Render() {
	l, err := todo.Parse([]byte(`{"goal":"Add a flag","items":[
		{"id":"1","text":"Parse --verbose","status":"done","note":"in run()"},
		{"id":"2","text":"Document it","status":"in_progress","active_form":"Documenting"}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(l.Render())
	// Output:
	// Goal: Add a flag
	// [x] #1: Parse --verbose -> in run()
	// [>] #2: Document it
	//
	// (1/2 completed)
}

// TestTaskOwnedInProgress: items a subagent works on may be in_progress
// together, with one item of the model's own; two of the model's own may
// not.
func TestTaskOwnedInProgress(t *testing.T) {
	three := `{"items":[{"id":"1","text":"A","status":"in_progress"},{"id":"2","text":"B","status":"in_progress"},{"id":"3","text":"C","status":"in_progress"}]}`
	tests := []struct {
		name    string
		owned   map[string]bool
		wantErr string
	}{
		{"none owned", nil, "3 items are in_progress (#1, #2, #3)"},
		{"two owned, one the model's", map[string]bool{"1": true, "2": true}, ""},
		{"all owned", map[string]bool{"1": true, "2": true, "3": true}, ""},
		{"one owned, two the model's", map[string]bool{"3": true}, "2 items are in_progress (#1, #2)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := todo.ParseWith([]byte(three), func(id string) bool { return tc.owned[id] })
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("ParseWith = %v, want it accepted", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("ParseWith = %v, want %q", err, tc.wantErr)
			}
		})
	}
}
