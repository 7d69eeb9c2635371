package ui

import (
	"github.com/charmbracelet/x/ansi"
	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/todo"
)

// The panel's plan extras: a gutter marking the plan editor's selection and
// what a revised proposal changed, a "stop after" line under gated items,
// the subagents running under an item, a proposal's removed items, and
// footer lines (the proposal's question, the editor's keys) that are never
// cut.

// subTask is a subagent started by a task call while an item was in
// progress: its description, its last action while it runs and its
// one-line result when done.
type subTask struct {
	id     string // the task call's id
	item   string // the item in progress when it started
	desc   string
	last   string
	result string
	done   bool
	failed bool
}

// gutterWidth is the width of the gutter: 2 while the editor is open or a
// proposal's changes are marked, else 0.
func (p *panel) gutterWidth() int {
	if p.sel >= 0 || len(p.marks) > 0 {
		return 2
	}
	return 0
}

// decorate adds the gutter to an item's lines, and the lines under it: its
// gate and its subagents.
func (p *panel) decorate(it todo.Item, i, w int, ls []panelLine) []panelLine {
	st, g := p.st, p.st.Glyphs
	if p.gutterWidth() > 0 {
		for j := range ls {
			gut := "  "
			if j == 0 {
				switch {
				case i == p.sel:
					gut = st.PlanSelected.Render(g.Selected) + " "
				case p.marks[it.ID] == todo.Added:
					gut = st.PlanAdded.Render(g.Added) + " "
				case p.marks[it.ID] == todo.Reworded:
					gut = st.PlanReworded.Render(g.Reworded) + " "
				}
			}
			ls[j].text = gut + ls[j].text
		}
	}
	ind := "    "[:2+p.gutterWidth()]
	if it.StopAfter {
		ls = append(ls, panelLine{text: ind + st.PlanGate.Render(g.Gate), item: i, cont: true})
	}
	for _, s := range p.subs {
		if s.item != it.ID {
			continue
		}
		ls = append(ls, panelLine{text: p.subLine(s, ind, w), item: i, cont: true})
	}
	return ls
}

// subStart nests a task call under the item in progress, if any.
func (p *panel) subStart(id, desc string) {
	it, ok := p.list.Current()
	if !ok {
		return
	}
	p.subs = append(p.subs, &subTask{id: id, item: it.ID, desc: oneLine(desc)})
}

// sub returns the subagent of the task call id, or nil.
func (p *panel) sub(id string) *subTask {
	for _, s := range p.subs {
		if s.id == id {
			return s
		}
	}
	return nil
}

// subLine is one subagent under its item: "↳ description · last action"
// while it runs, "↳ description ✓ result" when done.
func (p *panel) subLine(s *subTask, ind string, w int) string {
	st, g := p.st, p.st.Glyphs
	text := s.desc
	switch {
	case s.done && s.failed:
		text += " " + g.ToolError + " " + s.result
	case s.done:
		text += " " + g.ToolOK + " " + s.result
	case s.last != "":
		text += g.Separator + s.last
	}
	return ind + st.ItemNote.Render(ansi.Truncate(g.Steering+" "+oneLine(text), max(w-len(ind), 1), g.Ellipsis))
}

// removedLines are a revised proposal's removed items.
func (p *panel) removedLines(w int) []panelLine {
	st, g := p.st, p.st.Glyphs
	var out []panelLine
	for _, c := range p.removed {
		text := ansi.Truncate(oneLine(c.Text), max(w-4, 1), g.Ellipsis)
		out = append(out, panelLine{text: st.PlanRemoved.Render(g.Removed) + "   " + st.PlanRemoved.Render(text), item: -1})
	}
	return out
}

// footLines are the footer lines, cut to w.
func (p *panel) footLines(w int) []string {
	if p.footer == nil {
		return nil
	}
	lines := p.footer(w)
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, p.st.Glyphs.Ellipsis)
	}
	return lines
}

// wrapHelp wraps "key desc" parts joined by sep to lines of w cells, styled
// as the plan's prompt.
func wrapHelp(st *Styles, parts []string, w int) []string {
	var out []string
	line := ""
	for _, part := range parts {
		switch {
		case line == "":
			line = part
		case ansi.StringWidth(line)+ansi.StringWidth(st.Glyphs.Separator+part) <= w:
			line += st.Glyphs.Separator + part
		default:
			out = append(out, st.PlanPrompt.Render(line))
			line = part
		}
	}
	if line != "" {
		out = append(out, st.PlanPrompt.Render(line))
	}
	return out
}

// extraLines counts the lines the extras add to the expanded panel at w.
func (p *panel) extraLines(w int) int {
	n := len(p.removed) + len(p.footLines(w))
	for _, it := range p.list.Items {
		if it.StopAfter {
			n++
		}
	}
	for _, s := range p.subs {
		if p.list.Find(s.item) >= 0 {
			n++
		}
	}
	return n
}

// subEvent records a subagent's latest action under its item.
func (p *panel) subEvent(ev agent.Subagent) {
	s := p.sub(ev.ParentID)
	if s == nil {
		return
	}
	if ts, ok := ev.Event.(agent.ToolStart); ok {
		s.last = ts.Name
		if ts.Summary != "" {
			s.last += " " + oneLine(ts.Summary)
		}
	}
}

// subEnd records a finished task call's one-line result.
func (p *panel) subEnd(ev agent.ToolEnd) {
	s := p.sub(ev.ID)
	if s == nil {
		return
	}
	s.done, s.failed, s.result = true, ev.IsError, firstLine(ev.Output)
}
