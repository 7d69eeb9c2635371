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
	"github.com/tick-agent/tick/ui/printer"
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
	for _, want := range []string{"tick: server", "resumed session old · 0 messages · todo 0/1", "Ship it", "tick: session " + rec.ID() + " · carry on with tick --resume " + rec.ID()} {
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

// TestClassify maps how a turn ended to the exit code and its reason.
func TestClassify(t *testing.T) {
	tests := []struct {
		name   string
		end    agent.TurnEnd
		res    printer.Result
		sig    os.Signal
		code   int
		reason string
	}{
		{"done", agent.TurnEnd{}, printer.Result{Answer: "ok"}, nil, ExitOK, ReasonDone},
		{"sigint", agent.TurnEnd{Reason: agent.ReasonInterrupted}, printer.Result{}, os.Interrupt, ExitInterrupted, ReasonInterrupted},
		{"sigterm", agent.TurnEnd{Reason: agent.ReasonInterrupted}, printer.Result{}, syscall.SIGTERM, ExitTerminated, ReasonTerminated},
		{"error", agent.TurnEnd{Reason: agent.ReasonError, Err: errors.New("bang")}, printer.Result{}, nil, ExitError, ReasonError},
		{"blocked", agent.TurnEnd{}, printer.Result{Answer: "ok", Blocked: []string{"bash: git commit"}}, nil, ExitRefused, ReasonBlocked},
		{"round cap", agent.TurnEnd{Reason: agent.ReasonError, Kind: agent.KindRoundCap}, printer.Result{}, nil, ExitBudget, ReasonBudget},
		{"agent's empty answer", agent.TurnEnd{Reason: agent.ReasonError, Kind: "empty_answer"}, printer.Result{}, nil, ExitEmpty, ReasonEmpty},
		{"open items over an empty answer", agent.TurnEnd{}, printer.Result{OpenItems: []string{"b"}}, nil, ExitUnfinished, ReasonUnfinished},
		{"refused over open items", agent.TurnEnd{}, printer.Result{Refused: []string{"bash: x"}, OpenItems: []string{"b"}}, nil, ExitRefused, ReasonRefused},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if code, reason, _ := classify(tt.end, &tt.res, tt.sig); code != tt.code || reason != tt.reason {
				t.Errorf("classify() = %d %q; want %d %q", code, reason, tt.code, tt.reason)
			}
		})
	}
}
