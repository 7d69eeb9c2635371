package ui

import (
	"github.com/tick-agent/tick/ui/status"

	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider"
)

func cost(c float64) *float64 { return &c }

// usageOf is a parent call's usage in a window of 128k (compaction at
// 80%).
func usageOf(in, out int, c *float64) agent.Usage {
	u := agent.Usage{Usage: provider.Usage{PromptTokens: in, CompletionTokens: out, TotalTokens: in + out}, Window: 128_000, CompactAt: 102_400}
	if c != nil {
		u.CostUSD, u.CostFrom = *c, agent.CostServer
	}
	return u
}

// TestStatusContextShare: after a few turns the status bar shows the last
// call's context as a share of the window and when compaction comes, and
// colours it from 80%.
func TestStatusContextShare(t *testing.T) {
	m, a := newTestModel(t, 140, 24)
	turns := []agent.Usage{usageOf(9_000, 500, nil), usageOf(20_000, 700, nil), usageOf(30_200, 800, nil)}
	for i, u := range turns {
		submit(m, "turn")
		events(t, m, u)
		endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
		if i == 0 && !strings.Contains(lastLine(screen(m)), "9.5k/128k · 7% · compacts at 102k") {
			t.Fatalf("status after turn 1: %s", lastLine(screen(m)))
		}
	}
	bar := lastLine(screen(m))
	if !strings.Contains(bar, "31k/128k · 24% · compacts at 102k") {
		t.Fatalf("status bar after three turns: %s", bar)
	}
	warn := newSGR(m.st.StatusWarn)
	if strings.Contains(m.View().Content, warn.pre+"31k") {
		t.Errorf("the share is coloured as a warning at 24%%")
	}
	submit(m, "big")
	events(t, m, usageOf(104_000, 1_000, nil))
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	if bar := lastLine(screen(m)); !strings.Contains(bar, "105k/128k · 82% · compacts next") {
		t.Fatalf("status bar past the threshold: %s", bar)
	}
	if !strings.Contains(m.View().Content, warn.pre+"105k/128k") {
		t.Errorf("the share at 82%% is not in the warning style:\n%q", lastLine(m.View().Content))
	}
	// A narrow bar keeps the share.
	update(m, tea.WindowSizeMsg{Width: 70, Height: 24})
	update(m, paintMsg{})
	if bar := lastLine(screen(m)); !strings.Contains(bar, "82%") {
		t.Errorf("narrow status bar lost the share: %s", bar)
	}
}

// TestUsageCommand: /usage (and /cost) show the session's totals, equal
// to the sum of what the server reported, per turn and per subagent, with
// the cost and where it came from.
func TestUsageCommand(t *testing.T) {
	m, a := newTestModel(t, 140, 40)
	submit(m, "first")
	events(t, m, usageOf(1000, 100, cost(0.001)),
		agent.ToolStart{ID: "t1", Name: agent.TaskTool, Summary: "survey the code"},
		agent.Subagent{ParentID: "t1", Event: agent.Usage{Usage: provider.Usage{PromptTokens: 500, CompletionTokens: 50, CachedTokens: 200}, CostUSD: 0.0005, CostFrom: agent.CostServer}},
		agent.Subagent{ParentID: "t1", Event: agent.Usage{Usage: provider.Usage{PromptTokens: 700, CompletionTokens: 70}, CostUSD: 0.0007, CostFrom: agent.CostServer}},
		agent.ToolEnd{ID: "t1", Name: agent.TaskTool},
		usageOf(2000, 200, cost(0.002)))
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	if bar := lastLine(screen(m)); !strings.Contains(bar, "2.2k/128k") {
		t.Errorf("a subagent's call changed the context shown: %s", bar)
	}
	submit(m, "second")
	events(t, m, usageOf(3000, 300, cost(0.003)))
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	submit(m, "/cost")
	s := screen(m)
	for _, want := range []string{
		// 1000+500+700+2000+3000 in, 100+50+70+200+300 out, 0.0072 dollars
		"Usage this session: 5 calls · 7.2k in (200 cached) · 720 out · $0.0072 (reported by the server)",
		"Context: 3.3k/128k · 2% · compacts at 102k",
		"Turn 1: 4 calls · 4.2k in (200 cached) · 420 out · $0.0042\n",
		`subagent "survey the code": 2 calls · 1.2k in (200 cached) · 120 out · $0.0012`,
		"Turn 2: 1 call · 3.0k in · 300 out · $0.0030",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("/cost lacks %q:\n%s", want, s)
		}
	}
}

// TestUsageLedgerBounded: a long session keeps a bounded list of turns,
// and the total still counts them all.
func TestUsageLedgerBounded(t *testing.T) {
	var l usageLedger
	for i := 0; i < usageTurnsMax*3; i++ {
		l.parent(usageOf(10, 1, nil))
		l.endTurn()
	}
	if len(l.turns) > usageTurnsMax || l.session.Calls != usageTurnsMax*3 {
		t.Fatalf("%d turns kept, %d calls counted", len(l.turns), l.session.Calls)
	}
	if r := l.report(); !strings.Contains(r, "earlier turns not listed") || strings.Count(r, "\nTurn ") != usageShown {
		t.Errorf("report:\n%s", r)
	}
}

// BenchmarkStatusBarContext draws the status bar with the context share,
// every frame's cost of the field (compare BenchmarkStatusBarTokens).
func BenchmarkStatusBarContext(b *testing.B) {
	benchStatus(b, status.Info{Model: "gpt-4.1-mini", Workspace: "~/src/tick", Ctx: status.Context{Used: 31_000, Window: 128_000, CompactAt: 102_400}})
}

// BenchmarkStatusBarTokens draws the status bar with a bare token count.
func BenchmarkStatusBarTokens(b *testing.B) {
	benchStatus(b, status.Info{Model: "gpt-4.1-mini", Workspace: "~/src/tick", Ctx: status.Context{Used: 31_000}})
}

func benchStatus(b *testing.B, s status.Info) {
	st := DefaultStyles(true)
	bar := status.NewBar(&st)
	b.ReportAllocs()
	for b.Loop() {
		_ = status.View(bar, s, 120)
	}
}

// TestUsageLocalSaysFreeOnce (issue 30 §12): on a local server /usage
// says "free (local server)" once, on the session's line; the turns' lines
// say "free".
func TestUsageLocalSaysFreeOnce(t *testing.T) {
	m, a := newTestModel(t, 140, 40)
	local := func(in, out int) agent.Usage {
		u := usageOf(in, out, nil)
		u.CostFrom = agent.CostLocal
		return u
	}
	for _, p := range []string{"first", "second", "third"} {
		submit(m, p)
		events(t, m, local(1000, 100))
		endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	}
	submit(m, "/usage")
	s := screen(m)
	if n := strings.Count(s, "free (local server)"); n != 1 {
		t.Errorf("\"free (local server)\" shows %d times, want once:\n%s", n, s)
	}
	if !strings.Contains(s, "Turn 3: 1 call · 1.0k in · 100 out · free") {
		t.Errorf("a turn's line does not say free:\n%s", s)
	}
}
