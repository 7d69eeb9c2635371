package printer_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
	"github.com/tick-agent/tick/ui/printer"
)

// runEvents is a turn with a failing command, a refused call, a blocked
// command, usage and open items.
func runEvents() []agent.Event {
	code, blocked := 128, 1
	return []agent.Event{
		agent.ToolStart{ID: "c1", Name: "bash", Summary: "git commit -m x"},
		agent.ToolEnd{ID: "c1", Name: "bash", Output: "fatal: Unable to create '.git/index.lock': Read-only file system\nexit status 128", IsError: true, ExitCode: &code},
		agent.ToolStart{ID: "c2", Name: "bash", Summary: "git push"},
		agent.ToolEnd{ID: "c2", Name: "bash", Output: "Error: bash was not run", IsError: true, Refused: true},
		agent.ToolStart{ID: "c3", Name: "bash", Summary: "touch .git/x"},
		agent.ToolEnd{ID: "c3", Name: "bash", Output: "Read-only file system\nexit status 1\nblocked by the sandbox", IsError: true, ExitCode: &blocked, Blocked: true},
		agent.Usage{Usage: provider.Usage{PromptTokens: 100, CompletionTokens: 10}, CostUSD: 0.5},
		agent.AssistantDone{Text: "Half done.", Final: true},
		agent.Unfinished{Items: []todo.Item{{ID: "2", Text: "Push", Status: todo.Pending}}},
		agent.TurnEnd{Reason: agent.ReasonDone},
	}
}

// TestFailingCommandLine: a command that exits non-zero shows ✗ exit N,
// never ✓; one the sandbox blocked says so.
func TestFailingCommandLine(t *testing.T) {
	var out, errb bytes.Buffer
	if _, err := printer.New(&out, &errb, printer.Options{}).Run(feed(runEvents()...)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"→ bash  git commit -m x\n  ✗ 0.0s  exit 128\n", "✗ 0.0s  exit 1  blocked by the sandbox\n"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errb.String())
		}
	}
	if strings.Contains(errb.String(), "✓") {
		t.Errorf("a failing command shows ✓:\n%s", errb.String())
	}
}

// TestResultObject: the json format prints only the result, which sums
// up the turn; stream-json ends with it as a "result" event.
func TestResultObject(t *testing.T) {
	var out, errb bytes.Buffer
	p := printer.New(&out, &errb, printer.Options{Format: printer.FormatJSON})
	p.Begin(printer.Start{SessionID: "abc", Model: "m", Workspace: "/w"})
	if _, err := p.Run(feed(runEvents()...)); err != nil {
		t.Fatal(err)
	}
	if out.Len() != 0 {
		t.Fatalf("json format wrote %q before the result", out.String())
	}
	res := p.Result()
	res.ExitCode, res.ExitReason = 3, "refused"
	if err := p.Finish(res); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("not one object: %v\n%s", err, out.String())
	}
	want := map[string]any{"session_id": "abc", "answer": "Half done.", "exit_code": 3.0, "exit_reason": "refused", "rounds": 1.0,
		"refused": []any{"bash: git push"}, "blocked": []any{"bash: touch .git/x"}, "open_items": []any{"Push"}, "cost_usd": 0.5}
	for k, v := range want {
		if g, _ := json.Marshal(got[k]); string(g) != mustJSON(v) {
			t.Errorf("%s = %s, want %s", k, g, mustJSON(v))
		}
	}
	if u, _ := got["usage"].(map[string]any); u["total_tokens"] != 110.0 {
		t.Errorf("usage = %v", got["usage"])
	}

	out.Reset()
	p = printer.New(&out, &errb, printer.Options{JSON: true})
	p.Begin(printer.Start{SessionID: "abc", Model: "m", Workspace: "/w"})
	if _, err := p.Run(feed(runEvents()...)); err != nil {
		t.Fatal(err)
	}
	if err := p.Finish(p.Result()); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if !strings.HasPrefix(lines[0], `{"type":"start","session_id":"abc","model":"m","workspace":"/w"}`) || !strings.HasPrefix(lines[len(lines)-1], `{"type":"result","session_id":"abc"`) {
		t.Errorf("stream-json starts %s and ends %s", lines[0], lines[len(lines)-1])
	}
	if !strings.Contains(out.String(), `"exit_code":128`) {
		t.Errorf("tool_end lacks exit_code:\n%s", out.String())
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestTotalCostUnknown: total_cost_usd is always in the result: null
// while a call's cost is unknown (unpriced counts those calls), the sum
// when every call's cost is known.
func TestTotalCostUnknown(t *testing.T) {
	for _, tt := range []struct {
		name     string
		usage    []agent.Usage
		want     string
		unpriced int
	}{
		{"unknown", []agent.Usage{{}, {CostUSD: 0.5, CostFrom: agent.CostServer}}, "null", 1},
		{"known", []agent.Usage{{CostUSD: 0.25, CostFrom: agent.CostConfig}, {CostFrom: agent.CostLocal}}, "0.25", 0},
		{"no call", nil, "null", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			p := printer.New(&out, &errb, printer.Options{Format: printer.FormatJSON})
			var evs []agent.Event
			for _, u := range tt.usage {
				evs = append(evs, u)
			}
			if _, err := p.Run(feed(append(evs, agent.TurnEnd{Reason: agent.ReasonDone})...)); err != nil {
				t.Fatal(err)
			}
			if err := p.Finish(p.Result()); err != nil {
				t.Fatal(err)
			}
			var got map[string]json.RawMessage
			if err := json.Unmarshal(out.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			if string(got["total_cost_usd"]) != tt.want {
				t.Errorf("total_cost_usd = %s, want %s", got["total_cost_usd"], tt.want)
			}
			var unpriced int
			_ = json.Unmarshal(got["unpriced"], &unpriced)
			if unpriced != tt.unpriced {
				t.Errorf("unpriced = %d, want %d", unpriced, tt.unpriced)
			}
		})
	}
}
