package agent

import (
	"context"

	"github.com/tick-agent/tick/provider"
)

// maybeCompact compacts the history before a model call when the last
// request came near the context window.
func (l *loop) maybeCompact(ctx context.Context) {}

// estimateTokens is a rough token count of msgs, for servers that report no
// usage.
func estimateTokens(msgs []provider.Message) int {
	n := 0
	for _, m := range msgs {
		n += 4 + (len(m.Content)+len(m.Reasoning))/4
		for _, c := range m.ToolCalls {
			n += 4 + (len(c.Name)+len(c.Arguments))/4
		}
	}
	return n
}
