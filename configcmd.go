package main

import (
	"fmt"
	"io"
)

// runConfigCmd is `tick config` (the effective settings and where each
// came from, keys masked) and `tick config path` (the user file).
func runConfigCmd(cfg config, stdout, stderr io.Writer) int {
	s := cfg.settings
	if cfg.cmd == "config path" {
		if s.UserFile == "" {
			return fail(stderr, &usageError{msg: "no config file: set XDG_CONFIG_HOME or HOME"})
		}
		fmt.Fprintln(stdout, s.UserFile)
		return exitOK
	}
	if err := s.Describe(stdout); err != nil {
		return fail(stderr, err)
	}
	return exitOK
}

// printWarnings writes the config warnings to stderr, for -p and the
// subcommands (the full-screen app shows them as notices).
func printWarnings(cfg config, stderr io.Writer) {
	for _, w := range cfg.settings.Warnings {
		fmt.Fprintf(stderr, "tick: warning: %s\n", w)
	}
}
