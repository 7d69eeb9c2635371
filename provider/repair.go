package provider

import "strconv"

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
// Tool calls of one message get unique, non-empty ids: a repeated id is
// renamed (id_2, id_3, ...), and the tool messages that answer it, in
// order, follow the rename (the first answer goes to the first call).
// The order of everything else is kept; msgs itself is not modified.
// Run it on the history before every request: no malformed shape can then
// wedge a session.
func Repair(msgs []Message, interrupted string) (out []Message, answered, dropped int) {
	out = make([]Message, 0, len(msgs))
	pending := map[string]bool{} // calls of the last assistant message; true while unanswered
	var order []string
	var renamed map[string][]string // original id -> renamed ids still to be answered
	flush := func() {
		for _, id := range order {
			if pending[id] {
				out = append(out, Message{Role: RoleTool, ToolCallID: id, Content: interrupted})
				answered++
			}
		}
		pending, order, renamed = map[string]bool{}, nil, nil
	}
	for _, m := range msgs {
		switch m.Role {
		case RoleTool:
			if id := m.ToolCallID; !pending[id] && len(renamed[id]) > 0 {
				m.ToolCallID, renamed[id] = renamed[id][0], renamed[id][1:]
			}
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
			m, renamed = uniqueIDs(m)
			out = append(out, m)
			for _, c := range m.ToolCalls {
				order = append(order, c.ID)
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

// uniqueIDs returns m with every tool call's id unique and non-empty (its
// ToolCalls copied when one changes), and the renames made, by original id.
func uniqueIDs(m Message) (Message, map[string][]string) {
	seen := make(map[string]bool, len(m.ToolCalls))
	var renamed map[string][]string
	for i, c := range m.ToolCalls {
		if c.ID != "" && !seen[c.ID] {
			seen[c.ID] = true
			continue
		}
		id := c.ID
		if id == "" {
			id = "call"
		}
		n := 2
		for seen[id+"_"+strconv.Itoa(n)] {
			n++
		}
		if renamed == nil {
			renamed = map[string][]string{}
			m.ToolCalls = append([]ToolCall(nil), m.ToolCalls...)
		}
		m.ToolCalls[i].ID = id + "_" + strconv.Itoa(n)
		seen[m.ToolCalls[i].ID] = true
		renamed[c.ID] = append(renamed[c.ID], m.ToolCalls[i].ID)
	}
	return m, renamed
}
