// Package entry runs a tick process started as the sandbox helper
// (`tick __sandbox SPEC -- COMMAND...`, see sandbox.Main) from its package
// initialiser, and exits: a command the model runs then costs only the
// initialisers of the few packages this one needs, not those of the whole
// program (the Markdown renderer's lexer and style registries, the HTML
// sanitiser, ...), which cost tens of milliseconds per command.
//
// It works by Go's order of package initialisation (the language
// specification, "Package initialization", since Go 1.21): packages are
// initialised in the order of their import paths, each as soon as the
// packages it imports are; this package imports only the standard library,
// golang.org/x/sys and agent/sandbox, none of which imports regexp, so it
// runs before any package that does (every heavy one of tick's does). A
// test in ui/app/e2e checks on the built binary that no such package is
// initialised in a helper run (GODEBUG=inittrace=1).
//
// tick runs commands through the smaller helper of package helperbin
// where it can; this is the fallback where that cannot run (no image for
// the architecture, memory files not executable), and what `tick
// __sandbox` does when run by hand. main imports it for its effect only;
// in any other run its initialiser does nothing. Keep its imports, and
// agent/sandbox's, this small.
package entry

import (
	"os"

	"github.com/tick-agent/tick/agent/sandbox"
)

func init() {
	if len(os.Args) > 1 && os.Args[1] == sandbox.HelperArg {
		os.Exit(sandbox.Main(os.Args[2:]))
	}
}
