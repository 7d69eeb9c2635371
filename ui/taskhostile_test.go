package ui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/ui/dialog"
)

// hostileTaskAnswer is Markdown a prompt-injected task may answer with:
// escape sequences hidden in a link's text and target (first and last, so
// the transcript's tail holds them too), 4,000 nested list items, and a
// megabyte of unclosed links ("[a](" each), with a word before and after
// that must still be seen.
func hostileTaskAnswer() string {
	var b strings.Builder
	link := "[see \x1b]8;;http://evil.example\x1b\\here\x1b]8;;\x1b\\](http://a.b/\x1b]52;c;cm0gLXJmIH4K\x07x) and \x1b[2J\x1b[8mhidden\x1b[0m\n\n"
	b.WriteString("STARTWORD " + link)
	for i := range 4000 {
		b.WriteString(strings.Repeat("  ", i) + "- a\n")
	}
	b.WriteString("\n" + strings.Repeat("[a](", 1<<18) + "\n\nENDWORD " + link)
	return b.String()
}

// TestHostileTaskAnswerShown is the seam of tick's Markdown renderer and
// parallel tasks: a hostile answer (hostileTaskAnswer) comes back as one
// of two running tasks' answer. Its transcript (ctrl+x, enter) shows it,
// the chat shows the task call's result, and the parent relays it as its
// own streamed, Markdown-drawn answer; every frame on the way holds no
// control sequence tick did not draw itself and fits the screen. A stall
// in the renderer shows as the test's timeout.
func TestHostileTaskAnswerShown(t *testing.T) {
	const w, h = 120, 40
	m, a := newTestModel(t, w, h)
	md := hostileTaskAnswer()
	check := func(step string) string {
		t.Helper()
		frame, bad := ownLinksOut(m.View().Content)
		if bad != "" {
			t.Fatalf("%s: the frame links to %q", step, bad)
		}
		if p := screenProblem(frame, w, h); p != "" {
			t.Fatalf("%s: the frame holds a %s", step, p)
		}
		return screen(m)
	}
	submit(m, "split the work")
	events(t, m, agent.TodoUpdate{List: plan("g", "> Build", "> Test")},
		agent.ToolStart{ID: "t1", Name: agent.TaskTool, Summary: "build part", Item: "1"},
		agent.ToolStart{ID: "t2", Name: agent.TaskTool, Summary: "test part", Item: "2"},
		agent.Subagent{ParentID: "t1", Event: agent.ToolStart{ID: "c1", Name: "bash", Summary: "make"}},
		agent.Subagent{ParentID: "t1", Event: agent.AssistantDone{Text: md}},
		agent.Subagent{ParentID: "t2", Event: agent.AssistantDone{Text: "the tests pass"}},
	)
	check("the task's answer arrived")
	press(m, "ctrl+x")
	if overlayOf[*dialog.TaskFocus](m) == nil {
		t.Fatalf("ctrl+x did not open the task rows:\n%s", screen(m))
	}
	press(m, "enter")
	s := check("the task's transcript")
	if !strings.Contains(s, "task build part · #1") || !strings.Contains(s, "[a](") {
		t.Fatalf("the transcript of the task with the hostile answer is not shown:\n%s", s)
	}
	press(m, "esc")
	press(m, "esc")
	if overlayOf[*dialog.TaskFocus](m) != nil {
		t.Fatal("esc twice did not leave the task's transcript and rows")
	}
	events(t, m, agent.ToolEnd{ID: "t1", Name: agent.TaskTool, Output: md})
	if s := check("the task's result in the chat"); !strings.Contains(s, "STARTWORD") {
		t.Errorf("the task's result is not in the chat:\n%s", s)
	}
	events(t, m, agent.ToolEnd{ID: "t2", Name: agent.TaskTool, Output: "the tests pass"})
	for i := 0; i < len(md); i += 64 << 10 {
		events(t, m, agent.TextDelta{Text: md[i:min(i+64<<10, len(md))]})
		check("the parent streams the answer on")
	}
	events(t, m, agent.AssistantDone{Text: md, Final: true})
	check("the parent's answer done")
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	s = check("the turn ended")
	if !strings.Contains(s, "ENDWORD") {
		t.Errorf("the end of the relayed answer is not on the screen:\n%s", s)
	}
}

// osc8 is an OSC 8 hyperlink as the Markdown renderer draws one (its
// target, or none to end it, closed by BEL).
var osc8 = regexp.MustCompile("\x1b\\]8;;([^\x07\x1b]*)\x07")

// ownLinksOut takes out of frame the hyperlinks tick's renderer draws
// itself, which screenProblem does not know, and returns the rest; bad is
// a target that holds anything but printable ASCII or points at the
// hostile answer's evil.example, "" when none does.
func ownLinksOut(frame string) (rest, bad string) {
	for _, m := range osc8.FindAllStringSubmatch(frame, -1) {
		if strings.Contains(m[1], "evil") || strings.IndexFunc(m[1], func(r rune) bool { return r < 0x21 || r > 0x7e }) >= 0 {
			return frame, m[1]
		}
	}
	return osc8.ReplaceAllString(frame, ""), ""
}
