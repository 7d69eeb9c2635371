package agent

import "github.com/tick-agent/tick/provider"

// Repair returns history made valid for a strict server: every tool call of
// an assistant message is answered by exactly one tool message before the
// next user or assistant message (missing answers are added as interrupted,
// duplicates dropped), and tool messages that answer no call are dropped.
// The order of everything else is kept; history itself is not modified.
func Repair(history []provider.Message) []provider.Message {
	out := history[:0:0]
	pending := map[string]bool{} // calls of the last assistant message not yet answered
	var order []string
	flush := func() {
		for _, id := range order {
			if pending[id] {
				out = append(out, provider.Message{Role: provider.RoleTool, ToolCallID: id, Content: interruptedResult})
			}
		}
		pending, order = map[string]bool{}, nil
	}
	for _, m := range history {
		switch m.Role {
		case provider.RoleTool:
			if !pending[m.ToolCallID] {
				continue // orphan or duplicate
			}
			pending[m.ToolCallID] = false
			out = append(out, m)
		case provider.RoleAssistant:
			flush()
			out = append(out, m)
			for _, c := range m.ToolCalls {
				if _, seen := pending[c.ID]; !seen {
					order = append(order, c.ID)
				}
				pending[c.ID] = true
			}
		default:
			flush()
			out = append(out, m)
		}
	}
	flush()
	return out
}
