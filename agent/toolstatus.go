package agent

import (
	"path/filepath"
	"regexp"
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

// quotedPath finds the paths an error line names: 'x', "x", `x', or a
// path before ": Read-only file system" / ": Permission denied".
var quotedPath = regexp.MustCompile("['\"`]((?:/|\\./|\\.\\./)?[^'\"`\\s]+)['\"]|([^\\s:'\"]+): (?:Read-only file system|Permission denied)")

// deniedPaths returns the paths named on the lines of res that report a
// read-only file system or a denied permission.
func deniedPaths(res string) []string {
	var paths []string
	for _, line := range strings.Split(res, "\n") {
		if !strings.Contains(line, "Read-only file system") && !strings.Contains(line, "ermission denied") {
			continue
		}
		for _, m := range quotedPath.FindAllStringSubmatch(line, -1) {
			p := m[1]
			if p == "" {
				p = m[2]
			}
			paths = append(paths, p)
		}
	}
	return paths
}

// notTheSandbox reports whether a bash result that looks blocked failed
// on paths that tick cannot write either: a workspace or file the user
// mounted read-only, a file without write permission. The sandbox is not
// to blame for those. Relative paths are taken from dir. writable says
// whether tick may write a path (writableOutside outside tests).
func notTheSandbox(res, dir string, writable func(string) bool) bool {
	paths := deniedPaths(res)
	if len(paths) == 0 || strings.Contains(res, "etwork is unreachable") || strings.Contains(res, "ad system call") {
		return false
	}
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if writable(p) {
			return false
		}
	}
	return true
}
