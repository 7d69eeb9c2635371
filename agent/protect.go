package agent

// protectedWrite reports whether the workspace-relative path rel is one
// the sandbox makes read-only besides .git (sandbox.Runner.Protects:
// tick's .tick, what the repository's git config names in the workspace,
// the files trusted hooks and MCP servers run): the file tools' write
// there asks for that very write, as one into .git does, since the
// user's git or tick runs what it holds outside the sandbox.
func (l *loop) protectedWrite(rel string) bool {
	r := l.runner()
	return r != nil && r.Protects(rel)
}
