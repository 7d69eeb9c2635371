package dialog

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/ui/style"
	"github.com/tick-agent/tick/ui/termsafe"
)

// approval is the box for one ApprovalRequest: the whole command or diff
// (wrapped, scrollable), y / a / n (then an optional reason) / esc.
type approval struct {
	req      agent.ApprovalRequest
	summary  string // shown above the detail when the detail does not hold it
	task     string // "from the task DESC · item #N ..." for a task's request, sanitized
	body     detail // the detail (or the summary), wrapped and scrolled
	shown    time.Time
	diverted bool // keys typed while it was open went to the input

	typing bool // a denial's reason is being typed
	reason textinput.Model
}

// newApproval returns the box for req, shown at now.
func newApproval(st *style.Styles, req agent.ApprovalRequest, now time.Time) *approval {
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
		a.body.diff, a.body.lines = true, strings.Split(d, "\n")
		a.summary = sum // DiffLines leaves out the file headers
	case d != "":
		a.body.lines = termsafe.CollapseBlank(strings.Split(d, "\n"))
	}
	return a
}

// Deny answers req with a denial without ever blocking: for a request no
// dialog shows (one that arrives while the app shuts down).
func Deny(req agent.ApprovalRequest) { reply(req, agent.Approval{}) }

// reply sends ans on req's channel without ever blocking.
func reply(req agent.ApprovalRequest, ans agent.Approval) {
	if req.Reply == nil {
		return
	}
	select {
	case req.Reply <- ans:
	default:
	}
}

// hasty reports whether a key pressed at now, after a previous key at
// lastKey, comes too soon to be a deliberate answer.
func (a *approval) hasty(now, lastKey time.Time) bool {
	if a.typing {
		return false
	}
	return !Deliberate(now, a.shown, lastKey)
}

// uses reports whether the box (not typing a reason) has a meaning for k.
func (a *approval) uses(k tea.KeyPressMsg, keys style.KeyMap) bool {
	return key.Matches(k, keys.Allow, keys.AllowAlways, keys.Deny, keys.Dismiss, keys.HistoryPrev, keys.HistoryNext,
		keys.PageUp, keys.PageDown, keys.HalfUp, keys.HalfDown, keys.Top, keys.Bottom)
}

// update handles a key (or a paste, for the reason). It returns the
// answer once the user gave one.
func (a *approval) update(msg tea.Msg, keys style.KeyMap) (*agent.Approval, tea.Cmd) {
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
		a.body.scroll(-1)
	case key.Matches(k, keys.HistoryNext):
		a.body.scroll(1)
	case key.Matches(k, keys.PageUp, keys.HalfUp):
		a.body.scroll(-a.body.page())
	case key.Matches(k, keys.PageDown, keys.HalfDown):
		a.body.scroll(a.body.page())
	case key.Matches(k, keys.Top):
		a.body.toTop()
	case key.Matches(k, keys.Bottom):
		a.body.toBottom()
	}
	return nil, nil
}

// scopeText says what "allow for the session" covers.
func (a *approval) scopeText() string {
	if s := style.OneLine(style.Sanitize(a.req.Scope)); s != "" {
		return "allow `" + s + "` for this session"
	}
	return "allow every " + a.tool() + " call for this session"
}

// allowedText is the chat's record of an "allow for the session" answer.
func (a *approval) allowedText() string {
	if s := style.OneLine(style.Sanitize(a.req.Scope)); s != "" {
		return "allowed `" + s + "` for this session"
	}
	if a.req.Rerun {
		return "allowed `" + style.OneLine(style.Sanitize(a.req.Summary)) + "` without the sandbox for this session"
	}
	return "allowed every " + a.tool() + " call for this session"
}

// footKeys are the box's keys as (key, description) pairs.
func (a *approval) footKeys(keys style.KeyMap) [][2]string {
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

// tool is the request's tool name made safe to draw on one line: it
// comes from the agent, and an MCP server or a model may have chosen it.
func (a *approval) tool() string { return style.OneLine(a.req.Tool) }

// title is the box's question, made safe to draw on one line.
func (a *approval) title() string {
	tool := a.tool()
	switch {
	case a.req.Question != "":
		return style.OneLine(a.req.Question)
	case a.req.Rerun:
		return "Run " + tool + " again without the sandbox?"
	}
	return "Allow " + tool + "?"
}

// view renders the box of width w and at most h lines, to be drawn at the
// bottom of the area above the input. The answer keys are always drawn;
// the detail gets the lines that are left, and says when it scrolls.
func (a *approval) view(st *style.Styles, keys style.KeyMap, w, h int) []string {
	g := st.Glyphs
	iw := max(w-4, 1) // border and padding take 4 columns
	head := []string{st.DialogTitle.Render(style.TruncateWidth(a.title(), iw, g.Ellipsis))}
	if a.task != "" {
		head = append(head, st.DialogText.Render(style.TruncateWidth(a.task, iw, g.Ellipsis)))
	}
	head = append(head, GuardLines(st, a.diverted, iw)...)
	if a.summary != "" {
		head = append(head, st.DialogText.Render(style.TruncateWidth(a.summary, iw, g.Ellipsis)))
	}
	var foot []string
	if a.typing {
		a.reason.SetWidth(max(iw-len(a.reason.Prompt)-1, 1))
		foot = append(foot, ansi.Truncate(a.reason.View(), iw, ""))
	}
	foot = append(foot, style.FootLines(st, a.footKeys(keys), iw)...)
	room := h - 2 - len(head) - 1 - len(foot) // borders, the blank line before the keys
	lines := append(head, a.body.view(st, iw, room)...)
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
