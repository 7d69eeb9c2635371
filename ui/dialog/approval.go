package dialog

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/ui/style"
)

// Approvals is the approval dialog: the tool calls waiting for the user's
// answer (agent.ApprovalRequest), the first one shown; requests that come
// while one is shown queue behind it, and the next counts as shown when
// the one before is answered. It answers each request on the request's
// own channel, never blocking; the root opens it (Add on an empty
// Approvals pushed on the stack), and denies and closes it when the turn
// ends or is interrupted (DenyAll).
//
// Its answer keys are taken only after a deliberate pause (see Deliberate,
// and the root's AnswerHold: it is an Asker); text typed faster, and text
// it has no use for, goes to the input (TypeAside, PasteAside), and enter
// typed on the heels of text sends the input (SubmitInput: a steer), so
// typing over the dialog never answers it; the erasing keys (backspace,
// ctrl+w: IsErasing) edit that text in the input, unless a denial's
// reason is typed. ctrl+c interrupts the turn (Interrupt), which denies
// every request.
type Approvals struct{ list []*approval }

// Layer puts the dialog above every other: the running turn waits on it.
func (q *Approvals) Layer() int { return LayerApproval }

// AsksNow reports whether a single typed key answers the dialog now: not
// while a denial's reason is typed.
func (q *Approvals) AsksNow() bool { return len(q.list) > 0 && !q.list[0].typing }

// Len is the number of requests waiting, the one shown included.
func (q *Approvals) Len() int { return len(q.list) }

// Add queues req behind the request shown (on an empty queue it is shown),
// at now. task names the task that asks and its item (the panel's label,
// already sanitized; "" for the main agent): a task no plan item shows is
// named by req.TaskName.
func (q *Approvals) Add(st *style.Styles, req agent.ApprovalRequest, task string, now time.Time) {
	a := newApproval(st, req, now)
	a.task = task
	if a.task == "" && req.TaskName != "" { // a task with no plan item to show it under
		a.task = "from the task " + style.OneLine(req.TaskName)
	}
	q.list = append(q.list, a)
}

// DenyAll denies every request in the queue.
func (q *Approvals) DenyAll() {
	for _, a := range q.list {
		reply(a.req, agent.Approval{})
	}
}

// Update takes a key (see key), a paste (to the reason while it is typed,
// else to the input: a paste never answers) and the wheel (scrolling the
// detail). Every key is handled: none reaches the root's keys.
func (q *Approvals) Update(c Context, msg tea.Msg) (Action, bool) {
	if len(q.list) == 0 {
		return nil, false
	}
	a := q.list[0]
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return q.key(c, msg), true
	case tea.PasteMsg:
		if a.typing {
			return q.answer(c, msg), true
		}
		a.diverted = true
		return PasteAside{msg}, true
	case tea.MouseWheelMsg:
		switch msg.Mouse().Button {
		case tea.MouseWheelUp:
			a.body.scroll(-style.ScrollStep)
		case tea.MouseWheelDown:
			a.body.scroll(style.ScrollStep)
		}
		return nil, true
	}
	return nil, false
}

// key routes a key: ctrl+c interrupts the turn; text typed without a
// pause, and text the dialog has no use for, goes to the input (enter
// sends it), and so do the erasing keys, which edit it; anything else
// goes to the request shown.
func (q *Approvals) key(c Context, k tea.KeyPressMsg) Action {
	a := q.list[0]
	switch {
	case key.Matches(k, c.Keys.Quit):
		return Interrupt{}
	case !a.typing && IsErasing(k, c.Keys):
		return TypeAside{k}
	case IsTyping(k, c.Keys) && !a.typing && (a.hasty(c.Now, c.LastKey) || !a.uses(k, c.Keys)):
		a.diverted = true
		if key.Matches(k, c.Keys.Send) {
			return SubmitInput{}
		}
		return TypeAside{k}
	}
	return q.answer(c, k)
}

// answer passes a key (or a paste, for the reason) to the request shown
// and sends its answer, once given: an "allow for the session" is noted
// in the chat, and the next request counts as shown now; after the last
// the dialog closes and the turn runs the tool (Answered).
func (q *Approvals) answer(c Context, msg tea.Msg) Action {
	a := q.list[0]
	ans, cmd := a.update(msg, c.Keys)
	if ans == nil {
		if cmd == nil {
			return nil
		}
		return Run{cmd}
	}
	reply(a.req, *ans)
	var acts Seq
	if ans.Allow && ans.Always && !a.req.Once {
		acts = append(acts, Notice{a.allowedText()})
	}
	q.list = q.list[1:]
	if len(q.list) == 0 {
		acts = append(acts, Close{}, FocusInput{}, Answered{Tool: a.req.Tool})
	} else {
		q.list[0].shown = c.Now
	}
	if cmd != nil {
		acts = append(acts, Run{cmd})
	}
	if len(acts) == 0 {
		return nil
	}
	return acts
}

// View draws the request shown over the bottom of the area (Height).
func (q *Approvals) View(c Context, w, h int) []string {
	if len(q.list) == 0 {
		return nil
	}
	return q.list[0].view(c.St, c.Keys, w, Height(h))
}

// Interrupt interrupts the running turn, as ctrl+c does over a question
// the turn waits on.
type Interrupt struct{}

// SubmitInput sends what the input holds, as enter in the input does
// (a steer while the turn runs): enter typed on the heels of text.
type SubmitInput struct{}

// PasteAside hands a paste made while a question waits to the input.
type PasteAside struct{ Paste tea.PasteMsg }

// Answered says the last open approval was answered: the turn runs Tool
// now (the status bar says so).
type Answered struct{ Tool string }

func (Interrupt) action()   {}
func (SubmitInput) action() {}
func (PasteAside) action()  {}
func (Answered) action()    {}
