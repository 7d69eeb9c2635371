package compact

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
)

func u(text string) provider.Message { return provider.Message{Role: provider.RoleUser, Content: text} }
func a(text string) provider.Message {
	return provider.Message{Role: provider.RoleAssistant, Content: text}
}

// call is an assistant message calling the tools with the given ids.
func call(ids ...string) provider.Message {
	m := provider.Message{Role: provider.RoleAssistant}
	for _, id := range ids {
		m.ToolCalls = append(m.ToolCalls, provider.ToolCall{ID: id, Name: "bash", Arguments: `{"command":"ls"}`})
	}
	return m
}

// res is the result of call id, with size bytes of output.
func res(id string, size int) provider.Message {
	return provider.Message{Role: provider.RoleTool, ToolCallID: id, Content: strings.Repeat("o", size)}
}

// checkSplit verifies the invariants of Split's result for history.
func checkSplit(t *testing.T, history, old, kept []provider.Message) {
	t.Helper()
	joined := append(append([]provider.Message(nil), old...), kept...)
	if len(history) == 0 && len(joined) == 0 {
		return
	}
	if !reflect.DeepEqual(joined, history) {
		t.Fatalf("old+kept is not the history")
	}
	if len(kept) > 0 && kept[0].Role == provider.RoleTool {
		t.Errorf("kept starts with a tool result")
	}
	calls := map[string]bool{}
	for _, m := range kept {
		for _, c := range m.ToolCalls {
			calls[c.ID] = true
		}
		if m.Role == provider.RoleTool && !calls[m.ToolCallID] {
			t.Errorf("tool result %s is kept without its call", m.ToolCallID)
		}
	}
	for _, m := range old {
		if m.Role == provider.RoleTool && calls[m.ToolCallID] {
			t.Errorf("tool result %s is in old while its call is kept", m.ToolCallID)
		}
	}
}

func TestSplit(t *testing.T) {
	chain := func(prefix string, n, size int) []provider.Message {
		var out []provider.Message
		for i := range n {
			id := fmt.Sprintf("%s%d", prefix, i)
			out = append(out, call(id, id+"b"), res(id, size), res(id+"b", size))
		}
		return out
	}
	cat := func(parts ...any) []provider.Message {
		var out []provider.Message
		for _, p := range parts {
			switch v := p.(type) {
			case provider.Message:
				out = append(out, v)
			case []provider.Message:
				out = append(out, v...)
			}
		}
		return out
	}
	cases := []struct {
		name      string
		history   []provider.Message
		keepTurns int
		maxKept   int
		wantOld   int // len(old)
	}{
		{"empty", nil, 2, 0, 0},
		{"fewer turns than kept", cat(u("a"), a("b"), u("c"), a("d")), 3, 0, 0},
		{"two of four turns", cat(u("1"), a("1"), u("2"), a("2"), u("3"), a("3"), u("4"), a("4")), 2, 0, 4},
		{"turns with tool chains", cat(u("1"), chain("x", 3, 10), a("1"), u("2"), chain("y", 2, 10), a("2"), u("3"), a("3")), 2, 0, 11},
		{"only one turn, long chain, capped", cat(u("do it"), chain("c", 10, 4000), a("done")), 2, 5000, 25},
		{"cap leaves the last step", cat(u("go"), chain("c", 3, 40_000)), 2, 25_000, 7},
		{"last step above the cap: keep nothing", cat(u("go"), chain("c", 2, 200_000)), 2, 1000, 7},
		{"no user message", cat(chain("c", 4, 4000), a("end")), 2, 5000, 6},
		{"no user message, no cap", cat(chain("c", 4, 4000), a("end")), 2, 0, 0},
		{"keep no turns", cat(u("1"), a("1"), u("2"), a("2")), 0, 0, 4},
		{"unanswered call stays with its turn", cat(u("1"), call("z"), u("2"), a("2")), 1, 0, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			old, kept := Split(c.history, c.keepTurns, c.maxKept)
			checkSplit(t, c.history, old, kept)
			if len(old) != c.wantOld {
				t.Errorf("len(old) = %d, want %d (kept starts with %+v)", len(old), c.wantOld, first(kept))
			}
			if c.maxKept > 0 && Estimate(kept) > c.maxKept {
				t.Errorf("kept is estimated at %d tokens, above the cap %d", Estimate(kept), c.maxKept)
			}
		})
	}
}

func first(msgs []provider.Message) provider.Message {
	if len(msgs) == 0 {
		return provider.Message{}
	}
	return msgs[0]
}

// TestSplitRandomHistories checks Split's invariants on many generated
// histories of long tool chains, with and without caps.
func TestSplitRandomHistories(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 300 {
		var h []provider.Message
		for len(h) < 60 {
			switch rng.IntN(4) {
			case 0:
				h = append(h, u(strings.Repeat("u", rng.IntN(500))))
			case 1:
				h = append(h, a("text"))
			default:
				k := 1 + rng.IntN(3)
				var ids []string
				for j := range k {
					ids = append(ids, fmt.Sprintf("c%d_%d", len(h), j))
				}
				h = append(h, call(ids...))
				for _, id := range ids {
					h = append(h, res(id, rng.IntN(8000)))
				}
			}
		}
		keep, maxKept := rng.IntN(4), rng.IntN(3)*rng.IntN(20_000)
		old, kept := Split(h, keep, maxKept)
		checkSplit(t, h, old, kept)
		if maxKept > 0 && Estimate(kept) > maxKept {
			t.Fatalf("history %d: kept %d tokens above cap %d", n, Estimate(kept), maxKept)
		}
	}
}

func TestSplitCopies(t *testing.T) {
	h := []provider.Message{u("1"), a("1"), u("2"), a("2")}
	old, kept := Split(h, 1, 0)
	old[0].Content, kept[0].Content = "changed", "changed"
	if h[0].Content != "1" || h[2].Content != "2" {
		t.Errorf("Split's results share the history's array")
	}
}

var plan = todo.List{Goal: "Make utils.py production-ready", Items: []todo.Item{
	{ID: "1", Text: "Add type hints", Status: todo.Completed, Note: "14 functions annotated"},
	{ID: "2", Text: "Add docstrings", Status: todo.InProgress},
	{ID: "3", Text: "Add main guard", Status: todo.Pending},
	{ID: "4", Text: "Add a CLI", Status: todo.Cancelled, Note: "not wanted"},
}}

func TestRebuild(t *testing.T) {
	summary := "- The user wants utils.py production-ready.\n- Edited utils.py."
	cases := []struct {
		name      string
		todos     todo.List
		kept      []provider.Message
		roles     []provider.Role
		ack       bool
		continue_ bool
	}{
		{"kept starts with user", plan, []provider.Message{u("next"), a("ok")}, []provider.Role{"user", "assistant", "user", "assistant"}, true, false},
		{"kept starts with assistant", plan, []provider.Message{call("c1"), res("c1", 10)}, []provider.Role{"user", "assistant", "tool"}, false, false},
		{"nothing kept", plan, nil, []provider.Role{"user"}, false, true},
		{"no todo list", todo.List{}, []provider.Message{u("next")}, []provider.Role{"user", "assistant", "user"}, true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := Rebuild(summary, c.todos, c.kept)
			var roles []provider.Role
			for _, m := range out {
				roles = append(roles, m.Role)
			}
			if !reflect.DeepEqual(roles, c.roles) {
				t.Fatalf("roles = %v, want %v", roles, c.roles)
			}
			head := out[0].Content
			if !strings.Contains(head, "<summary>\n"+summary+"\n</summary>") {
				t.Errorf("summary not verbatim in %q", head)
			}
			hasList := strings.Contains(head, c.todos.Render()) && strings.Contains(head, "current todo list")
			if hasList != !c.todos.Empty() {
				t.Errorf("todo list present = %v, want %v:\n%s", hasList, !c.todos.Empty(), head)
			}
			if got := len(out) > 1 && out[1].Content == ack; got != c.ack {
				t.Errorf("acknowledgement = %v, want %v", got, c.ack)
			}
			if got := strings.HasSuffix(head, continueText); got != c.continue_ {
				t.Errorf("asks to continue = %v, want %v", got, c.continue_)
			}
			if !reflect.DeepEqual(out[len(out)-len(c.kept):], c.kept) && len(c.kept) > 0 {
				t.Errorf("kept messages changed")
			}
		})
	}
}

func ExampleRebuild() {
	list := todo.List{Goal: "Tidy utils.py", Items: []todo.Item{
		{ID: "1", Text: "Add type hints", Status: todo.Completed},
		{ID: "2", Text: "Add docstrings", Status: todo.InProgress},
	}}
	kept := []provider.Message{{Role: provider.RoleUser, Content: "Now the docstrings."}}
	for _, m := range Rebuild("The user wants utils.py tidied; hints are done.", list, kept) {
		fmt.Printf("--- %s\n%s\n", m.Role, m.Content)
	}
	// Output:
	// --- user
	// The earlier part of this conversation was replaced by the summary below to save context.
	//
	// <summary>
	// The user wants utils.py tidied; hints are done.
	// </summary>
	//
	// This is the current todo list: the plan, preserved across the compaction. Keep it up to date with the todo tool.
	//
	// Goal: Tidy utils.py
	// [x] #1: Add type hints
	// [>] #2: Add docstrings
	//
	// (1/2 completed)
	//
	// --- assistant
	// Understood. I have the summary and the current plan, and will carry on from there.
	// --- user
	// Now the docstrings.
}

// TestSplitRemindersAreNotTurns: the loop's reminders after the user's
// prompt do not count as the turns Split keeps, and Pinned brings back
// the prompt of a turn too long to keep whole.
func TestSplitRemindersAreNotTurns(t *testing.T) {
	const prompt = "THE-REAL-TASK: never touch prod.cfg"
	tests := []struct {
		name    string
		history []provider.Message
		maxKept int
	}{
		{"reminders after the prompt", []provider.Message{
			u("earlier"), a("ok"), u(prompt), call("1"), res("1", 10),
			u("<reminder>update your todo list</reminder>"), call("2"), res("2", 10),
			u("<reminder>the images read_file attached: x.png.</reminder>"), a("done"),
		}, 0},
		{"one long turn over the cap", []provider.Message{
			u("earlier"), a("ok"), u(prompt), call("1"), res("1", 4000), call("2"), res("2", 4000), call("3"), res("3", 40),
		}, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old, kept := Split(tt.history, 2, tt.maxKept)
			checkSplit(t, tt.history, old, kept)
			all := append(Pinned(old, kept), kept...)
			n := 0
			for _, m := range all {
				if m.Content == prompt {
					n++
				}
			}
			if n != 1 {
				t.Fatalf("the prompt is kept %d times: %+v", n, all)
			}
			if all[0].Role == provider.RoleTool {
				t.Fatal("the kept history starts with a tool result")
			}
		})
	}
}

// TestPinnedSinceSummary: only the user's messages since the last summary
// are pinned, short ones and the last whatever its size.
func TestPinnedSinceSummary(t *testing.T) {
	long := strings.Repeat("L", PinBytes+1)
	old := []provider.Message{
		u(summaryIntro + "<summary>x</summary>"), a(ack), u("short one"), a("ok"), u(long), a("ok"),
		u("<reminder>nag</reminder>"), u("last prompt " + long), call("1"), res("1", 10),
	}
	got := Pinned(old, []provider.Message{call("2"), res("2", 1)})
	var texts []string
	for _, m := range got {
		texts = append(texts, m.Content[:min(len(m.Content), 11)])
	}
	if want := []string{"short one", "last prompt"}; !reflect.DeepEqual(texts, want) {
		t.Fatalf("pinned %q, want %q", texts, want)
	}
	if p := Pinned(old, []provider.Message{u("a newer prompt"), a("ok")}); p != nil {
		t.Fatalf("pinned %d messages though kept holds a newer prompt", len(p))
	}
}
