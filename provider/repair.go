package provider

// Interrupted is the one result text for a tool call cut short or never
// run: the live loop gives it to calls the user interrupted (after any
// output the tool produced), compaction and session repair to calls left
// without a result. Pass it to Repair.
const Interrupted = "Error: interrupted by the user before this tool finished"

// Repair returns msgs made valid for a strict Chat Completions server, and
// counts what it changed: every tool call of an assistant message is
// answered by exactly one tool message before the next user or assistant
// message (a missing answer is added with the text interrupted, right after
// the existing answers), tool messages that answer no pending call are
// dropped (and counted in dropped), and so are empty assistant messages.
// The order of everything else is kept; msgs itself is not modified.
func Repair(msgs []Message, interrupted string) (out []Message, answered, dropped int) {
	out = make([]Message, 0, len(msgs))
	pending := map[string]bool{} // calls of the last assistant message; true while unanswered
	var order []string
	flush := func() {
		for _, id := range order {
			if pending[id] {
				out = append(out, Message{Role: RoleTool, ToolCallID: id, Content: interrupted})
				answered++
			}
		}
		pending, order = map[string]bool{}, nil
	}
	for _, m := range msgs {
		switch m.Role {
		case RoleTool:
			if !pending[m.ToolCallID] {
				dropped++
				continue
			}
			pending[m.ToolCallID] = false
			out = append(out, m)
		case RoleAssistant:
			flush()
			if m.Content == "" && m.Reasoning == "" && len(m.ToolCalls) == 0 {
				continue
			}
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
	return out, answered, dropped
}
