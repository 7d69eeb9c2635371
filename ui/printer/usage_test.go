package printer_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/ui/printer"
)

func usageEvents() []agent.Event {
	return []agent.Event{
		agent.Usage{Usage: provider.Usage{PromptTokens: 1200, CompletionTokens: 30, CachedTokens: 1000}, CostUSD: 0.0004, CostFrom: agent.CostServer},
		agent.Usage{Usage: provider.Usage{PromptTokens: 1300, CompletionTokens: 20}, CostUSD: 0.0006, CostFrom: agent.CostServer},
		agent.AssistantDone{Text: "Done.", Final: true},
		agent.TurnEnd{Reason: agent.ReasonDone, Usage: &agent.UsageTotal{Calls: 2, PromptTokens: 2500, CompletionTokens: 50, CachedTokens: 1000, Cost: 0.001, CostFrom: agent.CostServer}},
	}
}

// TestVerboseUsage: -p --verbose prints each call's tokens and cost and
// the turn's total after the answer; without --verbose none of it.
func TestVerboseUsage(t *testing.T) {
	for _, verbose := range []bool{true, false} {
		var out, errb bytes.Buffer
		if _, err := printer.New(&out, &errb, printer.Options{Verbose: verbose}).Run(feed(usageEvents()...)); err != nil {
			t.Fatal(err)
		}
		want := "tokens: 1200 in (1000 cached), 30 out · $0.0004 (reported by the server)\n" +
			"tokens: 1300 in, 20 out · $0.0006 (reported by the server)\n" +
			"usage: 2 calls, 2500 tokens in (1000 cached), 50 out · $0.0010 (reported by the server)\n"
		if !verbose {
			want = ""
		}
		if errb.String() != want || out.String() != "Done.\n" {
			t.Errorf("verbose=%v: stdout %q, stderr:\n%s\nwant stderr:\n%s", verbose, out.String(), errb.String(), want)
		}
	}
}

// TestJSONTurnEndUsage: --json's turn_end carries the turn's usage and
// cost, and each usage event its cost and source.
func TestJSONTurnEndUsage(t *testing.T) {
	var out, errb bytes.Buffer
	if _, err := printer.New(&out, &errb, printer.Options{JSON: true}).Run(feed(usageEvents()...)); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	var first struct {
		Cost     float64 `json:"cost_usd"`
		CostFrom string  `json:"cost_from"`
		Cached   int     `json:"cached_tokens"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil || first.Cost != 0.0004 || first.CostFrom != "server" || first.Cached != 1000 {
		t.Errorf("usage line %s (%v)", lines[0], err)
	}
	var last struct {
		Type  string           `json:"type"`
		Usage agent.UsageTotal `json:"usage"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil {
		t.Fatal(err)
	}
	if last.Type != "turn_end" || last.Usage.Calls != 2 || last.Usage.PromptTokens != 2500 || last.Usage.Cost != 0.001 || last.Usage.CostFrom != agent.CostServer {
		t.Errorf("turn_end = %s", lines[len(lines)-1])
	}
}

// TestVerboseUsageCostAgreesWithTUI: -p words a turn's cost as the TUI's
// /usage does (agent.CostText). A local server's turn that still has a
// price says the price: -p said "free" where the TUI showed it.
func TestVerboseUsageCostAgreesWithTUI(t *testing.T) {
	tests := []struct {
		name  string
		total agent.UsageTotal
		want  string
	}{
		{"local and priced", agent.UsageTotal{Calls: 2, Cost: 0.002, CostFrom: agent.CostLocal}, "$0.0020"},
		{"local, one unpriced", agent.UsageTotal{Calls: 2, Unpriced: 1, CostFrom: agent.CostLocal}, "$0 + 1 of unknown cost"},
		{"local and free", agent.UsageTotal{Calls: 2, CostFrom: agent.CostLocal}, "free (local server)"},
		{"unknown", agent.UsageTotal{Calls: 2, Unpriced: 2}, "cost unknown"},
		{"mixed", agent.UsageTotal{Calls: 2, Cost: 0.5, CostFrom: agent.CostMixed}, "≈$0.5000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			total := tt.total
			evs := []agent.Event{agent.AssistantDone{Text: "Done.", Final: true}, agent.TurnEnd{Reason: agent.ReasonDone, Usage: &total}}
			if _, err := printer.New(&out, &errb, printer.Options{Verbose: true}).Run(feed(evs...)); err != nil {
				t.Fatal(err)
			}
			if !strings.HasSuffix(errb.String(), " · "+tt.want+"\n") || tt.want != agent.CostText(total, true) {
				t.Errorf("stderr %q, want it to end in %q (the TUI's %q)", errb.String(), tt.want, agent.CostText(total, true))
			}
		})
	}
}
