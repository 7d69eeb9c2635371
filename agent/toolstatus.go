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
	line, _ := StatusLine(out)
	if s, ok := strings.CutPrefix(line, "exit status "); ok {
		if n, err := strconv.Atoi(s); err == nil {
			return &n
		}
	}
	if name, ok := strings.CutPrefix(line, "killed by signal: "); ok {
		n := 128 + signalNumber(name)
		return &n
	}
	return nil
}

// StatusLine finds the line of a command's result that gives its exit
// status ("exit status N", "killed by signal: X"): the last such line
// among the result's last four, where tick's notes (the sandbox's, a
// cut) may follow it. fromEnd counts the lines after it (0: it is the
// last). It returns "" when there is none.
func StatusLine(out string) (line string, fromEnd int) {
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	for i := len(lines) - 1; i >= 0 && i >= len(lines)-4; i-- {
		if strings.HasPrefix(lines[i], "exit status ") || strings.HasPrefix(lines[i], "killed by signal: ") {
			return lines[i], len(lines) - 1 - i
		}
	}
	return "", 0
}

// failedCommand reports whether an exit status (ExitCodeOf's) says the
// command failed: it is there and not 0.
func failedCommand(code *int) bool { return code != nil && *code != 0 }
