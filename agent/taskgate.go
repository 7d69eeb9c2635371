package agent

import (
	"context"
	"fmt"

	"github.com/tick-agent/tick/agent/plan"
)

// taskGate holds a task on plan item item that comes after an open gate
// ("stop after #N" with #N not completed): it does not start until the
// user continues, as the model's own change would pause there (see
// underItem). It returns nil when the task may start, else the error that
// is the task call's result: the turn was interrupted, or the user
// answered with a message, which the model reads next. Tasks wait at a
// gate one at a time; once the user let the turn go on past a gate, the
// other tasks behind it start.
func (l *loop) taskGate(ctx context.Context, item string) error {
	s := &l.a.tasks
	s.gateMu.Lock()
	defer s.gateMu.Unlock()
	g := plan.OpenGateBefore(l.a.Todos(), item)
	if g == "" || l.passed[g] {
		return nil
	}
	if l.passed == nil {
		l.passed = map[string]bool{}
	}
	l.passed[g] = true
	if !l.pauseAt(ctx, g, item, fmt.Sprintf("paused: the user asked to stop after #%s, and a task for #%s waits to start — enter to continue", g, item)) {
		return fmt.Errorf("the task for #%s did not start: the user asked to stop after #%s, and the turn was interrupted while it waited", item, g)
	}
	a := l.a
	a.mu.Lock()
	steered := len(a.steer) > 0
	a.mu.Unlock()
	if steered {
		return fmt.Errorf("the user asked to stop after #%s to review it, and this task for #%s did not start: the user has answered with a message, which you get next; read it and go on as it says", g, item)
	}
	return nil
}
