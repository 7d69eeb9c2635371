package ui

import (
	"fmt"
	"github.com/tick-agent/tick/ui/markdown"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/tick-agent/tick/agent"
)

// find returns the screen cell where the n-th (from 0) occurrence of s
// starts in the chat pane of the last frame.
func find(t *testing.T, m *Model, s string, n int) cell {
	t.Helper()
	for y, l := range m.shownChat {
		plain := ansi.Strip(l)
		for i := strings.Index(plain, s); i >= 0; {
			if n == 0 {
				return cell{ansi.StringWidth(plain[:i]), y}
			}
			n--
			j := strings.Index(plain[i+len(s):], s)
			if j < 0 {
				break
			}
			i += len(s) + j
		}
	}
	t.Fatalf("%q is not in the chat:\n%s", s, strings.Join(m.shownChat, "\n"))
	return cell{}
}

// dragCopy drags from a to b in the chat and returns what was copied.
func dragCopy(t *testing.T, m *Model, a, b cell) string {
	t.Helper()
	update(m, mouseAt("press", a.x, a.y), mouseAt("drag", b.x, b.y))
	got, ok := osc52Text(runCmds(update(m, mouseAt("release", b.x, b.y))))
	if !ok {
		t.Fatalf("a drag from %v to %v copied nothing", a, b)
	}
	return got
}

// showAnswer is a 60×40 model that shows md as the answer to "go".
func showAnswer(t *testing.T, md string) *Model {
	t.Helper()
	m, a := newTestModel(t, 60, 40)
	submit(m, "go")
	events(t, m, agent.AssistantDone{Text: md, Final: true})
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	return m
}

const wrapped = "Alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo."

// TestMouseCopyLogicalText (issue 35 §11): a mouse copy gives the text,
// not the screen's cells: a wrapped paragraph is one line, a quote has no
// bars, code is as written (tabs, no margin), a list item wrapped is one
// line, the selection's ends inside a line copy the part selected.
func TestMouseCopyLogicalText(t *testing.T) {
	code := "func main() {\n\tfmt.Println(\"hi\") // a comment long enough to be cut at the edge of the pane\n\n\treturn\n}"
	tests := []struct {
		name     string
		md       string
		from, to string // the first and last words dragged over (to: its first cell)
		lines    bool   // from the start of from's line to the end of to's
		want     string
	}{
		{"wrapped paragraph", wrapped, "Alpha", "romeo.", true, wrapped},
		{"middle of a paragraph", wrapped, "charlie", "oscar", false, "charlie delta echo foxtrot golf hotel india juliet kilo lima mike november o"},
		{"quote", "> " + wrapped + "\n> second line", "Alpha", "second", true, wrapped + " second line"},
		{"quote from a word", "> " + wrapped, "juliet", "romeo.", true, "juliet kilo lima mike november oscar papa quebec romeo."},
		{"fenced code", "```go\n" + code + "\n```", "func", "}", true, code},
		{"code from an indented line", "```go\n" + code + "\n```", "fmt", "return", true, "\tfmt.Println(\"hi\") // a comment long enough to be cut at the edge of the pane\n\n\treturn"},
		{"list", "- " + wrapped + "\n- two", "Alpha", "two", true, "• " + wrapped + "\n• two"},
		{"list from a word", "- " + wrapped + "\n- two", "Alpha", "two", false, wrapped + "\n• t"},
		{"two blocks", "First para here.\n\n" + wrapped, "First", "romeo.", true, "First para here.\n\n" + wrapped},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := showAnswer(t, tt.md)
			a, b := find(t, m, tt.from, 0), find(t, m, tt.to, 0)
			if tt.lines {
				a.x, b.x = 0, m.geo.chatW-1
			}
			got := dragCopy(t, m, a, b)
			if got != tt.want {
				t.Errorf("copied\n%q\nwant\n%q\nscreen:\n%s", got, tt.want, screen(m))
			}
		})
	}
}

// TestMouseCopyToolOutput: a tool's output is copied as its lines: no
// gutter, a line cut at the pane's edge whole, the hint of hidden lines
// left out, the status line kept; the call's own line as shown.
func TestMouseCopyToolOutput(t *testing.T) {
	m, a := newTestModel(t, 60, 30)
	submit(m, "go")
	long := "first output line that is much longer than the pane is wide, so it is cut at its edge"
	out := long + "\nsecond\nthird\nfourth\nfifth\nexit status 1"
	events(t, m, agent.ToolStart{ID: "1", Name: "bash", Summary: "make"},
		agent.ToolEnd{ID: "1", Name: "bash", Output: out, IsError: true})
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	from := find(t, m, "first", 0)
	to := find(t, m, "exit", 0)
	got := dragCopy(t, m, from, cell{to.x + 20, to.y})
	want := long + "\nsecond\nthird\nexit status 1"
	if got != want {
		t.Errorf("copied\n%q\nwant\n%q\nscreen:\n%s", got, want, screen(m))
	}
	// From the call's line: it is copied as shown, the output as text.
	head := find(t, m, "bash", 0)
	got = dragCopy(t, m, cell{0, head.y}, cell{m.geo.chatW - 1, head.y + 1})
	if !strings.Contains(got, "bash  make") || !strings.HasSuffix(got, "\n"+long) {
		t.Errorf("the call's line and its first output line copied as %q", got)
	}
}

// TestMouseCopyAcrossEntries: a selection from the user's wrapped message
// into the answer copies both as text, without the prompt, a blank line
// between them as on the screen.
func TestMouseCopyAcrossEntries(t *testing.T) {
	m, a := newTestModel(t, 60, 30)
	msg := "please explain the meaning of these words to me in some detail now"
	submit(m, msg)
	events(t, m, agent.AssistantDone{Text: wrapped, Final: true})
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	from := find(t, m, "please", 0)
	to := find(t, m, "quebec", 0)
	got := dragCopy(t, m, cell{0, from.y}, cell{to.x + 5, to.y})
	want := msg + "\n\n" + strings.TrimSuffix(wrapped, " romeo.")
	if got != want {
		t.Errorf("copied\n%q\nwant\n%q\nscreen:\n%s", got, want, screen(m))
	}
}

// TestMouseCopyWithApprovalOpen (seam: an open approval dialog): a drag
// while the dialog is open selects and copies nothing and answers
// nothing; a drag begun before the dialog appeared copies the chat's text
// when it is let go, and the dialog stays open, unanswered.
func TestMouseCopyWithApprovalOpen(t *testing.T) {
	req := agent.ApprovalRequest{ID: "1", Tool: "bash", Summary: "make", Detail: "make"}
	m, _, reply := openApproval(t, 100, 30, req)
	at := find(t, m, "edit", 0)
	update(m, mouseAt("press", 0, at.y), mouseAt("drag", 20, at.y))
	msgs := runCmds(update(m, mouseAt("release", 20, at.y)))
	if _, ok := osc52Text(msgs); ok || m.sel.on {
		t.Errorf("a drag under the open dialog selected or copied: %v", msgs)
	}
	if m.over.top() == nil || len(reply) != 0 {
		t.Fatalf("the drag closed or answered the dialog (replies %d)", len(reply))
	}

	m, a := newTestModel(t, 100, 30)
	submit(m, "please edit "+wrapped)
	events(t, m, agent.ToolStart{ID: "1", Name: "bash", Summary: "make"})
	from, to := find(t, m, "please", 0), find(t, m, "romeo.", 0)
	update(m, mouseAt("press", 0, from.y), mouseAt("drag", 99, to.y))
	ch := make(chan agent.Approval, 1)
	req.Reply = ch
	events(t, m, req)
	if m.over.top() == nil {
		t.Fatal("the approval dialog is not open")
	}
	got, ok := osc52Text(runCmds(update(m, mouseAt("release", 99, to.y))))
	if want := "please edit " + wrapped; !ok || got != want {
		t.Errorf("the drag begun before the dialog copied %q (%v), want %q", got, ok, want)
	}
	if m.over.top() == nil || len(ch) != 0 {
		t.Errorf("letting the drag go closed or answered the dialog")
	}
	_ = a
}

// TestMouseCopyBesideThePanel (seam: the plan panel): rows of a wrapped
// paragraph beside the panel, dragged into the panel, copy the paragraph
// as one line and nothing of the panel.
func TestMouseCopyBesideThePanel(t *testing.T) {
	m, a := newTestModel(t, 140, 30)
	submit(m, "go")
	events(t, m, agent.TodoUpdate{List: plan("Greet", "> Wave hello", "p Say bye")},
		agent.AssistantDone{Text: wrapped + " " + wrapped, Final: true})
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	if !m.geo.panelWide {
		press(m, "ctrl+t")
	}
	if !m.geo.panelWide {
		t.Fatalf("the panel is not beside the chat:\n%s", screen(m))
	}
	from, to := find(t, m, "Alpha", 0), find(t, m, "romeo.", 1)
	got := dragCopy(t, m, cell{0, from.y}, cell{m.geo.chatW + 10, to.y})
	if want := wrapped + " " + wrapped; got != want {
		t.Errorf("copied\n%q\nwant\n%q\nscreen:\n%s", got, want, screen(m))
	}
}

// TestMouseCopyParallelTasks (seam: parallel tasks): over two running
// tasks, the calls' lines are copied as shown and their subagents'
// output as its text, one line each, without the output's gutter.
func TestMouseCopyParallelTasks(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	submit(m, "x")
	long := "compiling the parser takes a while and says so in a line longer than the pane is wide for sure"
	events(t, m, agent.TodoUpdate{List: plan("G", "> Parse", "> Lex"), Rev: 1},
		agent.ToolStart{ID: "t1", Name: agent.TaskTool, Summary: "parse it", Item: "1"},
		agent.ToolStart{ID: "t2", Name: agent.TaskTool, Summary: "lex it", Item: "2"},
		agent.Subagent{ParentID: "t1", Event: agent.ToolStart{ID: "c1", Name: "bash", Summary: "make parser"}},
		agent.Subagent{ParentID: "t1", Event: agent.ToolOutput{ID: "c1", Tail: long + "\nstill going\n", Total: int64(len(long) + 13)}},
		agent.Subagent{ParentID: "t2", Event: agent.ToolStart{ID: "c2", Name: "bash", Summary: "make lexer"}},
		agent.Subagent{ParentID: "t2", Event: agent.ToolEnd{ID: "c2", Name: "bash", Output: "lexed 3 files\nexit status 0"}})
	from, to := find(t, m, "parse it", 0), find(t, m, "exit status 0", 0)
	got := dragCopy(t, m, cell{0, from.y}, cell{99, to.y})
	t.Logf("copied:\n%s", got)
	lines := strings.Split(got, "\n")
	for _, want := range []string{long, "still going", "lexed 3 files", "exit status 0"} {
		found := false
		for _, l := range lines {
			found = found || l == want
		}
		if !found {
			t.Errorf("the copy has no line %q:\n%s", want, got)
		}
	}
	if !strings.Contains(got, "parse it") || !strings.Contains(got, "make lexer") {
		t.Errorf("the calls' lines are not copied:\n%s", got)
	}
	if strings.Contains(got, m.st.Glyphs.ToolOutput) {
		t.Errorf("the output's gutter was copied:\n%s", got)
	}
}

// richAnswer has one of each kind of Markdown block.
const richAnswer = "# Heading with **bold** and `code`\n\n" +
	"A paragraph with *emphasis*, `inline code`, a [link](https://example.com/x) and a very long word Pneumonoultramicroscopicsilicovolcanoconiosis-and-then-some-more-to-wrap.\n" +
	"Its second source line.\n\n" +
	"> A quote with **bold** that wraps over the edge of a narrow pane more than once at least.\n>\n> - a list in it\n\n" +
	"1. first item that is long enough to wrap around a forty-cell pane\n2. second\n   - nested bullet\n\n" +
	"- [ ] a task\n- [x] done task\n\n" +
	"```python\ndef f(x):\n\tif x:  # a comment long enough to be cut at the edge of a narrow pane, surely\n\t\treturn 1\n\n\treturn 2\n```\n\n" +
	"| name | value |\n|---|---|\n| alpha | 1 |\n| beta | 22 |\n\n" +
	"---\n\n" +
	"漢字のテキストも折り返されるはずです。漢字のテキストも折り返されるはずです。\n\n" +
	"Last line."

// TestMouseCopyWholeAnswer: a drag over all of a rich answer, at several
// widths, copies each block's logical text (markdown.LogicalBlock), a
// blank line between blocks: every character of it was found on the
// screen, none is copied twice, nothing of the layout is.
func TestMouseCopyWholeAnswer(t *testing.T) {
	for _, w := range []int{minWidth, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			m, a := newTestModel(t, w, 80)
			submit(m, "go")
			events(t, m, agent.AssistantDone{Text: richAnswer, Final: true})
			endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
			md := markdown.New() // the answer's blocks, as the chat's renderer parses them
			md.Append(richAnswer)
			md.Finish()
			var blocks []string
			for i := range md.Blocks() {
				blocks = append(blocks, md.LogicalBlock(i))
			}
			from, to := find(t, m, "Heading", 0), find(t, m, "Last line.", 0)
			got := dragCopy(t, m, cell{0, from.y}, cell{w - 1, to.y})
			if want := strings.Join(blocks, "\n\n"); got != want {
				t.Errorf("copied\n%s\nwant\n%s\nscreen:\n%s", got, want, screen(m))
			}
			for _, bad := range []string{"│ A quote", "  def f", "# Heading", "\u00a0"} {
				if strings.Contains(got, bad) {
					t.Errorf("the copy has %q:\n%s", bad, got)
				}
			}
			if !strings.Contains(got, "def f(x):\n\tif x:  # a comment long enough to be cut at the edge of a narrow pane, surely\n\t\treturn 1\n\n\treturn 2") {
				t.Errorf("the code is not as written:\n%s", got)
			}
		})
	}
}

// TestMouseCopyStreaming: a drag over an answer still streaming copies
// its unfinished tail as text too, also when more text arrived while the
// button was held (the frame waits for the next paint); lines that no
// longer show what the frame showed are copied as the frame showed them,
// never as other lines' text.
func TestMouseCopyStreaming(t *testing.T) {
	m, _ := newTestModel(t, 60, 30)
	submit(m, "go")
	events(t, m, agent.TextDelta{Text: "Done.\n\n" + wrapped})
	from, to := find(t, m, "Alpha", 0), find(t, m, "romeo.", 0)
	if got := dragCopy(t, m, cell{0, from.y}, cell{59, to.y}); got != wrapped {
		t.Errorf("the streaming tail copied as %q", got)
	}
	update(m, mouseAt("press", 0, from.y), mouseAt("drag", 59, to.y))
	update(m, eventsMsg{turn: m.turn.id, ch: m.turn.ch, events: []agent.Event{agent.TextDelta{Text: " More words"}}})
	got, _ := osc52Text(runCmds(update(m, mouseAt("release", 59, to.y))))
	if got != wrapped {
		t.Errorf("a copy while text streamed in gave %q, want %q", got, wrapped)
	}
	// A frame that no longer matches the chat (drawn before a change).
	update(m, mouseAt("press", 0, from.y), mouseAt("drag", 59, to.y))
	m.shownChat[from.y] = "  Alpha bravo, as an older frame showed it"
	if got, want := m.selectedText(), "  Alpha bravo, as an older frame showed it\n  juliet kilo lima mike november oscar papa quebec romeo."; got != want {
		t.Errorf("a stale frame copied %q, want %q", got, want)
	}
}

// BenchmarkMouseCopy measures what letting go of a selection over a whole
// 120×40 screen of a rich answer costs: the logical text of every block
// on it (a Markdown render each) and the alignment.
func BenchmarkMouseCopy(b *testing.B) {
	m, a := newTestModel(b, 120, 40)
	submit(m, "go")
	events(b, m, agent.AssistantDone{Text: richAnswer + "\n\n" + richAnswer, Final: true})
	endTurn(b, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	m.sel = selection{on: true, a: cell{0, 0}, b: cell{119, m.geo.chatH - 1}}
	b.ResetTimer()
	for range b.N {
		if m.selectedText() == "" {
			b.Fatal("nothing selected")
		}
	}
}

// TestMouseCopyFromABlankLine: a drag that starts on the blank line above
// an answer copies no blank line before it.
func TestMouseCopyFromABlankLine(t *testing.T) {
	m := showAnswer(t, wrapped)
	from, to := find(t, m, "Alpha", 0), find(t, m, "romeo.", 0)
	if got := dragCopy(t, m, cell{0, from.y - 1}, cell{59, to.y + 2}); got != wrapped {
		t.Errorf("copied %q, want %q", got, wrapped)
	}
}
