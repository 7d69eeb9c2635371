package printer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/ui/printer"
)

// cutTurn runs one headless turn against a fake server whose model sends a
// write_file call of 2,000 bytes to a client that keeps 1 KiB, and prints
// it with opts.
func cutTurn(t *testing.T, opts printer.Options) (stdout, stderr string) {
	t.Helper()
	srv := providertest.New(t)
	client, err := provider.New(provider.Config{BaseURL: srv.URL, APIKey: "test-key", Model: "test-model", MaxArgs: 1 << 10})
	if err != nil {
		t.Fatal(err)
	}
	ag, err := agent.New(agent.Config{Model: client, Workspace: t.TempDir(), Approval: agent.ApproveAll, Headless: true})
	if err != nil {
		t.Fatal(err)
	}
	head, tail := `{"path":"big.txt","content":"`, `"}`
	args := head + strings.Repeat("a", 2000-len(head)-len(tail)) + tail
	srv.Enqueue(providertest.Reply{ToolCalls: []providertest.Call{{ID: "call_big", Name: "write_file", Args: args}}},
		providertest.Reply{Text: "I will write it in parts."})
	var out, errb bytes.Buffer
	end, err := printer.New(&out, &errb, opts).Run(ag.Run(context.Background(), "write big.txt"))
	if err != nil || end.Reason != agent.ReasonDone {
		t.Fatalf("Run = %+v, %v", end, err)
	}
	return out.String(), errb.String()
}

// TestArgsCutText: -p shows a cut call's tool line as too large (not a
// JSON error) and the error the model got, under it.
func TestArgsCutText(t *testing.T) {
	out, errText := cutTurn(t, printer.Options{})
	if out != "I will write it in parts.\n" {
		t.Errorf("stdout = %q", out)
	}
	lines := strings.Split(errText, "\n")
	const (
		toolLine = "→ write_file  arguments too large: 2.0 KiB, over the limit of 1 KiB"
		result   = "s  Error: the arguments of write_file were 2,000 bytes, over the limit of 1 KiB for one call; nothing was run."
	)
	if len(lines) < 2 || lines[0] != toolLine || !strings.HasPrefix(lines[1], "  ✗ ") || !strings.Contains(lines[1], result) {
		t.Errorf("stderr =\n%s\nwant the lines\n%s\n  ✗ <duration>%s", errText, toolLine, result)
	}
	if strings.Contains(errText, "JSON") {
		t.Errorf("stderr speaks of JSON:\n%s", errText)
	}
}

// TestArgsCutJSON: --json marks the cut call's tool_start with args_cut
// (the size and the limit) and "{}" for its arguments.
func TestArgsCutJSON(t *testing.T) {
	out, errText := cutTurn(t, printer.Options{JSON: true})
	if errText != "" {
		t.Errorf("JSON mode wrote to stderr: %q", errText)
	}
	var start, end map[string]any
	for line := range strings.Lines(out) {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("line %q is not JSON: %v", line, err)
		}
		switch m["type"] {
		case "tool_start":
			start = m
		case "tool_end":
			end = m
		}
	}
	cut, _ := start["args_cut"].(map[string]any)
	if cut["size"] != float64(2000) || cut["limit"] != float64(1<<10) || start["args"] != "{}" {
		t.Errorf("tool_start = %v, want args_cut {size 2000, limit 1024} and args {}", start)
	}
	if msg, _ := end["output"].(string); end["is_error"] != true || !strings.HasPrefix(msg, "Error: the arguments of write_file were 2,000 bytes") {
		t.Errorf("tool_end = %v, want the cut error", end)
	}
}

// TestArgsCutOmittedFromOrdinaryCalls: a call that was not cut has no
// args_cut key at all.
func TestArgsCutOmittedFromOrdinaryCalls(t *testing.T) {
	b, err := printer.MarshalEvent(agent.ToolStart{ID: "c1", Name: "bash", Args: `{}`})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "args_cut") {
		t.Errorf("ordinary call marshals to %s", b)
	}
}

// TestArgsCutColour: with colours the too-large summary is red, like the
// failure it is, where an ordinary call's key argument is plain.
func TestArgsCutColour(t *testing.T) {
	_, errText := cutTurn(t, printer.Options{Color: true})
	if !strings.Contains(errText, "\x1b[31marguments too large: 2.0 KiB, over the limit of 1 KiB\x1b[") {
		t.Errorf("stderr = %q, want the summary in red", errText)
	}
}
