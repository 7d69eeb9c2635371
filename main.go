// Command tick is a terminal coding agent: it plans multi-step work as a
// todo list, keeps the list up to date while it works, and talks to any
// OpenAI-compatible Chat Completions server.
//
// Without -p it opens the full-screen app; with -p PROMPT it runs one turn
// headless, printing the answer on stdout and its progress on stderr. Every
// run is saved as a session as it happens; `tick -c` carries on with the
// latest one and `tick sessions` lists them. Run `tick --help` for the
// flags, the environment and the exit codes.
//
// This file only dispatches: the composition root, the subcommands and the
// flags are in ui/app (see docs/architecture.md).
package main

import (
	"os"

	"github.com/tick-agent/tick/agent/sandbox"
	// A command the model runs (`tick __sandbox ...`) is run from this
	// package's initialiser, before the heavy packages' initialisers.
	_ "github.com/tick-agent/tick/agent/sandbox/entry"
	"github.com/tick-agent/tick/ui/app"
)

func main() {
	sandbox.HardenProcess()
	os.Exit(app.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}
