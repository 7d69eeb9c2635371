package todo

import (
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	prev := List{Items: []Item{{ID: "1", Text: "A"}, {ID: "2", Text: "B"}, {ID: "3", Text: "C"}}}
	tests := []struct {
		name string
		next List
		want string
	}{
		{"same", prev, ""},
		{"status only", List{Items: []Item{{ID: "1", Text: "A", Status: Completed}, {ID: "2", Text: "B"}, {ID: "3", Text: "C"}}}, ""},
		{"all kinds", List{Items: []Item{{ID: "1", Text: "A2"}, {ID: "3", Text: "C"}, {ID: "4", Text: "D"}}},
			"removed #2 B | reworded #1 A2 (was: A) | added #4 D"},
		{"empty", List{}, "removed #1 A | removed #2 B | removed #3 C"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var parts []string
			for _, c := range Diff(prev, tc.next) {
				parts = append(parts, c.String())
			}
			if got := strings.Join(parts, " | "); got != tc.want {
				t.Errorf("Diff = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestOpenFindReminderMarkdown(t *testing.T) {
	l := List{Goal: "G", Items: []Item{{ID: "1", Text: "A", Status: Completed, Note: "ok"}, {ID: "2", Text: "B", Status: InProgress}, {ID: "3", Text: "C", Status: Cancelled, Note: "no"}, {ID: "4", Text: "D", Status: Pending}}}
	var open []string
	for _, it := range l.Open() {
		open = append(open, it.ID)
	}
	if strings.Join(open, ",") != "2,4" {
		t.Errorf("Open = %v", open)
	}
	if l.Find("3") != 2 || l.Find("9") != -1 {
		t.Error("Find")
	}
	for s, want := range map[string]bool{Reminder: true, "<reminder>x</reminder>\n": true, "hello <reminder>": false, "": false} {
		if IsReminder(s) != want {
			t.Errorf("IsReminder(%q) != %v", s, want)
		}
	}
	want := "## G\n\n- [x] #1 A — ok\n- [ ] #2 B\n- [-] #3 C — no\n- [ ] #4 D\n"
	if got := l.Markdown(); got != want {
		t.Errorf("Markdown =\n%s\nwant\n%s", got, want)
	}
}
