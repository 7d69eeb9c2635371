package ui

import (
	"context"
	"errors"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/tick-agent/tick/agent"
)

// turn is the running turn: its events, the cancel func of its context and
// what it is doing. It stays set from Run (or Compact) until its channel
// closes; ended is set when its TurnEnd arrived.
type turn struct {
	id      int
	ch      <-chan agent.Event
	cancel  context.CancelFunc
	start   time.Time
	ended   bool
	act     activity
	tool    string
	compact bool // a compaction (/compact), not a model turn: nothing to steer
}

// setAct records what the turn does, unless it is being interrupted or is
// a compaction (which only ever compacts).
func (t *turn) setAct(a activity, tool string) {
	if t == nil || t.act == actInterrupting || t.ended || t.compact {
		return
	}
	t.act, t.tool = a, tool
}

// placeholderCompacting is the input's placeholder during a compaction.
const placeholderCompacting = "enter or tab to queue the next prompt · esc to interrupt"

// running reports whether a turn runs and has not ended.
func (m *Model) running() bool { return m.turn != nil && !m.turn.ended }

// startTurn sends text as a new turn.
func (m *Model) startTurn(text string) tea.Cmd {
	m.chat.addUser(text)
	m.chat.toBottom()
	if m.cfg.Agent == nil {
		m.chat.addError("no model is configured", "Start tick with a model (see tick --help).")
		return nil
	}
	ctx, cancel := context.WithCancel(m.ctx)
	m.planTurnStart()
	m.panel.turnStart(m.now)
	return m.begin(&turn{cancel: cancel, act: actThinking, ch: m.cfg.Agent.Run(ctx, text)})
}

// startCompact runs a compaction (/compact) through the same machinery as
// a turn: the status bar says "compacting" with the spinner, esc cancels
// it, and what is typed meanwhile is queued (there is no model turn to
// steer). Its Compacted event shows as a marker in the chat.
func (m *Model) startCompact() tea.Cmd {
	if m.turn != nil {
		m.chat.addNotice("/compact waits for the running turn: press esc to interrupt it first")
		return nil
	}
	m.chat.toBottom()
	if m.cfg.Agent == nil {
		m.chat.addError("no model is configured", "Start tick with a model (see tick --help).")
		return nil
	}
	ctx, cancel := context.WithCancel(m.ctx)
	cmd := m.begin(&turn{cancel: cancel, act: actCompacting, compact: true, ch: m.cfg.Agent.Compact(ctx)})
	m.input.ta.Placeholder = placeholderCompacting // setRunning chose the steering one
	return cmd
}

// begin makes t the running turn and starts reading its events and the
// spinner.
func (m *Model) begin(t *turn) tea.Cmd {
	m.seq++
	t.id, t.start = m.seq, m.now
	m.turn = t
	m.input.setRunning(true)
	return tea.Batch(waitEvents(t.id, t.ch), m.spin.Tick)
}

// submit sends the input: a slash command, a new turn, or while a turn
// runs a steer message (enter) or a queued one (tab).
func (m *Model) submit(queue bool) tea.Cmd {
	text := m.input.value()
	if strings.TrimSpace(text) == "" {
		return nil
	}
	if cmd, ok := m.runCommand(text); ok {
		return cmd
	}
	m.input.remember(text)
	m.input.reset()
	m.chat.toBottom()
	switch {
	case m.turn == nil:
		return m.startTurn(text)
	case m.turn.ended || m.turn.act == actInterrupting:
		m.next = append(m.next, text) // sent as soon as the turn is gone
	case queue || m.turn.compact:
		m.queued = append(m.queued, text)
	case m.cfg.Agent.Steer(text):
		m.steering = append(m.steering, text)
	default: // the turn is just ending: this becomes the next prompt
		m.next = append(m.next, text)
	}
	return nil
}

// interrupt cancels the running turn at once. Its TurnEnd follows.
func (m *Model) interrupt() {
	if !m.running() {
		return
	}
	m.turn.cancel()
	m.turn.act = actInterrupting
	m.dropApprovals()
}

// dropApprovals denies every open approval request.
func (m *Model) dropApprovals() {
	for _, a := range m.approvals {
		a.reply(agent.Approval{})
	}
	m.approvals = nil
	m.input.focus()
}

// steerDelivered moves a steer message from "steering" into the chat.
func (m *Model) steerDelivered(text string) {
	i := 0
	for j, s := range m.steering {
		if s == text {
			i = j
			break
		}
	}
	if i < len(m.steering) {
		m.steering = append(m.steering[:i], m.steering[i+1:]...)
	}
	m.chat.endStream()
	m.chat.addUser(text)
}

// turnEnded applies a TurnEnd: the panel collapses, the chat says how the
// turn ended, and nothing the user wrote is lost: after a finished turn,
// undelivered and queued messages become the next turn; after an interrupt
// or an error they come back into the input.
func (m *Model) turnEnded(ev agent.TurnEnd) {
	t := m.turn
	t.ended = true
	t.cancel()
	m.chat.now = m.now
	m.chat.endTurn()
	if !t.compact {
		m.panel.turnEnd(m.now)
	}
	m.dropApprovals()
	m.input.setRunning(false)
	back := append(append([]string(nil), ev.Undelivered...), m.queued...)
	m.steering, m.queued = nil, nil
	switch ev.Reason {
	case agent.ReasonDone:
		m.next = append(back, m.next...)
		return
	case agent.ReasonInterrupted:
		note := "Interrupted"
		if t.compact {
			note = "Compaction interrupted · the conversation is unchanged"
		}
		if len(back) > 0 {
			note += " · what was not sent yet is back in the input"
		}
		m.chat.addInterrupted(note)
	default:
		msg := ev.Error
		if msg == "" && ev.Err != nil {
			msg = ev.Err.Error()
		}
		if msg == "" {
			msg = "the turn failed"
		}
		if t.compact && !errors.Is(ev.Err, agent.ErrBusy) {
			msg = "could not compact the conversation: " + msg
		}
		m.chat.addError(msg, errorHint(msg, ev.Err))
	}
	m.restore(back)
}

// turnClosed runs when the turn's channel closed: the app is idle again,
// and messages waiting for the next turn are sent.
func (m *Model) turnClosed() tea.Cmd {
	if !m.turn.ended {
		m.turnEnded(agent.TurnEnd{Reason: agent.ReasonError, Error: "the agent stopped without ending the turn"})
	}
	m.turn = nil
	if len(m.next) == 0 {
		return nil
	}
	text := strings.Join(m.next, "\n\n")
	m.next = nil
	return m.startTurn(text)
}

// restore puts texts back into the input, before what is typed there.
func (m *Model) restore(texts []string) {
	var parts []string
	for _, s := range texts {
		if strings.TrimSpace(s) != "" {
			parts = append(parts, s)
		}
	}
	if len(parts) == 0 {
		return
	}
	if cur := m.input.value(); strings.TrimSpace(cur) != "" {
		parts = append(parts, cur)
	}
	m.input.setValue(strings.Join(parts, "\n"))
}

// errorHint says what to do about a failed turn.
func errorHint(msg string, err error) string {
	const retry = " The conversation is kept; ↑ recalls your last prompt."
	l := strings.ToLower(msg)
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(l, w) {
				return true
			}
		}
		return false
	}
	switch {
	case errors.Is(err, agent.ErrBusy):
		return "Wait for the running turn to end, or press esc to interrupt it."
	case has("401", "unauthorized", "api key", "api_key"):
		return "Check OPENAI_API_KEY (and OPENAI_BASE_URL), then send your message again." + retry
	case has("403", "forbidden"):
		return "The server refused access: check the key's permissions and the model name." + retry
	case has("404", "not found", "does not exist", "unknown model"):
		return "Check the model name (--model or TICK_MODEL) and OPENAI_BASE_URL." + retry
	case has("429", "rate limit", "quota"):
		return "The server is rate limiting: wait a moment, then send again." + retry
	case has("model calls", "round cap"):
		return "Send a message (e.g. \"continue\") to let it carry on."
	case has("connection refused", "no such host", "dial tcp", "timeout", "deadline", "network", "eof", "reset", "cut", "stream"):
		return "Could not reach the model or the stream was cut: check the network and OPENAI_BASE_URL, then send again." + retry
	case has("500", "502", "503", "504", "server error"):
		return "The model server failed: try again in a moment." + retry
	}
	return "Send a message to try again." + retry
}
