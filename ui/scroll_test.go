package ui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/ui/markdown"
)

// transcript returns every line of the chat as the pane would show it with
// unlimited height, the answer rendered in one go by markdown.Render (not
// through the chat's lazy layout).
func transcript(t *testing.T, c *chat, answer string) []string {
	t.Helper()
	var out []string
	for i, e := range c.entries {
		if e.kind != entryAssistant {
			out = append(out, e.render(c.st, c.width, c.gap(i), c.now)...)
			continue
		}
		if i > 0 {
			out = append(out, "")
		}
		out = append(out, markdown.Render(answer, c.width, c.mdStyle)...)
	}
	return out
}

// seeBlocks records which blocks of answer e the pane shows now (and
// block 0, which decides the blank line above the others).
func seeBlocks(c *chat, e *entry, seen map[int]bool) {
	a := c.clamp(c.top)
	if c.follow {
		a = c.bottomAnchor()
	}
	for n, ok := 0, true; ok && n < c.height; a, ok = c.next(a) {
		l := len(c.partLines(a))
		n += l - min(a.off, l)
		if c.entries[a.idx] != e || e.md.Blocks() == 0 {
			continue
		}
		seen[0] = true
		if a.part >= 1 && a.part <= e.md.Blocks() {
			seen[a.part-1] = true
		}
	}
}

// TestLongAnswerIsRenderedLazily streams a long answer with a frame now and
// then: only the blocks on screen in some frame are rendered. Paging up to
// the top then renders each block it reaches, once, and every page equals
// the same lines of the answer rendered in one go; a resize renders only
// what is on screen at the new width.
func TestLongAnswerIsRenderedLazily(t *testing.T) {
	doc := streamText()[:20_000]
	m, a := newTestModel(t, 100, 30)
	submit(m, "write a long answer")
	id, ch := m.turn.id, m.turn.ch
	var e *entry
	seen := map[int]bool{}
	for i, k := 0, 0; i < len(doc); i, k = i+7, k+1 {
		update(m, eventsMsg{turn: id, ch: ch, events: []agent.Event{agent.TextDelta{Text: doc[i:min(i+7, len(doc))]}}})
		if e == nil {
			e = m.chat.entries[m.chat.streaming]
		}
		if k%430 == 429 { // a frame every ~3,000 characters, as a fast stream at 30 fps
			update(m, paintMsg{})
			m.View()
			seeBlocks(m.chat, e, seen)
			if got := e.md.Renders(); got != len(seen) {
				t.Fatalf("after %d bytes: %d blocks rendered, %d were on screen", i, got, len(seen))
			}
		}
	}
	events(t, m, agent.AssistantDone{Final: true})
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	m.View()
	seeBlocks(m.chat, e, seen)
	blocks := e.md.Blocks()
	if got := e.md.Renders(); got != len(seen) || got > blocks/2 {
		t.Fatalf("streamed answer of %d blocks: %d rendered, %d were on screen", blocks, got, len(seen))
	}

	c := m.chat
	h := c.height
	full := transcript(t, c, doc)
	if got, want := c.view(), full[len(full)-h:]; !slices.Equal(got, want) {
		t.Fatalf("bottom of the answer:\n got %q\nwant %q", got, want)
	}

	start := len(full) - h
	for pages := 0; start > 0; pages++ {
		if pages > len(full) {
			t.Fatal("pgup never reached the top")
		}
		press(m, "pgup")
		start = max(start-(h-1), 0)
		m.View()
		got := c.view()
		if want := full[start : start+h-1]; !slices.Equal(got[:h-1], want) {
			t.Fatalf("page at line %d of %d:\n got %q\nwant %q", start, len(full), got[:h-1], want)
		}
	}
	if got := e.md.Renders(); got != blocks {
		t.Errorf("after paging through all %d blocks: %d renders, want each block once", blocks, got)
	}

	// A resize renders the blocks on screen for the new width, only those.
	update(m, tea.WindowSizeMsg{Width: 80, Height: 30})
	m.View()
	full = transcript(t, c, doc)
	if got, want := c.view()[:h-1], full[:h-1]; !slices.Equal(got, want) {
		t.Fatalf("top after the resize:\n got %q\nwant %q", got, want)
	}
	if got := e.md.Renders() - blocks; got == 0 || got > h {
		t.Errorf("the resize rendered %d blocks, want only those on screen (at most %d)", got, h)
	}
	before := e.md.Renders()
	press(m, "end")
	m.View()
	if got, want := c.view(), full[len(full)-h:]; !slices.Equal(got, want) {
		t.Fatalf("bottom after the resize:\n got %q\nwant %q", got, want)
	}
	if got := e.md.Renders() - before; got == 0 || got > h {
		t.Errorf("end rendered %d blocks, want only those on screen (at most %d)", got, h)
	}
}

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
