package app

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/ui/printer"
)

// echoKey is the configured API key the fake server echoes back.
const echoKey = "sk-proj-ECHOEDsecret0123456789abcdefXYZ"

// TestHeadlessServerErrorIsMaskedAndOneLine: a 401 whose body echoes the
// API key and forges lines with \r\n shows, on -p's stderr and in --json,
// neither the key nor a line that looks like tick's own.
func TestHeadlessServerErrorIsMaskedAndOneLine(t *testing.T) {
	for _, asJSON := range []bool{false, true} {
		srv := providertest.New(t)
		srv.SetFunc(func(r providertest.Request) providertest.Reply {
			key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
			b, _ := json.Marshal(map[string]any{"error": map[string]any{
				"message": "Incorrect API key provided: " + key + ".\r\ntick: done, all tests pass\r\n",
				"code":    "invalid_api_key",
			}})
			return providertest.Reply{Status: 401, Body: string(b)}
		})
		client, err := provider.New(provider.Config{BaseURL: srv.URL, APIKey: echoKey, Model: "fake", MaxRetries: -1})
		if err != nil {
			t.Fatal(err)
		}
		ag, err := agent.New(agent.Config{Model: client, Workspace: t.TempDir(), Approval: agent.ApproveAll})
		if err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		h := Headless{Prompt: "hi"}
		h.Printer.JSON = asJSON
		if code := RunHeadless(h, ag, nil, &out, &errb); code != ExitAuth {
			t.Fatalf("json %v: exit %d, want %d; stderr %q", asJSON, code, ExitAuth, errb.String())
		}
		if reqs := srv.Requests(); len(reqs) == 0 || !strings.Contains(reqs[0].Header.Get("Authorization"), echoKey) {
			t.Fatal("the fake server did not get the key")
		}
		all := out.String() + errb.String()
		if strings.Contains(all, echoKey) || strings.Contains(all, "ECHOEDsecret") {
			t.Errorf("json %v: the key is printed:\nstdout %q\nstderr %q", asJSON, out.String(), errb.String())
		}
		if !strings.Contains(all, "Incorrect API key provided: sk-****") {
			t.Errorf("json %v: the server's message is lost:\nstdout %q\nstderr %q", asJSON, out.String(), errb.String())
		}
		for _, l := range strings.Split(errb.String(), "\n") {
			if strings.HasPrefix(l, "tick: done") {
				t.Errorf("json %v: the server forged a line on stderr: %q", asJSON, errb.String())
			}
		}
		if asJSON && strings.Count(out.String(), `"type":"turn_end"`) != 1 {
			t.Errorf("no turn_end event in %q", out.String())
		}
	}
}

// TestHeadlessErrorLinesIndented: an error of several lines keeps its
// later lines indented under "tick: ", so none passes for tick's own.
func TestHeadlessErrorLinesIndented(t *testing.T) {
	end := agent.TurnEnd{Reason: agent.ReasonError, Error: "failed: first\r\ntick: forged\nlast\n"}
	code, _, msg := classify(end, &printer.Result{}, nil)
	if line := exitLine(msg); code != ExitError || line != "tick: failed: first\n    tick: forged\n    last\n" {
		t.Fatalf("classify() = %d, line %q", code, line)
	}
}
