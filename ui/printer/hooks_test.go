package printer_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/ui/printer"
)

func TestHookFailed(t *testing.T) {
	ev := agent.HookFailed{Event: "post_tool_use", Command: "lint.sh", Error: "exit status 1: \x1b[31mbroken"}
	var out, errb bytes.Buffer
	if _, err := printer.New(&out, &errb, printer.Options{}).Run(feed(ev, agent.TurnEnd{Reason: agent.ReasonDone})); err != nil {
		t.Fatal(err)
	}
	if got := errb.String(); !strings.Contains(got, "hook failed (post_tool_use: lint.sh): exit status 1: ") || strings.Contains(got, "\x1b[31m") {
		t.Errorf("stderr %q: want the failure without the escape", got)
	}
	out.Reset()
	if _, err := printer.New(&out, &errb, printer.Options{JSON: true}).Run(feed(ev, agent.TurnEnd{Reason: agent.ReasonDone})); err != nil {
		t.Fatal(err)
	}
	if first := strings.SplitN(out.String(), "\n", 2)[0]; first != `{"type":"hook_failed","event":"post_tool_use","command":"lint.sh","error":"exit status 1: \u001b[31mbroken"}` {
		t.Errorf("JSON line %s", first)
	}
}
