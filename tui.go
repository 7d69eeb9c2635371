package main

import (
	"context"
	"errors"
	"io"
	"os"
	"os/signal"
	"syscall"

	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/ui"
)

// runTUI opens the full-screen app on the terminal until the user quits.
// It needs a terminal on stdin and stdout. The background colour is asked
// of the terminal before the program starts (the styles are chosen once).
// SIGHUP (the terminal went away) ends the app like a quit, so the running
// turn is stopped and its commands killed; ctrl+c is a key inside the app,
// and a SIGINT from outside exits 130.
func runTUI(cfg config, ag *agent.Agent, stdin io.Reader, stdout, stderr io.Writer) int {
	in, inOK := stdin.(*os.File)
	out, outOK := stdout.(*os.File)
	if !inOK || !outOK || !isTerminal(in) || !isTerminal(out) {
		return fail(stderr, usagef("the full-screen app needs a terminal; use -p PROMPT to run headless"))
	}
	dark := detectDark(cfg.colorFGBG, bgQueryTimeout)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGHUP)
	defer stop()
	err := ui.Run(ctx, ui.Config{
		Agent:     ag,
		Model:     cfg.model,
		Workspace: cfg.workspace,
		Yolo:      cfg.yolo,
		Dark:      dark,
		Version:   version,
	}, tea.WithInput(in), tea.WithOutput(out))
	switch {
	case errors.Is(err, tea.ErrInterrupted):
		return exitInterrupted
	case err != nil:
		return fail(stderr, err)
	}
	return exitOK
}
