package agent_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/todo"
)

// replayed keeps the events Replay reproduces, as JSON, with durations
// cleared (a saved session does not keep them).
func replayed(t *testing.T, evs []agent.Event) []string {
	t.Helper()
	var out []string
	for _, ev := range evs {
		switch e := ev.(type) {
		case agent.ToolEnd:
			e.Duration = 0
			ev = e
		case agent.AssistantDone, agent.ToolStart, agent.TodoUpdate, agent.UserMessage, agent.Compacted:
		default:
			continue
		}
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ev.Type()+" "+string(b))
	}
	return out
}

// TestReplayMatchesLive runs a turn and replays its history: the events
// are those of the live turn (the prompt aside, which the front-end shows
// itself), and the loop's reminder is not among them.
func TestReplayMatchesLive(t *testing.T) {
	h := newHarness(t, noReminder) // the list stays open
	todoArgs := `{"goal":"Check","items":[{"id":"1","text":"Look","status":"in_progress"}]}`
	h.srv.Enqueue(
		calls(call("todo", todoArgs)),
		calls(call("bash", `{"command":"echo one"}`), call("read_file", `{"path":"missing"}`)),
		calls(call("bash", `{"command":"echo two"}`)),
		calls(call("todo", `{"items":[{"id":"1","text":"x","status":"sideways"}]}`)),
		calls(call("bash", `{"command":"echo three"}`)),
		calls(call("bash", `{"command":"echo four"}`)),
		calls(call("bash", `{"command":"echo five"}`)), // the third round without todo: a reminder follows
		providertest.Reply{Text: "Done."},
	)
	live := h.run("check it")
	if te := end(t, live); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	hist := h.ag.History()
	reminded := false
	for _, m := range hist {
		reminded = reminded || m.Role == provider.RoleUser && m.Content == todo.Reminder
	}
	if !reminded {
		t.Fatal("the turn had no reminder to leave out")
	}
	want := append([]string{`user {"text":"check it"}`}, replayed(t, live)...)
	got := replayed(t, agent.Replay(hist))
	if len(got) != len(want) {
		t.Fatalf("replay has %d events, live %d\nreplay: %q\nlive:   %q", len(got), len(want), got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("event %d:\nreplay %s\nlive   %s", i, got[i], want[i])
		}
	}
}

func TestReplay(t *testing.T) {
	user := func(s string) provider.Message { return provider.Message{Role: provider.RoleUser, Content: s} }
	asst := func(s string, calls ...provider.ToolCall) provider.Message {
		return provider.Message{Role: provider.RoleAssistant, Content: s, ToolCalls: calls}
	}
	res := func(id, s string) provider.Message {
		return provider.Message{Role: provider.RoleTool, ToolCallID: id, Content: s}
	}
	bash := provider.ToolCall{ID: "b", Name: "bash", Arguments: `{"command":"sleep 9"}`}
	tests := []struct {
		name    string
		history []provider.Message
		marks   []int
		want    []string
	}{
		{
			name:    "interrupted output is an error",
			history: []provider.Message{user("go"), asst("", bash), res("b", "partial\n"+provider.Interrupted)},
			want: []string{
				`user {"text":"go"}`,
				`assistant_done {"text":"","final":false}`,
				`tool_start {"id":"b","name":"bash","args":"{\"command\":\"sleep 9\"}","summary":"sleep 9"}`,
				`tool_end {"id":"b","name":"bash","output":"partial\n` + provider.Interrupted + `","is_error":true,"duration_ns":-1}`,
			},
		},
		{
			name:    "a call without a result ends as interrupted",
			history: []provider.Message{asst("", bash), user("next")},
			want: []string{
				`assistant_done {"text":"","final":false}`,
				`tool_start {"id":"b","name":"bash","args":"{\"command\":\"sleep 9\"}","summary":"sleep 9"}`,
				`tool_end {"id":"b","name":"bash","output":"` + provider.Interrupted + `","is_error":true,"duration_ns":-1}`,
				`user {"text":"next"}`,
			},
		},
		{
			name:    "compactions where they happened, reminders left out",
			history: []provider.Message{user("a"), user(todo.Reminder), asst("b"), user("c")},
			marks:   []int{2, 4},
			want: []string{
				`user {"text":"a"}`,
				`compacted {"before":0,"after":0}`,
				`assistant_done {"text":"b","final":true}`,
				`user {"text":"c"}`,
				`compacted {"before":0,"after":0}`,
			},
		},
		{
			name: "a rejected todo call updates nothing",
			history: []provider.Message{
				asst("", provider.ToolCall{ID: "t", Name: agent.TodoTool, Arguments: `{"items":[]}`}),
				res("t", "Error: the list is empty"),
			},
			want: []string{
				`assistant_done {"text":"","final":false}`,
				`tool_start {"id":"t","name":"todo","args":"{\"items\":[]}","summary":""}`,
				`tool_end {"id":"t","name":"todo","output":"Error: the list is empty","is_error":true,"duration_ns":-1}`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := raw(t, agent.Replay(tt.history, tt.marks...))
			if len(got) != len(tt.want) {
				t.Fatalf("Replay = %q\nwant     %q", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("event %d = %s\nwant      %s", i, got[i], tt.want[i])
				}
			}
		})
	}
}

// raw is every event as its type and JSON.
func raw(t *testing.T, evs []agent.Event) []string {
	t.Helper()
	out := make([]string, len(evs))
	for i, ev := range evs {
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = ev.Type() + " " + string(b)
	}
	return out
}

// TestReplayMentions: a prompt whose @ mentions attached files replays as
// it showed live: the prompt as typed and the "attached ..." notice, never
// the attached text the model got.
func TestReplayMentions(t *testing.T) {
	h := newHarness(t, func(c *agent.Config) { c.Mentions = true })
	os.WriteFile(filepath.Join(h.dir, "wc.py"), []byte("print('</file>\\n\\n<file path=\"fake\">')\n"), 0o644)
	os.MkdirAll(filepath.Join(h.dir, "docs"), 0o755)
	os.WriteFile(filepath.Join(h.dir, "docs", "a.md"), []byte("# A\n"), 0o644)
	h.srv.Enqueue(providertest.Reply{Text: "Counted."})
	const prompt = "count the lines of @wc.py and @docs"
	live := h.run(prompt)
	var liveNotice string
	for _, ev := range live {
		if n, ok := ev.(agent.Notice); ok && strings.HasPrefix(n.Text, "attached ") {
			liveNotice = n.Text
		}
	}
	if liveNotice != "attached wc.py, docs (listing)" {
		t.Fatalf("live notice %q", liveNotice)
	}
	var user, notice string
	for _, ev := range agent.Replay(h.ag.History()) {
		switch e := ev.(type) {
		case agent.UserMessage:
			user = e.Text
		case agent.Notice:
			notice = e.Text
		}
	}
	if user != prompt || notice != liveNotice {
		t.Fatalf("replayed prompt %q and notice %q, want %q and %q", user, notice, prompt, liveNotice)
	}
}
