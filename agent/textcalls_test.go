package agent_test

import (
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider/providertest"
)

func TestToolCallWrittenAsTextRuns(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(
		providertest.Reply{Text: "Checking.\n<tool_call>\n{\"name\": \"bash\", \"arguments\": {\"command\": \"echo recovered-ok\"}}\n</tool_call>", ChunkSize: 5},
		providertest.Reply{Text: "It printed recovered-ok."},
	)
	evs := h.run("run it")
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %v: %v", te.Reason, te.Err)
	}
	h.checkValid()
	ends := toolEnds(evs)
	if len(ends) != 1 || ends[0].Name != "bash" || !strings.Contains(ends[0].Output, "recovered-ok") {
		t.Fatalf("tool ends %+v, want one bash call that ran", ends)
	}
	notices := 0
	for _, ev := range evs {
		if n, ok := ev.(agent.Notice); ok && strings.Contains(n.Text, "recovered bash") {
			notices++
		}
	}
	if notices != 1 {
		t.Errorf("%d notices of the recovered call, want 1", notices)
	}
	if strings.Contains(text(evs), "<tool_call>") {
		t.Errorf("the markup was shown as the answer: %q", text(evs))
	}
	// The next request holds a proper assistant call and its result.
	reqs := h.srv.Requests()
	msgs := reqs[1].Messages
	var asst, tool *providertest.Message
	for i := range msgs {
		switch {
		case msgs[i].Role == "assistant":
			asst = &msgs[i]
		case msgs[i].Role == "tool":
			tool = &msgs[i]
		}
	}
	if asst == nil || len(asst.ToolCalls) != 1 || asst.ToolCalls[0].Name != "bash" || strings.Contains(asst.Content, "<tool_call>") {
		t.Fatalf("assistant message sent back: %+v", asst)
	}
	if tool == nil || tool.ToolCallID != asst.ToolCalls[0].ID || !strings.Contains(tool.Content, "recovered-ok") {
		t.Errorf("tool result sent back: %+v", tool)
	}
}

func TestBrokenArgumentsRepaired(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(
		calls(call("bash", "{'command': 'echo mended',}")),
		providertest.Reply{Text: "done"},
	)
	evs := h.run("run it")
	end(t, evs)
	h.checkValid()
	ends := toolEnds(evs)
	if len(ends) != 1 || ends[0].IsError || !strings.Contains(ends[0].Output, "mended") {
		t.Fatalf("tool ends %+v, want the repaired call to run", ends)
	}
	sent := h.srv.Requests()[1].Messages
	for _, m := range sent {
		for _, c := range m.ToolCalls {
			if c.Args != `{"command": "echo mended"}` {
				t.Errorf("history keeps arguments %q, want the repaired ones", c.Args)
			}
		}
	}
}

func TestOllamaToolParseErrorRetriedWithNote(t *testing.T) {
	h := newHarness(t)
	// As Ollama sends it: 500 with the OpenAI-style error object
	// (see provider/testdata/local/README.md).
	parseErr := providertest.Reply{Status: 500, Body: `{"error":{"message":"error parsing tool call: raw='{\"command\": \"ls\" \"-la\"}', err=invalid character '\"' after object key:value pair","type":"api_error","param":null,"code":null}}`}
	h.srv.Enqueue(parseErr, calls(call("bash", `{"command":"echo again"}`)), providertest.Reply{Text: "ok"})
	evs := h.run("list")
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %v: %v", te.Reason, te.Err)
	}
	h.checkValid()
	reqs := h.srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3 (refused, asked again, after the tool)", len(reqs))
	}
	note := reqs[1].Last()
	if note.Role != "user" || !strings.Contains(note.Content, "-la") {
		t.Errorf("second request ends with %+v, want the note quoting the model", note)
	}
	if !strings.Contains(note.Content, "could not parse") {
		t.Errorf("note %q does not say what happened", note.Content)
	}
}

func TestOllamaToolParseErrorTwiceEndsTurn(t *testing.T) {
	h := newHarness(t)
	parseErr := providertest.Reply{Status: 500, Body: `{"error":{"message":"error parsing tool call: raw='oops', err=bad","type":"api_error"}}`}
	h.srv.Enqueue(parseErr, parseErr)
	te := end(t, h.run("list"))
	if te.Reason != agent.ReasonError {
		t.Fatalf("turn ended %v, want an error after the one retry", te.Reason)
	}
	if n := len(h.srv.Requests()); n != 2 {
		t.Errorf("%d requests, want 2: no blind retries of the same request", n)
	}
}
