package agent_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/permission"
	"github.com/tick-agent/tick/agent/sandbox"
	"github.com/tick-agent/tick/provider/providertest"
)

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == sandbox.HelperArg {
		os.Exit(sandbox.Main(os.Args[2:])) // the test binary is the sandbox helper
	}
	os.Exit(m.Run())
}

// withSandbox gives the harness's bash the workspace-write sandbox, with
// this test binary as the helper.
func withSandbox(t *testing.T) func(*agent.Config) {
	return func(cfg *agent.Config) {
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		p := sandbox.Policy{Mode: sandbox.WorkspaceWrite, Workspace: cfg.Workspace, TempDir: t.TempDir()}
		cfg.ToolOptions.Sandbox = sandbox.NewRunner(p, sandbox.Probe(exe, p))
		if !cfg.ToolOptions.Sandbox.Confined("") {
			t.Fatalf("the sandbox does not work here:\n%s", cfg.ToolOptions.Sandbox.Support().Report(cfg.ToolOptions.Sandbox.Policy()))
		}
	}
}

// outsideDir makes a directory under the user's home, outside the
// workspace and outside the temporary directories the sandbox hides, so
// that a write into it is one the sandbox refuses; it is removed when t
// ends. Its name starts with prefix.
func outsideDir(t *testing.T, prefix string) string {
	t.Helper()
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp(home, prefix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// turn runs one turn, answering every approval request with answer (nil:
// fail the test if one comes), and returns the requests and the tool ends.
func turn(t *testing.T, h *harness, answer func(agent.ApprovalRequest) agent.Approval) ([]agent.ApprovalRequest, []agent.ToolEnd) {
	t.Helper()
	var reqs []agent.ApprovalRequest
	var evs []agent.Event
	for ev := range h.ag.Run(context.Background(), "go") {
		evs = append(evs, ev)
		if r, ok := ev.(agent.ApprovalRequest); ok {
			reqs = append(reqs, r)
			if answer == nil {
				t.Errorf("unexpected approval request %+v", r)
				r.Reply <- agent.Approval{}
				continue
			}
			r.Reply <- answer(r)
		}
	}
	end(t, evs)
	return reqs, toolEnds(evs)
}

func allowOnce(agent.ApprovalRequest) agent.Approval { return agent.Approval{Allow: true} }
func allowAlways(agent.ApprovalRequest) agent.Approval {
	return agent.Approval{Allow: true, Always: true}
}

// TestModes: auto runs sandboxed commands and edits inside the workspace
// without asking; ask asks for each; without a sandbox auto asks for
// every command.
func TestModes(t *testing.T) {
	script := func(h *harness) {
		h.srv.Enqueue(
			calls(call("bash", `{"command":"echo hi > a.txt"}`)),
			calls(call("write_file", `{"path":"b.txt","content":"b"}`)),
			providertest.Reply{Text: "ok"})
	}
	for _, tt := range []struct {
		name    string
		sandbox bool
		mode    agent.Mode
		asks    []string
	}{
		{"auto with sandbox", true, agent.ModeAuto, nil},
		{"ask with sandbox", true, agent.ModeAsk, []string{"bash", "write_file"}},
		{"auto without sandbox", false, agent.ModeAuto, []string{"bash"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			mut := []func(*agent.Config){func(c *agent.Config) { c.Approval = agent.ApproveAsk }}
			if tt.sandbox {
				mut = append(mut, withSandbox(t))
			}
			h := newHarness(t, mut...)
			h.ag.SetMode(tt.mode)
			script(h)
			reqs, ends := turn(t, h, allowOnce)
			var asked []string
			for _, r := range reqs {
				asked = append(asked, r.Tool)
			}
			if strings.Join(asked, ",") != strings.Join(tt.asks, ",") {
				t.Errorf("asked for %v, want %v", asked, tt.asks)
			}
			for _, e := range ends {
				if e.IsError {
					t.Errorf("%s failed: %s", e.Name, e.Output)
				}
			}
			for _, f := range []string{"a.txt", "b.txt"} {
				if _, err := os.Stat(filepath.Join(h.dir, f)); err != nil {
					t.Errorf("%s was not made: %v", f, err)
				}
			}
		})
	}
}

// TestHeadlessRunsSandboxed: -p without --yolo runs sandboxed commands and
// refuses, naming the flag, what would need an approval.
func TestHeadlessRunsSandboxed(t *testing.T) {
	h := newHarness(t, func(c *agent.Config) { c.Approval = agent.ApproveNone; c.Headless = true }, withSandbox(t))
	h.srv.Enqueue(
		calls(call("bash", `{"command":"echo ran > ran.txt"}`)),
		calls(call("bash", `{"command":"echo x > outside.txt","timeout":5}`)),
		providertest.Reply{Text: "ok"})
	h.ag.SetMode(agent.ModeAuto)
	_, ends := turn(t, h, nil)
	if ends[0].IsError {
		t.Errorf("the sandboxed command was refused: %s", ends[0].Output)
	}
	h2 := newHarness(t, func(c *agent.Config) { c.Approval = agent.ApproveNone; c.Headless = true }, withSandbox(t))
	h2.ag.SetMode(agent.ModeAsk)
	h2.srv.Enqueue(calls(call("bash", `{"command":"echo ran > ran.txt"}`)), providertest.Reply{Text: "ok"})
	_, ends = turn(t, h2, nil)
	if !ends[0].IsError || !strings.Contains(ends[0].Output, "--yolo") {
		t.Errorf("ask mode in -p: result %q, want a refusal naming --yolo", ends[0].Output)
	}
}

// TestGitWritesAskEveryTime: a write into .git asks for that very write,
// whatever was allowed for the session, in auto mode and with --yolo; in
// -p it is refused.
func TestGitWritesAskEveryTime(t *testing.T) {
	for _, tt := range []struct {
		name     string
		approval agent.ApprovalMode
		headless bool
	}{{"ask", agent.ApproveAsk, false}, {"yolo", agent.ApproveAll, false}, {"headless yolo", agent.ApproveAll, true}} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, func(c *agent.Config) { c.Approval = tt.approval; c.Headless = tt.headless })
			if err := os.MkdirAll(filepath.Join(h.dir, ".git", "hooks"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(".git/hooks", filepath.Join(h.dir, "hooks")); err != nil {
				t.Fatal(err)
			}
			h.srv.Enqueue(
				calls(call("write_file", `{"path":".git/hooks/pre-commit","content":"#!/bin/sh\n"}`)),
				calls(call("write_file", `{"path":"hooks/post-commit","content":"#!/bin/sh\n"}`)),
				providertest.Reply{Text: "ok"})
			reqs, ends := turn(t, h, allowAlways)
			if tt.headless {
				if len(reqs) != 0 || !ends[0].IsError || !strings.Contains(ends[0].Output, ".git") {
					t.Errorf("headless: requests %d, result %q; want a refusal", len(reqs), ends[0].Output)
				}
				return
			}
			if len(reqs) != 2 || !reqs[0].Once || !reqs[1].Once {
				t.Fatalf("got %d requests (%+v), want one per write, each for that write only", len(reqs), reqs)
			}
			for _, e := range ends {
				if e.IsError {
					t.Errorf("the approved write failed: %s", e.Output)
				}
			}
		})
	}
}

// TestSessionScopeAndRules: "allow for the session" covers the program and
// subcommand only; config rules decide before anyone is asked.
func TestSessionScopeAndRules(t *testing.T) {
	rules, err := permission.ParseRules([]string{"bash(echo allowed*)"}, []string{"bash(rm *)", "write_file(.env)"})
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, func(c *agent.Config) { c.Approval = agent.ApproveAsk; c.Rules = rules })
	h.ag.SetMode(agent.ModeAsk)
	h.srv.Enqueue(
		calls(call("bash", `{"command":"git status --short"}`)),
		calls(call("bash", `{"command":"git status"}`)),
		calls(call("bash", `{"command":"git log -1"}`)),
		calls(call("bash", `{"command":"echo allowed by rule"}`)),
		calls(call("bash", `{"command":"rm -rf x"}`)),
		calls(call("write_file", `{"path":"sub/.env","content":"K=v"}`)),
		providertest.Reply{Text: "ok"})
	reqs, ends := turn(t, h, allowAlways)
	if len(reqs) != 2 || reqs[0].Scope != "git status …" || !strings.HasPrefix(reqs[1].Summary, "git log") {
		t.Errorf("requests: %+v; want git status (scope git status …) then git log", reqs)
	}
	if !ends[4].IsError || !strings.Contains(ends[4].Output, "bash(rm *)") {
		t.Errorf("rm: %q, want a refusal naming the deny rule", ends[4].Output)
	}
	if !ends[5].IsError || !strings.Contains(ends[5].Output, "write_file(.env)") {
		t.Errorf(".env: %q, want a refusal naming the deny rule", ends[5].Output)
	}
}

// TestDurationExcludesApproval: the time the user takes to answer is not
// the tool's duration.
func TestDurationExcludesApproval(t *testing.T) {
	const think = 1500 * time.Millisecond
	h := newHarness(t, func(c *agent.Config) { c.Approval = agent.ApproveAsk })
	h.srv.Enqueue(calls(call("bash", `{"command":"true"}`)), providertest.Reply{Text: "ok"})
	_, ends := turn(t, h, func(agent.ApprovalRequest) agent.Approval {
		time.Sleep(think)
		return agent.Approval{Allow: true}
	})
	if ends[0].Duration >= think {
		t.Errorf("duration %v includes the %v the user took to answer", ends[0].Duration, think)
	}
}

// TestBlockedBySandboxOffersRerun: a command the sandbox stopped is
// reported in one line, and the user may run it again outside.
func TestBlockedBySandboxOffersRerun(t *testing.T) {
	outside := outsideDir(t, ".tick-rerun-")
	target := filepath.Join(outside, "made")
	cmd := `{"command":"echo x > ` + target + `"}`
	for _, tt := range []struct {
		name     string
		approval agent.ApprovalMode
		answer   func(agent.ApprovalRequest) agent.Approval
		made     bool
	}{
		{"declined", agent.ApproveAsk, func(agent.ApprovalRequest) agent.Approval { return agent.Approval{} }, false},
		{"allowed", agent.ApproveAsk, allowOnce, true},
		{"yolo never asks", agent.ApproveAll, nil, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			os.Remove(target)
			h := newHarness(t, func(c *agent.Config) { c.Approval = tt.approval }, withSandbox(t))
			h.srv.Enqueue(calls(call("bash", cmd)), providertest.Reply{Text: "ok"})
			reqs, ends := turn(t, h, tt.answer)
			if tt.answer != nil && (len(reqs) != 1 || !reqs[0].Rerun) {
				t.Fatalf("requests %+v, want one rerun request", reqs)
			}
			out := ends[0].Output
			if !strings.Contains(out, "the sandbox refused a write outside the workspace, to "+target+" (workspace-write: no network") {
				t.Errorf("result %q does not say the sandbox blocked it", out)
			}
			if _, err := os.Stat(target); (err == nil) != tt.made {
				t.Errorf("file outside made = %v, want %v; result %q", err == nil, tt.made, out)
			}
		})
	}
}

// TestAllowRulesMidSession: rules added with AllowRules (a project trusted
// mid-session) run their calls without asking; a deny rule still wins and
// other calls are still asked about.
func TestAllowRulesMidSession(t *testing.T) {
	rules, err := permission.ParseRules(nil, []string{"bash(rm *)"})
	if err != nil {
		t.Fatal(err)
	}
	added, err := permission.ParseRules([]string{"bash(echo project*)", "bash(rm *)"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, func(c *agent.Config) { c.Approval = agent.ApproveAsk; c.Rules = rules })
	h.ag.SetMode(agent.ModeAsk)
	h.ag.AllowRules(added.Allow...)
	h.srv.Enqueue(
		calls(call("bash", `{"command":"echo project rule"}`)),
		calls(call("bash", `{"command":"rm -rf x"}`)),
		calls(call("bash", `{"command":"echo other"}`)),
		providertest.Reply{Text: "ok"})
	reqs, ends := turn(t, h, allowOnce)
	if len(reqs) != 1 || !strings.Contains(reqs[0].Summary, "echo other") {
		t.Errorf("requests %+v; want one, for echo other", reqs)
	}
	if ends[0].IsError || !strings.Contains(ends[0].Output, "project rule") {
		t.Errorf("echo project rule: %q, want it run", ends[0].Output)
	}
	if !ends[1].IsError || !strings.Contains(ends[1].Output, "bash(rm *)") {
		t.Errorf("rm: %q, want the deny rule's refusal", ends[1].Output)
	}
}

// TestProtectedWritesAskEveryTime: a write by the file tools into a path
// the sandbox protects besides .git (.tick, core.hooksPath of an included
// ../.gitconfig) asks for that very write in auto mode and with --yolo,
// like .git; -p refuses it. Today it runs silently in auto mode.
func TestProtectedWritesAskEveryTime(t *testing.T) {
	for _, tt := range []struct {
		name     string
		approval agent.ApprovalMode
		headless bool
	}{{"auto", agent.ApproveAsk, false}, {"yolo", agent.ApproveAll, false}, {"headless", agent.ApproveAsk, true}} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, func(c *agent.Config) {
				c.Approval, c.Headless = tt.approval, tt.headless
				for _, args := range [][]string{{"init", "-q"}, {"config", "include.path", "../.gitconfig"}} {
					gitCmd(t, c.Workspace, args...)
				}
				if err := os.WriteFile(filepath.Join(c.Workspace, ".gitconfig"), []byte("[core]\n\thooksPath = .githooks\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				exe, _ := os.Executable()
				p := sandbox.Policy{Mode: sandbox.WorkspaceWrite, Workspace: c.Workspace, TempDir: t.TempDir(), Protect: []string{".tick"}}
				c.ToolOptions.Sandbox = sandbox.NewRunner(p, sandbox.Probe(exe, p))
			})
			h.srv.Enqueue(
				calls(call("write_file", `{"path":".tick/hooks/lint.sh","content":"cat ~/.ssh/id_rsa\n"}`)),
				calls(call("write_file", `{"path":".githooks/pre-commit","content":"#!/bin/sh\n"}`)),
				calls(call("write_file", `{"path":"src/ok.go","content":"package ok\n"}`)),
				providertest.Reply{Text: "ok"})
			reqs, ends := turn(t, h, allowAlways)
			if tt.headless {
				if len(reqs) != 0 || !ends[0].IsError || !ends[1].IsError || ends[2].IsError || !strings.Contains(ends[0].Output, "outside the sandbox") {
					t.Errorf("headless: requests %d, results %+v; want the two protected writes refused", len(reqs), ends)
				}
				if _, err := os.Stat(filepath.Join(h.dir, ".githooks/pre-commit")); err == nil {
					t.Error("a hook was written into core.hooksPath in -p")
				}
				return
			}
			if len(reqs) != 2 || !reqs[0].Once || !reqs[1].Once {
				t.Fatalf("got %d requests (%+v), want one per protected write, each for that write only", len(reqs), reqs)
			}
		})
	}
}

// gitCmd runs git with args in dir, failing the test when it fails.
func gitCmd(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}
