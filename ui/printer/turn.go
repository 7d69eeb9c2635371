package printer

import (
	"context"
	"os"
	"syscall"

	"github.com/tick-agent/tick/agent"
)

// Runner starts a turn; *agent.Agent implements it.
type Runner interface {
	Run(ctx context.Context, prompt string) <-chan agent.Event
}

// Outcome is how a headless turn ended.
type Outcome struct {
	End agent.TurnEnd // the turn's TurnEnd (see Run)
	Err error         // writing the output failed
	// Signal is the signal that interrupted the turn (the second one
	// when Abandoned); nil if none came.
	Signal os.Signal
	// Abandoned is set when a second signal came before the turn ended:
	// RunTurn returned without waiting for it.
	Abandoned bool
}

// SignalName is a signal's conventional name: "SIGTERM", "SIGINT".
func SignalName(s os.Signal) string {
	switch s {
	case syscall.SIGTERM:
		return "SIGTERM"
	case os.Interrupt:
		return "SIGINT"
	}
	return s.String()
}

// RunTurn runs one turn of r with prompt and prints its events until it
// ends. The first signal on sigs (the caller relays SIGINT and SIGTERM)
// cancels the turn, which then ends as interrupted (its stream stopped,
// its commands killed); a second one abandons it at once.
func (p *Printer) RunTurn(r Runner, prompt string, sigs <-chan os.Signal) Outcome {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	type result struct {
		end agent.TurnEnd
		err error
	}
	done := make(chan result, 1)
	events := r.Run(ctx, prompt)
	go func() {
		end, err := p.Run(events)
		done <- result{end, err}
	}()
	var out Outcome
	for {
		select {
		case res := <-done:
			out.End, out.Err = res.end, res.err
			return out
		case s := <-sigs:
			if out.Signal != nil {
				out.Signal, out.Abandoned = s, true
				p.abandon() // the result may be written now, alone
				return out
			}
			out.Signal = s
			cancel(agent.Stopped(SignalName(s))) // the model is told what stopped it
		}
	}
}
