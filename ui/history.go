package ui

import (
	"encoding/json"
	"strings"

	"github.com/tick-agent/tick/agent/tools"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
)

// loadHistory adds a restored transcript to the chat: user messages,
// answers, and tool calls with their results. Reminders the loop added for
// the model are left out. Nothing is rendered until it comes into view.
func loadHistory(c *chat, msgs []provider.Message) {
	calls := map[string]*toolCall{}
	for _, msg := range msgs {
		switch msg.Role {
		case provider.RoleUser:
			if isReminder(msg.Content) {
				continue
			}
			c.add(&entry{kind: entryUser, text: sanitize(msg.Content)})
		case provider.RoleAssistant:
			if strings.TrimSpace(msg.Content) != "" {
				c.add(c.newAssistant(msg.Content, true))
			}
			for _, tc := range msg.ToolCalls {
				t := &toolCall{id: tc.ID, name: tc.Name, state: toolOK, dur: -1,
					summary: oneLine(tools.Summary(tc.Name, json.RawMessage(tc.Arguments)))}
				if tc.Name == "todo" {
					if l, err := todo.Parse([]byte(tc.Arguments)); err == nil {
						t.planDone, t.planTotal = l.Counts()
						t.planSet = true
					}
				}
				c.add(&entry{kind: entryTool, tool: t})
				calls[tc.ID] = t
			}
		case provider.RoleTool:
			if t, ok := calls[msg.ToolCallID]; ok {
				t.output = sanitize(msg.Content)
				if strings.HasPrefix(msg.Content, "Error:") {
					t.state = toolFailed
				}
			}
		}
	}
}

// isReminder reports whether a user message was added by the loop for the
// model (the todo nag) rather than typed by the user.
func isReminder(s string) bool {
	s = strings.TrimSpace(s)
	return strings.HasPrefix(s, "<reminder>") && strings.HasSuffix(s, "</reminder>")
}
