package printer_test

import (
	"bytes"
	"context"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/ui/printer"
)

// stubborn is a Runner whose turn streams until its context is cancelled,
// then ends as interrupted, unless hang is set: then it never ends.
type stubborn struct {
	hang    bool
	started chan struct{}
}

func (s *stubborn) Run(ctx context.Context, prompt string) <-chan agent.Event {
	ch := make(chan agent.Event)
	go func() {
		ch <- agent.TextDelta{Text: prompt}
		close(s.started)
		<-ctx.Done()
		if s.hang {
			return // the channel stays open
		}
		ch <- agent.TurnEnd{Reason: agent.ReasonInterrupted}
		close(ch)
	}()
	return ch
}

func TestRunTurnSignals(t *testing.T) {
	tests := []struct {
		name          string
		hang          bool
		sigs          []os.Signal
		wantSig       os.Signal
		wantAbandoned bool
		wantReason    agent.Reason
	}{
		{"one signal interrupts the turn", false, []os.Signal{syscall.SIGTERM}, syscall.SIGTERM, false, agent.ReasonInterrupted},
		{"a second one abandons it", true, []os.Signal{os.Interrupt, syscall.SIGTERM}, syscall.SIGTERM, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &stubborn{hang: tt.hang, started: make(chan struct{})}
			sigs := make(chan os.Signal, 2)
			var out, errb bytes.Buffer
			p := printer.New(&out, &errb, printer.Options{})
			done := make(chan printer.Outcome, 1)
			go func() { done <- p.RunTurn(r, "hello", sigs) }()
			<-r.started
			for _, s := range tt.sigs {
				sigs <- s
			}
			var o printer.Outcome
			select {
			case o = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("RunTurn did not return")
			}
			if o.Signal != tt.wantSig || o.Abandoned != tt.wantAbandoned || o.End.Reason != tt.wantReason {
				t.Errorf("Outcome = %+v; want signal %v, abandoned %v, reason %q", o, tt.wantSig, tt.wantAbandoned, tt.wantReason)
			}
		})
	}
}
