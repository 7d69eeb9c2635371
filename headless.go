package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/charmbracelet/x/term"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/session"
	"github.com/tick-agent/tick/ui/app"
	"github.com/tick-agent/tick/ui/printer"
	"github.com/tick-agent/tick/ui/termsafe"
)

// maxStdinPrompt caps a prompt read from stdin (-p -).
const maxStdinPrompt = 10 << 20

// runHeadless runs one turn with the -p prompt and prints it. The first
// SIGINT or SIGTERM interrupts the turn (the stream stops, running commands
// are killed) and tick exits 130 or 143 once the turn has ended; a second
// one exits at once. ld, when not nil, is the resumed session (already
// restored into ag): a line about it and its todo list go to stderr first.
// rec is the session being saved (may be nil); --verbose names it at the
// end.
func runHeadless(cfg config, ag *agent.Agent, rec *session.Recorder, ld *session.Loaded, stdin io.Reader, stdout, stderr io.Writer) int {
	prompt, err := readPrompt(cfg.prompt, stdin)
	if err != nil {
		return fail(stderr, err)
	}
	if cfg.ext != nil {
		for _, n := range cfg.ext.notices {
			fmt.Fprintf(stderr, "tick: %s\n", termsafe.Text(n))
		}
	}
	if ld != nil {
		fmt.Fprintf(stderr, "tick: %s\n", app.ResumedLine(ld))
		if !ld.Todos.Empty() {
			fmt.Fprintf(stderr, "%s\n", termsafe.Text(ld.Todos.Render())) // written by the model
		}
	}
	if cfg.verbose && rec != nil {
		defer func() {
			if id := rec.ID(); id != "" {
				fmt.Fprintf(stderr, "tick: session %s saved; carry on with tick -c or tick --resume %s\n", id, id)
			}
		}()
	}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	pr := printer.New(stdout, stderr, printer.Options{
		JSON:    cfg.json,
		Verbose: cfg.verbose,
		Color:   !cfg.noColor && isTerminal(stderr),
	})
	out := pr.RunTurn(ag, prompt, sigs)
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
		fmt.Fprintf(stderr, "tick: %s\n", msg)
		return exitError
	case werr != nil:
		fmt.Fprintf(stderr, "tick: %v\n", werr)
		return exitError
	}
	return exitOK
}

// signalExit returns the exit code for a signal: 143 for SIGTERM, else 130.
func signalExit(sig os.Signal) int {
	if sig == syscall.SIGTERM {
		return exitTerminated
	}
	return exitInterrupted
}

// readPrompt returns the -p prompt, reading stdin when it is "-".
func readPrompt(p string, stdin io.Reader) (string, error) {
	if p != "-" {
		return p, nil
	}
	b, err := io.ReadAll(io.LimitReader(stdin, maxStdinPrompt+1))
	if err != nil {
		return "", fmt.Errorf("read the prompt from stdin: %w", err)
	}
	if len(b) > maxStdinPrompt {
		return "", usagef("the prompt on stdin is larger than %d MiB", maxStdinPrompt>>20)
	}
	if strings.TrimSpace(string(b)) == "" {
		return "", usagef("-p - read an empty prompt from stdin")
	}
	return string(b), nil
}

// isTerminal reports whether w is a terminal.
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}
