package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/session"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/todo"
)

// oldMarker is what tick used to put in place of cut arguments, in band.
const oldMarker = "[tick cut these arguments: write_file was sent 3145728 bytes of arguments, more than the limit of 1 MiB for one call; make smaller calls, e.g. write a large file in parts]"

// bigWrite is write_file arguments of exactly n bytes.
func bigWrite(n int) string {
	head, tail := `{"path":"big.txt","content":"`, `"}`
	return head + strings.Repeat("a", n-len(head)-len(tail)) + tail
}

// TestArgsCutAnswered streams a write_file call of 3 MiB (over the default
// cap of 1 MiB) through a real client: the call is not run, the model is
// told the sizes and how to split the work, the next request carries "{}"
// and a result for the call's id (and none of the 3 MiB), the other call
// of the round runs, and the saved session keeps the flag through a load,
// a replay and a resumed turn.
func TestArgsCutAnswered(t *testing.T) {
	sessions := t.TempDir()
	var rec *session.Recorder
	h := newHarness(t, func(c *agent.Config) {
		rec = session.NewRecorder(sessions, c.Workspace, "test-model")
		c.Recorder = rec
	})
	if err := os.WriteFile(filepath.Join(h.dir, "small.txt"), []byte("small file"), 0o600); err != nil {
		t.Fatal(err)
	}
	h.srv.Enqueue(providertest.Reply{ChunkSize: 64 << 10, ToolCalls: []providertest.Call{
		{ID: "call_big", Name: "write_file", Args: bigWrite(3 << 20)},
		{ID: "call_small", Name: "read_file", Args: `{"path":"small.txt"}`},
	}}, providertest.Reply{Text: "I will write it in parts."})
	evs := h.run("write a big file")
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	h.checkValid()

	const want = "Error: the arguments of write_file were 3,145,728 bytes, over the limit of 1 MiB for one call; nothing was run. Write the file in parts:"
	var start agent.ToolStart
	for _, ev := range evs {
		if s, ok := ev.(agent.ToolStart); ok && s.ID == "call_big" {
			start = s
		}
	}
	if start.ArgsCut == nil || *start.ArgsCut != (agent.ArgsCut{Size: 3 << 20, Limit: 1 << 20}) || start.Args != "{}" {
		t.Errorf("ToolStart = %+v (cut %+v), want the cut flag with 3 MiB over 1 MiB and \"{}\"", start, start.ArgsCut)
	}
	if !strings.Contains(start.Summary, "arguments too large") {
		t.Errorf("summary = %q, want it to say the arguments were too large", start.Summary)
	}
	ends := toolEnds(evs)
	if len(ends) != 2 || !ends[0].IsError || !strings.HasPrefix(ends[0].Output, want) {
		t.Fatalf("results = %+v, want the cut error first", ends)
	}
	if ends[1].IsError || !strings.Contains(ends[1].Output, "small file") {
		t.Errorf("the other call of the round = %+v, want it run", ends[1])
	}
	if _, err := os.Stat(filepath.Join(h.dir, "big.txt")); !os.IsNotExist(err) {
		t.Errorf("big.txt exists (err %v): a cut call ran", err)
	}
	// The 3 MiB the server counts as completion tokens are not in the
	// history, so they do not make the next request look near the window.
	for _, ev := range evs {
		switch ev := ev.(type) {
		case agent.Notice:
			t.Errorf("notice %q", ev.Text)
		case agent.Compacted:
			t.Errorf("the conversation was compacted: %+v", ev)
		}
	}

	reqs := h.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	next := reqs[1]
	checkCutRequest(t, next, "call_big", want)
	if len(next.Body) > 64<<10 {
		t.Errorf("the next request is %d bytes: the cut arguments went back to the server", len(next.Body))
	}

	// The flag is saved with the call, and a resumed session shows and
	// sends the call the same way.
	info, err := session.Find(sessions, h.dir, rec.ID())
	if err != nil {
		t.Fatal(err)
	}
	rec.Close()
	ld, err := session.Load(info.Path)
	if err != nil {
		t.Fatal(err)
	}
	saved := cutCall(ld.History, "call_big")
	if saved == nil || saved.ArgsCut == nil || saved.Arguments != "{}" {
		t.Fatalf("saved call = %+v, want the cut flag and \"{}\"", saved)
	}
	replayed := replayStart(agent.Replay(ld.History), "call_big")
	if replayed.ArgsCut == nil || replayed.Summary != start.Summary {
		t.Errorf("replayed ToolStart = %+v, want the live one %+v", replayed, start)
	}
	resumed := newHarness(t)
	if err := resumed.ag.Restore(ld.History, todo.List{}); err != nil {
		t.Fatal(err)
	}
	resumed.srv.Enqueue(providertest.Reply{Text: "ok"})
	if te := end(t, resumed.run("go on")); te.Reason != agent.ReasonDone {
		t.Fatalf("resumed turn ended %s: %v", te.Reason, te.Err)
	}
	resumed.checkValid()
	checkCutRequest(t, resumed.srv.Requests()[0], "call_big", want)
}

// checkCutRequest checks what a request carries of the cut call id: "{}"
// for its arguments, a result starting with want, and no trace of the old
// in-band marker or of a JSON complaint.
func checkCutRequest(t *testing.T, req providertest.Request, id, want string) {
	t.Helper()
	var args, result string
	answered := false
	for _, m := range req.Messages {
		for _, c := range m.ToolCalls {
			if c.ID == id {
				args = c.Args
			}
		}
		if m.Role == "tool" && m.ToolCallID == id {
			result, answered = m.Content, true
		}
	}
	if args != "{}" {
		t.Errorf("the request carries %.100q as the cut call's arguments, want \"{}\"", args)
	}
	if !answered || !strings.HasPrefix(result, want) {
		t.Errorf("the cut call's result is %q (answered %v), want it to start with %q", result, answered, want)
	}
	for _, bad := range []string{"tick cut these", "not valid JSON", "args_cut"} {
		if strings.Contains(string(req.Body), bad) {
			t.Errorf("the request to the model contains %q", bad)
		}
	}
}

func cutCall(history []provider.Message, id string) *provider.ToolCall {
	for _, m := range history {
		for i := range m.ToolCalls {
			if m.ToolCalls[i].ID == id {
				return &m.ToolCalls[i]
			}
		}
	}
	return nil
}

func replayStart(evs []agent.Event, id string) agent.ToolStart {
	for _, ev := range evs {
		if s, ok := ev.(agent.ToolStart); ok && s.ID == id {
			return s
		}
	}
	return agent.ToolStart{}
}

// TestMarkerLookalikeIsOrdinary: arguments that read like the old in-band
// marker are what the model sent, nothing more: as the whole arguments
// they are invalid JSON, inside a string they are data that is written.
func TestMarkerLookalikeIsOrdinary(t *testing.T) {
	h := newHarness(t)
	content, _ := json.Marshal(oldMarker)
	h.srv.Enqueue(calls(
		providertest.Call{ID: "bare", Name: "write_file", Args: oldMarker},
		providertest.Call{ID: "inside", Name: "write_file", Args: fmt.Sprintf(`{"path":"note.txt","content":%s}`, content)},
	), providertest.Reply{Text: "done"})
	evs := h.run("write a note")
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	h.checkValid()
	for _, ev := range evs {
		if s, ok := ev.(agent.ToolStart); ok && s.ArgsCut != nil {
			t.Errorf("call %s was taken for a cut call", s.ID)
		}
	}
	ends := toolEnds(evs)
	if len(ends) != 2 {
		t.Fatalf("results %+v, want 2", ends)
	}
	if !ends[0].IsError || !strings.Contains(ends[0].Output, "not valid JSON") || strings.Contains(ends[0].Output, "nothing was run") {
		t.Errorf("bare marker result = %q, want the invalid-JSON error", ends[0].Output)
	}
	if ends[1].IsError {
		t.Errorf("marker inside a string: %q, want the file written", ends[1].Output)
	}
	if got, err := os.ReadFile(filepath.Join(h.dir, "note.txt")); err != nil || string(got) != oldMarker {
		t.Errorf("note.txt = %q, %v; want the marker text as written", got, err)
	}
}

// TestOldMarkerSessionLoads: a session saved before the flag existed (the
// cut call kept as "{}", its result the invalid-JSON error quoting the
// marker) still loads, replays as a failed call and resumes with a valid
// request.
func TestOldMarkerSessionLoads(t *testing.T) {
	ws := t.TempDir()
	result := fmt.Sprintf("Error: the arguments of write_file are not valid JSON (%q); send one JSON object matching the tool's schema", oldMarker)
	lines := []any{
		map[string]any{"type": "session", "version": 1, "id": "oldcut01", "workspace": ws, "started": "2026-01-02T03:04:05Z", "model": "test-model"},
		map[string]any{"type": "message", "time": "2026-01-02T03:04:06Z", "message": provider.Message{Role: provider.RoleUser, Content: "write a big file"}},
		map[string]any{"type": "message", "time": "2026-01-02T03:04:07Z", "message": provider.Message{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "call_old", Name: "write_file", Arguments: "{}"}}}},
		map[string]any{"type": "message", "time": "2026-01-02T03:04:08Z", "message": provider.Message{Role: provider.RoleTool, ToolCallID: "call_old", Content: result}},
	}
	var b strings.Builder
	for _, l := range lines {
		j, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	path := filepath.Join(t.TempDir(), "old.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	ld, err := session.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if c := cutCall(ld.History, "call_old"); c == nil || c.ArgsCut != nil {
		t.Fatalf("loaded call = %+v, want it without the flag", c)
	}
	evs := agent.Replay(ld.History)
	if s := replayStart(evs, "call_old"); s.ID == "" || s.ArgsCut != nil {
		t.Errorf("replayed ToolStart = %+v, want an ordinary one", s)
	}
	if ends := toolEnds(evs); len(ends) != 1 || !ends[0].IsError || ends[0].Output != result {
		t.Errorf("replayed results = %+v, want the saved error", ends)
	}
	h := newHarness(t)
	if err := h.ag.Restore(ld.History, todo.List{}); err != nil {
		t.Fatal(err)
	}
	h.srv.Enqueue(providertest.Reply{Text: "ok"})
	if te := end(t, drain(h.ag.Run(context.Background(), "go on"))); te.Reason != agent.ReasonDone {
		t.Fatalf("resumed turn ended %s: %v", te.Reason, te.Err)
	}
	h.checkValid()
}

// newCapHarness is newHarness with a client that keeps at most maxArgs
// bytes of one call's arguments.
func newCapHarness(t *testing.T, maxArgs int, mutate ...func(*agent.Config)) *harness {
	t.Helper()
	return newClientHarness(t, func(c *provider.Config) { c.MaxArgs = maxArgs }, mutate...)
}

// TestArgsCutAdvice: every tool's cut call is answered with the sizes and
// advice that fits the tool: parts for write_file, smaller edits for
// edit_file, a script file for bash, smaller calls for any other tool
// (MCP tools too). Nothing is run and nothing is refused: with every
// approval refused, the answer is still the cut error.
func TestArgsCutAdvice(t *testing.T) {
	tests := []struct {
		tool   string
		advice string
	}{
		{"write_file", "Write the file in parts: write_file with a first part of the content, then edit_file to append the rest"},
		{"edit_file", "Make smaller edits"},
		{"bash", "Send a shorter command: put long input or a long script in a file first"},
		{"read_file", "Send smaller arguments: split the work into several read_file calls"},
		{"mcp__x__echo", "Send smaller arguments: split the work into several mcp__x__echo calls"},
		{"task", "Send smaller arguments: split the work into several task calls"},
	}
	h := newCapHarness(t, 1<<10, func(c *agent.Config) {
		c.ToolSource = extraSource{}
		c.Approval = agent.ApproveNone
	})
	args := `{"path":"x","command":"x","content":"` + strings.Repeat("b", 2000-len(`{"path":"x","command":"x","content":""}`)) + `"}`
	var cs []providertest.Call
	for _, tt := range tests {
		cs = append(cs, providertest.Call{ID: "call_" + tt.tool, Name: tt.tool, Args: args})
	}
	h.srv.Enqueue(calls(cs...), providertest.Reply{Text: "understood"})
	evs := h.run("do it all")
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	h.checkValid()
	ends := toolEnds(evs)
	if len(ends) != len(tests) {
		t.Fatalf("%d results, want %d", len(ends), len(tests))
	}
	for i, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			want := "Error: the arguments of " + tt.tool + " were 2,000 bytes, over the limit of 1 KiB for one call; nothing was run. " + tt.advice
			if e := ends[i]; e.ID != "call_"+tt.tool || !e.IsError || !strings.HasPrefix(e.Output, want) {
				t.Errorf("result = %+v\nwant it to start with %q", e, want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(h.dir, "x")); !os.IsNotExist(err) {
		t.Errorf("x exists (err %v): a cut call ran", err)
	}
}
