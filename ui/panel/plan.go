package panel

import (
	"github.com/tick-agent/tick/ui/style"
	"strconv"

	"fmt"
	"strings"
	"time"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/todo"
)

// The panel's plan extras: a gutter marking the plan editor's selection and
// what a revised proposal changed, a "stop after" line under gated items,
// the subagents running under an item, a proposal's removed items, and
// footer lines (the proposal's question, the editor's keys) that are never
// cut.

// Task is a subagent started by a task call, under the item it names
// or else the item in progress when it started: its description, while it
// runs its current tool, tool count, tokens and clock, its one-line result
// when done, and the bounded transcript the task's overlay shows.
type Task struct {
	ID     string // the task call's id
	Item   string // the item it works on
	Desc   string // what it was asked, one line
	last   string // the current or last tool, with its key argument
	result string
	done   bool
	failed bool

	start  time.Time     // when it started
	took   time.Duration // its run time, once done
	tools  int           // tool calls it made
	tokens int           // tokens its model calls used
	Log    []string      // its transcript, one entry per line, the last maxTaskLog
}

// gutterWidth is the width of the gutter: 2 while the editor is open or a
// proposal's changes are marked, else 0.
func (p *Model) gutterWidth() int {
	if p.sel >= 0 || len(p.marks) > 0 {
		return 2
	}
	return 0
}

// decorate adds the gutter to an item's lines, and the lines under it: its
// gate and its subagents.
func (p *Model) decorate(it todo.Item, i, w int, ls []panelLine, spin string) []panelLine {
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
		if s.Item != it.ID {
			continue
		}
		ls = append(ls, panelLine{text: p.subLine(s, ind, w, spin, s.ID == p.taskSel && !s.done), item: i, cont: true})
	}
	return ls
}

// SubStart nests a task call under the item it names, or else the item
// in progress, if any.
func (p *Model) SubStart(ev agent.ToolStart) {
	item := ev.Item
	if p.list.Find(item) < 0 {
		it, ok := p.list.Current()
		if !ok {
			return
		}
		item = it.ID
	}
	p.subs = append(p.subs, &Task{ID: ev.ID, Item: item, Desc: style.OneLine(ev.Summary), start: p.now})
}

// tasksFinished reports whether item id had tasks and every one of them
// has finished: the item waits for the model to complete it.
func (p *Model) tasksFinished(id string) bool {
	had := false
	for _, s := range p.subs {
		if s.Item == id {
			if !s.done {
				return false
			}
			had = true
		}
	}
	return had
}

// sub returns the subagent of the task call id, or nil.
func (p *Model) sub(id string) *Task {
	for _, s := range p.subs {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// subLine is one subagent under its item: "↳ description ✓ result" when
// done; while it runs "⠋ description · 3 tools · 1.2k tok · 12s · current
// tool" with the spinner, marked when it is selected (sel).
func (p *Model) subLine(s *Task, ind string, w int, spin string, sel bool) string {
	st, g := p.st, p.st.Glyphs
	text := s.Desc
	mark := g.Steering
	switch {
	case s.done && s.failed:
		text += " " + g.ToolError + " " + s.result
	case s.done:
		text += " " + g.ToolOK + " " + s.result
	default:
		mark = spin
		text += g.Separator + taskMeta(s.tools, s.tokens, p.now.Sub(s.start))
		if s.last != "" {
			text += g.Separator + s.last
		}
	}
	room := max(w-len(ind), 1)
	if sel {
		ind = ind[:len(ind)-2] + st.PlanSelected.Render(g.Selected) + " "
	}
	return ind + st.ItemNote.Render(style.TruncateWidth(mark+" "+style.OneLine(text), room, g.Ellipsis))
}

// taskMeta is a running task's figures: "3 tools · 1.2k tok · 12s".
func taskMeta(tools, tokens int, d time.Duration) string {
	tok := strconv.Itoa(tokens)
	if tokens >= 1000 {
		tok = fmt.Sprintf("%.1fk", float64(tokens)/1000)
	}
	unit := " tools"
	if tools == 1 {
		unit = " tool"
	}
	return strconv.Itoa(tools) + unit + " · " + tok + " tok · " + style.Duration(d)
}

// removedLines are a revised proposal's removed items.
func (p *Model) removedLines(w int) []panelLine {
	st, g := p.st, p.st.Glyphs
	var out []panelLine
	for _, c := range p.removed {
		text := style.TruncateWidth(style.OneLine(c.Text), max(w-4, 1), g.Ellipsis)
		out = append(out, panelLine{text: st.PlanRemoved.Render(g.Removed) + "   " + st.PlanRemoved.Render(text), item: -1})
	}
	return out
}

// footLines are the footer lines, cut to w.
func (p *Model) footLines(w int) []string {
	if p.footer == nil {
		return nil
	}
	lines := p.footer(w)
	for i, l := range lines {
		lines[i] = style.TruncateWidth(l, w, p.st.Glyphs.Ellipsis)
	}
	return lines
}

// extraLines counts the lines the extras add to the expanded panel at w.
func (p *Model) extraLines(w int) int {
	n := len(p.removed) + len(p.footLines(w))
	for _, it := range p.list.Items {
		if it.StopAfter {
			n++
		}
	}
	for _, s := range p.subs {
		if p.list.Find(s.Item) >= 0 {
			n++
		}
	}
	return n
}

// maxTaskLog bounds the transcript kept of one task, in lines; maxLogLine
// bounds one line.
const (
	maxTaskLog = 400
	maxLogLine = 400
)

// SubEvent records a subagent's event: its current tool, counts and
// transcript.
func (p *Model) SubEvent(ev agent.Subagent) {
	s := p.sub(ev.ParentID)
	if s == nil {
		return
	}
	switch e := ev.Event.(type) {
	case agent.ToolStart:
		s.tools++
		s.last = e.Name
		if e.Summary != "" {
			s.last += " " + style.OneLine(e.Summary)
		}
		s.logLine("> " + s.last)
	case agent.ToolEnd:
		mark := "  ok "
		if e.IsError {
			mark = "  failed "
		}
		s.logLine(mark + style.FirstLine(e.Output))
	case agent.AssistantDone:
		for _, l := range strings.Split(strings.TrimSpace(e.Text), "\n") {
			s.logLine(l)
		}
	case agent.Usage:
		n := e.TotalTokens
		if n == 0 {
			n = e.PromptTokens + e.CompletionTokens
		}
		s.tokens += n
	case agent.Notice:
		s.logLine("note: " + e.Text)
	}
}

// logLine adds one line to the task's transcript, bounded in length and
// count.
func (s *Task) logLine(l string) {
	if r := []rune(l); len(r) > maxLogLine {
		l = string(r[:maxLogLine]) + "…"
	}
	s.Log = append(s.Log, l)
	if n := len(s.Log) - maxTaskLog; n > 0 {
		s.Log = append(s.Log[:0], s.Log[n:]...)
	}
}

// SubEnd records a finished task call's one-line result.
func (p *Model) SubEnd(ev agent.ToolEnd) {
	s := p.sub(ev.ID)
	if s == nil {
		return
	}
	s.done, s.failed, s.result = true, ev.IsError, style.FirstLine(ev.Output)
	s.took = p.now.Sub(s.start)
	s.logLine("result: " + style.FirstLine(ev.Output))
}

// RunningTasks returns the subagents still running, in the panel's order (by
// item, then start).
func (p *Model) RunningTasks() []*Task {
	var out []*Task
	for _, it := range p.list.Items {
		for _, s := range p.subs {
			if s.Item == it.ID && !s.done {
				out = append(out, s)
			}
		}
	}
	return out
}
