package ui

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
)

// longAnswer returns about n bytes of Markdown: paragraphs, lists and
// short code blocks, then one code fence of many lines (a model writing a
// whole file), the shape that used to cost the most memory.
func longAnswer(n int) string {
	var sb strings.Builder
	for i := 0; sb.Len() < n/2; i++ {
		fmt.Fprintf(&sb, "## Part %d\n\nThis paragraph explains **step %d** with `inline code` and a [link](http://example.com/%d), long enough to wrap.\n\n- first point\n- second point\n\n```go\nfunc step%d() error { return nil }\n```\n\n", i, i, i, i)
	}
	sb.WriteString("```go\n")
	for i := 0; sb.Len() < n; i++ {
		fmt.Fprintf(&sb, "\tx%d := compute(%d, \"a string\") // one line of a long file\n", i, i)
	}
	sb.WriteString("```\n\nEND-OF-ANSWER\n")
	return sb.String()
}

// TestLongAnswerMemoryBounded streams a 1.5 MB answer through the model,
// draws it, then scrolls back through much of it, and checks that the
// heap grows by a small multiple of the text: the source is kept once
// and rendered lines only for what was on screen lately (the highlighted
// lines of a long code block are many times its text). It is a bound on
// memory, not on time.
func TestLongAnswerMemoryBounded(t *testing.T) {
	text := longAnswer(1_500_000)
	m, _ := newTestModel(t, 120, 40)
	submit(m, "write a long answer")
	base := heapInUse()
	id, ch := m.turn.id, m.turn.ch
	const chunk = 64
	for i := 0; i < len(text); i += 100 * chunk {
		var evs []agent.Event
		for j := i; j < min(i+100*chunk, len(text)); j += chunk {
			evs = append(evs, agent.TextDelta{Text: text[j:min(j+chunk, len(text))]})
		}
		update(m, eventsMsg{turn: id, ch: ch, events: evs}, paintMsg{})
		m.View()
	}
	update(m, eventsMsg{turn: id, ch: ch, events: []agent.Event{agent.AssistantDone{Final: true}, agent.TurnEnd{Reason: agent.ReasonDone}}, closed: true})
	if s := screen(m); !strings.Contains(s, "END-OF-ANSWER") {
		t.Fatalf("the answer's end is not on screen:\n%s", s)
	}
	press(m, "home")
	for range 300 {
		press(m, "pgdown")
		m.View()
	}
	grown := heapInUse() - base
	if got := m.chat.LastAnswer(); len(got) != len(text) {
		t.Fatalf("the last entry does not hold the whole answer")
	}
	ratio := float64(grown) / float64(len(text))
	t.Logf("heap growth %d bytes for a %d-byte answer (%.1f×)", grown, len(text), ratio)
	if ratio > 6 {
		t.Errorf("the heap grew by %d bytes for a %d-byte answer (%.1f×), want at most 6×", grown, len(text), ratio)
	}
	runtime.KeepAlive(m)
	runtime.KeepAlive(text)
}

// heapInUse returns the live heap after a collection.
func heapInUse() int64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}
