package ui

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/tick-agent/tick/agent"
)

// benchModel returns a 120×40 model whose transcript holds n entries: user
// messages, Markdown answers and tool calls, as a long session would.
func benchModel(b *testing.B, n int) *Model {
	b.Helper()
	m, _ := newTestModel(b, 120, 40)
	for i := 0; m.chat.Len() < n; i++ {
		switch i % 4 {
		case 0:
			m.chat.AddUser(fmt.Sprintf("Please change function number %d so that it handles errors.", i))
		case 1:
			m.chat.AssistantDone(fmt.Sprintf("Done with **step %d**:\n\n- checked the callers\n- added `err` returns\n\n```go\nfunc f%d() error { return nil }\n```\n", i, i))
		case 2:
			id := fmt.Sprint(i)
			m.chat.StartTool(agent.ToolStart{ID: id, Name: "bash", Summary: "go test ./..."})
			m.chat.EndTool(agent.ToolEnd{ID: id, Name: "bash", Output: "ok  pkg/a 0.1s\nok  pkg/b 0.2s\nok  pkg/c 0.3s\nok  pkg/d 0.4s", Duration: time.Second})
		case 3:
			m.chat.AddNotice("reminded the model to update its todo list")
		}
	}
	m.panel.SetList(plan("Refactor error handling", "x Find callers", "> Add returns", "p Run tests"), time.Now())
	m.layout()
	m.View()
	return m
}

func benchView(b *testing.B, n int) {
	m := benchModel(b, n)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		m.paint.changed() // draw the whole frame every time
		m.draw()
	}
}

// BenchmarkView10 and BenchmarkView5000 draw a full frame of a session
// with 10 and with 5,000 transcript entries: the cost must not grow with
// the length of the session.
func BenchmarkView10(b *testing.B)   { benchView(b, 10) }
func BenchmarkView5000(b *testing.B) { benchView(b, 5000) }

// streamText is ~100,000 characters of Markdown, as a long answer.
func streamText() string {
	var sb strings.Builder
	for i := 0; sb.Len() < 100_000; i++ {
		fmt.Fprintf(&sb, "## Part %d\n\nThis paragraph explains **step %d** with `inline code` and a [link](http://example.com/%d). It is long enough to wrap across a few lines of the chat pane.\n\n", i, i, i)
		fmt.Fprintf(&sb, "- first point of part %d\n- second point with *emphasis*\n\n```go\nfunc step%d() error {\n\treturn nil\n}\n```\n\n", i, i)
	}
	return sb.String()[:100_000]
}

// BenchmarkStreamTUI streams 100,000 characters as TextDelta events of
// ~5 characters through Update, in batches of 20 events, and draws a frame
// every 30 batches (about what a fast server and the ~30 fps repaint tick
// give). Like Bubble Tea, it calls View after every Update; between repaint
// ticks that returns the last frame without drawing.
func BenchmarkStreamTUI(b *testing.B) {
	text := streamText()
	var deltas []agent.Event
	for i := 0; i < len(text); i += 5 {
		deltas = append(deltas, agent.TextDelta{Text: text[i:min(i+5, len(text))]})
	}
	const batch = 20
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		m, a := newTestModel(b, 120, 40)
		submit(m, "write a long answer")
		id, ch := m.turn.id, m.turn.ch
		b.StartTimer()
		for i, n := 0, 0; i < len(deltas); i, n = i+batch, n+1 {
			m.Update(eventsMsg{turn: id, ch: ch, events: deltas[i:min(i+batch, len(deltas))]})
			_ = m.View()
			if n%30 == 0 {
				m.Update(paintMsg{})
				_ = m.View()
			}
		}
		m.Update(eventsMsg{turn: id, ch: ch, events: []agent.Event{agent.AssistantDone{Final: true}, agent.TurnEnd{Reason: agent.ReasonDone}}, closed: true})
		_ = m.View()
		_ = a
	}
}

// BenchmarkTyping measures one key press in the input, with its frame.
func BenchmarkTyping(b *testing.B) {
	m := benchModel(b, 1000)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		r := rune('a' + i%26)
		m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
		_ = m.View()
		if i%200 == 199 {
			m.input.Reset()
		}
	}
}

// BenchmarkStreamFrame is one frame while an answer streams at a reader's
// pace (~2,000 characters a second at ~30 frames a second: ~67 characters
// a frame) into the last block of a long answer: the batch of deltas, the
// repaint tick and the frame. Its cost must not grow with the answer.
func BenchmarkStreamFrame(b *testing.B) { benchStreamFrame(b, nil) }

// BenchmarkStreamFrameScreen is BenchmarkStreamFrame plus what Bubble
// Tea's renderer does with each frame: parse the view into cells, diff
// them against the previous frame and write the changes. It measures the
// per-frame cost of the renderer's dependencies (ultraviolet) as well as
// tick's own.
func BenchmarkStreamFrameScreen(b *testing.B) { benchStreamFrame(b, newBenchScreen(120, 40)) }

// benchScreen is Bubble Tea's frame pipeline without a terminal.
type benchScreen struct {
	buf uv.ScreenBuffer
	scr *uv.TerminalRenderer
}

func newBenchScreen(w, h int) *benchScreen {
	scr := uv.NewTerminalRenderer(io.Discard, []string{"TERM=xterm-256color"})
	scr.SetColorProfile(colorprofile.ANSI256)
	scr.SetFullscreen(true)
	scr.Resize(w, h)
	buf := uv.NewScreenBuffer(w, h)
	buf.Method = ansi.GraphemeWidth // as Bubble Tea sets it for a terminal that reports mode 2027 (tmux does not)
	return &benchScreen{buf: buf, scr: scr}
}

// draw puts content on the screen as Bubble Tea's flush does.
func (s *benchScreen) draw(content string) {
	s.buf.Clear()
	uv.NewStyledString(content).Draw(s.buf, s.buf.Bounds())
	s.scr.Render(s.buf.RenderBuffer)
	_ = s.scr.Flush()
}

func benchStreamFrame(b *testing.B, screen *benchScreen) {
	text := streamText()
	m, _ := newTestModel(b, 120, 40)
	submit(m, "write a long answer")
	id, ch := m.turn.id, m.turn.ch
	const perFrame = 67
	send := func(s string) {
		var evs []agent.Event
		for i := 0; i < len(s); i += 4 {
			evs = append(evs, agent.TextDelta{Text: s[i:min(i+4, len(s))]})
		}
		m.Update(eventsMsg{turn: id, ch: ch, events: evs})
		_ = m.View()
		m.Update(paintMsg{})
		v := m.View()
		if screen != nil {
			screen.draw(v.Content)
		}
	}
	send(text[:20_000]) // an answer already on screen
	pos := 20_000
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if pos+perFrame > len(text) {
			b.StopTimer()
			m, _ = newTestModel(b, 120, 40)
			submit(m, "write a long answer")
			id, ch = m.turn.id, m.turn.ch
			send(text[:20_000])
			pos = 20_000
			b.StartTimer()
		}
		send(text[pos : pos+perFrame])
		pos += perFrame
	}
}

// BenchmarkFirstFrame is the start-up of the TUI up to its first frame:
// the model, the size and the first View (drawn before Bubble Tea's first
// frame tick, see firstframe.go).
func BenchmarkFirstFrame(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		m := New(Config{Agent: &scriptAgent{}, Model: "test-model", Workspace: "/tmp/ws", Dark: true, Version: "test"})
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		_ = firstFrame(m.View(), 120, 40, colorprofile.TrueColor)
	}
}
