package sandbox

// ForWorkspace returns a Runner with r's policy and support for another
// workspace, dir (a subagent's copy of the workspace): commands are
// confined the same way, with dir in the workspace's place. It waits for
// r's support probe.
func (r *Runner) ForWorkspace(dir string) *Runner {
	<-r.ready
	p := r.policy
	p.Workspace = dir
	return NewRunner(p, r.support)
}
