package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/todo"
	"github.com/tick-agent/tick/ui/dialog"
	"github.com/tick-agent/tick/ui/style"
)

// rewindPointsMsg carries the points of a /rewind, listed off the update
// loop.
type rewindPointsMsg struct {
	pts []agent.RewindPoint
	err error
}

// rewoundMsg carries the result of a confirmed rewind.
type rewoundMsg struct {
	res agent.Rewound
	err error
}

// rewindCommand runs /rewind: it lists the points once no turn runs.
func (m *Model) rewindCommand() tea.Cmd {
	ra := m.cfg.Agent
	if m.turn != nil {
		m.chat.AddNotice("/rewind waits for the running turn: press esc to interrupt it first")
		return nil
	}
	ctx := m.ctx
	return func() tea.Msg {
		pts, err := ra.RewindPoints(ctx)
		return rewindPointsMsg{pts: pts, err: err}
	}
}

// handleRewindMsg opens the list, or applies what a rewind did.
func (m *Model) handleRewindMsg(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case rewindPointsMsg:
		if msg.err != nil {
			m.chat.AddNotice("/rewind: " + msg.err.Error())
			return nil
		}
		m.over.push(dialog.NewRewind(m.keys.Rewind, m.keys.Undo, msg.pts))
		m.input.Blur()
	case rewoundMsg:
		if msg.err != nil {
			m.chat.AddNotice("/rewind: " + msg.err.Error())
			return nil
		}
		m.applyRewound(msg.res)
	case itemDiffMsg:
		m.handleItemDiff(msg)
	}
	return nil
}

// applyRewound shows what a rewind did: a rewound conversation replaces
// the transcript (as a resumed session does), the list is the one of
// then, the point's message is offered again in an empty input, and the
// chat says what was restored.
func (m *Model) applyRewound(res agent.Rewound) {
	if res.Scope != agent.RewindFiles {
		if m.turn != nil {
			m.chat.AddNotice("the conversation was rewound while a turn ran: the transcript shows it again after the turn")
		} else {
			m.planTurnStart()
			m.chat.Clear()
			m.handed.clear()
			m.panel.Restore(todo.List{})
			m.replay(res.History, todo.List{})
		}
	}
	m.applyEvents(res.Events)
	offered := res.Prompt != "" && m.input.Empty() // never over what was typed meanwhile
	if offered {
		m.input.SetValue(res.Prompt)
	}
	m.chat.AddNotice(rewoundText(res, offered))
}

// rewoundText says in the chat what a rewind restored; offered says the
// point's message was put in the input.
func rewoundText(res agent.Rewound, offered bool) string {
	what := "the files"
	switch res.Scope {
	case agent.RewindConversation:
		what = "the conversation"
	case agent.RewindBoth:
		what = "the conversation and the files"
	}
	var parts []string
	if res.Scope != agent.RewindConversation {
		parts = append(parts, style.Plural(len(res.Files), "file")+" restored")
	}
	if res.Scope != agent.RewindFiles {
		parts = append(parts, style.Plural(res.Dropped, "message")+" dropped")
	}
	if res.Scope == agent.RewindConversation {
		parts = append(parts, "the files are as they are now")
	}
	if offered {
		parts = append(parts, "its message is offered in the input")
	}
	return fmt.Sprintf("rewound %s to before %s: %s · the model is told with your next message",
		what, dialog.PointLabel(res.Point), strings.Join(parts, " · "))
}

// rewindTo runs the rewind a confirmed /rewind asked for (dialog.RewindTo)
// off the update loop.
func (m *Model) rewindTo(act dialog.RewindTo) tea.Cmd {
	ra, ctx := m.cfg.Agent, m.ctx
	return func() tea.Msg {
		res, err := ra.Rewind(ctx, act.Point, act.Scope)
		return rewoundMsg{res: res, err: err}
	}
}
