package ui

import (
	"fmt"
	"testing"

	"github.com/tick-agent/tick/agent"
)

// BenchmarkTaskStreamFrame is one frame (1/20 s) of the TUI while tasks
// stream at 2,000 characters a second each in 4-character deltas (25
// deltas a task a frame), and a tool call a second in every task: the
// events go through the waiter as they do live, then the update, the
// repaint tick and the frame. Compare tasks=1 with tasks=3:
//
//	go test -run '^$' -bench BenchmarkTaskStreamFrame -benchmem ./ui/
func BenchmarkTaskStreamFrame(b *testing.B) {
	for _, k := range []int{1, 3} {
		b.Run(fmt.Sprintf("tasks=%d", k), func(b *testing.B) {
			m, _ := newTestModel(b, 120, 40)
			submit(m, "split the work")
			evs := []agent.Event{agent.TodoUpdate{List: plan("g", "> Build", "> Test", "> Docs")}}
			for i := 1; i <= k; i++ {
				evs = append(evs, agent.ToolStart{ID: fmt.Sprint("t", i), Name: agent.TaskTool, Summary: fmt.Sprint("part ", i), Item: fmt.Sprint(i)})
			}
			m.Update(eventsMsg{turn: m.turn.id, ch: m.turn.ch, events: evs})
			ch := make(chan agent.Event, 256)
			b.ReportAllocs()
			b.ResetTimer()
			for n := range b.N {
				for i := 1; i <= k; i++ {
					id := fmt.Sprint("t", i)
					for range 25 {
						ch <- agent.Subagent{ParentID: id, Event: agent.TextDelta{Text: "text"}}
					}
					if n%20 == 0 { // a tool call a second
						ch <- agent.Subagent{ParentID: id, Event: agent.ToolStart{ID: fmt.Sprint(id, "-", n), Name: "bash", Summary: "go test"}}
					}
				}
				for len(ch) > 0 {
					msg := waitEvents(m.turn.id, ch)().(eventsMsg)
					msg.ch = m.turn.ch
					m.Update(msg)
					_ = m.View()
				}
				m.Update(paintMsg{})
				_ = m.View()
			}
		})
	}
}
