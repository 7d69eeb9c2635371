package app

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/session"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/ui/printer"
)

// headlessAgent returns an agent on the fixture's server with cfg
// changed by mutate.
func headlessAgent(t *testing.T, f *fixture, pcfg provider.Config, mutate func(*agent.Config)) *agent.Agent {
	t.Helper()
	pcfg.BaseURL, pcfg.Model, pcfg.MaxRetries = f.srv.URL, "fake", -1
	client, err := provider.New(pcfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg := agent.Config{Model: client, ModelName: "fake", Workspace: f.ws, Approval: agent.ApproveAll}
	if mutate != nil {
		mutate(&cfg)
	}
	ag, err := agent.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return ag
}

func bashCall(cmd string) providertest.Reply {
	args, _ := json.Marshal(map[string]string{"command": cmd})
	return providertest.Reply{ToolCalls: []providertest.Call{{Name: "bash", Args: string(args)}}}
}

// TestHeadlessExitCodes: each way a -p run can fail at its job has its
// own exit code, and the result names the reason.
func TestHeadlessExitCodes(t *testing.T) {
	openTodo := providertest.Reply{ToolCalls: []providertest.Call{{Name: "todo", Args: `{"items":[{"id":"1","text":"write it","status":"in_progress"},{"id":"2","text":"test it","status":"pending"}]}`}}}
	headless := func(c *agent.Config) { c.Approval, c.Headless = agent.ApproveNone, true }
	for _, tt := range []struct {
		name   string
		pcfg   provider.Config
		mutate func(*agent.Config)
		script []providertest.Reply
		code   int
		reason string
	}{
		{"done", provider.Config{}, nil, []providertest.Reply{{Text: "All done."}}, ExitOK, ReasonDone},
		{"refused tool", provider.Config{}, headless, []providertest.Reply{bashCall("touch x"), {Text: "I could not."}}, ExitRefused, ReasonRefused},
		{"open items", provider.Config{}, func(c *agent.Config) { c.NoCompletionReminder = true },
			[]providertest.Reply{openTodo, {Text: "Stopping here."}}, ExitUnfinished, ReasonUnfinished},
		{"empty answer", provider.Config{}, nil, []providertest.Reply{bashCall("true"), {Text: " "}}, ExitEmpty, ReasonEmpty},
		{"max turns", provider.Config{}, func(c *agent.Config) { c.MaxRounds = 1 }, []providertest.Reply{bashCall("true"), bashCall("true")}, ExitBudget, ReasonBudget},
		{"max time", provider.Config{}, func(c *agent.Config) { c.Budget.MaxTime = 200 * time.Millisecond }, []providertest.Reply{bashCall("sleep 20"), {Text: "x"}}, ExitBudget, ReasonBudget},
		{"auth", provider.Config{}, nil, []providertest.Reply{{Status: 401, Body: `{"error":{"message":"Incorrect API key provided"}}`}}, ExitAuth, ReasonAuth},
		{"rate limit", provider.Config{}, nil, []providertest.Reply{{Status: 429, Body: `{"error":{"message":"slow down"}}`}}, ExitRateLimit, ReasonRateLimit},
		{"context", provider.Config{}, nil, []providertest.Reply{{Status: 400, Body: `{"error":{"message":"This model's maximum context length is 8192 tokens","code":"context_length_exceeded"}}`}}, ExitContext, ReasonContext},
		{"idle timeout", provider.Config{IdleTimeout: 200 * time.Millisecond}, nil, []providertest.Reply{{Hang: true}}, ExitTimeout, ReasonTimeout},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			ag := headlessAgent(t, f, tt.pcfg, tt.mutate)
			f.srv.Enqueue(tt.script...)
			var out, errb bytes.Buffer
			h := Headless{Prompt: "go", Printer: printer.Options{Format: printer.FormatJSON}}
			code := RunHeadless(h, ag, nil, &out, &errb)
			var res printer.Result
			if err := json.Unmarshal(out.Bytes(), &res); err != nil {
				t.Fatalf("stdout is not one result object: %v\n%s", err, out.String())
			}
			if code != tt.code || res.ExitCode != tt.code || res.ExitReason != tt.reason {
				t.Fatalf("exit %d, result %d %q; want %d %q\nstderr:\n%s", code, res.ExitCode, res.ExitReason, tt.code, tt.reason, errb.String())
			}
			if code != ExitOK && !strings.Contains(errb.String(), "tick: ") {
				t.Errorf("stderr does not say why:\n%s", errb.String())
			}
		})
	}
}

// TestHeadlessResultFormats: json prints one object with the summary;
// stream-json starts with the session, model and workspace and ends with
// the same summary; after a completion reminder stdout holds one answer.
func TestHeadlessResultFormats(t *testing.T) {
	script := func(f *fixture) {
		f.srv.Enqueue(
			providertest.Reply{ToolCalls: []providertest.Call{{Name: "todo", Args: `{"items":[{"id":"1","text":"a","status":"in_progress"}]}`}}},
			providertest.Reply{Text: "I am done."},
			providertest.Reply{ToolCalls: []providertest.Call{{Name: "todo", Args: `{"items":[{"id":"1","text":"a","status":"completed"}]}`}}},
			providertest.Reply{Text: "Really done."})
	}
	for _, format := range []string{printer.FormatText, printer.FormatJSON, printer.FormatStreamJSON} {
		t.Run(format, func(t *testing.T) {
			f := newFixture(t)
			rec := session.NewRecorder(f.dir, f.ws, "fake")
			defer rec.Close()
			ag := headlessAgent(t, f, provider.Config{}, func(c *agent.Config) { c.Recorder = rec })
			script(f)
			var out, errb bytes.Buffer
			h := Headless{Prompt: "go", Printer: printer.Options{Format: format}, Recorder: rec, Model: "fake", Workspace: f.ws}
			if code := RunHeadless(h, ag, nil, &out, &errb); code != ExitOK {
				t.Fatalf("exit %d\n%s", code, errb.String())
			}
			id := rec.ID()
			if !strings.Contains(errb.String(), "tick: session "+id+" · carry on with tick --resume "+id) {
				t.Errorf("stderr does not name the session %q:\n%s", id, errb.String())
			}
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			switch format {
			case printer.FormatText:
				if out.String() != "Really done.\n" {
					t.Errorf("stdout = %q, want only the final answer", out.String())
				}
			case printer.FormatJSON:
				var res map[string]any
				if len(lines) != 1 || json.Unmarshal([]byte(lines[0]), &res) != nil {
					t.Fatalf("stdout is not one object:\n%s", out.String())
				}
				for _, k := range []string{"session_id", "answer", "exit_code", "exit_reason", "rounds", "usage", "duration_ms"} {
					if _, ok := res[k]; !ok {
						t.Errorf("result lacks %q: %s", k, lines[0])
					}
				}
				if res["answer"] != "Really done." || res["session_id"] != id || res["rounds"] != float64(4) {
					t.Errorf("result = %s", lines[0])
				}
			case printer.FormatStreamJSON:
				var first, last map[string]any
				_ = json.Unmarshal([]byte(lines[0]), &first)
				_ = json.Unmarshal([]byte(lines[len(lines)-1]), &last)
				if first["type"] != "start" || first["session_id"] != id || first["model"] != "fake" || first["workspace"] != f.ws {
					t.Errorf("first event = %s", lines[0])
				}
				if last["type"] != "result" || last["exit_reason"] != ReasonDone || last["answer"] != "Really done." {
					t.Errorf("last event = %s", lines[len(lines)-1])
				}
				if n := strings.Count(out.String(), `"final":true`); n != 1 {
					t.Errorf("%d final answers in the stream, want 1", n)
				}
			}
		})
	}
}
