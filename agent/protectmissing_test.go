package agent_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider/providertest"
)

// includedRepo makes the workspace a repository whose config includes
// ../.gitconfig, a file that does not exist (git skips it silently), as a
// mutate step before the sandbox reads the config.
func includedRepo(t *testing.T) func(*agent.Config) {
	return func(c *agent.Config) {
		gitInit(t, c.Workspace)
		if out, err := exec.Command("git", "-C", c.Workspace, "config", "include.path", "../.gitconfig").CombinedOutput(); err != nil {
			t.Fatalf("git config: %v\n%s", err, out)
		}
	}
}

// TestMissingIncludeCreatedHeadless: a sandboxed command (the parent's,
// and a task's in its copy, merged back) creates the missing included
// .gitconfig with a core.fsmonitor: in -p without --yolo it is removed
// before the user's git status can run it, and nothing of it is merged.
// Today the sandbox protects only what exists, so it stays and the user's
// git status runs the command.
func TestMissingIncludeCreatedHeadless(t *testing.T) {
	for _, inTask := range []bool{false, true} {
		name := map[bool]string{false: "parent", true: "task copy"}[inTask]
		t.Run(name, func(t *testing.T) {
			t.Setenv("TMPDIR", t.TempDir())
			h := newHarness(t, func(c *agent.Config) { c.Approval = agent.ApproveNone; c.Headless = true }, includedRepo(t), withSandbox(t))
			h.ag.SetMode(agent.ModeAuto)
			marker := filepath.Join(t.TempDir(), "ran")
			plant := bashCall(t, `printf '[core]\n\tfsmonitor = "touch `+marker+`; false"\n' > .gitconfig`)
			if inTask {
				scriptedTasks(h, calls(taskCall(1, "")), map[string][]func() providertest.Reply{"1": {reply(calls(plant))}})
			} else {
				h.srv.Enqueue(calls(plant), providertest.Reply{Text: "ok"})
			}
			evs := h.run("PARENT: go")
			end(t, evs)
			h.checkValid()
			if userGitStatus(t, h.dir, marker) {
				t.Fatal("the user's git status ran the core.fsmonitor of a .gitconfig a sandboxed command created")
			}
			if _, err := os.Lstat(filepath.Join(h.dir, ".gitconfig")); err == nil {
				t.Error(".gitconfig is in the workspace")
			}
			if !inTask && !hasNotice(evs, "removed git metadata a sandboxed command created: .gitconfig") {
				t.Errorf("no notice of the removal among %+v", evs)
			}
		})
	}
}
