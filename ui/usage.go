package ui

import (
	"github.com/tick-agent/tick/agent/humanize"

	"github.com/tick-agent/tick/ui/status"

	"github.com/tick-agent/tick/ui/style"

	"fmt"
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

	ctx status.Context
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
	l.ctx = status.Context{Used: max(u.PromptTokens, 0) + max(u.CompletionTokens, 0), Window: max(u.Window, 0), CompactAt: max(u.CompactAt, 0), Estimated: u.Estimated}
	if l.ctx.Used == 0 {
		l.ctx.Used = max(u.TotalTokens, 0)
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
		l.ctx.Used, l.ctx.Estimated = after, true
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
	if c := l.ctx; c.Window > 0 {
		b.WriteString("\nContext: " + status.ContextText(c, true))
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
// 450 out · $0.0042", with where the cost came from when source is set
// (without it a local server's calls are just "free": the session's line
// says why).
func totalText(t agent.UsageTotal, source bool) string {
	est := ""
	if t.Estimated {
		est = "~"
	}
	calls := "calls"
	if t.Calls == 1 {
		calls = "call"
	}
	s := fmt.Sprintf("%d %s · %s%s in", t.Calls, calls, est, humanize.Tokens(t.PromptTokens))
	if t.CachedTokens > 0 {
		s += " (" + humanize.Tokens(t.CachedTokens) + " cached)"
	}
	cost := agent.CostText(t, source)
	if !source && t.CostFrom == agent.CostLocal && t.Cost == 0 && t.Unpriced == 0 {
		cost = "free"
	}
	return s + " · " + est + humanize.Tokens(t.CompletionTokens) + " out · " + cost
}

// costText is the session's cost for the status bar: "$0.0042", "≈$1.20"
// when part of it is an estimate or some calls have no price; "" when no
// call has a known price, or a local server's calls cost nothing.
func (l *usageLedger) costText() string {
	t := l.session
	if t.Calls == 0 || t.Unpriced == t.Calls || t.CostFrom == agent.CostLocal && t.Cost == 0 {
		return ""
	}
	s := humanize.Cost(t.Cost)
	if t.CostFrom == agent.CostTable || t.CostFrom == agent.CostMixed || t.Unpriced > 0 {
		s = "≈" + s
	}
	return s
}

// showUsage shows the session's usage in the chat (/usage, /cost).
func (m *Model) showUsage() tea.Cmd {
	m.chat.AddNotice(m.usage.report())
	return nil
}
