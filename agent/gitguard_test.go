package agent_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider/providertest"
)

// plantings are the ways a sandboxed command plants git metadata whose
// config runs a command (core.fsmonitor) when the user later runs git
// status in dir: MARKER stands for the marker file's path.
var plantings = []struct {
	name, script, dir, entry string
}{
	{"submodule gitfile", `mkdir -p sub && git init -q sub && mv sub/.git sub/.evilgit && printf 'gitdir: .evilgit\n' > sub/.git && git --git-dir=sub/.evilgit config core.fsmonitor 'touch MARKER'`, "sub", "sub/.git"},
	{"git init without a repository", `git init -q && git config core.fsmonitor 'touch MARKER'`, ".", ".git"},
	{"repository in a new directory", `mkdir -p new/deeper && git init -q new/deeper && git -C new/deeper config core.fsmonitor 'touch MARKER'`, "new/deeper", "new/deeper/.git"},
}

// bashCall is a bash call running script.
func bashCall(t *testing.T, script string) providertest.Call {
	t.Helper()
	b, err := json.Marshal(map[string]string{"command": script})
	if err != nil {
		t.Fatal(err)
	}
	return call("bash", string(b))
}

// userGitStatus runs the user's own git status in dir, outside any
// sandbox, and reports whether the planted command ran (marker exists).
func userGitStatus(t *testing.T, dir, marker string) bool {
	t.Helper()
	cmd := exec.Command("git", "status")
	cmd.Dir = dir
	_ = cmd.Run() // a repository moved aside makes it fail: fine
	_, err := os.Stat(marker)
	return err == nil
}

// TestPlantedGitMetaHeadless: in -p, git metadata a sandboxed command
// created is removed before the user's git can trust it; the run says so
// in a notice and the model in one line.
func TestPlantedGitMetaHeadless(t *testing.T) {
	for _, p := range plantings {
		t.Run(p.name, func(t *testing.T) {
			h := newHarness(t, func(c *agent.Config) { c.Approval = agent.ApproveNone; c.Headless = true }, withSandbox(t))
			h.ag.SetMode(agent.ModeAuto)
			marker := filepath.Join(t.TempDir(), "ran")
			h.srv.Enqueue(calls(bashCall(t, strings.ReplaceAll(p.script, "MARKER", marker))), providertest.Reply{Text: "ok"})
			evs := h.run("go")
			if userGitStatus(t, filepath.Join(h.dir, p.dir), marker) {
				t.Errorf("the user's git status ran the command the sandboxed command planted")
			}
			ends := toolEnds(evs)
			if len(ends) != 1 || !strings.Contains(ends[0].Output, "tick removed the git metadata this command created ("+p.entry+")") {
				t.Errorf("tool results %+v: want the removal told to the model", ends)
			}
			if !hasNotice(evs, "removed git metadata a sandboxed command created: "+p.entry) {
				t.Errorf("no notice of the removal among %+v", evs)
			}
			if _, err := os.Lstat(filepath.Join(h.dir, p.entry)); err == nil {
				t.Errorf("%s is still there", p.entry)
			}
		})
	}
}

// TestPlantedGitMetaAsks: in the TUI the user is asked once per command
// whether to keep the git metadata it created (a git init the user asked
// for): yes puts it back, no removes it.
func TestPlantedGitMetaAsks(t *testing.T) {
	p := plantings[1]
	for _, keep := range []bool{true, false} {
		t.Run(map[bool]string{true: "keep", false: "remove"}[keep], func(t *testing.T) {
			h := newHarness(t, func(c *agent.Config) { c.Approval = agent.ApproveAsk }, withSandbox(t))
			h.ag.SetMode(agent.ModeAuto)
			marker := filepath.Join(t.TempDir(), "ran")
			h.srv.Enqueue(calls(bashCall(t, strings.ReplaceAll(p.script, "MARKER", marker)+` && git init -q other`)), providertest.Reply{Text: "ok"})
			var seen []string
			reqs, ends := turn(t, h, func(r agent.ApprovalRequest) agent.Approval {
				for _, e := range []string{".git", "other/.git"} {
					if _, err := os.Lstat(filepath.Join(h.dir, e)); err == nil {
						seen = append(seen, e) // not moved aside while the user is asked
					}
				}
				return agent.Approval{Allow: keep}
			})
			if len(reqs) != 1 || !reqs[0].Once || reqs[0].Question == "" || !strings.Contains(reqs[0].Summary, ".git, other/.git") {
				t.Fatalf("requests %+v: want one, for this call only, naming both entries", reqs)
			}
			if len(seen) > 0 {
				t.Errorf("%v were in place while the user was asked", seen)
			}
			want := map[bool]string{true: "was kept with the user's approval", false: "tick removed the git metadata"}[keep]
			if len(ends) != 1 || !strings.Contains(ends[0].Output, want) {
				t.Errorf("tool results %+v: want %q", ends, want)
			}
			for _, e := range []string{".git", "other/.git"} {
				if _, err := os.Lstat(filepath.Join(h.dir, e)); (err == nil) != keep {
					t.Errorf("%s exists: %v, want %v", e, err == nil, keep)
				}
			}
			if ents, _ := filepath.Glob(filepath.Join(h.dir, "*quarantined*")); len(ents) > 0 {
				t.Errorf("left behind: %v", ents)
			}
			if !keep && userGitStatus(t, h.dir, marker) {
				t.Errorf("the user's git status ran the planted command after the user said no")
			}
			// Kept once, it is the user's: the next command is not asked about it.
			h.srv.Enqueue(calls(bashCall(t, `echo more > file`)), providertest.Reply{Text: "ok"})
			if reqs, _ := turn(t, h, nil); len(reqs) != 0 {
				t.Errorf("asked again: %+v", reqs)
			}
		})
	}
}

// hasNotice reports whether a Notice among evs contains s.
func hasNotice(evs []agent.Event, s string) bool {
	for _, ev := range evs {
		if n, ok := ev.(agent.Notice); ok && strings.Contains(n.Text, s) {
			return true
		}
	}
	return false
}
