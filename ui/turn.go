package ui

import (
	"github.com/tick-agent/tick/ui/status"

	"context"
	"errors"
	"fmt"
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
	act     status.Activity
	tool    string
	heard   time.Time // when the last event arrived (or the turn began)
	compact bool      // a compaction (/compact), not a model turn: nothing to steer

	pausedAt  time.Time     // when the turn stopped at a gate; zero when not paused
	pausedFor time.Duration // the time spent at gates before pausedAt
}

// elapsed is the turn's running time at now, without the time it waited
// at a gate: the clock stands still while the turn is paused.
func (t *turn) elapsed(now time.Time) time.Duration {
	if !t.pausedAt.IsZero() {
		now = t.pausedAt
	}
	return now.Sub(t.start) - t.pausedFor
}

// gatePaused reports whether the turn waits at a gate for enter.
func (t *turn) gatePaused() bool { return t != nil && !t.pausedAt.IsZero() }

// setAct records what the turn does, unless it is being interrupted or is
// a compaction (which only ever compacts).
func (t *turn) setAct(a status.Activity, tool string) {
	if t == nil || t.act == status.ActInterrupting || t.ended || t.compact {
		return
	}
	if a != status.ActPaused && !t.pausedAt.IsZero() {
		t.pausedFor += max(t.heard.Sub(t.pausedAt), 0) // until the event that ended the pause
		t.pausedAt = time.Time{}
	}
	t.act, t.tool = a, tool
}

// pause stops the turn at a gate after item at now: no spinner, the clock
// stands still, and the input says that enter continues.
func (m *Model) pause(item string) {
	t := m.turn
	t.setAct(status.ActPaused, "#"+item)
	if t.act == status.ActPaused {
		t.pausedAt = m.now
		m.input.SetPlaceholder(placeholderPaused)
	}
}

// unpause lets a turn paused at a gate go on, at now.
func (m *Model) unpause() {
	t := m.turn
	if !t.gatePaused() {
		return
	}
	t.heard = m.now
	t.setAct(status.ActThinking, "")
	m.input.SetRunning(true)
}

// placeholderPaused is the input's placeholder while a turn waits at a
// gate.
const placeholderPaused = "enter to continue · type to steer · esc to interrupt"

// placeholderCompacting is the input's placeholder during a compaction.
const placeholderCompacting = "enter or tab to queue the next prompt · esc to interrupt"

// running reports whether a turn runs and has not ended.
func (m *Model) running() bool { return m.turn != nil && !m.turn.ended }

// startTurn sends text as a new turn.
func (m *Model) startTurn(text string) tea.Cmd {
	m.chat.AddUser(text)
	m.chat.ToBottom()
	m.lastPrompt = text
	if m.agentless() {
		m.chat.AddError("no model is configured", "Start tick with a model (see tick --help).")
		return nil
	}
	ctx, cancel := context.WithCancel(m.ctx)
	m.planTurnStart()
	m.panel.TurnStart(m.now)
	return m.begin(&turn{cancel: cancel, act: status.ActThinking, ch: m.cfg.Agent.Run(ctx, text)})
}

// startCompact runs a compaction (/compact) through the same machinery as
// a turn: the status bar says "compacting" with the spinner, esc cancels
// it, and what is typed meanwhile is queued (there is no model turn to
// steer). Its Compacted event shows as a marker in the chat.
func (m *Model) startCompact() tea.Cmd {
	if m.turn != nil {
		m.chat.AddNotice("/compact waits for the running turn: press esc to interrupt it first")
		return nil
	}
	m.chat.ToBottom()
	if m.agentless() {
		m.chat.AddError("no model is configured", "Start tick with a model (see tick --help).")
		return nil
	}
	ctx, cancel := context.WithCancel(m.ctx)
	cmd := m.begin(&turn{cancel: cancel, act: status.ActCompacting, compact: true, ch: m.cfg.Agent.Compact(ctx)})
	m.input.SetPlaceholder(placeholderCompacting) // SetRunning chose the steering one
	return cmd
}

// begin makes t the running turn and starts reading its events and the
// spinner.
func (m *Model) begin(t *turn) tea.Cmd {
	m.seq++
	t.id, t.start, t.heard = m.seq, m.now, m.now
	m.turn = t
	m.input.SetRunning(true)
	return tea.Batch(waitEvents(t.id, t.ch), m.spin.Tick)
}

// submit sends the input: a slash command, a new turn, or while a turn
// runs a steer message (enter) or a queued one (tab). The prompt of a
// failed turn sent again (↑ enter) is a retry, as ctrl+r.
func (m *Model) submit(queue bool) tea.Cmd {
	text := m.input.Value()
	if strings.TrimSpace(text) == "" {
		return nil
	}
	if cmd, ok := m.runCommand(text); ok {
		return cmd
	}
	if m.turn == nil && text == m.lastPrompt && m.canRetry() {
		m.input.Reset() // ↑ enter on the failed prompt: a retry, not a second copy
		return m.retry(m)
	}
	m.input.Remember(text)
	m.input.Reset()
	m.chat.ToBottom()
	switch {
	case m.turn == nil:
		return m.startTurn(text)
	case m.turn.ended || m.turn.act == status.ActInterrupting:
		m.handed.later(text) // sent as soon as the turn is gone
	case queue || m.turn.compact:
		m.handed.queue(text)
	default:
		if id, ok := m.cfg.Agent.Steer(text); ok {
			m.handed.steer(id, text)
		} else { // the turn is just ending: this becomes the next prompt
			m.handed.later(text)
		}
	}
	return nil
}

// interrupt cancels the running turn at once. Its TurnEnd follows.
func (m *Model) interrupt() {
	if !m.running() {
		return
	}
	m.turn.cancel()
	m.turn.act = status.ActInterrupting
	m.dropApprovals()
}

// dropApprovals denies every open approval request.
func (m *Model) dropApprovals() {
	if q := m.approvalQueue(); q != nil {
		q.DenyAll()
		m.over.remove(q)
	}
	m.input.Focus()
}

// turnEnded applies a TurnEnd: the panel collapses, the chat says how the
// turn ended, and nothing the user wrote is lost: after a finished turn,
// undelivered and queued messages become the next turn; after an interrupt
// or an error they come back into the input.
func (m *Model) turnEnded(ev agent.TurnEnd) {
	t := m.turn
	t.ended = true
	t.cancel()
	m.chat.SetNow(m.now)
	m.chat.EndTurn()
	if !t.compact {
		m.panel.TurnEnd(m.now)
	}
	if strings.HasSuffix(m.note, noteCarryingOut) {
		m.note = "" // the status bar follows the state: the plan's turn is over
	}
	m.dropApprovals()
	m.input.SetRunning(false)
	back := m.handed.turnEnded(ev.Undelivered, ev.Reason == agent.ReasonDone)
	switch ev.Reason {
	case agent.ReasonDone:
		return
	case agent.ReasonInterrupted:
		note := "Interrupted"
		if t.compact {
			note = "Compaction interrupted · the conversation is unchanged"
		}
		if len(back) > 0 {
			note += " · what was not sent yet is back in the input"
		}
		m.chat.AddInterrupted(note)
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
		kind := ev.Kind
		if kind == agent.KindNone {
			kind = agent.KindOf(ev.Err)
		}
		m.chat.AddError(msg, errorHint(kind, !t.compact && m.canRetry()))
		if n := len(nonBlank(back)); n > 0 {
			m.chat.AddNotice(backNotice(n))
		}
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
	if pr := m.proposal(); pr != nil {
		pr.Show(m.now) // answerable from now on (see dialog.AnswerPause)
	}
	if cmd := m.undoAfterTurn(); cmd != nil {
		return cmd // /undo asked during the turn: what was typed waits
	}
	if text, ok := m.handed.takeNext(); ok {
		return m.startTurn(text)
	}
	return nil
}

// backNotice says in the chat that n messages handed over during a
// failed turn were not sent and are back in the input: never silently.
func backNotice(n int) string {
	if n == 1 {
		return "the message you queued was not sent: it is back in the input · enter sends it"
	}
	return fmt.Sprintf("the %d messages you queued were not sent: they are back in the input · enter sends them", n)
}

// nonBlank returns the texts that hold more than white space.
func nonBlank(texts []string) []string {
	var parts []string
	for _, s := range texts {
		if strings.TrimSpace(s) != "" {
			parts = append(parts, s)
		}
	}
	return parts
}

// restore puts texts back into the input, before what is typed there.
func (m *Model) restore(texts []string) {
	parts := nonBlank(texts)
	if len(parts) == 0 {
		return
	}
	if cur := m.input.Value(); strings.TrimSpace(cur) != "" {
		parts = append(parts, cur)
	}
	m.input.SetValue(strings.Join(parts, "\n"))
}

// errorHint says what to do about a failed turn, by the kind of its
// error (agent.KindOf), never by its wording; canRetry says that ctrl+r
// (Agent.Retry) can send the turn again.
func errorHint(kind agent.ErrorKind, canRetry bool) string {
	retry := " The conversation is kept; ↑ recalls your last prompt."
	if canRetry {
		retry = " The conversation is kept; ctrl+r (or /retry) sends the failed turn again, without repeating your message."
	}
	switch kind {
	case agent.KindBusy:
		return "Wait for the running turn to end, or press esc to interrupt it."
	case agent.KindAuth, agent.KindConfig:
		return "Check OPENAI_API_KEY (and OPENAI_BASE_URL), then try again." + retry
	case agent.KindForbidden:
		return "The server refused access: check the key's permissions and the model name." + retry
	case agent.KindNotFound:
		return "Check the model name (--model or TICK_MODEL) and OPENAI_BASE_URL." + retry
	case agent.KindRateLimit:
		return "The server is rate limiting: wait a moment, then try again." + retry
	case agent.KindPromptBlocked:
		return "One of your user_prompt_submit hooks refused this prompt (its message is above): change the prompt, or the hook in your config."
	case agent.KindRoundCap:
		return "Send a message (e.g. \"continue\") to let it carry on."
	case agent.KindContextWindow:
		return "The conversation no longer fits the model's context: /compact it, or start a /new session." + retry
	case agent.KindNetwork, agent.KindStreamCut:
		return "Could not reach the model or the stream was cut: check the network and OPENAI_BASE_URL, then try again." + retry
	case agent.KindTimeout:
		return "The server went quiet for too long: check that it is running (a local model may still be loading), then try again." + retry
	case agent.KindTooLarge:
		return "The server's answer was too large to keep: ask for a shorter answer." + retry
	case agent.KindEmptyStream:
		return "The server answered with nothing: check the model name and the server, then try again." + retry
	case agent.KindServer:
		return "The model server failed: try again in a moment." + retry
	}
	return "Send a message to try again." + retry
}
