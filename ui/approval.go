package ui

import (
	"github.com/tick-agent/tick/ui/dialog"
	"strconv"

	"github.com/tick-agent/tick/ui/status"

	"github.com/tick-agent/tick/ui/style"

	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/ui/termsafe"
)

// AnswerPause is how long the keyboard must have rested, since a question
// appeared and since the previous key, before a key answers it (the
// approval dialog, a plan proposal). Keys that come faster are the user
// still typing a message: they go to the input, so that the "a" of "also"
// never allows a tool for the whole session and the "y" of "yes, but"
// never approves a plan. The end-to-end tests wait it out before an
// answer.
const AnswerPause = dialog.AnswerPause

// approval is the dialog for one ApprovalRequest: the whole command or
// diff (wrapped, scrollable), y / a / n (then an optional reason) / esc.
type approval struct {
	req      agent.ApprovalRequest
	summary  string   // shown above the detail when the detail does not hold it
	task     string   // "task DESC · item #N" for a subagent's request, sanitized
	detail   []string // the detail's lines, sanitized (or the summary's)
	diff     bool     // the detail is a unified diff, drawn by style.DiffLines
	shown    time.Time
	diverted bool // keys typed while it was open went to the input

	off    int // first wrapped line shown
	room   int // wrapped lines the last view had room for
	total  int // wrapped lines in the last view
	typing bool
	reason textinput.Model

	wrapW    int        // width the wrapped lines are for
	wrapped  []wrapLine // detail wrapped at wrapW
	wrapDark bool       // the palette a diff's wrapped lines are drawn in
}

// wrapLine is one line of the wrapped detail and the source line's style.
type wrapLine struct {
	text   string
	src    string // the unwrapped line, for its diff style
	styled bool   // text is styled already (a line of style.DiffLines)
}

// newApproval returns the dialog for req, shown at now.
func newApproval(st *Styles, req agent.ApprovalRequest, now time.Time) *approval {
	ti := textinput.New()
	ti.Prompt = "Reason: "
	ti.Placeholder = "optional, told to the model"
	s := textinput.DefaultStyles(st.Dark)
	s.Cursor.Blink = false // no ticking while the dialog is open
	ti.SetStyles(s)
	ti.CharLimit = 500
	a := &approval{req: req, reason: ti, shown: now}
	sum := style.OneLine(style.Sanitize(req.Summary))
	d := strings.TrimRight(style.Sanitize(req.Detail), "\n")
	switch {
	case strings.TrimSpace(d) == "":
		d = strings.TrimSpace(style.Sanitize(req.Summary))
	case !strings.Contains(style.OneLine(d), strings.TrimSuffix(strings.TrimSuffix(sum, "…"), " ")):
		a.summary = sum
	}
	switch {
	case strings.HasPrefix(d, "--- ") && strings.Contains(d, "\n@@ "):
		a.diff, a.detail = true, strings.Split(d, "\n")
		a.summary = sum // DiffLines leaves out the file headers
	case d != "":
		a.detail = termsafe.CollapseBlank(strings.Split(d, "\n"))
	}
	return a
}

// reply sends the answer on the request's channel without ever blocking.
func (a *approval) reply(ans agent.Approval) {
	if a.req.Reply == nil {
		return
	}
	select {
	case a.req.Reply <- ans:
	default:
	}
}

// hasty reports whether a key pressed at now, after a previous key at
// lastKey, comes too soon to be a deliberate answer.
func (a *approval) hasty(now, lastKey time.Time) bool {
	if a.typing {
		return false
	}
	return !dialog.Deliberate(now, a.shown, lastKey)
}

// uses reports whether the dialog (not typing a reason) has a meaning for k.
func (a *approval) uses(k tea.KeyPressMsg, keys KeyMap) bool {
	return key.Matches(k, keys.Allow, keys.AllowAlways, keys.Deny, keys.Dismiss, keys.HistoryPrev, keys.HistoryNext,
		keys.PageUp, keys.PageDown, keys.HalfUp, keys.HalfDown, keys.Top, keys.Bottom)
}

// approvals is the approval dialog's overlay: the requests waiting for an
// answer, the first one shown. Requests that come while one is shown
// queue behind it.
type approvals struct{ list []*approval }

func (q *approvals) Layer() int { return dialog.LayerApproval }

// update routes a key (see approvalKey), a paste (to the reason while it
// is typed, else to the input: a paste never answers) and the wheel
// (scrolling the detail).
func (q *approvals) update(m *Model, msg tea.Msg, lastKey time.Time) (tea.Cmd, bool) {
	a := q.list[0]
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return m.approvalKey(msg, lastKey), true
	case tea.PasteMsg:
		if a.typing {
			return m.answer(msg), true
		}
		a.diverted = true
		m.input.focus()
		defer m.input.blur()
		return m.input.update(msg), true
	case tea.MouseWheelMsg:
		switch msg.Mouse().Button {
		case tea.MouseWheelUp:
			a.scroll(-style.ScrollStep)
		case tea.MouseWheelDown:
			a.scroll(style.ScrollStep)
		}
		return nil, true
	}
	return nil, false
}

// view draws the first request's dialog over the bottom of the area
// (dialog.Height).
func (q *approvals) view(m *Model, w, h int) []string {
	return q.list[0].view(m.st, m.keys, w, dialog.Height(h))
}

// denyAll denies every request in the queue.
func (q *approvals) denyAll() {
	for _, a := range q.list {
		a.reply(agent.Approval{})
	}
}

// approvalQueue returns the open approval dialog, or nil.
func (m *Model) approvalQueue() *approvals { return overlayOf[*approvals](m) }

// ask shows the dialog for req, or queues it behind the one shown.
func (m *Model) ask(req agent.ApprovalRequest) {
	a := newApproval(m.st, req, m.now)
	a.task = m.panel.taskLabel(req.Task)
	if a.task == "" && req.TaskName != "" { // a task with no plan item to show it under
		a.task = "from the task " + style.OneLine(req.TaskName)
	}
	if q := m.approvalQueue(); q != nil {
		q.list = append(q.list, a)
		return
	}
	m.over.push(&approvals{list: []*approval{a}})
}

// approvalKey routes a key while the dialog is open: ctrl+c interrupts the
// turn; text typed without a pause (lastKey is the previous key's time),
// and text the dialog has no use for, goes to the input; anything else
// goes to the dialog.
func (m *Model) approvalKey(k tea.KeyPressMsg, lastKey time.Time) tea.Cmd {
	a := m.approvalQueue().list[0]
	switch {
	case key.Matches(k, m.keys.Quit):
		m.interrupt()
		return nil
	case dialog.IsTyping(k, m.keys) && !a.typing && (a.hasty(m.now, lastKey) || !a.uses(k, m.keys)):
		a.diverted = true
		if key.Matches(k, m.keys.Send) {
			return m.submit(false)
		}
		return m.typeAside(k)
	}
	return m.answer(k)
}

// typeAside types k into the input while a question (the approval
// dialog, the undo confirmation) holds the focus.
func (m *Model) typeAside(k tea.KeyPressMsg) tea.Cmd {
	m.input.focus()
	cmd := m.input.update(k)
	m.input.blur()
	return cmd
}

// answer passes a key (or a paste, for the reason) to the approval dialog
// and sends the answer. The next dialog, if any, counts as shown now.
func (m *Model) answer(msg tea.Msg) tea.Cmd {
	q := m.approvalQueue()
	a := q.list[0]
	ans, cmd := a.update(msg, m.keys)
	if ans == nil {
		return cmd
	}
	a.reply(*ans)
	if ans.Allow && ans.Always && !a.req.Once {
		m.chat.addNotice(a.allowedText())
	}
	q.list = q.list[1:]
	if len(q.list) == 0 {
		m.over.remove(q)
		m.input.focus()
		m.turn.setAct(status.ActTool, a.req.Tool)
	} else {
		q.list[0].shown = m.now
	}
	return cmd
}

// update handles a key. It returns the answer once the user gave one.
func (a *approval) update(msg tea.Msg, keys KeyMap) (*agent.Approval, tea.Cmd) {
	k, isKey := msg.(tea.KeyPressMsg)
	if a.typing {
		switch {
		case isKey && key.Matches(k, keys.Confirm):
			return &agent.Approval{Reason: strings.TrimSpace(a.reason.Value())}, nil
		case isKey && key.Matches(k, keys.Dismiss):
			return &agent.Approval{}, nil
		}
		var cmd tea.Cmd
		a.reason, cmd = a.reason.Update(msg)
		return nil, cmd
	}
	if !isKey {
		return nil, nil
	}
	page := max(a.room-1, 1)
	switch {
	case key.Matches(k, keys.Allow):
		return &agent.Approval{Allow: true}, nil
	case key.Matches(k, keys.AllowAlways) && !a.req.Once:
		return &agent.Approval{Allow: true, Always: true}, nil
	case key.Matches(k, keys.Deny):
		a.typing = true
		return nil, a.reason.Focus()
	case key.Matches(k, keys.Dismiss):
		return &agent.Approval{}, nil
	case key.Matches(k, keys.HistoryPrev):
		a.scroll(-1)
	case key.Matches(k, keys.HistoryNext):
		a.scroll(1)
	case key.Matches(k, keys.PageUp, keys.HalfUp):
		a.scroll(-page)
	case key.Matches(k, keys.PageDown, keys.HalfDown):
		a.scroll(page)
	case key.Matches(k, keys.Top):
		a.off = 0
	case key.Matches(k, keys.Bottom):
		a.off = max(a.total-a.room, 0)
	}
	return nil, nil
}

// scroll moves the detail by n wrapped lines, within what the last view
// showed.
func (a *approval) scroll(n int) {
	a.off = max(min(a.off+n, a.total-a.room), 0)
}

// wrap returns the detail wrapped at w cells, computed once per width
// and palette (a diff is drawn in the palette's colours).
func (a *approval) wrap(st *Styles, w int) []wrapLine {
	if w == a.wrapW && st.Dark == a.wrapDark && a.wrapped != nil {
		return a.wrapped
	}
	a.wrapW, a.wrapDark, a.wrapped = w, st.Dark, a.wrapped[:0]
	if a.diff { // the chat's renderer: numbered, signed, coloured
		for _, l := range style.DiffLines(st, strings.Join(a.detail, "\n"), w) {
			a.wrapped = append(a.wrapped, wrapLine{text: l, styled: true})
		}
		return a.wrapped
	}
	for _, l := range a.detail {
		for _, piece := range style.WrapHard(l, w) {
			a.wrapped = append(a.wrapped, wrapLine{text: piece, src: l})
		}
	}
	return a.wrapped
}

// scopeText says what "allow for the session" covers.
func (a *approval) scopeText() string {
	if s := style.OneLine(style.Sanitize(a.req.Scope)); s != "" {
		return "allow `" + s + "` for this session"
	}
	return "allow every " + a.req.Tool + " call for this session"
}

// allowedText is the chat's record of an "allow for the session" answer.
func (a *approval) allowedText() string {
	if s := style.OneLine(style.Sanitize(a.req.Scope)); s != "" {
		return "allowed `" + s + "` for this session"
	}
	if a.req.Rerun {
		return "allowed `" + style.OneLine(style.Sanitize(a.req.Summary)) + "` without the sandbox for this session"
	}
	return "allowed every " + a.req.Tool + " call for this session"
}

// footKeys are the dialog's keys as (key, description) pairs.
func (a *approval) footKeys(keys KeyMap) [][2]string {
	h := func(b key.Binding, desc string) [2]string {
		if desc == "" {
			desc = b.Help().Desc
		}
		return [2]string{b.Help().Key, desc}
	}
	if a.typing {
		return [][2]string{h(keys.Confirm, "deny with this reason"), h(keys.Dismiss, "deny without reason")}
	}
	if a.req.Once { // a write into .git, a fetch: this call only
		yes := "allow this write only"
		switch {
		case a.req.Question != "":
			yes = "yes"
		case a.req.Tool == "web_fetch":
			yes = "allow this fetch only"
		}
		return [][2]string{h(keys.Allow, yes), h(keys.Deny, ""), h(keys.Dismiss, "")}
	}
	return [][2]string{h(keys.Allow, ""), h(keys.AllowAlways, a.scopeText()), h(keys.Deny, ""), h(keys.Dismiss, "")}
}

// view renders the dialog as a box of width w and at most h lines, to be
// drawn at the bottom of the area above the input. The answer keys are
// always drawn; the detail gets the lines that are left, and says when it
// scrolls.
func (a *approval) view(st *Styles, keys KeyMap, w, h int) []string {
	g := st.Glyphs
	iw := max(w-4, 1) // border and padding take 4 columns
	var head []string
	title := "Allow " + a.req.Tool + "?"
	if a.req.Rerun {
		title = "Run " + a.req.Tool + " again without the sandbox?"
	}
	if a.req.Question != "" {
		title = a.req.Question
	}
	head = append(head, st.DialogTitle.Render(ansi.Truncate(title, iw, g.Ellipsis)))
	if a.task != "" {
		head = append(head, st.DialogText.Render(ansi.Truncate(a.task, iw, g.Ellipsis)))
	}
	head = append(head, dialog.GuardLines(st, a.diverted, iw)...)
	if a.summary != "" {
		head = append(head, st.DialogText.Render(ansi.Truncate(a.summary, iw, g.Ellipsis)))
	}
	var foot []string
	if a.typing {
		a.reason.SetWidth(max(iw-len(a.reason.Prompt)-1, 1))
		foot = append(foot, ansi.Truncate(a.reason.View(), iw, ""))
	}
	foot = append(foot, style.FootLines(st, a.footKeys(keys), iw)...)
	body := a.wrap(st, iw)
	room := h - 2 - len(head) - 1 - len(foot) // borders, the blank line before the keys
	a.total = len(body)
	lines := append([]string(nil), head...)
	if len(body) > 0 && room >= 1 {
		if room >= 4 {
			lines = append(lines, "")
			room--
		}
		more := len(body) > room
		note := more && room >= 2
		if note {
			room-- // the scroll note
		}
		a.room = room
		a.off = max(min(a.off, len(body)-room), 0)
		end := min(a.off+room, len(body))
		for _, l := range body[a.off:end] {
			if l.styled {
				lines = append(lines, l.text)
				continue
			}
			lines = append(lines, style.DiffStyle(st, l.src).Render(l.text))
		}
		if note {
			n := "scrolls: ↑/↓ pgup/pgdn · lines " + strconv.Itoa(a.off+1) + "–" + strconv.Itoa(end) + " of " + strconv.Itoa(len(body))
			lines = append(lines, st.DialogDesc.Render(ansi.Truncate(n, iw, g.Ellipsis)))
		}
	}
	lines = append(lines, "")
	lines = append(lines, foot...)
	for i, l := range lines {
		lines[i] = l + strings.Repeat(" ", max(iw-ansi.StringWidth(l), 0))
	}
	box := strings.Split(st.DialogBox.Render(strings.Join(lines, "\n")), "\n")
	if len(box) > h { // keep the keys visible
		box = append(box[:max(h-len(foot)-1, 0)], box[len(box)-min(len(foot)+1, h):]...)
	}
	return box
}

// approvalKeys is the help line of the approval dialog.
type approvalKeys struct{ k KeyMap }

func (a approvalKeys) ShortHelp() []key.Binding {
	return []key.Binding{a.k.Allow, a.k.AllowAlways, a.k.Deny, a.k.Dismiss}
}

func (a approvalKeys) FullHelp() [][]key.Binding { return [][]key.Binding{a.ShortHelp()} }

// reasonKeys is the help line while a denial reason is typed.
type reasonKeys struct{ k KeyMap }

func (r reasonKeys) ShortHelp() []key.Binding {
	send := r.k.Confirm
	send.SetHelp("enter", "deny with this reason")
	esc := r.k.Dismiss
	esc.SetHelp("esc", "deny without reason")
	return []key.Binding{send, esc}
}

func (r reasonKeys) FullHelp() [][]key.Binding { return [][]key.Binding{r.ShortHelp()} }
