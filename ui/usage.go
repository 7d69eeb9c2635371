package ui

import (
	"github.com/tick-agent/tick/ui/style"

	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/tick-agent/tick/agent"
)

// usageLedger is what the session's model calls used, from the Usage
// events (the TUI adds them up; the agent keeps no session total): the
// session's total, per turn and per subagent (/usage), and the context in
// use now, for the status bar.
type usageLedger struct {
	session agent.UsageTotal
	turns   []turnUsage       // the finished turns with model calls, the last usageTurnsMax
	earlier int               // finished turns dropped from turns (still in session)
	cur     *turnUsage        // the running turn's, nil before its first call
	count   int               // turns counted so far, for their numbers
	tasks   map[string]string // the summaries of the running turn's task calls, by id

	ctx contextUse
}

// usageTurnsMax bounds the turns /usage lists one by one: memory does not
// grow with a session's length.
const usageTurnsMax = 200

// usageSubsMax bounds the subagents kept per turn.
const usageSubsMax = 50

// turnUsage is one turn's calls: its own and each subagent's.
type turnUsage struct {
	n     int
	total agent.UsageTotal // everything, the subagents' included
	subs  []subUsage
}

// subUsage is one subagent's calls (a task call).
type subUsage struct {
	id, label string
	total     agent.UsageTotal
}

// contextUse is the context in use after the last parent call: its
// prompt and answer, the window, and where compaction starts (0: unknown).
type contextUse struct {
	used, window, compactAt int
	estimated               bool
}

// turn returns the running turn's record, starting one.
func (l *usageLedger) turn() *turnUsage {
	if l.cur == nil {
		l.count++
		l.cur = &turnUsage{n: l.count}
	}
	return l.cur
}

// parent counts a call of the main loop, which also says the context in use.
func (l *usageLedger) parent(u agent.Usage) {
	l.session.Add(u)
	l.turn().total.Add(u)
	l.ctx = contextUse{used: max(u.PromptTokens, 0) + max(u.CompletionTokens, 0), window: max(u.Window, 0), compactAt: max(u.CompactAt, 0), estimated: u.Estimated}
	if l.ctx.used == 0 {
		l.ctx.used = max(u.TotalTokens, 0)
	}
}

// taskStarted remembers what the task call id asks, to name its subagent.
func (l *usageLedger) taskStarted(id, summary string) {
	if l.tasks == nil {
		l.tasks = map[string]string{}
	}
	if len(l.tasks) < usageSubsMax {
		l.tasks[id] = style.OneLine(summary)
	}
}

// sub counts a call of the subagent of task call id.
func (l *usageLedger) sub(id string, u agent.Usage) {
	l.session.Add(u)
	t := l.turn()
	t.total.Add(u)
	for i := range t.subs {
		if t.subs[i].id == id {
			t.subs[i].total.Add(u)
			return
		}
	}
	if len(t.subs) >= usageSubsMax {
		return // counted in the turn's total
	}
	s := subUsage{id: id, label: l.tasks[id]}
	s.total.Add(u)
	t.subs = append(t.subs, s)
}

// compacted says the context after a compaction (an estimate).
func (l *usageLedger) compacted(after int) {
	if after > 0 {
		l.ctx.used, l.ctx.estimated = after, true
	}
}

// endTurn files the running turn's record.
func (l *usageLedger) endTurn() {
	l.tasks = nil
	if l.cur == nil {
		return
	}
	l.turns = append(l.turns, *l.cur)
	l.cur = nil
	if n := len(l.turns) - usageTurnsMax; n > 0 {
		l.turns = append(l.turns[:0:0], l.turns[n:]...)
		l.earlier += n
	}
}

// usageShown is how many of the last turns /usage lists.
const usageShown = 10

// report is the text /usage shows: the session's total, the context, then
// the last turns with their subagents.
func (l *usageLedger) report() string {
	var b strings.Builder
	if l.session.Calls == 0 {
		b.WriteString("Usage: no model calls yet this session.")
	} else {
		b.WriteString("Usage this session: " + totalText(l.session, true))
	}
	if c := l.ctx; c.window > 0 {
		b.WriteString("\nContext: " + contextText(c, true))
	}
	turns := l.turns
	if l.cur != nil {
		turns = append(turns[:len(turns):len(turns)], *l.cur)
	}
	if hidden := len(turns) - usageShown; hidden > 0 || l.earlier > 0 {
		hidden = max(hidden, 0)
		b.WriteString(fmt.Sprintf("\n(%d earlier turns not listed)", hidden+l.earlier))
		turns = turns[hidden:]
	}
	for _, t := range turns {
		fmt.Fprintf(&b, "\nTurn %d: %s", t.n, totalText(t.total, false))
		for _, s := range t.subs {
			label := s.label
			if label == "" {
				label = s.id
			}
			fmt.Fprintf(&b, "\n  subagent %q: %s", style.Truncate(label, 40), totalText(s.total, false))
		}
	}
	return b.String()
}

// totalText says a total in one line: "3 calls · 12.3k in (10.0k cached) ·
// 450 out · $0.0042", with where the cost came from when source is set.
func totalText(t agent.UsageTotal, source bool) string {
	est := ""
	if t.Estimated {
		est = "~"
	}
	calls := "calls"
	if t.Calls == 1 {
		calls = "call"
	}
	s := fmt.Sprintf("%d %s · %s%s in", t.Calls, calls, est, style.Tokens(t.PromptTokens))
	if t.CachedTokens > 0 {
		s += " (" + style.Tokens(t.CachedTokens) + " cached)"
	}
	return s + " · " + est + style.Tokens(t.CompletionTokens) + " out · " + costText(t, source)
}

// costText says a total's cost, and where it came from when source is
// set (an estimate is marked "≈" either way).
func costText(t agent.UsageTotal, source bool) string {
	if t.CostFrom == agent.CostLocal && t.Cost == 0 {
		if t.Unpriced == 0 {
			return "free (local server)"
		}
	}
	if t.Calls == 0 || t.Unpriced == t.Calls {
		return "cost unknown"
	}
	s := agent.FormatCost(t.Cost)
	if t.CostFrom == agent.CostTable || t.CostFrom == agent.CostMixed {
		s = "≈" + s
	}
	switch {
	case !source:
	case t.CostFrom == agent.CostServer:
		s += " (reported by the server)"
	case t.CostFrom == agent.CostTable:
		s += " (list prices, an estimate)"
	case t.CostFrom == agent.CostConfig:
		s += " (your prices)"
	}
	if t.Unpriced > 0 {
		s += fmt.Sprintf(" + %d of unknown cost", t.Unpriced)
	}
	return s
}

// contextText says the context in use: "31k/128k · 24%", and with when
// "· compacts at 102k" (or "· compacts next" once past it).
func contextText(c contextUse, when bool) string {
	s := shortTokens(c.used) + "/" + shortTokens(c.window) + " · " + strconv.Itoa(contextPercent(c)) + "%"
	if c.estimated {
		s = "~" + s
	}
	if when && c.compactAt > 0 {
		if c.used >= c.compactAt {
			return s + " · compacts next"
		}
		return s + " · compacts at " + shortTokens(c.compactAt)
	}
	return s
}

// contextPercent is the share of the window in use, 0 to 999.
func contextPercent(c contextUse) int {
	if c.window <= 0 {
		return 0
	}
	return min(c.used*100/c.window, 999)
}

// contextWarnAt is the share of the window from which the status bar
// colours the context (compaction starts at 80%).
const contextWarnAt = 80

// shortTokens shows a token count in at most four cells: 950, 1.5k, 31k,
// 128k, 1.0M.
func shortTokens(n int) string {
	switch {
	case n < 1000:
		return strconv.Itoa(n)
	case n < 10_000:
		return strconv.FormatFloat(float64(n)/1000, 'f', 1, 64) + "k"
	case n < 1_000_000:
		return strconv.Itoa(n/1000) + "k"
	default:
		return strconv.FormatFloat(float64(n)/1_000_000, 'f', 1, 64) + "M"
	}
}

// showUsage shows the session's usage in the chat (/usage, /cost).
func (m *Model) showUsage() tea.Cmd {
	m.chat.addNotice(m.usage.report())
	return nil
}
