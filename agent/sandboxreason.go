package agent

import (
	"path/filepath"
	"regexp"
	"strings"

	"github.com/tick-agent/tick/agent/sandbox"
)

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
// under (p.Workspace is the command's directory), and for blameSandbox
// also says what the sandbox refused, from the same evidence. Only
// evidence counts, never words alone: the command failed, and the
// sandbox's seccomp filter killed it, or it reported a failed connection
// (the sandbox allows loopback at most), or a denied write or open of a
// path (named in the output, relative ones taken from p.Workspace) that p
// does not allow. writable says whether tick itself may write a path
// (writableOutside outside tests).
func sandboxBlame(res string, p sandbox.Policy, writable func(string) bool) (blame, string) {
	status := res[strings.LastIndexByte(res, '\n')+1:]
	if strings.HasPrefix(status, "killed by signal: bad system call") {
		return blameSandbox, "the sandbox refused a system call (" + p.Describe() + ")"
	}
	if !strings.HasPrefix(status, "exit status ") || status == "exit status 0" {
		return blameNone, ""
	}
	low := strings.ToLower(res)
	for _, s := range netSigns {
		if strings.Contains(low, s) && p.Mode != sandbox.FullAccess { // loopback at most
			return blameSandbox, "the sandbox refused network access (" + p.Describe() + ")"
		}
	}
	verdict := blameNone
	for _, path := range deniedPaths(res) {
		if !filepath.IsAbs(path) {
			path = filepath.Join(p.Workspace, path)
		}
		if p.AllowsWrite(path) {
			continue // the sandbox lets it through: something else refused it
		}
		if writable(path) {
			return blameSandbox, refusedWrite(filepath.Clean(path), p)
		}
		verdict = blameNotSandbox
	}
	return verdict, ""
}

// refusedWrite says, for the model and the user, why p refused a write to
// path (absolute, clean): it writes nowhere, or only inside the
// workspace, or .git stays read-only. It never blames the sandbox in a
// fixed phrase: a path refused for another reason (git metadata a .git
// file points to) gets "may have refused it".
func refusedWrite(path string, p sandbox.Policy) string {
	desc := p.Describe()
	shown := firstLineOf(path)
	if len(shown) > 200 {
		shown = shown[:200] + "…"
	}
	rel, err := filepath.Rel(p.Workspace, path)
	inside := err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
	switch {
	case p.Mode == sandbox.ReadOnly:
		return "the sandbox refused a write to " + shown + " (" + desc + ": it writes nowhere)"
	case !inside:
		return "the sandbox refused a write outside the workspace, to " + shown + " (" + desc + ": it writes only inside the workspace)"
	case sandbox.InGitMeta(filepath.ToSlash(rel)):
		return "the sandbox refused a write into .git, to " + shown + " (" + desc + ": .git stays read-only)"
	}
	return "the sandbox may have refused it (" + desc + ")"
}
