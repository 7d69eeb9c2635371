package app

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/session"
	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/todo"
)

// TestRunHeadless runs -p turns against the fake server: the notices (made
// safe), the resumed session's line and todo list, and with --verbose the
// saved session's id go to stderr; the answer goes to stdout; a failing
// turn exits ExitError.
func TestRunHeadless(t *testing.T) {
	f := newFixture(t)
	opts := f.options(t)
	rec := session.NewRecorder(f.dir, f.ws, opts.Model)
	defer rec.Close()
	ag, err := opts.NewAgent(opts.Model, 0, rec)
	if err != nil {
		t.Fatal(err)
	}
	list := todo.List{Goal: "Ship it", Items: []todo.Item{{ID: "1", Status: todo.Pending, Text: "Build"}}}
	ld := &session.Loaded{Info: session.Info{ID: "old", Done: 0, Total: 1}, Todos: list}
	f.srv.Enqueue(providertest.Reply{Text: "The answer."})
	var out, errb bytes.Buffer
	h := Headless{Prompt: "question", Notices: []string{"server \x1b[31mred"}, Loaded: ld, Recorder: rec}
	h.Printer.Verbose = true
	code := RunHeadless(h, ag, nil, &out, &errb)
	if code != ExitOK || !strings.Contains(out.String(), "The answer.") {
		t.Fatalf("RunHeadless() = %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
	se := errb.String()
	for _, want := range []string{"tick: server", "resumed session old · 0 messages · todo 0/1", "Ship it", "tick: session " + rec.ID() + " saved"} {
		if !strings.Contains(se, want) {
			t.Errorf("stderr lacks %q:\n%s", want, se)
		}
	}
	if strings.Contains(se, "\x1b[31m") {
		t.Errorf("a notice's control sequence reached stderr: %q", se)
	}

	f.srv.Enqueue(providertest.Reply{Status: 400, Body: `{"error":{"message":"bad model"}}`})
	errb.Reset()
	if code := RunHeadless(Headless{Prompt: "again"}, ag, nil, &out, &errb); code != ExitError || !strings.Contains(errb.String(), "tick: ") {
		t.Fatalf("a failing turn: RunHeadless() = %d, stderr %q", code, errb.String())
	}
}

// TestHeadlessExit maps how a turn ended to the exit code and the line on
// stderr.
func TestHeadlessExit(t *testing.T) {
	tests := []struct {
		name string
		end  agent.TurnEnd
		werr error
		sig  os.Signal
		code int
		line string
	}{
		{"done", agent.TurnEnd{}, nil, nil, ExitOK, ""},
		{"sigint", agent.TurnEnd{Reason: agent.ReasonInterrupted}, nil, os.Interrupt, ExitInterrupted, "tick: interrupted\n"},
		{"sigterm", agent.TurnEnd{Reason: agent.ReasonInterrupted}, nil, syscall.SIGTERM, ExitTerminated, "tick: interrupted\n"},
		{"interrupted", agent.TurnEnd{Reason: agent.ReasonInterrupted}, nil, nil, ExitInterrupted, "tick: interrupted\n"},
		{"error text", agent.TurnEnd{Reason: agent.ReasonError, Error: "boom"}, nil, nil, ExitError, "tick: boom\n"},
		{"error value", agent.TurnEnd{Reason: agent.ReasonError, Err: errors.New("bang")}, nil, nil, ExitError, "tick: bang\n"},
		{"write failed", agent.TurnEnd{}, errors.New("broken pipe"), nil, ExitError, "tick: broken pipe\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if code := headlessExit(tt.end, tt.werr, tt.sig, &b); code != tt.code || b.String() != tt.line {
				t.Errorf("headlessExit() = %d, %q; want %d, %q", code, b.String(), tt.code, tt.line)
			}
		})
	}
}
