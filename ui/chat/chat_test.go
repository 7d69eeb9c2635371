package chat

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tick-agent/tick/ui/markdown"
	"github.com/tick-agent/tick/ui/style"
)

// Tests of the chat's own workings, moved from the root with the chat: the
// live text of a running command, a thought's bound, what is rendered
// when. They drive the chat as the root does (its methods, then View as a
// frame draws it) at the size the app gives it; the chat in the app is
// tested in the root.

// newPane is a chat w cells wide and h lines high (the app at 100x30 gives
// the chat 100x27).
func newPane(w, h int) *Model {
	st := style.DefaultStyles(true)
	c := New(&st)
	c.SetSize(w, h)
	return c
}

// streamText is ~100,000 characters of Markdown, as a long answer (as the
// root's benchmarks stream it).
func streamText() string {
	var sb strings.Builder
	for i := 0; sb.Len() < 100_000; i++ {
		fmt.Fprintf(&sb, "## Part %d\n\nThis paragraph explains **step %d** with `inline code` and a [link](http://example.com/%d). It is long enough to wrap across a few lines of the chat pane.\n\n", i, i, i)
		fmt.Fprintf(&sb, "- first point of part %d\n- second point with *emphasis*\n\n```go\nfunc step%d() error {\n\treturn nil\n}\n```\n\n", i, i)
	}
	return sb.String()[:100_000]
}

func TestLiveText(t *testing.T) {
	tests := []struct {
		tail string
		cut  bool
		want string
	}{
		{"a\nb\n", false, "a\nb"},
		{"rtial\nwhole\n", true, "whole"},
		{"10%\r50%\r100%\n", false, "100%"},
		{"line\r\n", false, "line"},
		{"tab\there", false, "tab    here"},
	}
	for _, tt := range tests {
		if got := liveText(tt.tail, tt.cut); got != tt.want {
			t.Errorf("liveText(%q, %v) = %q, want %q", tt.tail, tt.cut, got, tt.want)
		}
	}
}

// TestThoughtIsBounded: a huge thought is kept only up to maxThought.
func TestThoughtIsBounded(t *testing.T) {
	c := newPane(100, 37)
	c.AddUser("why")
	chunk := strings.Repeat("é", 1000)
	for range 200 {
		c.AppendReasoning(chunk) // as the root applies agent.ReasoningDelta
	}
	for _, e := range c.entries {
		if e.kind == entryReasoning && len(e.text) > maxThought {
			t.Fatalf("the thought keeps %d bytes, more than %d", len(e.text), maxThought)
		}
	}
}

func TestChatRendersOnlyWhatChanged(t *testing.T) {
	c := newPane(100, 27)
	c.AddNotice("Welcome")
	c.View()
	before := len(c.entries) // drawn by the first frame
	for i := range 50 {
		c.AddUser(fmt.Sprintf("message %d", i))
	}
	c.View()
	for i, e := range c.entries {
		rendered := e.width != 0
		onScreen := i >= len(c.entries)-15
		if rendered && !onScreen && i >= before {
			t.Fatalf("entry %d far above the screen was rendered", i)
		}
	}
	last := len(c.entries) - 1
	c.entries[last-1].lines = []string{"sentinel"} // must stay cached
	c.AddNotice("new")
	c.View()
	if got := c.entries[last-1].lines; len(got) != 1 || got[0] != "sentinel" {
		t.Fatal("an unchanged entry was rendered again")
	}
	// A resize renders entries again for the new width, only when visible.
	c.SetSize(90, 27)
	c.View()
	if c.entries[0].width == 90 {
		t.Fatal("an entry off screen was rendered after the resize")
	}
	if c.entries[last].width != 90 {
		t.Fatal("a visible entry was not rendered for the new width")
	}
}

// transcript returns every line of the chat as the pane would show it with
// unlimited height, the answer rendered in one go by markdown.Render (not
// through the chat's lazy layout).
func transcript(t *testing.T, c *Model, answer string) []string {
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
func seeBlocks(c *Model, e *entry, seen map[int]bool) {
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
	c := newPane(100, 27)
	c.AddUser("write a long answer")
	var e *entry
	seen := map[int]bool{}
	for i, k := 0, 0; i < len(doc); i, k = i+7, k+1 {
		c.AppendText(doc[i:min(i+7, len(doc))])
		if e == nil {
			e = c.entries[c.streaming]
		}
		if k%430 == 429 { // a frame every ~3,000 characters, as a fast stream at 30 fps
			c.View() // a frame
			seeBlocks(c, e, seen)
			if got := e.md.Renders(); got != len(seen) {
				t.Fatalf("after %d bytes: %d blocks rendered, %d were on screen", i, got, len(seen))
			}
		}
	}
	c.AssistantDone("")
	c.EndTurn()
	c.View()
	seeBlocks(c, e, seen)
	blocks := e.md.Blocks()
	if got := e.md.Renders(); got != len(seen) || got > blocks/2 {
		t.Fatalf("streamed answer of %d blocks: %d rendered, %d were on screen", blocks, got, len(seen))
	}

	h := c.height
	full := transcript(t, c, doc)
	if got, want := c.View(), full[len(full)-h:]; !slices.Equal(got, want) {
		t.Fatalf("bottom of the answer:\n got %q\nwant %q", got, want)
	}

	start := len(full) - h
	for pages := 0; start > 0; pages++ {
		if pages > len(full) {
			t.Fatal("pgup never reached the top")
		}
		c.ScrollUp(max(h-1, 1)) // pgup
		start = max(start-(h-1), 0)
		c.View()
		got := c.View()
		if want := full[start : start+h-1]; !slices.Equal(got[:h-1], want) {
			t.Fatalf("page at line %d of %d:\n got %q\nwant %q", start, len(full), got[:h-1], want)
		}
	}
	if got := e.md.Renders(); got != blocks {
		t.Errorf("after paging through all %d blocks: %d renders, want each block once", blocks, got)
	}

	// A resize renders the blocks on screen for the new width, only those.
	c.SetSize(80, 27)
	c.View()
	full = transcript(t, c, doc)
	if got, want := c.View()[:h-1], full[:h-1]; !slices.Equal(got, want) {
		t.Fatalf("top after the resize:\n got %q\nwant %q", got, want)
	}
	if got := e.md.Renders() - blocks; got == 0 || got > h {
		t.Errorf("the resize rendered %d blocks, want only those on screen (at most %d)", got, h)
	}
	before := e.md.Renders()
	c.ToBottom() // end
	c.View()
	if got, want := c.View(), full[len(full)-h:]; !slices.Equal(got, want) {
		t.Fatalf("bottom after the resize:\n got %q\nwant %q", got, want)
	}
	if got := e.md.Renders() - before; got == 0 || got > h {
		t.Errorf("end rendered %d blocks, want only those on screen (at most %d)", got, h)
	}
}
