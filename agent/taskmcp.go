package agent

import "context"

// extraCall prepares a task's call of an extra tool (MCP): such a server
// runs in the workspace itself, started once for the session, so a task
// cannot point it at its copy (a server's working directory is fixed when
// it starts, and MCP roots are only a hint servers may ignore). What the
// call changes therefore lands in the workspace at once, not in the
// task's patch: for a task on a plan item, the item's undo point is saved
// before the call runs (unless it has one), so undoing the item takes the
// call's effects back too, as it does for the parent's calls under it.
func (l *loop) extraCall(ctx context.Context, name string) {
	if l.itemPoint == nil || !l.isExtra(name) {
		return
	}
	l.itemPoint(ctx)
}

// isExtra reports whether name is one of the loop's extra tools (MCP).
func (l *loop) isExtra(name string) bool {
	for _, t := range l.extra {
		if t.Spec().Name == name {
			return true
		}
	}
	return false
}
