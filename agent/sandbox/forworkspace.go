package sandbox

// ForWorkspace returns a Runner with r's policy and support for another
// workspace, dir (a subagent's copy of the workspace): commands are
// confined the same way, with dir in the workspace's place. It waits for
// r's support probe. The paths protected besides .git (Policy.Protect,
// what the git config names) are the same, relative to dir: changes made
// in the copy come back to the workspace.
func (r *Runner) ForWorkspace(dir string) *Runner {
	<-r.ready
	p := r.policy
	p.Workspace = dir
	return newRunner(p, r.support, r.gitConf) // the same repository's config, the same relative paths
}
