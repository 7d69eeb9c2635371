package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/tick-agent/tick/agent"
)

// emojiText holds the sequences the renderer (wcwidth until the terminal
// reports mode 2027) and the layout (grapheme clusters) measure unlike:
// a skin tone, variation selectors, ZWJ sequences and a keycap.
const emojiText = "ok 👍🏽 I ❤️ it ☺️ the 👨‍👩‍👧 and 👩‍💻 🏳️‍🌈 step 1️⃣ done"

// grapheme2027 is the terminal's answer that it clusters graphemes.
var grapheme2027 = tea.ModeReportMsg{Mode: ansi.ModeUnicodeCore, Value: ansi.ModeReset}

// emojiModel is a w×h model with a plan whose items, the chat's question
// and the answer hold emojiText.
func emojiModel(t *testing.T, w, h int, msgs ...tea.Msg) *Model {
	t.Helper()
	m, _ := newTestModel(t, w, h)
	m.clock = func() time.Time { return goldenT0 } // the elapsed times stay put
	update(m, msgs...)
	submit(m, "plan it "+emojiText)
	events(t, m, agent.TodoUpdate{List: plan("Ship 👍🏽 the ❤️ release",
		"x 1 café ☺️ opened",
		"> Family 👨‍👩‍👧 photos 👍🏽 sorted by year and by place",
		"p Step 1️⃣ then 🏳️‍🌈 flags")},
		agent.TextDelta{Text: "Here it is: " + emojiText + "\n\n- " + emojiText + "\n- plain line"})
	return m
}

// checkBox fails unless no line of m's frame is wider than the screen by
// the renderer's measure and, with the panel at the right, every row of
// the chat a dialog does not cover has the panel's rule at one column.
func checkBox(t *testing.T, m *Model) {
	t.Helper()
	meth := m.widths.cells.Method
	lines := strings.Split(m.View().Content, "\n")
	for i, l := range lines {
		if n := meth.StringWidth(l); n > m.width {
			t.Errorf("row %d is %d cells on a screen of %d: %q", i, n, m.width, ansi.Strip(l))
		}
	}
	if !m.geo.panelWide {
		return
	}
	col := m.geo.chatW + 1
	for i := range m.geo.chatH {
		if strings.ContainsAny(cellAt(meth, lines[i], 0), "╭│╰") {
			continue // a dialog over the chat and the panel
		}
		if got := cellAt(meth, lines[i], col); got != m.st.Glyphs.VRule {
			t.Errorf("row %d has %q at the panel's rule (column %d): %q", i, got, col, ansi.Strip(lines[i]))
		}
	}
}

// cellAt is what the renderer puts at column col of line l, measuring
// with meth: the cluster that starts there, or "" inside a wide one.
func cellAt(meth ansi.Method, l string, col int) string {
	s := ansi.Strip(l)
	for x := 0; s != ""; {
		c, w := ansi.FirstGraphemeCluster(s, meth)
		if x == col {
			return c
		}
		if x > col {
			return ""
		}
		x += w
		s = s[len(c):]
	}
	return ""
}

// TestEmojiFrameHoldsItsBox: with emoji sequences in the plan and the
// chat, at 80 and at 120 columns, no line overflows and the panel's rule
// stays in its column, whether the terminal clusters graphemes (mode 2027)
// or not; without 2027 the sequences are folded to what every terminal
// draws at the layout's width (see the golden), with it they are kept.
func TestEmojiFrameHoldsItsBox(t *testing.T) {
	for _, sz := range [][2]int{{120, 40}, {80, 24}} {
		for _, mode := range []string{"wcwidth", "2027"} {
			t.Run(fmt.Sprintf("%dx%d_%s", sz[0], sz[1], mode), func(t *testing.T) {
				var msgs []tea.Msg
				if mode == "2027" {
					msgs = append(msgs, grapheme2027)
				}
				m := emojiModel(t, sz[0], sz[1], msgs...)
				checkBox(t, m)
				s := screen(m)
				kept := strings.Contains(s, "👍🏽") && strings.Contains(s, "👨‍👩‍👧")
				if kept != (mode == "2027") {
					t.Errorf("mode %s: the sequences kept = %v:\n%s", mode, kept, s)
				}
				if !strings.Contains(s, "1 café") || !strings.Contains(s, "opened") {
					t.Errorf("the panel's first item is cut:\n%s", s)
				}
				if mode == "wcwidth" {
					golden.RequireEqual(t, s)
				}
			})
		}
	}
}

// TestEmojiModeReportRepaints: the answer about mode 2027 changes the
// measure and paints the frame again; another mode's answer paints
// nothing.
func TestEmojiModeReportRepaints(t *testing.T) {
	m := emojiModel(t, 120, 40)
	if strings.Contains(screen(m), "👍🏽") {
		t.Fatal("the skin tone is drawn before the terminal said it clusters graphemes")
	}
	update(m, tea.ModeReportMsg{Mode: ansi.ModeSynchronizedOutput, Value: ansi.ModeReset})
	if m.widths.cells.Method != ansi.WcWidth {
		t.Fatal("mode 2026's answer changed the measure")
	}
	update(m, grapheme2027)
	if m.widths.cells.Method != ansi.GraphemeWidth || !strings.Contains(screen(m), "👍🏽") {
		t.Fatalf("after mode 2027's answer the frame is not drawn by grapheme:\n%s", screen(m))
	}
	checkBox(t, m)
}

// TestSeamEmojiInApprovalQuestion: an approval dialog whose question and
// command hold emoji sequences keeps its right border in one column.
func TestSeamEmojiInApprovalQuestion(t *testing.T) {
	for _, w := range []int{120, 80} {
		m := emojiModel(t, w, 40)
		events(t, m, agent.ApprovalRequest{ID: "c1", Tool: "bash", Once: true, Question: "Post " + emojiText + "?",
			Summary: "echo " + emojiText, Detail: "echo '" + emojiText + "'", Reply: make(chan agent.Approval, 1)})
		checkBox(t, m)
		meth := m.widths.cells.Method
		right := -1
		rows := 0
		for i, l := range strings.Split(m.View().Content, "\n") {
			p := ansi.Strip(l)
			switch {
			case strings.Contains(p, "╭"):
				right = meth.StringWidth(strings.TrimRight(p, " ")) - 1
			case strings.Contains(p, "╰"):
				right = -1
			case right >= 0:
				rows++
				if got := cellAt(meth, l, right); got != "│" {
					t.Errorf("%d columns: dialog row %d has %q at its right border (column %d): %q", w, i, got, right, p)
				}
			}
		}
		if rows < 3 {
			t.Fatalf("%d columns: no dialog box on screen:\n%s", w, screen(m))
		}
		if !strings.Contains(screen(m), "Post ok 👍 I ❤  it") {
			t.Errorf("%d columns: the question is not on screen, folded:\n%s", w, screen(m))
		}
	}
}

// TestSeamEmojiInParallelTaskItem: parallel tasks whose plan items and
// task names hold emoji sequences keep the panel's rule in its column.
func TestSeamEmojiInParallelTaskItem(t *testing.T) {
	for _, mode := range []string{"wcwidth", "2027"} {
		m, _ := newTestModel(t, 140, 30)
		if mode == "2027" {
			update(m, grapheme2027)
		}
		submit(m, "split the work")
		events(t, m, agent.TodoUpdate{List: plan("g", "> Build 👍🏽 the 👨‍👩‍👧 part", "> Test ❤️ it", "> Docs ☺️ 1️⃣")},
			agent.ToolStart{ID: "t1", Name: agent.TaskTool, Summary: "build 👩‍💻 part", Item: "1"},
			agent.ToolStart{ID: "t2", Name: agent.TaskTool, Summary: "test ❤️ part 🏳️‍🌈", Item: "2"},
			agent.Subagent{ParentID: "t2", Event: agent.ToolStart{ID: "c1", Name: "bash", Summary: "echo 👍🏽👍🏽👍🏽"}},
			agent.AssistantDone{Text: emojiText},
		)
		if !strings.Contains(screen(m), "build") || !strings.Contains(screen(m), "test") {
			t.Fatalf("%s: the task rows are not on screen:\n%s", mode, screen(m))
		}
		checkBox(t, m)
	}
}
