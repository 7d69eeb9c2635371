package agent

import (
	"context"
	"errors"
	"fmt"

	"github.com/tick-agent/tick/agent/compact"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
)

// errContextFull ends a subagent whose conversation no longer fits the
// model's context even after compacting: its task's result says so, and
// the parent model can split the work.
var errContextFull = errors.New("context full")

// compactChild compacts a subagent's own conversation, as the parent's is
// compacted (see maybeCompact), when its next request nears the model's
// context: the older messages become a summary, the task's prompt and the
// last steps stay. It returns errContextFull when the request still would
// not fit, so that the subagent ends with a result the parent can act on
// rather than growing its requests until the server refuses them.
func (l *loop) compactChild(ctx context.Context) error {
	window := l.a.window()
	if !compact.Needed(max(l.used, l.estimate()), window) {
		return nil
	}
	l.mu.Lock()
	hist := append([]provider.Message(nil), (*l.hist)...)
	l.mu.Unlock()
	if !l.compactFailed {
		before := l.estimate()
		rebuilt, _, err := l.a.fold(ctx, hist, todo.List{})
		switch {
		case errors.Is(err, errNothingToCompact):
		case err == nil:
			l.mu.Lock()
			*l.hist = rebuilt
			l.mu.Unlock()
			l.used = 0
			l.emit(Compacted{Before: before, After: l.estimate()})
		case ctx.Err() != nil:
			return nil // the run ends on its context
		default:
			l.compactFailed = true
			l.emit(Notice{Text: fmt.Sprintf("could not compact the subagent's conversation: %v", err)})
		}
	}
	if est := l.estimate(); est >= window {
		return fmt.Errorf("%w: the subagent's conversation is ~%d tokens, more than the model's context of %d even after compacting; give it a smaller part of the work", errContextFull, est, window)
	}
	return nil
}
