package ui

import (
	"github.com/tick-agent/tick/ui/dialog"

	"github.com/tick-agent/tick/ui/style"

	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/todo"
)

// rewindStep is where the /rewind dialog is: choosing a point, choosing
// what to restore, or confirming.
type rewindStep int

const (
	rewindList rewindStep = iota
	rewindScope
	rewindConfirm
)

// rewindDialog is /rewind: the points newest first (each message and each
// item, with the files restoring it would change), then what to restore,
// then the undo confirmation's deliberate key. Only that last step changes
// anything; like the undo confirmation it takes its key only after a
// pause (see dialog.AnswerPause), and text typed meanwhile goes to the input.
type rewindDialog struct {
	keys     RewindKeyMap
	confirm  UndoKeyMap
	pts      []agent.RewindPoint
	sel      int
	step     rewindStep
	scopes   []agent.RewindScope // what the selected point can restore
	scopeSel int
	shown    time.Time // when the confirmation showed
	diverted bool      // keys typed while it was open went to the input
}

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
		m.chat.addNotice("/rewind waits for the running turn: press esc to interrupt it first")
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
			m.chat.addNotice("/rewind: " + msg.err.Error())
			return nil
		}
		m.over.push(&rewindDialog{keys: m.keys.Rewind, confirm: m.keys.Undo, pts: msg.pts})
		m.input.blur()
	case rewoundMsg:
		if msg.err != nil {
			m.chat.addNotice("/rewind: " + msg.err.Error())
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
			m.chat.addNotice("the conversation was rewound while a turn ran: the transcript shows it again after the turn")
		} else {
			m.planTurnStart()
			m.chat.clear()
			m.handed.clear()
			m.panel.restore(todo.List{})
			m.replay(res.History, todo.List{})
		}
	}
	m.applyEvents(res.Events)
	offered := res.Prompt != "" && m.input.empty() // never over what was typed meanwhile
	if offered {
		m.input.setValue(res.Prompt)
	}
	m.chat.addNotice(rewoundText(res, offered))
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
		what, pointLabel(res.Point), strings.Join(parts, " · "))
}

// pointLabel names a point: the message "…" or item #N text.
func pointLabel(p agent.RewindPoint) string {
	switch p.Kind {
	case agent.PointItem:
		return style.OneLine("item #" + p.Item + " " + p.Text)
	case agent.PointApply:
		return style.OneLine(p.Text)
	}
	return "the message “" + style.OneLine(p.Text) + "”"
}

func (r *rewindDialog) Layer() int { return dialog.LayerUndo }

// update takes the keys while the dialog is open; a paste and the wheel
// pass to the screen below.
func (r *rewindDialog) update(m *Model, msg tea.Msg, lastKey time.Time) (tea.Cmd, bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, false
	}
	if r.step == rewindConfirm {
		return r.confirmKey(m, k, lastKey), true
	}
	return r.chooseKey(m, k), true
}

// chooseKey handles a key while a point or a scope is chosen (nothing
// changes yet); text the dialog has no use for goes to the input.
func (r *rewindDialog) chooseKey(m *Model, k tea.KeyPressMsg) tea.Cmd {
	keys := r.keys
	switch {
	case key.Matches(k, keys.Back):
		if r.step == rewindScope {
			r.step = rewindList
			return nil
		}
		r.cancel(m)
	case key.Matches(k, keys.Up):
		r.move(-1)
	case key.Matches(k, keys.Down):
		r.move(1)
	case key.Matches(k, keys.Choose) && r.step == rewindList:
		r.chooseScope()
	case key.Matches(k, keys.Choose):
		r.ask(m, r.scopes[r.scopeSel])
	case r.step == rewindScope && key.Matches(k, keys.Files, keys.Conversation, keys.Both):
		want := agent.RewindFiles
		if key.Matches(k, keys.Conversation) {
			want = agent.RewindConversation
		} else if key.Matches(k, keys.Both) {
			want = agent.RewindBoth
		}
		for _, s := range r.scopes {
			if s == want {
				r.ask(m, s)
			}
		}
	case dialog.IsTyping(k, m.keys) && !key.Matches(k, m.keys.Send):
		return m.typeAside(k)
	}
	return nil
}

// move moves the selection of the current step by d.
func (r *rewindDialog) move(d int) {
	if r.step == rewindScope {
		r.scopeSel = min(max(r.scopeSel+d, 0), len(r.scopes)-1)
		return
	}
	r.sel = min(max(r.sel+d, 0), len(r.pts)-1)
}

// chooseScope goes on to the choice of what to restore for the selected
// point: a point without a snapshot of the files offers the conversation
// only.
func (r *rewindDialog) chooseScope() {
	if len(r.pts) == 0 {
		return
	}
	r.scopes = []agent.RewindScope{agent.RewindFiles, agent.RewindConversation, agent.RewindBoth}
	if r.pts[r.sel].NoFiles {
		r.scopes = []agent.RewindScope{agent.RewindConversation}
	}
	r.scopeSel, r.step = 0, rewindScope
}

// ask shows the confirmation for scope.
func (r *rewindDialog) ask(m *Model, scope agent.RewindScope) {
	r.scopes, r.scopeSel = []agent.RewindScope{scope}, 0
	r.step, r.shown = rewindConfirm, m.now
}

// confirmKey is the undo confirmation's key handling (see askKey): only
// a deliberate key answers.
func (r *rewindDialog) confirmKey(m *Model, k tea.KeyPressMsg, lastKey time.Time) tea.Cmd {
	yes, no, cmd := m.askKey(k, r.confirm, r.shown, lastKey, &r.diverted)
	switch {
	case yes:
		m.over.remove(r)
		m.input.focus()
		ra, ctx, id, scope := m.cfg.Agent, m.ctx, r.pts[r.sel].ID, r.scopes[0]
		return func() tea.Msg {
			res, err := ra.Rewind(ctx, id, scope)
			return rewoundMsg{res: res, err: err}
		}
	case no:
		r.cancel(m)
	}
	return cmd
}

// cancel closes the dialog, having changed nothing.
func (r *rewindDialog) cancel(m *Model) {
	m.over.remove(r)
	m.input.focus()
	m.chat.addNotice("/rewind cancelled: nothing changed")
}

// view draws the dialog over the bottom of the area (dialog.Height).
func (r *rewindDialog) view(m *Model, w, h int) []string {
	h = dialog.Height(h)
	iw := max(w-4, 10)
	var lines []string
	switch r.step {
	case rewindList:
		lines = r.listLines(m.st, iw, max(h-5, 2))
	case rewindScope:
		lines = r.scopeLines(m.st, iw)
	default:
		lines = r.confirmLines(m.st, iw, h)
	}
	return strings.Split(m.st.DialogBox.Render(strings.Join(lines, "\n")), "\n")
}

// listLines draws the points, two lines each (the point, the files
// restoring it would change), the selection kept in view in h lines.
func (r *rewindDialog) listLines(st *Styles, w, h int) []string {
	out := []string{st.DialogTitle.Render("Rewind to before… (newest first)")}
	per := max((h-2)/2, 1)
	first := min(max(r.sel-per+1, 0), max(len(r.pts)-per, 0))
	for i := first; i < len(r.pts) && i < first+per; i++ {
		p := r.pts[i]
		mark := "  "
		look := st.DialogText
		if i == r.sel {
			mark, look = st.Glyphs.Selected+" ", st.PlanSelected
		}
		label := "“" + style.OneLine(p.Text) + "”"
		switch p.Kind {
		case agent.PointItem:
			label = "item #" + style.OneLine(p.Item) + " " + style.OneLine(p.Text)
		case agent.PointApply:
			label = style.OneLine(p.Text)
		}
		head := mark + p.At.Local().Format("15:04") + "  " + label
		out = append(out, look.Render(ansi.Truncate(head, w, st.Glyphs.Ellipsis)),
			st.DialogDesc.Render(ansi.Truncate("     "+filesSummary(p), w, st.Glyphs.Ellipsis)))
	}
	k := r.keys
	return append(out, style.HelpLine(st, k.Up, k.Down, k.Choose, k.Back))
}

// filesSummary says which files going back to p would change.
func filesSummary(p agent.RewindPoint) string {
	if p.NoFiles {
		return "no snapshot of the files (interrupted): conversation only"
	}
	sum := "no file changed since"
	if len(p.Files) > 0 {
		names := make([]string, 0, min(len(p.Files), 8))
		for i, c := range p.Files {
			if i == 8 {
				break
			}
			names = append(names, style.TermText(c.Path))
		}
		sum = style.Plural(len(p.Files), "file") + ": " + strings.Join(names, ", ")
	}
	for _, k := range p.NotKept {
		sum += "; " + style.TermText(k.Path) + " " + style.TermText(k.Why)
	}
	return sum
}

// scopeLines draws the choice of what to restore.
func (r *rewindDialog) scopeLines(st *Styles, w int) []string {
	p := r.pts[r.sel]
	out := []string{st.DialogTitle.Render(ansi.Truncate("Rewind to before "+pointLabel(p), w, st.Glyphs.Ellipsis)),
		st.DialogText.Render("What goes back?")}
	for i, s := range r.scopes {
		mark, look := "  ", st.DialogText
		if i == r.scopeSel {
			mark, look = st.Glyphs.Selected+" ", st.PlanSelected
		}
		out = append(out, look.Render(ansi.Truncate(mark+scopeText(s, p), w, st.Glyphs.Ellipsis)))
	}
	k := r.keys
	return append(out, style.HelpLine(st, k.Files, k.Conversation, k.Both, k.Choose, k.Back))
}

// scopeText describes what restoring scope to p does.
func scopeText(s agent.RewindScope, p agent.RewindPoint) string {
	switch s {
	case agent.RewindFiles:
		return fmt.Sprintf("files         the workspace as it was (%s); the conversation stays", style.Plural(len(p.Files), "file"))
	case agent.RewindConversation:
		return fmt.Sprintf("conversation  drop the %s after it; the files stay as they are", style.Plural(p.Messages, "message"))
	}
	return fmt.Sprintf("both          the files (%s) and the conversation (%s dropped)", style.Plural(len(p.Files), "file"), style.Plural(p.Messages, "message"))
}

// confirmLines draws the confirmation in at most h lines.
func (r *rewindDialog) confirmLines(st *Styles, w, h int) []string {
	p, scope := r.pts[r.sel], r.scopes[0]
	what := map[agent.RewindScope]string{agent.RewindFiles: "the files", agent.RewindConversation: "the conversation",
		agent.RewindBoth: "the files and the conversation"}[scope]
	out := []string{st.DialogTitle.Render(ansi.Truncate("Rewind "+what+" to before "+pointLabel(p), w, st.Glyphs.Ellipsis))}
	out = append(out, dialog.GuardLines(st, r.diverted, w)...)
	if scope != agent.RewindFiles {
		out = append(out, st.DialogText.Render(ansi.Truncate(fmt.Sprintf("The conversation drops the %s after it.", style.Plural(p.Messages, "message")), w, st.Glyphs.Ellipsis)))
	}
	if scope != agent.RewindConversation {
		out = append(out, st.DialogText.Render("The workspace goes back to its state then:"))
		out = append(out, dialog.ChangeLines(st, p.Files, w, max(h-4-len(out)-len(p.NotKept), 1), "  no file changed since")...)
		for _, k := range p.NotKept { // left as they are: say so, not "no file changed"
			out = append(out, st.DialogDesc.Render(ansi.Truncate("  "+style.TermText(k.Path)+"  "+style.TermText(k.Why), w, st.Glyphs.Ellipsis)))
		}
	}
	yes := key.NewBinding(key.WithHelp(r.confirm.Confirm.Help().Key, "rewind"))
	return append(out, style.HelpLine(st, yes, r.confirm.Cancel))
}
