package agent

import (
	"strconv"
	"strings"
)

// ExitCodeOf returns the exit status of a saved bash result (its last
// line "exit status N", before any note tick added after it; a command
// killed by a signal counts as 128+N, as a shell reports it), or nil for
// another tool or a result without one. Only a replay reads it back from
// text: the live loop has it from the process (tools.WithExitStatus).
// Output that begins with "Error:" (gh, helm, kubectl print that) keeps
// its status.
func ExitCodeOf(tool, out string) *int {
	if tool != "bash" {
		return nil
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	for i := len(lines) - 1; i >= 0 && i >= len(lines)-4; i-- {
		if s, ok := strings.CutPrefix(lines[i], "exit status "); ok {
			if n, err := strconv.Atoi(s); err == nil {
				return &n
			}
		}
		if name, ok := strings.CutPrefix(lines[i], "killed by signal: "); ok {
			n := 128 + signalNumber(name)
			return &n
		}
	}
	return nil
}

// failedCommand reports whether an exit status (ExitCodeOf's) says the
// command failed: it is there and not 0.
func failedCommand(code *int) bool { return code != nil && *code != 0 }
