package sandbox

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

// HelperArg is the first argument that makes tick run as the sandbox
// helper (see Main); main.go hands such a run to Main before anything else.
const HelperArg = "__sandbox"

// spec is what the parent tells the helper: the policy and which
// mechanisms to apply.
type spec struct {
	Policy     Policy `json:"policy"`
	Landlock   int    `json:"landlock,omitempty"` // ABI to use; 0: none
	Seccomp    bool   `json:"seccomp,omitempty"`
	Namespaces bool   `json:"namespaces,omitempty"` // started in new user/mount/net/PID namespaces
	Probe      bool   `json:"probe,omitempty"`      // only check that the namespaces work
}

// Runner starts commands under a policy. It is safe for concurrent use.
type Runner struct {
	policy  Policy
	ready   chan struct{} // closed once support is known
	support Support
	git     *GitMeta // the workspace's .git entries, watched around each confined command
	gitConf []string // what the repository's git config names in the workspace (GitConfigPaths), set before ready closes

	mu     sync.Mutex
	absent map[string]unguarded // the protected paths the last confined command could change (see noteAbsent)

	sparemu sync.Mutex
	spare   *spare // the helper started ahead for the next command in the policy's mode (see spare.go)
	closed  bool   // Close was called: no more spares
}

// NewRunner returns a Runner for p on a machine with support s (see
// Probe). p.Mode is the default mode of Command.
func NewRunner(p Policy, s Support) *Runner {
	return newRunner(p, s, readGitConf(p))
}

// newRunner is NewRunner with the paths the git config names given.
func newRunner(p Policy, s Support, gitConf []string) *Runner {
	r := &Runner{policy: p, support: s, ready: make(chan struct{}), git: NewGitMeta(p.Workspace), gitConf: gitConf}
	close(r.ready)
	r.prewarm()
	return r
}

// readGitConf reads, once, what the git config names in p's workspace
// (nothing for a command that is not confined to it).
func readGitConf(p Policy) []string {
	if p.Mode == FullAccess {
		return nil
	}
	return GitConfigPaths(p.Workspace)
}

// StartRunner returns a Runner for p whose support probe runs in the
// background, so that it costs nothing at start-up; the methods that need
// it wait for it.
func StartRunner(p Policy, probe func() Support) *Runner {
	r := &Runner{policy: p, ready: make(chan struct{}), git: NewGitMeta(p.Workspace)}
	go func() {
		r.support = probe()
		r.gitConf = readGitConf(p)
		close(r.ready)
		r.prewarm()
	}()
	return r
}

// Ready reports whether the support probe has finished.
func (r *Runner) Ready() bool {
	select {
	case <-r.ready:
		return true
	default:
		return false
	}
}

// Done returns a channel closed when the support probe has finished.
func (r *Runner) Done() <-chan struct{} { return r.ready }

// Policy returns the runner's policy.
func (r *Runner) Policy() Policy { return r.policy }

// Support returns what the machine offers, waiting for the probe.
func (r *Runner) Support() Support {
	<-r.ready
	return r.support
}

// Mode returns m, or the policy's mode when m is "".
func (r *Runner) Mode(m Mode) Mode {
	if m == "" {
		return r.policy.Mode
	}
	return m
}

// Confined reports whether a command run in mode m ("" for the policy's)
// is really confined: the mode is not FullAccess and Landlock works.
func (r *Runner) Confined(m Mode) bool {
	return r.Mode(m) != FullAccess && r.Support().Confines()
}

// Status is the status bar's line for mode m ("" for the policy's).
func (r *Runner) Status(m Mode) string { return r.Support().Status(r.Mode(m)) }

// Describe says what a command in mode m may do, for the model:
// "workspace-write: no network".
func (r *Runner) Describe(m Mode) string {
	p := r.policy
	p.Mode = r.Mode(m)
	return p.Describe()
}

// Command returns the command that runs `bash -c script` in the workspace
// under the policy in mode m ("" for the policy's), with environment env
// (TMPDIR is set to the private temporary directory and, for a confined
// workspace-write command, the caches to the policy's CacheDir, see
// CacheEnv). A confined workspace-write command gets every .git entry of
// the workspace read-only, and GitChanges tells afterwards what it
// planted. Start it, then end it with Stop; its standard streams are the
// caller's to set. Without a helper it is plain bash in a session of its
// own. A command in the policy's own mode starts in the runner's spare
// helper when one is ready (see Cmd).
func (r *Runner) Command(m Mode, script string, env []string) *Cmd {
	p := r.policy
	p.Mode = r.Mode(m)
	sup := r.Support()
	env = env[:len(env):len(env)] // appends below never write into the caller's array
	if p.TempDir != "" {
		env = append(env, "TMPDIR="+p.TempDir)
	}
	if p.Mode == WorkspaceWrite && sup.Confines() {
		env = append(env, CacheEnv(p.CacheDir)...)
	}
	kind, helper := r.spareKind(m)
	if !helper {
		cmd := exec.Command("bash", "-c", script)
		cmd.SysProcAttr = newSession()
		cmd.Dir, cmd.Env = p.Workspace, env
		return &Cmd{Cmd: cmd}
	}
	if p.Mode == WorkspaceWrite && sup.Confines() && p.Workspace != "" {
		p.GitMeta = r.git.Before()
		p.Protect = r.protected()
		r.noteAbsent(p.Workspace, p.Protect)
	}
	s := spec{Policy: p, Namespaces: kind.ns}
	if r.Confined(m) {
		s.Landlock = sup.LandlockABI
		s.Seccomp = sup.Seccomp
	}
	b, _ := json.Marshal(s) // plain strings and numbers: cannot fail
	cmd := exec.Command(sup.Helper, HelperArg, string(b), "--", "bash", "-c", script)
	cmd.SysProcAttr = sysProcAttr(s.Namespaces)
	cmd.Dir, cmd.Env = p.Workspace, env
	return &Cmd{Cmd: cmd, r: r, kind: kind}
}

// GitChanges reports what the last confined workspace-write command did to
// the workspace's git metadata (see GitMeta.After): .git entries it
// planted, which the caller must not keep silently, and the protected
// paths (Policy.Protect, what the git config names) that were missing when
// it started, so could not be made read-only, and that it created: the
// user's git or tick would read or run them outside the sandbox. Call it
// once the command has ended; commands run through one Runner one at a
// time.
func (r *Runner) GitChanges() GitReport {
	rep := r.git.After()
	r.mu.Lock()
	absent := r.absent
	r.absent = nil
	r.mu.Unlock()
	for rel, w := range absent {
		abs := filepath.Join(r.policy.Workspace, filepath.FromSlash(rel))
		_, err := os.Stat(abs)
		if (w.missing && err == nil) || lstatLink(abs) != w.was {
			rep.Planted = append(rep.Planted, rel)
		}
	}
	sort.Strings(rep.Planted)
	return rep
}

// unguarded is a protected path the sandbox cannot make read-only as a
// command starts: missing (a dangling link too), or a symbolic link (its
// target is protected, not the link).
type unguarded struct {
	missing bool
	was     string // what stood at its name (lstatLink)
}

// noteAbsent remembers the protected paths in ws the sandbox cannot make
// read-only as a command starts (see unguarded).
func (r *Runner) noteAbsent(ws string, protect []string) {
	absent := map[string]unguarded{}
	for _, rel := range protect {
		abs := filepath.Join(ws, filepath.FromSlash(rel))
		_, err := os.Stat(abs)
		if was := lstatLink(abs); err != nil || strings.HasPrefix(was, "link:") {
			absent[rel] = unguarded{missing: err != nil, was: was}
		}
	}
	r.mu.Lock()
	r.absent = absent
	r.mu.Unlock()
}

// lstatLink says what stands at abs without following a link: "" for
// nothing, "link:TARGET" for a symbolic link, "other" for anything else.
func lstatLink(abs string) string {
	fi, err := os.Lstat(abs)
	switch {
	case err != nil:
		return ""
	case fi.Mode()&os.ModeSymlink != 0:
		t, _ := os.Readlink(abs)
		return "link:" + t
	}
	return "other"
}

// stopGrace is how long Stop lets the helper end what the command started
// before it kills the whole process group itself.
const stopGrace = 2 * time.Second

// Stop ends a command started from Command and everything it started:
// the helper kills and reaps every descendant; plain bash has its process
// group killed. done is closed when the command has been waited for; Stop
// returns when it is, or after a grace period in which it kills the
// process group.
func Stop(cmd *Cmd, done <-chan struct{}) {
	if cmd.Process == nil {
		return
	}
	pid := cmd.Process.Pid
	if len(cmd.Args) > 1 && cmd.Args[1] == HelperArg {
		terminate(pid)
		t := time.NewTimer(stopGrace)
		defer t.Stop()
		select {
		case <-done:
			return
		case <-t.C:
		}
	}
	killGroup(pid)
}

// NewTempDir makes the private temporary directory of one session under
// the system's; remove it with os.RemoveAll when the session ends.
func NewTempDir() (string, error) {
	return os.MkdirTemp("", "tick-tmp-")
}

// NewSession returns how to start a process in a session of its own (on
// Windows, a process group of its own): a process group to kill as a
// whole, and no controlling terminal to read the user's keystrokes from.
func NewSession() *syscall.SysProcAttr { return newSession() }
