package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/tick-agent/tick/agent/sandbox"
	"github.com/tick-agent/tick/agent/tools"
	"github.com/tick-agent/tick/agent/undo"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
)

// nagAfter is how many consecutive tool rounds without a todo call make the
// loop remind the model of its list.
const nagAfter = 3

// errRoundCap ends a loop that reached its cap of model calls.
var errRoundCap = errors.New("round cap reached")

// nagText is the reminder added after the tool results of such a round.
const nagText = todo.Reminder

// loop runs model rounds for one conversation: the parent's turn, or a
// subagent's whole life. It is used from one goroutine only.
type loop struct {
	a         *Agent
	system    string
	tools     []tools.Tool
	emit      func(Event) // sends an event of this loop (wrapped for a subagent)
	raw       func(Event) // sends an event to the front-end as is
	maxRounds int
	child     bool                  // a subagent: no steering, no nag, no recorder
	task      string                // a subagent's task call id, for its approval requests
	taskName  string                // a subagent's task description, for its hooks and approvals
	itemPoint func(context.Context) // a task's on a plan item: saves the item's undo point (see extraCall)
	readOnly  bool                  // a read-only subagent: plan mode's tools, read-only commands
	extra     []tools.Tool          // the ToolSource's tools of this turn (MCP), also a subagent's
	ws        string                // where its tools work when not the workspace: a task's copy
	sbx       *sandbox.Runner       // its commands' runner when not the agent's: a task's own

	mu   *sync.Mutex         // guards *hist
	hist *[]provider.Message // the conversation, without the system prompt

	sinceTodo     int             // consecutive tool rounds without a todo call
	compactFailed bool            // a compaction failed this turn; do not retry every round
	reminded      bool            // the model was reminded of open items this turn
	parseRetried  bool            // the last model call failed on a call the server could not parse, and was asked again
	point         *undo.Point     // the undo point of this turn's message, if any
	said          bool            // the model answered with text or a tool call this turn
	worked        bool            // the turn worked on the plan: called todo, or changed files under an item
	planned       bool            // a todo call of this turn was accepted
	rejected      string          // why this turn's last todo call was refused; "" when accepted
	passed        map[string]bool // gates the model walked past and the user let it go on from

	spent      *spend // what the turn has used, shared with its subagents (set on every loop that runs)
	verifyRuns int    // how many times the verify check ran this turn
	used       int    // a subagent's tokens of its last request and answer
}

// turn runs one parent turn and delivers its events on out.
func (a *Agent) turn(ctx context.Context, prompt string, out chan<- Event) {
	l := a.parentLoop(out)
	if err := l.promptHook(ctx, prompt); err != nil {
		a.mu.Lock()
		a.failed = false // a refused prompt is nothing to retry
		a.mu.Unlock()
		a.finish(out, TurnEnd{Reason: ReasonError, Err: err, Kind: KindPromptBlocked})
		return
	}
	l.addTools(ctx)
	l.point = a.startTurnPoint(ctx, prompt)
	if !a.mention(ctx, l, prompt) {
		end := TurnEnd{Reason: ReasonError, Err: a.timeBudgetError()}
		l.settleTurnPoint(end)
		l.stopHook(ctx, end)
		a.finishTurn(out, end)
		return
	}
	a.runParent(ctx, l, out)
}

// mention adds the user's message with what its @ mentions attach, within
// the time budget (decoding a mentioned image is abandoned when it runs
// out, or when ctx ends); false when the time budget ran out.
func (a *Agent) mention(ctx context.Context, l *loop, prompt string) bool {
	mctx, cancel := a.withTimeBudget(ctx)
	defer cancel()
	l.add(a.withMentions(mctx, prompt, l.emit))
	return !errors.Is(context.Cause(mctx), errBudget)
}

// parentLoop returns the loop of a parent turn delivering events on out,
// without its tools (see addTools).
func (a *Agent) parentLoop(out chan<- Event) *loop {
	return &loop{
		a:         a,
		system:    a.systemPrompt(),
		emit:      func(ev Event) { out <- ev },
		raw:       func(ev Event) { out <- ev },
		maxRounds: a.cfg.MaxRounds,
		spent:     &spend{start: time.Now()},
		mu:        &a.mu,
		hist:      &a.history,
	}
}

// addTools gives a parent loop its tools: the base ones, todo, task and
// the extra tools (MCP).
func (l *loop) addTools(ctx context.Context) {
	l.extra = l.extraTools(ctx)
	l.tools = l.toolsFor(l.a.Mode())
}

// runParent runs a parent loop to its end, runs the stop hook and ends the
// turn.
func (a *Agent) runParent(ctx context.Context, l *loop, out chan<- Event) {
	bctx, cancel := a.withTimeBudget(ctx)
	end := a.budgetEnd(bctx, l.run(bctx))
	cancel()
	l.settleTurnPoint(end)
	l.stopHook(ctx, end)
	a.finishTurn(out, end)
}

// run calls the model until it answers without tool calls, the context is
// cancelled, an error occurs or the round cap is reached.
func (l *loop) run(ctx context.Context) TurnEnd {
	for round := 0; ; round++ {
		if ctx.Err() != nil {
			return TurnEnd{Reason: ReasonInterrupted}
		}
		if round >= l.maxRounds || !l.spent.call(l.a.cfg.MaxRounds) {
			return TurnEnd{Reason: ReasonError, Err: l.roundCapError()}
		}
		if err := l.overBudget(); err != nil {
			return TurnEnd{Reason: ReasonError, Err: err}
		}
		if !l.child {
			l.tools = l.toolsFor(l.a.Mode())
			l.deliverSteers()
			l.deliverPlanEdits()
			l.maybeCompact(ctx)
		} else if err := l.compactChild(ctx); err != nil {
			return TurnEnd{Reason: ReasonError, Err: err}
		}
		msg, err := l.stream(ctx)
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, context.Canceled) {
				return TurnEnd{Reason: ReasonInterrupted}
			}
			if l.retryParse(err) {
				continue
			}
			return TurnEnd{Reason: ReasonError, Err: err}
		}
		l.parseRetried = false
		if len(msg.ToolCalls) == 0 && strings.TrimSpace(msg.Content) == "" && !l.said && !l.child && l.a.Mode() != ModePlan {
			return TurnEnd{Reason: ReasonError, Err: ErrEmptyAnswer}
		}
		l.said = l.said || len(msg.ToolCalls) > 0 || strings.TrimSpace(msg.Content) != ""
		if len(msg.ToolCalls) == 0 {
			if l.finalAnswer(ctx) {
				continue
			}
			if ctx.Err() != nil {
				return TurnEnd{Reason: ReasonInterrupted}
			}
			return TurnEnd{Reason: ReasonDone}
		}
		before := l.a.Todos()
		usedTodo := l.dispatch(ctx, msg.ToolCalls)
		if ctx.Err() != nil {
			return TurnEnd{Reason: ReasonInterrupted}
		}
		l.nag(usedTodo)
		if usedTodo && !l.gate(ctx, before) {
			return TurnEnd{Reason: ReasonInterrupted}
		}
	}
}

// nag counts tool rounds without a todo call and, on the third in a row,
// adds the reminder after this round's tool results. The user is told of
// it only when there is a plan with items open to update: with none the
// reminder merely invites the model to make one.
func (l *loop) nag(usedTodo bool) {
	if l.child {
		return
	}
	if usedTodo {
		l.sinceTodo = 0
		return
	}
	l.sinceTodo++
	if l.sinceTodo < nagAfter {
		return
	}
	l.sinceTodo = 0
	l.add(provider.Message{Role: provider.RoleUser, Content: nagText})
	if len(l.a.Todos().Open()) > 0 {
		l.emit(Notice{Text: "reminded the model to update its todo list"})
	}
}

// deliverSteers moves the queued steer messages into the conversation.
func (l *loop) deliverSteers() {
	l.a.mu.Lock()
	msgs := l.a.steer
	l.a.steer = nil
	l.a.mu.Unlock()
	for _, s := range msgs {
		l.add(provider.Message{Role: provider.RoleUser, Content: s.text})
		l.emit(SteerDelivered{ID: s.id, Text: s.text})
	}
}

// add appends m to the conversation and records it.
func (l *loop) add(m provider.Message) {
	l.mu.Lock()
	*l.hist = append(*l.hist, m)
	l.mu.Unlock()
	if !l.child && l.a.cfg.Recorder != nil {
		if err := l.a.cfg.Recorder.Message(m); err != nil {
			l.emit(Notice{Text: fmt.Sprintf("could not save the session: %v", err)})
		}
	}
}

// messages returns the request messages: the system prompt and a copy of
// the conversation.
func (l *loop) messages() []provider.Message {
	system := l.system
	if !l.child && l.a.Mode() == ModePlan { // before l.mu: it may be a.mu
		system += "\n" + planModePrompt
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	msgs := make([]provider.Message, 0, len(*l.hist)+1)
	msgs = append(msgs, provider.Message{Role: provider.RoleSystem, Content: system})
	return append(msgs, *l.hist...)
}

// specs returns the tool specs offered to the model.
func (l *loop) specs() []provider.ToolSpec {
	specs := make([]provider.ToolSpec, 0, len(l.tools))
	for _, t := range l.tools {
		if offered(t) {
			specs = append(specs, t.Spec())
		}
	}
	return specs
}

// tool finds a tool by name.
func (l *loop) tool(name string) tools.Tool {
	for _, t := range l.tools {
		if t.Spec().Name == name {
			return t
		}
	}
	return nil
}

// emitApproval sends an approval request to the front-end unwrapped, even
// from a subagent, so that front-ends answer one shape of request.
func (l *loop) emitApproval(r ApprovalRequest) {
	r.Task, r.TaskName = l.task, l.taskName
	l.raw(r)
}

// parseNote tells the model that the server could not parse its tool
// call, quoting what it wrote.
const parseNote = "The server could not parse your last tool call. You wrote: %s. Call the tool again with its arguments as one valid JSON object, or answer in plain text."

// retryParse handles a model call that failed because the server could
// not parse the tool call the model wrote (Ollama's "error parsing tool
// call"): the first time in a row, a note quoting what the model wrote is
// added and the loop asks again; it reports whether it did.
func (l *loop) retryParse(err error) bool {
	raw, ok := provider.ToolCallParseError(err)
	if !ok || l.parseRetried {
		return false
	}
	l.parseRetried = true
	if raw == "" {
		raw = "(the server did not quote it)"
	} else {
		raw = snippet(raw, 300)
	}
	l.add(provider.Message{Role: provider.RoleUser, Content: fmt.Sprintf(parseNote, raw)})
	l.emit(Notice{Text: "the server could not parse the model's tool call; asking the model again"})
	return true
}
