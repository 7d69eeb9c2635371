package agent

import (
	"context"
	"errors"
)

// ErrNothingToRetry ends a Retry when the last turn did not fail.
var ErrNothingToRetry = errors.New("nothing to retry: the last turn did not fail")

// Retry runs the last turn again after it failed (its TurnEnd had
// ReasonError): the conversation is sent to the model as it is, without a
// new user message, so the failed prompt is not in the history twice. Its
// events and rules are those of Run. When the last turn did not fail, the
// channel holds only a TurnEnd with ErrNothingToRetry; while a turn runs,
// one with ErrBusy.
func (a *Agent) Retry(ctx context.Context) <-chan Event {
	out, ok := a.begin()
	if !ok {
		return out
	}
	a.mu.Lock()
	failed := a.failed
	a.mu.Unlock()
	if !failed {
		a.finish(out, TurnEnd{Reason: ReasonError, Err: ErrNothingToRetry})
		return out
	}
	go func() {
		l := a.parentLoop(out)
		l.addTools(ctx)
		a.runParent(ctx, l, out)
	}()
	return out
}

// CanRetry reports whether the last turn failed, so Retry would send it
// again.
func (a *Agent) CanRetry() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.failed && !a.running
}

// finishTurn ends a model turn (Run or Retry), remembering whether it
// failed for Retry.
func (a *Agent) finishTurn(out chan<- Event, end TurnEnd) {
	a.mu.Lock()
	a.failed = end.Reason == ReasonError
	a.mu.Unlock()
	a.finish(out, end)
}
