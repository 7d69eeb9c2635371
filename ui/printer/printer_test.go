package printer_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
	"github.com/tick-agent/tick/ui/printer"
)

// feed returns a closed channel holding evs, like a finished turn.
func feed(evs ...agent.Event) <-chan agent.Event {
	ch := make(chan agent.Event, len(evs))
	for _, ev := range evs {
		ch <- ev
	}
	close(ch)
	return ch
}

var plan = todo.List{Goal: "Ship it", Items: []todo.Item{
	{ID: "1", Text: "Write main.go", Status: todo.Completed, Note: "done"},
	{ID: "2", Text: "Run tests", Status: todo.InProgress, ActiveForm: "Running tests"},
	{ID: "3", Text: "Add a CLI", Status: todo.Cancelled, Note: "not wanted"},
}}

func TestRunText(t *testing.T) {
	tests := []struct {
		name       string
		opts       printer.Options
		events     []agent.Event
		wantOut    string
		wantErr    string // exact stderr
		wantReason agent.Reason
	}{
		{
			name: "final answer only",
			events: []agent.Event{
				agent.TextDelta{Text: "Hel"}, agent.TextDelta{Text: "lo"},
				agent.AssistantDone{Text: "Hello", Final: true},
				agent.Usage{},
				agent.TurnEnd{Reason: agent.ReasonDone},
			},
			wantOut:    "Hello\n",
			wantReason: agent.ReasonDone,
		},
		{
			name: "answer keeps its own trailing newline",
			events: []agent.Event{
				agent.AssistantDone{Text: "line 1\nline 2\n", Final: true},
				agent.TurnEnd{Reason: agent.ReasonDone},
			},
			wantOut:    "line 1\nline 2\n",
			wantReason: agent.ReasonDone,
		},
		{
			name: "tool calls, todo list and answer",
			events: []agent.Event{
				agent.TextDelta{Text: "Let me plan."},
				agent.AssistantDone{Text: "Let me plan.", Final: false},
				agent.ToolStart{ID: "c1", Name: "todo", Summary: "Ship it"},
				agent.TodoUpdate{List: plan},
				agent.ToolEnd{ID: "c1", Name: "todo", Output: plan.Render()},
				agent.ToolStart{ID: "c2", Name: "bash", Summary: "go test ./..."},
				agent.ToolEnd{ID: "c2", Name: "bash", Output: "ok\nexit status 0", Duration: 400 * time.Millisecond},
				agent.ToolStart{ID: "c3", Name: "bash", Summary: "false"},
				agent.ToolEnd{ID: "c3", Name: "bash", Output: "exit status 1", Duration: 10 * time.Millisecond},
				agent.ToolStart{ID: "c4", Name: "read_file", Summary: "nope.txt"},
				agent.ToolEnd{ID: "c4", Name: "read_file", Output: "Error: open nope.txt: no such file\nmore", IsError: true, Duration: time.Millisecond},
				agent.AssistantDone{Text: "All done.", Final: true},
				agent.TurnEnd{Reason: agent.ReasonDone},
			},
			wantOut: "All done.\n",
			wantErr: "Goal: Ship it\n[x] #1: Write main.go -> done\n[>] #2: Run tests\n[-] #3: Add a CLI (cancelled: not wanted)\n\n(1/2 completed)\n\n" +
				"→ bash  go test ./...\n  ✓ 0.4s\n" +
				"→ bash  false\n  ✓ 0.0s  exit status 1\n" +
				"→ read_file  nope.txt\n  ✗ 0.0s  Error: open nope.txt: no such file …\n",
			wantReason: agent.ReasonDone,
		},
		{
			name: "a list after tool lines is set apart by a blank line",
			events: []agent.Event{
				agent.ToolStart{ID: "c1", Name: "bash", Summary: "ls"},
				agent.ToolEnd{ID: "c1", Name: "bash", Output: "exit status 0"},
				agent.TodoUpdate{List: todo.List{Items: []todo.Item{{ID: "1", Text: "Look", Status: todo.Completed}}}},
				agent.TurnEnd{Reason: agent.ReasonDone},
			},
			wantErr:    "→ bash  ls\n  ✓ 0.0s\n\n[x] #1: Look\n\n(1/1 completed)\n\n",
			wantReason: agent.ReasonDone,
		},
		{
			name: "a replayed user message",
			events: []agent.Event{
				agent.UserMessage{Text: "fix\nthe build"},
				agent.TurnEnd{Reason: agent.ReasonDone},
			},
			wantErr:    "› fix …\n",
			wantReason: agent.ReasonDone,
		},
		{
			name: "rejected todo call shows as a failed line",
			events: []agent.Event{
				agent.ToolStart{ID: "c1", Name: "todo"},
				agent.ToolEnd{ID: "c1", Name: "todo", Output: "Error: two items are in_progress", IsError: true},
				agent.AssistantDone{Text: "ok", Final: true},
				agent.TurnEnd{Reason: agent.ReasonDone},
			},
			wantOut:    "ok\n",
			wantErr:    "→ todo\n  ✗ 0.0s  Error: two items are in_progress\n",
			wantReason: agent.ReasonDone,
		},
		{
			name: "subagent calls are indented under the task",
			events: []agent.Event{
				agent.ToolStart{ID: "t1", Name: "task", Summary: "Explore the repo"},
				agent.Subagent{ParentID: "t1", Event: agent.TextDelta{Text: "child text"}},
				agent.Subagent{ParentID: "t1", Event: agent.ToolStart{ID: "s1", Name: "read_file", Summary: "go.mod"}},
				agent.Subagent{ParentID: "t1", Event: agent.ToolEnd{ID: "s1", Name: "read_file", Output: "module x", Duration: 200 * time.Millisecond}},
				agent.Subagent{ParentID: "t1", Event: agent.AssistantDone{Text: "child answer", Final: true}},
				agent.ToolEnd{ID: "t1", Name: "task", Output: "child answer", Duration: 2 * time.Second},
				agent.AssistantDone{Text: "parent answer", Final: true},
				agent.TurnEnd{Reason: agent.ReasonDone},
			},
			wantOut:    "parent answer\n",
			wantErr:    "→ task  Explore the repo\n    → read_file  go.mod\n      ✓ 0.2s\n  ✓ 2.0s\n",
			wantReason: agent.ReasonDone,
		},
		{
			name: "retry, notice, compaction",
			events: []agent.Event{
				agent.Retry{Attempt: 1, Max: 3, Wait: 2 * time.Second, Err: "503 Service Unavailable"},
				agent.Notice{Text: "reminded the model to update its todo list"},
				agent.Compacted{Before: 120000, After: 30000},
				agent.AssistantDone{Text: "fine", Final: true},
				agent.TurnEnd{Reason: agent.ReasonDone},
			},
			wantOut: "fine\n",
			wantErr: "↻ retry 1/3 in 2s: 503 Service Unavailable\n" +
				"· reminded the model to update its todo list\n" +
				"· context compacted: ~120000 → ~30000 tokens\n",
			wantReason: agent.ReasonDone,
		},
		{
			name: "interrupted mid-stream prints the partial text",
			events: []agent.Event{
				agent.TextDelta{Text: "I was say"},
				agent.TurnEnd{Reason: agent.ReasonInterrupted},
			},
			wantOut:    "I was say\n",
			wantReason: agent.ReasonInterrupted,
		},
		{
			name: "error after a tool round prints nothing on stdout",
			events: []agent.Event{
				agent.AssistantDone{Text: "checking", Final: false},
				agent.ToolStart{ID: "c1", Name: "bash", Summary: "ls"},
				agent.ToolEnd{ID: "c1", Name: "bash", Output: "a\nexit status 0"},
				agent.TurnEnd{Reason: agent.ReasonError, Err: errors.New("500 Internal Server Error")},
			},
			wantErr:    "→ bash  ls\n  ✓ 0.0s\n",
			wantReason: agent.ReasonError,
		},
		{
			name: "turn done without a final answer prints the last round's text",
			events: []agent.Event{
				agent.AssistantDone{Text: "partial result", Final: false},
				agent.TurnEnd{Reason: agent.ReasonDone},
			},
			wantOut:    "partial result\n",
			wantReason: agent.ReasonDone,
		},
		{
			name: "verbose shows interim text, reasoning, output head and usage",
			opts: printer.Options{Verbose: true},
			events: []agent.Event{
				agent.ReasoningDelta{Text: "think "}, agent.ReasoningDelta{Text: "hard"},
				agent.AssistantDone{Text: "Looking.", Final: false},
				agent.Usage{Usage: usage(10, 5), Estimated: true},
				agent.ToolStart{ID: "c1", Name: "bash", Summary: "seq 7"},
				agent.ToolEnd{ID: "c1", Name: "bash", Output: "1\n2\n3\n4\n5\n6\n7\nexit status 0\n"},
				agent.AssistantDone{Text: "Done.", Final: true},
				agent.TurnEnd{Reason: agent.ReasonDone},
			},
			wantOut: "Done.\n",
			wantErr: "› think hard\n› Looking.\ntokens: ~10 in, ~5 out\n→ bash  seq 7\n  ✓ 0.0s\n" +
				"    1\n    2\n    3\n    4\n    5\n    … (3 more lines)\n",
			wantReason: agent.ReasonDone,
		},
		{
			name: "verbose streams a running command's output lines",
			opts: printer.Options{Verbose: true},
			events: []agent.Event{
				agent.ToolStart{ID: "c1", Name: "bash", Summary: "make"},
				agent.ToolOutput{ID: "c1", Tail: "building a\nbuil", Total: 15},
				agent.ToolOutput{ID: "c1", Tail: "building a\nbuilding b\n", Total: 22},
				agent.ToolOutput{ID: "c1", Tail: "step 9\n", Total: 1000},
				agent.ToolOutput{ID: "c1", Tail: "step 9\n", Total: 1000},
				agent.ToolEnd{ID: "c1", Name: "bash", Output: "ok\nexit status 0\n"},
				agent.TurnEnd{Reason: agent.ReasonDone},
			},
			wantErr:    "→ bash  make\n    │ building a\n    │ building b\n    … 971 bytes of output skipped\n    │ step 9\n  ✓ 0.0s\n    ok\n    exit status 0\n",
			wantReason: agent.ReasonDone,
		},
		{
			name: "without verbose a running command's output is not shown",
			events: []agent.Event{
				agent.ToolStart{ID: "c1", Name: "bash", Summary: "make"},
				agent.ToolOutput{ID: "c1", Tail: "building a\n", Total: 11},
				agent.ToolEnd{ID: "c1", Name: "bash", Output: "ok\nexit status 0\n"},
				agent.TurnEnd{Reason: agent.ReasonDone},
			},
			wantErr:    "→ bash  make\n  ✓ 0.0s\n",
			wantReason: agent.ReasonDone,
		},
		{
			name: "colour wraps the marks in ANSI codes",
			opts: printer.Options{Color: true},
			events: []agent.Event{
				agent.ToolStart{ID: "c1", Name: "bash", Summary: "ls"},
				agent.ToolEnd{ID: "c1", Name: "bash", Output: "exit status 0"},
				agent.TurnEnd{Reason: agent.ReasonDone},
			},
			wantErr:    "\x1b[2m→ \x1b[0m\x1b[1mbash\x1b[0m  ls\n  \x1b[32m✓\x1b[0m 0.0s\n",
			wantReason: agent.ReasonDone,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			end, err := printer.New(&out, &errb, tc.opts).Run(feed(tc.events...))
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if end.Reason != tc.wantReason {
				t.Errorf("reason = %q, want %q", end.Reason, tc.wantReason)
			}
			if tc.wantReason == agent.ReasonError && end.Err == nil {
				t.Errorf("TurnEnd.Err is nil for an error turn")
			}
			if got := out.String(); got != tc.wantOut {
				t.Errorf("stdout:\n%q\nwant:\n%q", got, tc.wantOut)
			}
			if got := errb.String(); got != tc.wantErr {
				t.Errorf("stderr:\n%s\nwant:\n%s\n(quoted: %q)", got, tc.wantErr, got)
			}
		})
	}
}

func usage(in, out int) provider.Usage {
	return provider.Usage{PromptTokens: in, CompletionTokens: out, TotalTokens: in + out}
}

func TestRunNoTurnEnd(t *testing.T) {
	end, err := printer.New(&bytes.Buffer{}, &bytes.Buffer{}, printer.Options{}).Run(feed(agent.TextDelta{Text: "x"}))
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if !errors.Is(end.Err, printer.ErrNoTurnEnd) || end.Error == "" {
		t.Errorf("TurnEnd = %+v, want ErrNoTurnEnd with its message", end)
	}
}

// TestApprovalDenied checks that a headless printer answers an approval
// request at once with a denial that tells the model about --yolo.
func TestApprovalDenied(t *testing.T) {
	for _, opts := range []printer.Options{{}, {JSON: true}} {
		t.Run(fmt.Sprintf("json=%v", opts.JSON), func(t *testing.T) {
			reply := make(chan agent.Approval, 1)
			var out, errb bytes.Buffer
			_, err := printer.New(&out, &errb, opts).Run(feed(
				agent.ApprovalRequest{ID: "c1", Tool: "bash", Summary: "rm -rf build", Reply: reply},
				agent.TurnEnd{Reason: agent.ReasonDone},
			))
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			select {
			case a := <-reply:
				if a.Allow || !strings.Contains(a.Reason, "--yolo") {
					t.Errorf("approval = %+v, want a denial mentioning --yolo", a)
				}
			default:
				t.Fatal("no reply was sent to the approval request")
			}
			if !opts.JSON && !strings.Contains(errb.String(), "bash needs approval (rm -rf build)") {
				t.Errorf("stderr does not mention the denied call: %q", errb.String())
			}
		})
	}
}

// failWriter fails every write.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, os.ErrClosed }

// TestWriteErrorKeepsDraining checks that a broken stdout neither blocks
// the agent nor hides the turn's end: every event is read, and the error
// comes back from Run.
func TestWriteErrorKeepsDraining(t *testing.T) {
	ch := make(chan agent.Event) // unbuffered: the sender blocks until read
	sent := make(chan int)
	go func() {
		n := 0
		for i := 0; i < 5000; i++ {
			ch <- agent.TextDelta{Text: strings.Repeat("x", 100)}
			n++
		}
		ch <- agent.AssistantDone{Text: "x", Final: true}
		ch <- agent.TurnEnd{Reason: agent.ReasonDone}
		close(ch)
		sent <- n + 2
	}()
	for _, opts := range []printer.Options{{JSON: true}} {
		end, err := printer.New(failWriter{}, failWriter{}, opts).Run(ch)
		if !errors.Is(err, os.ErrClosed) {
			t.Errorf("Run error = %v, want one wrapping %v", err, os.ErrClosed)
		}
		if end.Reason != agent.ReasonDone {
			t.Errorf("reason = %q, want done", end.Reason)
		}
	}
	if n := <-sent; n != 5002 {
		t.Errorf("sender delivered %d events, want 5002", n)
	}
}

func TestRunJSON(t *testing.T) {
	reply := make(chan agent.Approval, 1)
	events := []agent.Event{
		agent.TextDelta{Text: "hi\n\"there\""},
		agent.ToolStart{ID: "c1", Name: "bash", Args: `{"command":"ls"}`, Summary: "ls"},
		agent.ToolEnd{ID: "c1", Name: "bash", Output: "a\nb", Duration: time.Second},
		agent.TodoUpdate{List: plan},
		agent.Subagent{ParentID: "t1", Event: agent.ToolStart{ID: "s1", Name: "read_file"}},
		agent.Usage{Usage: usage(7, 3)},
		agent.ApprovalRequest{ID: "c2", Tool: "write_file", Summary: "a.go", Reply: reply},
		agent.AssistantDone{Text: "hi", Final: true},
		agent.TurnEnd{Reason: agent.ReasonError, Err: errors.New("boom")},
	}
	var out, errb bytes.Buffer
	if _, err := printer.New(&out, &errb, printer.Options{JSON: true}).Run(feed(events...)); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if errb.Len() != 0 {
		t.Errorf("JSON mode wrote to stderr: %q", errb.String())
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != len(events) {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(events), out.String())
	}
	checks := []struct {
		key  string
		want any
	}{
		{"text", "hi\n\"there\""},
		{"summary", "ls"},
		{"duration_ns", float64(time.Second)},
		{"list", nil},
		{"parent_id", "t1"},
		{"prompt_tokens", float64(7)},
		{"tool", "write_file"},
		{"final", true},
		{"error", "boom"},
	}
	for i, line := range lines {
		ev := events[i]
		t.Run(ev.Type(), func(t *testing.T) {
			var m map[string]any
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatalf("line %q is not JSON: %v", line, err)
			}
			if m["type"] != ev.Type() {
				t.Errorf("type = %v, want %q", m["type"], ev.Type())
			}
			c := checks[i]
			got, ok := m[c.key]
			if !ok {
				t.Fatalf("line %s has no %q", line, c.key)
			}
			if c.want != nil && got != c.want {
				t.Errorf("%s = %v, want %v", c.key, got, c.want)
			}
			switch ev.(type) {
			case agent.Subagent:
				inner, _ := m["event"].(map[string]any)
				if inner["type"] != "tool_start" || inner["name"] != "read_file" {
					t.Errorf("nested event = %v, want a tool_start of read_file", m["event"])
				}
			case agent.ApprovalRequest:
				if _, has := m["reply"]; has {
					t.Errorf("approval_request carries its reply channel: %s", line)
				}
			}
		})
	}
}

func TestMarshalEvent(t *testing.T) {
	tests := []struct {
		name string
		ev   agent.Event
		want string
	}{
		{"text", agent.TextDelta{Text: "a"}, `{"type":"text","text":"a"}`},
		{"turn end keeps error from Err", agent.TurnEnd{Reason: agent.ReasonError, Err: errors.New("x")}, `{"type":"turn_end","reason":"error","error":"x"}`},
		{"turn end done", agent.TurnEnd{Reason: agent.ReasonDone}, `{"type":"turn_end","reason":"done"}`},
		{"turn end with its kind", agent.TurnEnd{Reason: agent.ReasonError, Error: "401", Kind: agent.KindAuth}, `{"type":"turn_end","reason":"error","error":"401","kind":"auth"}`},
		{"user message", agent.UserMessage{Text: "hi"}, `{"type":"user","text":"hi"}`},
		{"nested", agent.Subagent{ParentID: "p", Event: agent.Notice{Text: "n"}}, `{"type":"subagent","parent_id":"p","event":{"type":"notice","text":"n"}}`},
		{"transient notice", agent.Notice{Text: "finishing", Transient: true}, `{"type":"notice","text":"finishing","transient":true}`},
		{"tool output", agent.ToolOutput{ID: "c1", Tail: "ok\n", Total: 30}, `{"type":"tool_output","id":"c1","tail":"ok\n","total":30}`},
		{"usage is flat", agent.Usage{Usage: usage(1, 2)}, `{"type":"usage","prompt_tokens":1,"completion_tokens":2,"total_tokens":3,"estimated":false}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := printer.MarshalEvent(tc.ev)
			if err != nil {
				t.Fatalf("MarshalEvent: %v", err)
			}
			if string(b) != tc.want {
				t.Errorf("got  %s\nwant %s", b, tc.want)
			}
		})
	}
	if _, err := printer.MarshalEvent(nil); err == nil {
		t.Error("MarshalEvent(nil) succeeded, want an error")
	}
	if _, err := printer.MarshalEvent(agent.Subagent{ParentID: "p"}); err == nil {
		t.Error("MarshalEvent of a Subagent without an event succeeded, want an error")
	}
}
