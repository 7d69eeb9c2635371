package agent_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider/providertest"
)

// TestProtectedPathThroughLinkHeadless: the repository's config includes
// ../sub/inc.gitconfig, whose directory is missing; a sandboxed command
// (the parent's, and a task's in its copy) makes sub a link to a
// directory of the user's outside the workspace that holds an
// inc.gitconfig. The git guard reports the protected path as created; in
// -p the quarantine must not move, then remove, the user's file the link
// makes that path name. Today it does: tick deletes a file outside the
// workspace with the user's rights.
func TestProtectedPathThroughLinkHeadless(t *testing.T) {
	for _, inTask := range []bool{false, true} {
		name := map[bool]string{false: "parent", true: "task copy"}[inTask]
		t.Run(name, func(t *testing.T) {
			t.Setenv("TMPDIR", t.TempDir())
			outside := t.TempDir()
			victim := filepath.Join(outside, "inc.gitconfig")
			if err := os.WriteFile(victim, []byte("[user]\n\tname = me\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			missingInclude := func(c *agent.Config) {
				gitInit(t, c.Workspace)
				if out, err := exec.Command("git", "-C", c.Workspace, "config", "include.path", "../sub/inc.gitconfig").CombinedOutput(); err != nil {
					t.Fatalf("git config: %v\n%s", err, out)
				}
			}
			h := newHarness(t, func(c *agent.Config) { c.Approval = agent.ApproveNone; c.Headless = true }, missingInclude, withSandbox(t))
			h.ag.SetMode(agent.ModeAuto)
			link := bashCall(t, "ln -s "+outside+" sub")
			if inTask {
				scriptedTasks(h, calls(taskCall(1, "")), map[string][]func() providertest.Reply{"1": {reply(calls(link))}})
			} else {
				h.srv.Enqueue(calls(link), providertest.Reply{Text: "ok"})
			}
			evs := h.run("PARENT: go")
			end(t, evs)
			h.checkValid()
			if b, err := os.ReadFile(victim); err != nil || string(b) != "[user]\n\tname = me\n" {
				t.Fatalf("the user's file outside the workspace: %q, %v", b, err)
			}
			if entries, _ := os.ReadDir(outside); len(entries) != 1 {
				t.Errorf("the directory outside the workspace holds %d entries, want only the user's file", len(entries))
			}
			if !inTask && !hasNotice(evs, "could not move aside") {
				t.Errorf("no notice that the created path could not be moved aside among %+v", evs)
			}
		})
	}
}
