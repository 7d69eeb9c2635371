package ui

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
)

// TestScrolledIntoTheTail: scrolled up into a long code fence that is
// still streaming (the answer's plain tail), the view stays put while
// text arrives and stays on the same code when the fence closes and
// becomes a rendered block.
func TestScrolledIntoTheTail(t *testing.T) {
	m, a := newTestModel(t, 80, 20)
	submit(m, "go")
	var code strings.Builder
	code.WriteString("Intro.\n\n```go\n")
	for i := range 60 {
		fmt.Fprintf(&code, "x%02d := %d\n", i, i)
	}
	events(t, m, agent.TextDelta{Text: code.String()})
	press(m, "pgup")
	before := screen(m)
	if !strings.Contains(before, "more below") || !strings.Contains(before, "x4") {
		t.Fatalf("pgup did not scroll into the code:\n%s", before)
	}
	events(t, m, agent.TextDelta{Text: "x60 := 60\n"})
	if got := screen(m); got != before {
		t.Fatalf("the view moved while text arrived:\n%s", got)
	}
	events(t, m, agent.TextDelta{Text: "```\n\nAfter.\n"}, agent.AssistantDone{Final: true})
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	after := screen(m)
	if strings.Contains(after, "```") || !strings.Contains(after, "more below") {
		t.Fatalf("after the fence closed:\n%s", after)
	}
	// The same lines of code are on screen, give or take the fence line.
	firstCode := func(s string) int {
		for _, l := range strings.Split(s, "\n") {
			if f := strings.Fields(l); len(f) > 0 && len(f[0]) == 3 && f[0][0] == 'x' {
				if n, err := strconv.Atoi(f[0][1:]); err == nil {
					return n
				}
			}
		}
		return -100
	}
	b, f := firstCode(before), firstCode(after)
	if b < 0 || f < 0 || f < b-1 || f > b+1 {
		t.Fatalf("view jumped from x%02d to x%02d:\n%s", b, f, after)
	}
}
