package agent

import (
	"context"
	"errors"
)

// Stopped is the cause of a turn a front-end stopped for a reason other
// than the user's interrupt: a signal ("SIGTERM"). A front-end cancels
// the turn's context with it (context.WithCancelCause), and the model is
// told what stopped its calls in those words, never "interrupted by the
// user".
type Stopped string

// Error says what stopped the turn: "stopped by SIGTERM".
func (s Stopped) Error() string { return "stopped by " + string(s) }

// stoppedResult is what the model sees for a call cut short when ctx
// ended: stopped by the time budget, by a signal (Stopped), or else
// interrupted by the user (interruptedResult).
func stoppedResult(ctx context.Context) string {
	cause := context.Cause(ctx)
	var s Stopped
	switch {
	case errors.Is(cause, errBudget):
		return "Error: " + errTimeUp.Error() + " before this tool finished"
	case errors.As(cause, &s):
		return "Error: " + s.Error() + " before this tool finished"
	}
	return interruptedResult
}
