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

// StatusLine finds the line of a command's result that gives how it
// ended: the last line among the result's last four that is one of the
// status lines Bash ends a result with ("exit status N", "killed by
// signal: X", "killed: timed out ...", "interrupted by user", "stopped by
// ...", "error: ..."), where tick's notes (the sandbox's, a cut) may
// follow it. The first such line from the end is tick's own: an "exit
// status 0" the command printed above a timeout's line is not taken for
// it. fromEnd counts the lines after it (0: it is the last). It returns
// "" when there is none.
func StatusLine(out string) (line string, fromEnd int) {
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	for i := len(lines) - 1; i >= 0 && i >= len(lines)-4; i-- {
		if isStatusLine(lines[i]) {
			return lines[i], len(lines) - 1 - i
		}
	}
	return "", 0
}

// isStatusLine reports whether l is one of the status lines Bash ends a
// result with.
func isStatusLine(l string) bool {
	for _, p := range [...]string{"exit status ", "killed by signal: ", "killed: ", "interrupted by user", "stopped by ", "error: "} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// commandCutShort reports whether a saved bash result ends with a status
// line that gives no exit status: tick cut the command short (a timeout,
// an interrupt, a stop) or could not wait for it. The live loop counted
// such a call as failed.
func commandCutShort(tool, out string) bool {
	if tool != "bash" {
		return false
	}
	line, _ := StatusLine(out)
	return line != "" && !strings.HasPrefix(line, "exit status ") && !strings.HasPrefix(line, "killed by signal: ")
}

// failedCommand reports whether an exit status (ExitCodeOf's) says the
// command failed: it is there and not 0.
func failedCommand(code *int) bool { return code != nil && *code != 0 }
