package agent

import "github.com/tick-agent/tick/agent/sandbox"

// protectedWrite reports whether the workspace-relative path rel is one
// the sandbox makes read-only: git metadata, of the workspace or of a
// repository nested in it (sandbox.InGitMeta, the sandbox's own
// predicate), or a path besides (sandbox.Runner.Protects: tick's .tick,
// what the repository's git config names in the workspace, the files
// trusted hooks and MCP servers run). The file tools' write there asks
// for that very write, since the user's git or tick runs what it holds
// outside the sandbox.
func (l *loop) protectedWrite(rel string) bool {
	if sandbox.InGitMeta(rel) {
		return true
	}
	r := l.runner()
	return r != nil && r.Protects(rel)
}
