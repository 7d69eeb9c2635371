package provider_test

import (
	"testing"

	"github.com/tick-agent/tick/provider"
)

func TestRepair(t *testing.T) {
	user := provider.Message{Role: provider.RoleUser, Content: "u"}
	asst := func(ids ...string) provider.Message {
		m := provider.Message{Role: provider.RoleAssistant}
		for _, id := range ids {
			m.ToolCalls = append(m.ToolCalls, provider.ToolCall{ID: id, Name: "bash", Arguments: "{}"})
		}
		return m
	}
	tool := func(id string) provider.Message {
		return provider.Message{Role: provider.RoleTool, ToolCallID: id, Content: "ok"}
	}
	cases := []struct {
		name              string
		in                []provider.Message
		want              string // roles and ids of the result
		answered, dropped int
	}{
		{"valid unchanged", []provider.Message{user, asst("a"), tool("a")}, "user assistant tool:a:ok", 0, 0},
		{"missing answer at end", []provider.Message{user, asst("a", "b"), tool("b")}, "user assistant:a,b tool:b:ok tool:a:X", 1, 0},
		{"missing answer before user", []provider.Message{user, asst("a"), user}, "user assistant tool:a:X user", 1, 0},
		{"orphan dropped", []provider.Message{user, tool("z"), asst("a"), tool("a"), tool("a")}, "user assistant tool:a:ok", 0, 2},
		{"empty assistant dropped", []provider.Message{user, {Role: provider.RoleAssistant}, user}, "user user", 0, 0},
		{"duplicate ids renamed, answers follow", []provider.Message{user, asst("a", "a", "a"), tool("a"), tool("a")}, "user assistant:a,a_2,a_3 tool:a:ok tool:a_2:ok tool:a_3:X", 1, 0},
		{"empty id named", []provider.Message{user, asst("", "b"), tool("b")}, "user assistant:call_2,b tool:b:ok tool:call_2:X", 1, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, answered, dropped := provider.Repair(c.in, "X")
			got := ""
			for i, m := range out {
				if i > 0 {
					got += " "
				}
				got += string(m.Role)
				if len(m.ToolCalls) > 1 {
					got += ":"
					for j, c := range m.ToolCalls {
						if j > 0 {
							got += ","
						}
						got += c.ID
					}
				}
				if m.Role == provider.RoleTool {
					got += ":" + m.ToolCallID + ":" + m.Content
				}
			}
			if got != c.want || answered != c.answered || dropped != c.dropped {
				t.Fatalf("Repair = %q (answered %d, dropped %d), want %q (%d, %d)", got, answered, dropped, c.want, c.answered, c.dropped)
			}
		})
	}
}
