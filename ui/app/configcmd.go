package app

import (
	"fmt"
	"io"

	tea "charm.land/bubbletea/v2"
	tickcfg "github.com/tick-agent/tick/agent/config"
	"github.com/tick-agent/tick/agent/instructions"
	"github.com/tick-agent/tick/ui"
	"github.com/tick-agent/tick/ui/termsafe"
)

// runConfigCmd is `tick config` (the effective settings and where each
// came from, keys masked) and `tick config path` (the user file).
func runConfigCmd(cfg config, stdout, stderr io.Writer) int {
	s := cfg.Settings
	if cfg.Cmd == "config path" {
		if s.UserFile == "" {
			return fail(stderr, &usageError{Msg: "no config file: set XDG_CONFIG_HOME or HOME"})
		}
		fmt.Fprintln(stdout, s.UserFile)
		return ExitOK
	}
	if err := s.Describe(stdout); err != nil {
		return fail(stderr, err)
	}
	return ExitOK
}

// printWarnings writes the config warnings and the start-up notices to
// stderr, for -p and the subcommands (the full-screen app shows them as
// notices).
func printWarnings(cfg config, stderr io.Writer) {
	for _, w := range append(cfg.Settings.Warnings, cfg.notices...) {
		fmt.Fprintf(stderr, "tick: warning: %s\n", termsafe.Text(w)) // may quote a repository's files
	}
}

// loadInstructions reads the project instructions (AGENTS.md files) into
// cfg; instructionsLine names them (after the welcome line in the
// full-screen app, with --verbose for -p), and files it could not read
// become notices.
func loadInstructions(cfg *config, env func(string) string) {
	set, err := instructions.Load(cfg.Workspace, tickcfg.UserDir(env))
	if err != nil {
		cfg.notices = append(cfg.notices, "some project instructions were not loaded: "+err.Error())
	}
	cfg.instructions = set
	if len(set.Files) > 0 {
		cfg.instructionsLine = "project instructions: " + set.Summary(cfg.Workspace, env("HOME"))
	}
}

// initPrompt is what /init sends: the model writes AGENTS.md through the
// normal tools (and approvals).
const initPrompt = `Write an AGENTS.md file at the root of this workspace for coding agents that work on this project. Look around first (the README, the build files, the CI configuration, the layout of the source) and then write down, briefly and concretely: how to build it, how to run the tests (all of them and a single one), how the code is laid out, and the conventions to follow (style, naming, error handling, commits). If an AGENTS.md exists already, improve it instead of starting over and keep what is still true.`

// initCommand is /init.
func initCommand() tea.Cmd {
	return func() tea.Msg { return ui.SendMsg{Text: initPrompt} }
}
