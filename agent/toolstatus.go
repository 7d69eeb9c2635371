package agent

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/tick-agent/tick/agent/sandbox"
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
// path before ": Read-only file system" / ": Permission denied" /
// ": Operation not permitted" (any case, as Go and C tools print them).
var quotedPath = regexp.MustCompile("['\"`]((?:/|\\./|\\.\\./)?[^'\"`\\s]+)['\"]|([^\\s:'\"]+): (?i:read-only file system|permission denied|operation not permitted)")

// deniedLine reports whether an output line reports a denied write or
// open: a read-only file system, a denied permission or operation.
func deniedLine(line string) bool {
	l := strings.ToLower(line)
	return strings.Contains(l, "read-only file system") || strings.Contains(l, "permission denied") || strings.Contains(l, "operation not permitted")
}

// deniedPaths returns the paths named on the lines of res that report a
// read-only file system or a denied permission.
func deniedPaths(res string) []string {
	var paths []string
	for _, line := range strings.Split(res, "\n") {
		if !deniedLine(line) {
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

// netSigns are what a command prints when a connection or a name lookup
// fails for want of a network: in a sandbox (no network, or loopback
// only), they are the sandbox's doing.
var netSigns = [...]string{"network is unreachable", "could not resolve host", "temporary failure in name resolution"}

// blame is what the evidence in a failed command's result says of the
// sandbox: blamed (it refused what the command needed), notSandbox (the
// command failed on a path outside the policy that tick cannot write
// either: a read-only mount, a file without write permission), or
// neither (the failure has nothing to do with it).
type blame int

const (
	blameNone blame = iota
	blameSandbox
	blameNotSandbox
)

// sandboxBlame weighs a bash result against the policy its command ran
// under. Only evidence counts, never words alone: the command failed,
// and the sandbox's seccomp filter killed it, or it reported a failed
// connection (the sandbox allows loopback at most), or a denied write or open of a
// path (named in the output, relative ones taken from dir) that p does
// not allow. writable says whether tick itself may write a path
// (writableOutside outside tests).
func sandboxBlame(res, dir string, p sandbox.Policy, writable func(string) bool) blame {
	status := res[strings.LastIndexByte(res, '\n')+1:]
	if strings.HasPrefix(status, "killed by signal: bad system call") {
		return blameSandbox
	}
	if !strings.HasPrefix(status, "exit status ") || status == "exit status 0" {
		return blameNone
	}
	low := strings.ToLower(res)
	for _, s := range netSigns {
		if strings.Contains(low, s) && p.Mode != sandbox.FullAccess { // loopback at most
			return blameSandbox
		}
	}
	verdict := blameNone
	for _, path := range deniedPaths(res) {
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		if p.AllowsWrite(path) {
			continue // the sandbox lets it through: something else refused it
		}
		if writable(path) {
			return blameSandbox
		}
		verdict = blameNotSandbox
	}
	return verdict
}
