package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/tick-agent/tick/provider"
)

// KindBudget: the turn reached one of its budgets (Config.Budget); the
// history is valid and the session saved, so a message carries on.
const KindBudget ErrorKind = "budget"

// errBudget ends a turn that reached a budget.
var errBudget = errors.New("budget reached")

// errTimeUp is the cause of a turn's context when its time budget is up:
// a command it cut short says so in these words.
var errTimeUp = fmt.Errorf("stopped by the time budget (--max-time)%w", errNoText{errBudget})

// errNoText wraps an error without adding its text.
type errNoText struct{ err error }

func (e errNoText) Error() string { return "" }
func (e errNoText) Unwrap() error { return e.err }

// Budget caps one turn beyond Config.MaxRounds. A zero field is no cap.
type Budget struct {
	// MaxCost is the most the turn may cost, in US dollars: the server's
	// reported cost (provider.Usage.CostUSD) when it sends one, else the
	// price table's estimate (PriceOf); a model with neither costs nothing.
	MaxCost float64
	// MaxTime is the longest the turn may run. When it passes, the
	// running model call or command is stopped as by an interrupt.
	MaxTime time.Duration
}

// spend is what a turn has used so far, against its Budget.
type spend struct {
	start time.Time
	mu    sync.Mutex // subagents side by side add to cost at once
	cost  float64
	calls int // the model calls of the turn, its subagents' included
}

// call counts one model call of the turn (a subagent's too) and reports
// whether it is within max calls; past it the call is not made.
func (s *spend) call(max int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if max > 0 && s.calls >= max {
		return false
	}
	s.calls++
	return true
}

// add counts usd toward the turn's cost.
func (s *spend) add(usd float64) {
	s.mu.Lock()
	s.cost += usd
	s.mu.Unlock()
}

// within reports whether the turn has made fewer than max model calls.
func (s *spend) within(max int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return max <= 0 || s.calls < max
}

// spentUSD is the turn's cost so far.
func (s *spend) spentUSD() float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cost
}

// overBudget returns the error that ends the turn before its next model
// call when a budget is used up, else nil.
func (l *loop) overBudget() error {
	b := l.a.cfg.Budget
	switch cost := l.spent.spentUSD(); {
	case b.MaxCost > 0 && cost >= b.MaxCost:
		return fmt.Errorf("%w: --max-cost $%.4g (spent $%.4g); send a message to continue", errBudget, b.MaxCost, cost)
	case b.MaxTime > 0 && time.Since(l.spent.start) >= b.MaxTime:
		return l.a.timeBudgetError()
	}
	return nil
}

// withTimeBudget returns ctx ending when the turn's time budget is up (its
// cause errBudget), and its cancel function.
func (a *Agent) withTimeBudget(ctx context.Context) (context.Context, context.CancelFunc) {
	if a.cfg.Budget.MaxTime <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeoutCause(ctx, a.cfg.Budget.MaxTime, errTimeUp)
}

// budgetEnd turns an interrupted end into the budget's end when it was the
// time budget that stopped the turn.
func (a *Agent) budgetEnd(ctx context.Context, end TurnEnd) TurnEnd {
	if end.Reason != ReasonInterrupted || !errors.Is(context.Cause(ctx), errBudget) {
		return end
	}
	return TurnEnd{Reason: ReasonError, Undelivered: end.Undelivered, Err: a.timeBudgetError()}
}

// timeBudgetError ends a turn that ran past its time budget.
func (a *Agent) timeBudgetError() error {
	return fmt.Errorf("%w: --max-time %s; send a message to continue", errBudget, a.cfg.Budget.MaxTime)
}

// prices are list prices of common hosted models in US dollars per
// million tokens, matched by name prefix (longest first); a model not here
// has no known price.
var prices = []struct {
	prefix string
	p      provider.Price
}{
	{"gpt-4.1-nano", provider.Price{Input: 0.10, Output: 0.40}},
	{"gpt-4.1-mini", provider.Price{Input: 0.40, Output: 1.60}},
	{"gpt-4.1", provider.Price{Input: 2, Output: 8}},
	{"gpt-4o-mini", provider.Price{Input: 0.15, Output: 0.60}},
	{"gpt-4o", provider.Price{Input: 2.50, Output: 10}},
	{"o4-mini", provider.Price{Input: 1.10, Output: 4.40}},
	{"o3-mini", provider.Price{Input: 1.10, Output: 4.40}},
	{"o3", provider.Price{Input: 2, Output: 8}},
	{"gpt-5-nano", provider.Price{Input: 0.05, Output: 0.40}},
	{"gpt-5-mini", provider.Price{Input: 0.25, Output: 2}},
	{"gpt-5", provider.Price{Input: 1.25, Output: 10}},
	{"deepseek-chat", provider.Price{Input: 0.27, Output: 1.10}},
	{"deepseek-reasoner", provider.Price{Input: 0.55, Output: 2.19}},
}

// PriceOf returns the cost in US dollars of a call of model with these
// token counts by the built-in price table (provider.Price.Cost), and
// whether the model's price is known. A "provider/" prefix (OpenRouter's
// names) is ignored.
func PriceOf(model string, promptTokens, completionTokens int) (float64, bool) {
	name := strings.ToLower(model)
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	for _, e := range prices {
		if strings.HasPrefix(name, e.prefix) {
			return e.p.Cost(provider.Usage{PromptTokens: promptTokens, CompletionTokens: completionTokens}), true
		}
	}
	return 0, false
}

// roundCapError is the error of a loop that reached its cap of model
// calls: a turn's cap is the --max-turns budget, a subagent's its own.
func (l *loop) roundCapError() error {
	if l.child && !l.spent.within(l.a.cfg.MaxRounds) {
		return fmt.Errorf("%w: the turn's --max-turns budget of %d model calls (its subagents' included) is used up", errBudget, l.a.cfg.MaxRounds)
	}
	if l.child {
		return fmt.Errorf("%w: stopped after %d model calls", errRoundCap, l.maxRounds)
	}
	return fmt.Errorf("%w: stopped after %d model calls (the --max-turns budget); send a message to continue", errRoundCap, l.maxRounds)
}
