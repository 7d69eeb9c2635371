package ui

import (
	"strconv"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/tools"
)

// TestChatShowsEditAsDiff: an edit's ToolEnd.Diff is drawn as numbered
// removed and added lines, folded past diffLines with the count and
// ctrl+o to open it; the model's text result is not what the chat shows.
func TestChatShowsEditAsDiff(t *testing.T) {
	var old, new []string
	for i := range 40 {
		old = append(old, "row "+strconv.Itoa(i+1))
		new = append(new, "row "+strconv.Itoa(i+1))
	}
	for i := 5; i < 25; i++ {
		new[i] = "ROW " + strconv.Itoa(i+1)
	}
	diff := tools.UnifiedDiff("a/conf.txt", "b/conf.txt", strings.Join(old, "\n")+"\n", strings.Join(new, "\n")+"\n")
	m, _ := newTestModel(t, 100, 60)
	submit(m, "edit")
	events(t, m,
		agent.ToolStart{ID: "e1", Name: "edit_file", Summary: "conf.txt"},
		agent.ToolEnd{ID: "e1", Name: "edit_file", Output: "Edited conf.txt: replaced 1 occurrence. The changed lines now read:", Diff: diff},
	)
	s := screen(m)
	for _, want := range []string{"20 lines added, 20 removed", " 3   row 3", " 6 - row 6", "+38 lines (ctrl+o to expand)"} {
		if !strings.Contains(s, want) {
			t.Fatalf("the edit lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "The changed lines now read") {
		t.Fatalf("the chat shows the model's text instead of the diff:\n%s", s)
	}
	press(m, "ctrl+o")
	s = screen(m)
	for _, want := range []string{" 6 + ROW 6", "25 + ROW 25", "28   row 28"} {
		if !strings.Contains(s, want) {
			t.Fatalf("the opened edit lacks %q:\n%s", want, s)
		}
	}
}
