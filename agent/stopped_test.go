package agent_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider"
)

// TestStopWordsForTheModel: a call cut short by the time budget or by a
// signal tells the model what stopped it — never "interrupted by the
// user", in the tool message the history keeps (and a resume sends).
func TestStopWordsForTheModel(t *testing.T) {
	for _, tt := range []struct {
		name   string
		mutate func(*agent.Config)
		cause  error // the front-end's cancel cause, sent at the call's start
		want   string
	}{
		{"time budget", func(c *agent.Config) { c.Budget.MaxTime = 300 * time.Millisecond }, nil, "stopped by the time budget (--max-time)"},
		{"SIGTERM", nil, agent.Stopped("SIGTERM"), "stopped by SIGTERM"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var mut []func(*agent.Config)
			if tt.mutate != nil {
				mut = append(mut, tt.mutate)
			}
			h := newHarness(t, mut...)
			h.srv.Enqueue(calls(call("bash", `{"command":"sleep 30"}`), call("bash", `{"command":"echo never"}`)))
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			for ev := range h.ag.Run(ctx, "go") {
				if _, ok := ev.(agent.ToolStart); ok && tt.cause != nil {
					cancel(tt.cause)
				}
			}
			var results []string
			for _, m := range h.ag.History() {
				if m.Role == provider.RoleTool {
					results = append(results, m.Content)
				}
			}
			if len(results) != 2 {
				t.Fatalf("tool results %q, want 2", results)
			}
			for _, r := range results {
				if !strings.Contains(r, tt.want) || strings.Contains(r, "by the user") || strings.Contains(r, "interrupted by user") {
					t.Errorf("tool result %q: want %q and no word of the user", r, tt.want)
				}
			}
		})
	}
}
