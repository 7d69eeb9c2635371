package ui

import (
	"github.com/tick-agent/tick/ui/chat"
	"github.com/tick-agent/tick/ui/status"
	"strconv"

	"github.com/tick-agent/tick/ui/style"

	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/todo"
	"github.com/tick-agent/tick/ui/termsafe"
)

// eventsMsg carries every event that was waiting on a turn's channel, in
// order; closed is set when the channel was closed (after its TurnEnd).
type eventsMsg struct {
	turn   int
	ch     <-chan agent.Event
	events []agent.Event
	closed bool
}

// maxBatch bounds one batch so that a flood of events still yields the
// loop now and then.
const maxBatch = 4096

// waitEvents returns the command that waits for the next event of a turn
// and drains whatever else is already queued on the channel into the same
// message, so a fast stream costs one update and at most one repaint per
// batch. The model re-arms it after each batch until the channel closes.
// Every string of every event is made safe for the terminal here (see
// safeEvent), before the model sees it.
func waitEvents(turn int, ch <-chan agent.Event) tea.Cmd {
	return lingerEvents(turn, ch, time.Time{})
}

// lingerMax is the most events a lingering batch collects before it is
// delivered anyway, well below the turn channel's buffer so that a fast
// stream never waits for the repaint.
const lingerMax = 32

// lingerEvents is waitEvents for a turn that is streaming text: once the
// batch holds only streamed text, it keeps collecting deltas as they
// arrive until until (the next repaint, which shows them anyway), until
// lingerMax of them, or until any other event (a tool call, an approval,
// the end of the turn), which it delivers at once. A stream at a reader's
// pace then costs one message, one update and one wake-up of the update
// loop per frame instead of one per delta. A zero until lingers not at
// all.
func lingerEvents(turn int, ch <-chan agent.Event, until time.Time) tea.Cmd {
	return func() tea.Msg {
		ev, ok := <-ch
		if !ok {
			return eventsMsg{turn: turn, ch: ch, closed: true}
		}
		msg := eventsMsg{turn: turn, ch: ch}
		n := 1 // events taken, shown or not
		msg.add(ev)
		linger := !until.IsZero() && isDelta(ev)
		var timer *time.Timer
		defer func() {
			if timer != nil {
				timer.Stop()
			}
		}()
		for ; n < maxBatch; n++ {
			var expired <-chan time.Time
			if linger && len(msg.events) < lingerMax {
				if timer == nil {
					d := time.Until(until)
					if d <= 0 {
						linger = false
						n--
						continue
					}
					timer = time.NewTimer(d)
				}
				expired = timer.C
			}
			select {
			case ev, ok := <-ch:
				if !ok {
					msg.closed = true
					return msg
				}
				msg.add(ev)
				linger = linger && isDelta(ev)
				continue
			default:
			}
			if expired == nil {
				return msg
			}
			select {
			case ev, ok := <-ch:
				if !ok {
					msg.closed = true
					return msg
				}
				msg.add(ev)
				linger = linger && isDelta(ev)
			case <-expired:
				return msg
			}
		}
		return msg
	}
}

// add appends ev, made safe, to the batch, leaving out what the screen
// never shows: a subagent's streamed answer and thinking (its tools,
// results and final answer arrive as events of their own). Tasks
// streaming side by side then cost the update loop nothing per delta.
func (msg *eventsMsg) add(ev agent.Event) {
	if s, ok := ev.(agent.Subagent); ok {
		switch s.Event.(type) {
		case agent.TextDelta, agent.ReasoningDelta:
			return
		}
	}
	msg.events = append(msg.events, safeEvent(ev))
}

// isDelta reports whether ev only adds streamed text.
func isDelta(ev agent.Event) bool {
	switch ev := ev.(type) {
	case agent.TextDelta, agent.ReasoningDelta, agent.ToolOutput:
		return true
	case agent.Subagent:
		return isDelta(ev.Event)
	}
	return false
}

// handleEvents applies one batch of a turn's events. A batch of streamed
// text only is quiet: it is painted with the next paintMsg.
func (m *Model) handleEvents(msg eventsMsg) (tea.Cmd, bool) {
	t := m.turn
	if t == nil || t.id != msg.turn {
		// A stale turn: keep draining it so its loop never blocks.
		if msg.closed {
			return nil, true
		}
		return waitEvents(msg.turn, msg.ch), true
	}
	t.heard = m.now
	if len(msg.events) == 0 && !msg.closed { // only what the screen never shows
		return waitEvents(t.id, t.ch), true
	}
	onlyText := len(msg.events) > 0 && !msg.closed
	var cmds []tea.Cmd
	for _, ev := range msg.events {
		if !isDelta(ev) {
			onlyText = false
		}
		cmds = append(cmds, m.handleEvent(ev))
	}
	if onlyText {
		cmds = append(cmds, m.paint.schedule())
	}
	if !t.gatePaused() && m.input.Placeholder() == placeholderPaused {
		m.input.SetRunning(true) // the turn went on (steered past the gate)
	}
	switch {
	case msg.closed:
		cmds = append(cmds, m.turnClosed())
	case onlyText: // more text shows with the paint: collect it until then
		cmds = append(cmds, lingerEvents(t.id, t.ch, m.paint.at))
	default:
		cmds = append(cmds, waitEvents(t.id, t.ch))
	}
	return tea.Batch(cmds...), onlyText
}

// handleEvent applies one event of the running turn.
func (m *Model) handleEvent(ev agent.Event) tea.Cmd {
	t := m.turn
	if m.verifyEvent(ev) {
		return nil
	}
	switch ev := ev.(type) {
	case agent.TextDelta:
		m.chat.AppendText(ev.Text)
		t.setAct(status.ActAnswering, "")
	case agent.ReasoningDelta:
		if ev.Rethought {
			m.chat.WithdrawText()
		}
		m.chat.AppendReasoning(ev.Text)
		t.setAct(status.ActThinking, "")
	case agent.AssistantDone:
		m.chat.AssistantDone(ev.Text)
		t.setAct(status.ActThinking, "")
	case agent.ToolStart:
		m.chat.SetNow(m.clock())
		m.chat.StartTool(ev)
		if ev.Name != agent.TodoTool {
			m.panel.ToolCall()
		}
		if ev.Name == "task" {
			m.panel.SubStart(ev)
			m.usage.taskStarted(ev.ID, ev.Summary)
		}
		t.setAct(status.ActTool, ev.Name)
	case agent.ToolEnd:
		m.chat.EndTool(ev)
		m.panel.SubEnd(ev)
		t.setAct(status.ActThinking, "")
	case agent.ToolOutput:
		m.chat.ToolOutput(ev)
	case agent.TodoUpdate:
		m.applyTodo(ev)
	case agent.Subagent:
		return m.handleSubagent(ev)
	case agent.Usage:
		m.usage.parent(ev)
	case agent.Retry:
		m.chat.RetryNotice(retryText(ev))
	case agent.ApprovalRequest:
		m.ask(ev)
		m.input.Blur()
		t.setAct(status.ActApproval, "")
	case agent.UserMessage:
		m.chat.AddUser(ev.Text)
	case agent.SteerDelivered:
		m.handed.delivered(ev.ID)
		m.chat.AddUser(ev.Text)
	case agent.Notice:
		if ev.Transient {
			return m.toast(style.OneLine(ev.Text), toastFor)
		}
		if ev.KeptTask > 0 {
			m.offerKept(ev)
			break
		}
		m.chat.AddNotice(ev.Text)
	case agent.HookFailed:
		m.chat.AddNotice(agent.HookFailureText(ev))
	case agent.Compacted:
		m.chat.AddMark(chat.CompactedLabel(ev))
		m.usage.compacted(ev.After)
	case agent.TurnEnd:
		m.usage.endTurn()
		m.turnEnded(ev)
	default:
		m.handlePlanEvent(ev)
	}
	return nil
}

// replay shows a resumed conversation (the events of agent.Replay) through
// the same handler as a live turn's, while no turn runs, then shows the
// todo list collapsed: todos, the saved list, or else the last one
// replayed.
func (m *Model) replay(evs []agent.Event, todos todo.List) {
	m.chat.SetNow(m.now)
	for _, ev := range evs {
		m.handleEvent(safeEvent(ev)) // a session file is as untrusted as the model that wrote it
	}
	m.chat.EndTurn()
	if todos.Empty() {
		todos = m.panel.List()
	}
	todos = termsafe.Strings(todos)
	m.panel.RestoreKeepTasks(todos)    // the replayed tasks stay under their items
	if pr := m.proposal(); pr != nil { // a resumed plan awaiting approval
		m.showProposal(pr)
	}
}

// messages counts the user and assistant messages among replayed events.
func messages(evs []agent.Event) int {
	n := 0
	for _, ev := range evs {
		switch ev.(type) {
		case agent.UserMessage, agent.AssistantDone:
			n++
		}
	}
	return n
}

// handleSubagent shows a subagent's event under its task call.
func (m *Model) handleSubagent(ev agent.Subagent) tea.Cmd {
	switch inner := ev.Event.(type) {
	case agent.ApprovalRequest:
		return m.handleEvent(inner)
	case agent.Usage:
		m.usage.sub(ev.ParentID, inner)
		m.panel.SubEvent(ev)
		return nil
	case agent.ToolStart:
		m.chat.SetNow(m.clock())
		m.panel.ToolCall()
		m.turn.setAct(status.ActTool, inner.Name)
	case agent.ToolEnd:
		m.turn.setAct(status.ActTool, agent.TaskTool)
	}
	m.panel.SubEvent(ev)
	m.chat.Subagent(ev.ParentID, ev.Event)
	return nil
}

// retryText says that a model call is retried.
func retryText(ev agent.Retry) string {
	s := "model call failed"
	if ev.Err != "" {
		s += " (" + style.FirstLine(ev.Err) + ")"
	}
	s += "; retrying"
	if ev.Max > 0 {
		s += " " + strconv.Itoa(ev.Attempt) + "/" + strconv.Itoa(ev.Max)
	}
	if ev.Wait > 0 {
		s += " in " + style.Duration(ev.Wait)
	}
	return s
}

// safeEvent returns ev with every string made safe for the terminal
// (termsafe.Strings), except the answer's text deltas: the Markdown
// renderer sanitises the answer itself, as a whole, so that an escape
// sequence split between two deltas is removed whole rather than leaving
// its body on the screen.
func safeEvent(ev agent.Event) agent.Event {
	if _, ok := ev.(agent.TextDelta); ok {
		return ev
	}
	return termsafe.Strings(ev)
}
