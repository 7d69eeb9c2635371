// Command helper is the sandbox helper on its own: `helper __sandbox SPEC
// -- COMMAND...` does what `tick __sandbox ...` does (sandbox.Main), and
// `helper __sandbox-check` prints "ok". It links only agent/sandbox and
// its few dependencies and no cgo, so it starts in a fraction of the time
// tick's whole binary takes. Package helperbin carries its builds; `go
// generate ./agent/sandbox/helperbin/` makes them.
package main

import (
	"fmt"
	"os"

	"github.com/tick-agent/tick/agent/sandbox"
)

func main() {
	switch {
	case len(os.Args) > 1 && os.Args[1] == sandbox.HelperArg:
		os.Exit(sandbox.Main(os.Args[2:]))
	case len(os.Args) == 2 && os.Args[1] == sandbox.HelperArg+"-check":
		fmt.Println("ok")
	default:
		fmt.Fprintln(os.Stderr, "tick's sandbox helper: run by tick only")
		os.Exit(2)
	}
}
