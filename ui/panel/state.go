package panel

import (
	"time"

	"github.com/tick-agent/tick/todo"
	"github.com/tick-agent/tick/ui/style"
)

// What the root tells the panel and asks it besides the turn's events:
// the clock, the plan's revisions, the plan editor's selection and
// footer, a proposal's marks, the selected task, the verify line.

// SetNow moves the panel's clock (the running item's elapsed time) to now.
func (p *Model) SetNow(now time.Time) { p.now = now }

// List is the plan the panel shows; the caller does not change it.
func (p *Model) List() todo.List { return p.list }

// RestoreKeepTasks is Restore that keeps the tasks under their items (a
// replayed history's tasks stay where they ran).
func (p *Model) RestoreKeepTasks(l todo.List) {
	subs := p.subs
	p.Restore(l)
	p.subs = subs
}

// Hold keeps the panel expanded when the turn ends (open items).
func (p *Model) Hold() { p.hold = true }

// Expand expands the panel (the task focus opened).
func (p *Model) Expand() { p.expanded = true }

// ApplyUpdate shows a TodoUpdate's list l of revision rev (0: none) with
// the item waiting at a gate, unless a newer revision is shown already;
// it reports whether it did.
func (p *Model) ApplyUpdate(l todo.List, rev int, waiting string, now time.Time) bool {
	if rev != 0 && rev < p.rev {
		return false
	}
	p.rev = max(p.rev, rev)
	p.waiting = waiting
	p.SetList(l, now)
	return true
}

// Rev is the newest revision of the plan applied (0: none carried one).
func (p *Model) Rev() int { return p.rev }

// Sel is the plan editor's selection, -1 when the editor is closed.
func (p *Model) Sel() int { return p.sel }

// Select moves the plan editor's selection to item i.
func (p *Model) Select(i int) { p.sel = i }

// OpenEditor expands the panel for the plan editor: the selection on the
// running item (else the first), footer's lines under the items.
func (p *Model) OpenEditor(footer func(w int) []string) {
	p.sel = max(p.RunningIndex(), 0)
	p.expanded = true
	p.footer = footer
}

// CloseEditor takes the editor's selection and footer away.
func (p *Model) CloseEditor() {
	p.sel = -1
	p.footer = nil
}

// ShowProposal marks a proposed plan's changes (added and reworded items
// in the gutter, removed ones at the end), keeps the panel expanded, and
// puts its question under the list.
func (p *Model) ShowProposal(changes []todo.Change, question []string) {
	p.marks, p.removed = nil, nil
	for _, c := range changes {
		switch c.Kind {
		case todo.Removed:
			p.removed = append(p.removed, c)
		default:
			if p.marks == nil {
				p.marks = map[string]todo.ChangeKind{}
			}
			p.marks[c.ID] = c.Kind
		}
	}
	p.hold, p.expanded = true, true
	p.footer = func(w int) []string { return style.WrapHelp(p.st, question, w) }
}

// HideProposal takes a proposal's marks and question out of the panel.
func (p *Model) HideProposal() {
	p.marks, p.removed, p.footer = nil, nil, nil
}

// SelectTask marks the task row of call id as selected ("" for none).
func (p *Model) SelectTask(id string) { p.taskSel = id }

// Tasks is every task the panel knows, in the order they started.
func (p *Model) Tasks() []*Task { return p.subs }

// SetVerify sets the verify check's line under the items ("" for none).
func (p *Model) SetVerify(s string) { p.verify = s }

// TaskLabel names the task of call id and its item for the approval
// dialog ("" when id is no known task).
func (p *Model) TaskLabel(id string) string {
	s := p.sub(id)
	if id == "" || s == nil {
		return ""
	}
	label := "from the task " + s.Desc
	if i := p.list.Find(s.Item); i >= 0 {
		label += " · item #" + s.Item + " " + style.OneLine(p.list.Items[i].Text)
	}
	return label
}
