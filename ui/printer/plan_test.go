package printer_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/todo"
	"github.com/tick-agent/tick/ui/printer"
)

func TestPlanEvents(t *testing.T) {
	open := []todo.Item{{ID: "2", Text: "Run tests"}, {ID: "3", Text: "Docs"}}
	proposal := todo.List{Goal: "Fix it", Items: []todo.Item{{ID: "1", Text: "Read"}, {ID: "2", Text: "Change"}}}
	tests := []struct {
		name             string
		json             bool
		events           []agent.Event
		wantOut, wantErr string
	}{
		{
			name: "unfinished",
			events: []agent.Event{agent.AssistantDone{Text: "All done", Final: true},
				agent.Unfinished{Items: open}, agent.TurnEnd{Reason: agent.ReasonDone}},
			wantOut: "All done\n",
			wantErr: "! the turn ended with 2 open items: #2 Run tests, #3 Docs\n",
		},
		{
			name: "proposal after the answer",
			events: []agent.Event{agent.AssistantDone{Text: "Here is the plan.", Final: true},
				agent.PlanProposed{List: proposal, Changes: []todo.Change{{Kind: todo.Added, ID: "2", Text: "Change"}}},
				agent.TurnEnd{Reason: agent.ReasonDone}},
			wantOut: "Here is the plan.\n\n## Fix it\n\n- [ ] #1 Read\n- [ ] #2 Change\n\nChanged since the last proposal:\n- added #2 Change\n",
		},
		{
			name:    "json",
			json:    true,
			events:  []agent.Event{agent.Paused{After: "1", Text: "paused after #1"}, agent.TurnEnd{Reason: agent.ReasonDone}},
			wantOut: `{"type":"paused","after":"1","text":"paused after #1"}` + "\n" + `{"type":"turn_end","reason":"done"}` + "\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			p := printer.New(&out, &errb, printer.Options{JSON: tc.json})
			if _, err := p.Run(feed(tc.events...)); err != nil {
				t.Fatal(err)
			}
			if out.String() != tc.wantOut {
				t.Errorf("stdout =\n%q\nwant\n%q", out.String(), tc.wantOut)
			}
			if !strings.Contains(errb.String(), tc.wantErr) {
				t.Errorf("stderr = %q, want %q in it", errb.String(), tc.wantErr)
			}
		})
	}
}
