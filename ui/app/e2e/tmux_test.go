package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tick-agent/tick/ui"
)

// tmuxPane is the real binary running in a detached tmux session on a
// tmux server of its own (a private socket), so tests run in parallel and
// never touch the user's tmux.
type tmuxPane struct {
	t      *testing.T
	socket string // tmux -S path
	name   string // session name
	exit   string // file the pane's shell writes the program's exit status to
}

// screenTimeout is how long waitFor waits for the screen to show something.
const screenTimeout = 10 * time.Second

// deliberatePause is how long a test rests the keyboard before a key that
// must answer a question: the app's pause (ui.AnswerPause) twice over, so
// that a key still on its way through tmux under load is not hasty.
const deliberatePause = 2 * ui.AnswerPause

// startTmux runs argv with exactly env (nothing of the test's environment
// leaks in) in a new tmux session of 120x40 cells on a private tmux
// server, killed by t.Cleanup. The pane stays after the program exits, so
// a crash leaves its output and exit status on the screen. The test is
// skipped when tmux is not installed.
func startTmux(t *testing.T, env []string, argv ...string) *tmuxPane {
	t.Helper()
	return startTmuxConf(t, "", env, argv...)
}

// startTmuxConf is startTmux with the tmux server reading the config file
// conf as it starts (none when conf is "").
func startTmuxConf(t *testing.T, conf string, env []string, argv ...string) *tmuxPane {
	t.Helper()
	needTmux(t)
	argv = quietReminder(argv)
	// tmux leaves its socket file behind when the server exits, so it
	// lives in a directory of its own, removed afterwards. The path stays
	// short: a socket path has a limit of about 100 bytes.
	dir, err := os.MkdirTemp("", "tmux")
	if err != nil {
		t.Fatalf("make a directory for the tmux socket: %v", err)
	}
	p := &tmuxPane{t: t, socket: filepath.Join(dir, "s"), name: "tick", exit: filepath.Join(dir, "exit")}
	// Registered after the directories the test made for tick (cleanups
	// run last-in, first-out), this stops tick before they are removed:
	// the server's end hangs up the pane, and tick, quitting as it does
	// when its terminal goes away, stops its background work (an undo
	// snapshot still writing under HOME) before it exits.
	t.Cleanup(func() {
		prog := p.program()
		_, _ = p.tmux("kill-server")
		if prog > 0 && !waitFor(screenTimeout, func() bool { return !running(prog) }) {
			t.Errorf("tick (pid %d) still runs %v after its terminal went away; killing it", prog, screenTimeout)
			_ = syscall.Kill(prog, syscall.SIGKILL)
		}
		_ = os.RemoveAll(dir)
	})
	// The shell waits for the program and writes its exit status (128+N
	// for a signal) to a file: tmux can be seconds late in reaping a
	// pane's process, and until then it knows no status.
	shell := "env -i " + strings.Join(quoteAll(env), " ") + " " + strings.Join(quoteAll(argv), " ") +
		"; echo $? > " + strings.Join(quoteAll([]string{p.exit}), "")
	args := []string{"new-session", "-d", "-s", p.name, "-x", "120", "-y", "40", shell,
		";", "set-option", "-t", p.name, "remain-on-exit", "on"}
	if conf != "" {
		args = append([]string{"-f", conf}, args...)
	}
	if out, err := p.tmux(args...); err != nil {
		t.Fatalf("start tmux: %v\n%s", err, out)
	}
	return p
}

// needTmux skips the test when tmux is not installed.
func needTmux(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: the full-screen tests drive tick in tmux (.ci/run installs it)")
	}
}

// tmux runs a tmux command on the pane's server, returning its output.
func (p *tmuxPane) tmux(args ...string) ([]byte, error) {
	cmd := exec.Command("tmux", append([]string{"-S", p.socket}, args...)...)
	cmd.Env = tmuxEnv()
	return cmd.CombinedOutput()
}

// tmuxEnv is the test's environment without TMUX, so that tests started
// inside a tmux session talk only to their own server.
func tmuxEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TMUX=") && !strings.HasPrefix(kv, "TMUX_PANE=") {
			env = append(env, kv)
		}
	}
	return env
}

// quoteAll quotes each string for sh.
func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return out
}

// screen returns the visible pane as text.
func (p *tmuxPane) screen() string {
	out, _ := p.tmux("capture-pane", "-p", "-t", p.name)
	return string(out)
}

// dead says whether the program in the pane has exited, and how: its
// exit status as the pane's shell recorded it (128+N after signal N).
func (p *tmuxPane) dead() (bool, string) {
	b, err := os.ReadFile(p.exit)
	if err != nil || !strings.HasSuffix(string(b), "\n") {
		return false, "" // still running, or the status is being written
	}
	return true, "exit status " + strings.TrimSpace(string(b))
}

// waitUntil polls the screen until ok holds, failing the test with the
// screen (and the exit status when tick is gone) after screenTimeout.
// what says what was awaited.
func (p *tmuxPane) waitUntil(what string, ok func(screen string) bool) string {
	p.t.Helper()
	var scr string
	if waitFor(screenTimeout, func() bool { scr = p.screen(); return ok(scr) }) {
		return scr
	}
	if gone, how := p.dead(); gone {
		p.t.Fatalf("waiting for %s: tick is gone (%s); the screen:\n%s", what, how, scr)
	}
	p.t.Fatalf("the screen never showed %s:\n%s", what, scr)
	return ""
}

// waitFor waits until the screen holds every one of wants.
func (p *tmuxPane) waitFor(wants ...string) string {
	p.t.Helper()
	return p.waitUntil(fmt.Sprintf("%q", wants), func(scr string) bool {
		for _, w := range wants {
			if !strings.Contains(scr, w) {
				return false
			}
		}
		return true
	})
}

// waitGone waits until the screen holds none of gone.
func (p *tmuxPane) waitGone(gone ...string) string {
	p.t.Helper()
	return p.waitUntil(fmt.Sprintf("no %q", gone), func(scr string) bool {
		for _, g := range gone {
			if strings.Contains(scr, g) {
				return false
			}
		}
		return true
	})
}

// send presses keys (tmux key names, e.g. "Enter", "Escape", "C-t"); a
// string that is not a key name is typed as it is.
func (p *tmuxPane) send(keys ...string) {
	p.t.Helper()
	if out, err := p.tmux(append([]string{"send-keys", "-t", p.name}, keys...)...); err != nil {
		p.t.Fatalf("tmux send-keys %q: %v\n%s", keys, err, out)
	}
}

// typeText types text literally (no key names).
func (p *tmuxPane) typeText(text string) {
	p.t.Helper()
	if out, err := p.tmux("send-keys", "-t", p.name, "-l", text); err != nil {
		p.t.Fatalf("tmux send-keys -l %q: %v\n%s", text, err, out)
	}
}

// resize sets the window to w columns and h rows.
func (p *tmuxPane) resize(w, h int) {
	p.t.Helper()
	if out, err := p.tmux("resize-window", "-t", p.name, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h)); err != nil {
		p.t.Fatalf("tmux resize-window %dx%d: %v\n%s", w, h, err, out)
	}
}

// program returns the pid of the program the pane's shell runs (0 when it
// has exited or cannot be found): the shell's child.
func (p *tmuxPane) program() int {
	out, err := p.tmux("list-panes", "-t", p.name, "-F", "#{pane_pid}")
	if err != nil {
		return 0
	}
	shell, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		return 0
	}
	return childOf(shell)
}

// childOf is the pid of a child process of pid (0 when none).
func childOf(pid int) int {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, st := range stats {
		b, err := os.ReadFile(st)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		rest := string(b[bytes.LastIndexByte(b, ')')+1:])
		if f := strings.Fields(rest); len(f) > 1 && f[1] == strconv.Itoa(pid) {
			c, _ := strconv.Atoi(filepath.Base(filepath.Dir(st)))
			return c
		}
	}
	return 0
}

// running reports whether process pid exists and is not a zombie.
func running(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	return len(f) > 0 && f[0] != "Z"
}
