package agent

// remindsNext reports whether an answer without tool calls would not end
// the turn because the loop reminds the model of its open todo items
// first (see finalAnswer). Such an answer is not the turn's final one:
// its AssistantDone has Final false, so a front-end prints one answer.
func (l *loop) remindsNext() bool {
	if l.child || l.reminded || !l.worked || l.a.cfg.NoCompletionReminder {
		return false
	}
	return l.a.Mode() != ModePlan && len(l.a.Todos().Open()) > 0
}
