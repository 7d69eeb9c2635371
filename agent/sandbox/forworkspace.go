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

// Close releases what the runner's watch of git metadata holds of the
// kernel (see GitMeta.Close): call it when no more commands run through
// it (a task's runner, once the task ended), so that its watches do not
// count against the user's until it is garbage; and it ends the runner's
// spare helper. The runner stays usable: its commands each start a helper
// of their own.
func (r *Runner) Close() {
	r.dropSpare()
	r.git.Close()
}
