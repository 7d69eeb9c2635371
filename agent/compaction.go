package agent

import (
	"context"
	"errors"
	"fmt"

	"github.com/tick-agent/tick/agent/compact"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
)

// errNothingToCompact is returned when the history is too short to compact.
var errNothingToCompact = errors.New("nothing to compact yet: the conversation is short")

// maybeCompact compacts the history before a model call when the request
// would come near the context window: by the server's last usage figures,
// or by an estimate of the request as it stands now (which includes the
// tool results added since, and the tool specs it offers). A local server
// cuts a request longer than its served context without a word, so a
// request still estimated past the window after compacting is said in a
// Notice, once a turn.
func (l *loop) maybeCompact(ctx context.Context) {
	l.a.mu.Lock()
	used := l.a.lastPrompt
	l.a.mu.Unlock()
	if est := l.estimate(); est > used {
		used = est
	}
	window := l.a.window()
	if l.compactFailed || !compact.Needed(used, window) {
		return
	}
	_, err := l.compact(ctx)
	switch {
	case errors.Is(err, errNothingToCompact):
		return // the tool specs and the prompt alone: later rounds may have something
	case err != nil && ctx.Err() == nil:
		l.compactFailed = true // say it once a turn, not every round
		l.emit(Notice{Text: fmt.Sprintf("could not compact the conversation: %v", err)})
		return
	case err != nil:
		return
	}
	if est := l.estimate(); est >= window && ctx.Err() == nil {
		l.compactFailed = true
		l.emit(Notice{Text: fmt.Sprintf("the request is still ~%d tokens after compacting, more than the model's context of %d: the server may cut it; start a new conversation or raise the context window", est, window)})
	}
}

// estimate is a rough token count of the next request: its messages and
// the tool specs it offers (which the server counts too: thousands of
// tokens, a large share of a small local context).
func (l *loop) estimate() int {
	n := compact.Estimate(l.messages())
	for _, s := range l.specs() {
		n += specOverhead + (len(s.Name)+len(s.Description)+len(s.Parameters)+3)/4
	}
	return n
}

// specOverhead is the tokens a tool spec costs besides its text (the
// template's wrapping).
const specOverhead = 8

// compact has the model summarise the older history and replaces it with
// the summary, the todo list verbatim and the last exchanges. The session
// file keeps the full history; only what is sent to the model changes.
func (l *loop) compact(ctx context.Context) (Compacted, error) {
	a := l.a
	before := compact.Estimate(l.messages())
	hist, summary, err := a.fold(ctx, a.History(), a.Todos())
	if err != nil {
		return Compacted{}, err
	}
	a.mu.Lock()
	a.folded += len(a.history) - len(hist)
	a.history = hist
	a.lastPrompt = 0
	a.mu.Unlock()
	if rec := a.cfg.Recorder; rec != nil {
		if err := rec.Compaction(summary, hist); err != nil {
			l.emit(Notice{Text: fmt.Sprintf("could not save the compaction: %v", err)})
		}
	}
	ev := Compacted{Before: before, After: compact.Estimate(l.messages())}
	l.emit(ev)
	return ev, nil
}

// fold has the model summarise the older messages of hist and returns
// the history rebuilt from that summary, list and the messages kept (the
// pinned ones first), with the summary: the one compaction of the
// parent's conversation (compact) and a subagent's (compactChild). It
// returns errNothingToCompact when no message is old enough to fold.
func (a *Agent) fold(ctx context.Context, hist []provider.Message, list todo.List) ([]provider.Message, string, error) {
	window := a.window()
	old, kept := compact.Split(hist, compact.KeepTurns, window*compact.KeepPercent/100)
	if len(old) == 0 {
		return nil, "", errNothingToCompact
	}
	summary, err := compact.Summarize(ctx, a.client(), a.ModelName(), old, window*compact.SummaryPercent/100)
	if err != nil {
		return nil, "", fmt.Errorf("summarise %d messages: %w", len(old), err)
	}
	kept = append(compact.Pinned(old, kept), kept...)
	return compact.Rebuild(summary, list, kept), summary, nil
}

// Compact compacts the conversation now (the /compact command), as a turn
// of its own: the channel carries a Compacted event (or a Notice saying why
// nothing was done) and then TurnEnd. It ends at once with ErrBusy while a
// turn is running.
func (a *Agent) Compact(ctx context.Context) <-chan Event {
	out, ok := a.begin()
	if !ok {
		return out
	}
	go func() {
		l := &loop{a: a, system: a.systemPrompt(), emit: func(ev Event) { out <- ev }, mu: &a.mu, hist: &a.history}
		l.raw = l.emit
		end := TurnEnd{Reason: ReasonDone}
		if _, err := l.compact(ctx); err != nil {
			switch {
			case ctx.Err() != nil:
				end = TurnEnd{Reason: ReasonInterrupted}
			case errors.Is(err, errNothingToCompact):
				l.emit(Notice{Text: err.Error()})
			default:
				end = TurnEnd{Reason: ReasonError, Err: err}
			}
		}
		a.finish(out, end)
	}()
	return out
}
