package printer

import "github.com/tick-agent/tick/agent"

// taskLabel is how a running task call's lines are marked.
type taskLabel struct {
	prefix string // "[#2] " for a task on plan item 2, else "[description] "
	item   bool   // the task names a plan item
}

// taskStart remembers the label of a task call's subagent.
func (t *turn) taskStart(e agent.ToolStart, depth int) {
	if e.Name != agent.TaskTool || depth > 0 {
		return
	}
	l := taskLabel{prefix: "[#" + oneLine(e.Item, 12) + "] ", item: e.Item != ""}
	if !l.item {
		l.prefix = "[" + oneLine(e.Summary, 24) + "] "
	}
	if t.tasks == nil {
		t.tasks = map[string]taskLabel{}
	}
	t.tasks[e.ID] = l
}

// taskEnd forgets a task call that ended.
func (t *turn) taskEnd(e agent.ToolEnd, depth int) {
	if depth == 0 {
		delete(t.tasks, e.ID)
	}
}

// taskPrefix is the prefix of the lines of task call id's subagent: its
// item when it names one, and its label whenever tasks run side by side,
// so that interleaved lines say whose they are; "" for a lone task
// without an item (its lines are indented under its call).
func (t *turn) taskPrefix(id string) string {
	l, ok := t.tasks[id]
	if !ok || (!l.item && len(t.tasks) < 2) {
		return ""
	}
	return l.prefix
}
