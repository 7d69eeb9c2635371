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
	ExitOK          = 0   // the turn finished its work (or --help, --version)
	ExitError       = 1   // the turn or tick failed (see exitcode.go for the others)
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
	// Recorder is the session being saved (may be nil): its id is named
	// on stderr before the turn and in the result.
	Recorder *session.Recorder
	// Model and Workspace are named in stream-json's first event, with
	// what Start says of the sandbox (RunHeadless adds the rest).
	Model, Workspace string
	Start            printer.Start
}

// RunHeadless runs one turn of ag with h.Prompt, prints it on stdout and
// stderr, and returns the exit code (see classify: ExitOK only when the
// work was done). The caller relays SIGINT and SIGTERM on sigs: the first
// interrupts the turn (the stream stops, running commands are killed) and
// the run exits ExitInterrupted or ExitTerminated once the turn has
// ended; a second one returns at once (once a task's patch being applied
// is rolled back or finished, said on stderr). The result (--output-format json,
// stream-json's last event) carries the exit code and its reason.
func RunHeadless(h Headless, ag *agent.Agent, sigs <-chan os.Signal, stdout, stderr io.Writer) int {
	for _, n := range h.Notices {
		fmt.Fprintf(stderr, "tick: %s\n", termsafe.Text(n))
	}
	if ld := h.Loaded; ld != nil {
		fmt.Fprintf(stderr, "tick: %s\n", ResumedLine(ld))
		for _, n := range TaskCopyNotes(ld.Info.ID) {
			fmt.Fprintf(stderr, "tick: %s\n", termsafe.Text(n))
		}
		if !ld.Todos.Empty() {
			fmt.Fprintf(stderr, "%s\n", termsafe.Text(ld.Todos.Render())) // written by the model
		}
	}
	p := printer.New(stdout, stderr, h.Printer)
	id := sessionID(h, stderr)
	st := h.Start
	st.SessionID, st.Model, st.Workspace, st.Version, st.Tools = id, h.Model, h.Workspace, Version, ag.ToolNames()
	p.Begin(st)
	if h.Loaded != nil {
		p.SetList(ag.Todos()) // the restored plan, as undo left it
	}
	var before map[string]fileState
	if h.Workspace != "" && printer.WantsJSON(h.Printer.JSON, h.Printer.Format) {
		before = workspaceFiles(h.Workspace)
	}
	out := p.RunTurn(ag, h.Prompt, sigs)
	if out.Abandoned {
		if line := ag.StopMerges(); line != "" { // a task's patch is all or nothing
			fmt.Fprint(stderr, exitLine(line))
		}
	}
	res := p.Result()
	if before != nil && !out.Abandoned {
		res.FilesChanged = filesChanged(before, workspaceFiles(h.Workspace))
	}
	code, reason, msg := classify(out.End, res, out.Signal)
	if out.Abandoned {
		msg = "interrupted again; exiting without waiting for the turn to end"
	}
	if out.Err != nil && code == ExitOK {
		code, reason, msg = ExitError, ReasonError, out.Err.Error()
	}
	res.ExitCode, res.ExitReason, res.Message, res.IsError = code, reason, msg, code != ExitOK
	if msg != "" {
		fmt.Fprint(stderr, exitLine(msg))
	}
	if err := p.Finish(res); err != nil && code == ExitOK {
		fmt.Fprintf(stderr, "tick: write the result: %v\n", err)
		return ExitError
	}
	return code
}

// sessionID returns the id of the session the run saves (creating its
// file now) and names it on stderr; "" when nothing is saved.
func sessionID(h Headless, stderr io.Writer) string {
	if h.Recorder == nil {
		return ""
	}
	id, err := h.Recorder.Begin()
	if err != nil {
		fmt.Fprintf(stderr, "tick: %s\n", termsafe.Text(err.Error()))
	}
	if id != "" {
		fmt.Fprintf(stderr, "tick: session %s · carry on with tick --resume %s\n", id, id)
	}
	return id
}

// exitLine is a "tick: " line on stderr about how a run ended: why it did
// not do its work, how a task's patch being applied went (StopMerges).
// Its text may quote the model (open items) or a server: it is made safe
// for the terminal, and its later lines indented.
func exitLine(msg string) string { return "tick: " + indentLines(termsafe.Text(msg)) + "\n" }

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
