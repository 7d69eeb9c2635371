package app

import (
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/session"
	"github.com/tick-agent/tick/ui/printer"
	"github.com/tick-agent/tick/ui/termsafe"
)

// Exit codes of a run (Main's and RunHeadless's).
const (
	ExitOK          = 0   // the turn finished (or --help, --version)
	ExitError       = 1   // the turn or tick failed
	ExitUsage       = 2   // bad flags or configuration
	ExitInterrupted = 130 // SIGINT (128+2)
	ExitTerminated  = 143 // SIGTERM (128+15)
)

// Headless is one -p run: the prompt, how to print it, and what to say
// on stderr before it.
type Headless struct {
	Prompt  string
	Printer printer.Options
	// Notices go to stderr first, one "tick: " line each (made safe for
	// the terminal).
	Notices []string
	// Loaded, when not nil, is the resumed session (already restored into
	// the agent): a line about it and its todo list go to stderr first.
	Loaded *session.Loaded
	// Recorder is the session being saved (may be nil); with
	// Printer.Verbose its id is named at the end.
	Recorder *session.Recorder
}

// RunHeadless runs one turn of ag with h.Prompt, prints it on stdout and
// stderr, and returns the exit code. The caller relays SIGINT and SIGTERM
// on sigs: the first interrupts the turn (the stream stops, running
// commands are killed) and the run exits ExitInterrupted or
// ExitTerminated once the turn has ended; a second one returns at once.
func RunHeadless(h Headless, ag *agent.Agent, sigs <-chan os.Signal, stdout, stderr io.Writer) int {
	for _, n := range h.Notices {
		fmt.Fprintf(stderr, "tick: %s\n", termsafe.Text(n))
	}
	if ld := h.Loaded; ld != nil {
		fmt.Fprintf(stderr, "tick: %s\n", ResumedLine(ld))
		if !ld.Todos.Empty() {
			fmt.Fprintf(stderr, "%s\n", termsafe.Text(ld.Todos.Render())) // written by the model
		}
	}
	if rec := h.Recorder; h.Printer.Verbose && rec != nil {
		defer func() {
			if id := rec.ID(); id != "" {
				fmt.Fprintf(stderr, "tick: session %s saved; carry on with tick -c or tick --resume %s\n", id, id)
			}
		}()
	}
	out := printer.New(stdout, stderr, h.Printer).RunTurn(ag, h.Prompt, sigs)
	if out.Abandoned {
		fmt.Fprintln(stderr, "tick: interrupted again; exiting without waiting for the turn to end")
		return signalExit(out.Signal)
	}
	return headlessExit(out.End, out.Err, out.Signal, stderr)
}

// headlessExit reports how the turn ended and returns the exit code.
func headlessExit(end agent.TurnEnd, werr error, sig os.Signal, stderr io.Writer) int {
	switch {
	case sig != nil || end.Reason == agent.ReasonInterrupted:
		fmt.Fprintln(stderr, "tick: interrupted")
		return signalExit(sig)
	case end.Reason == agent.ReasonError:
		msg := end.Error
		if msg == "" && end.Err != nil {
			msg = end.Err.Error()
		}
		fmt.Fprintf(stderr, "tick: %s\n", indentLines(msg))
		return ExitError
	case werr != nil:
		fmt.Fprintf(stderr, "tick: %v\n", werr)
		return ExitError
	}
	return ExitOK
}

// indentLines returns msg (an error's text, which may quote a server)
// with every line after the first indented under it, so that it cannot
// pass for a line of tick's own.
func indentLines(msg string) string {
	msg = strings.TrimRight(strings.ReplaceAll(msg, "\r", ""), "\n")
	return strings.ReplaceAll(msg, "\n", "\n    ")
}

// signalExit returns the exit code for a signal: ExitTerminated for
// SIGTERM, else ExitInterrupted.
func signalExit(sig os.Signal) int {
	if sig == syscall.SIGTERM {
		return ExitTerminated
	}
	return ExitInterrupted
}
