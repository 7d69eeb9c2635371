package ui

import (
	"bytes"
	"runtime"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"
)

// Suspending: ctrl+z, and a SIGTSTP from outside (kill -TSTP), hand the
// terminal back as it was before tick started (cooked mode, the main
// screen, no mouse reporting, the cursor shown) and stop the job, as any
// full-screen program does; on SIGCONT (fg) tick takes the terminal again
// and repaints. Bubble Tea's own tea.Suspend is not enough: tick's first
// frame put the terminal in raw mode before Bubble Tea saved its state, so
// Bubble Tea would "restore" raw mode; and a SIGTSTP from outside would
// stop the process with the terminal still taken.

// suspendCmd asks Run's suspender to suspend the program; without one
// (no shell to go back to, the tests) a toast says so.
func (m *Model) suspendCmd() tea.Cmd {
	req := m.suspendReq
	if req == nil {
		return m.toast(noteNoSuspend, toastFor)
	}
	return func() tea.Msg {
		select {
		case req <- struct{}{}:
		default: // a suspension is already asked for
		}
		return nil
	}
}

// noteNoSuspend says why ctrl+z did not suspend.
const noteNoSuspend = "ctrl+z: no shell to suspend to (tick runs without job control)"

// releaser is what the suspender needs of the program (a *tea.Program).
type releaser interface {
	ReleaseTerminal() error
	RestoreTerminal() error
	Send(tea.Msg)
}

// terminalState is the terminal to hand back on suspend: its file and its
// mode from before tick changed it.
type terminalState struct {
	fd     uintptr
	cooked *term.State
}

// savedTerminal reads the terminal's mode before tick changes it; nil
// when there is no terminal.
func savedTerminal(f term.File) *terminalState {
	if f == nil {
		return nil
	}
	st, err := term.GetState(f.Fd())
	if err != nil {
		return nil
	}
	return &terminalState{fd: f.Fd(), cooked: st}
}

// suspendOnce releases the terminal, restores its mode, stops the job
// with stop, and once it continues takes the terminal back and repaints.
func suspendOnce(p releaser, ts *terminalState, stop func()) {
	_ = p.ReleaseTerminal()
	renderLoopEnded(time.Second)
	if ts != nil {
		_ = term.Restore(ts.fd, ts.cooked)
	}
	stop() // returns once the job continues (fg)
	_ = p.RestoreTerminal()
	p.Send(tea.ResumeMsg{})
}

// renderLoop is how Bubble Tea's frame loop shows in a goroutine's stack.
const renderLoop = "(*Program).startRenderer.func"

// renderLoopEnded waits, for at most limit, until Bubble Tea's frame loop
// has ended after ReleaseTerminal. That loop stops the frame ticker only
// after it has taken the stop signal, and the ticker is the one that
// RestoreTerminal restarts: a loop slow to get there (a busy machine,
// the job stopped right after the release) stopped the restarted ticker
// once the job continued, and tick never painted again after fg. Bubble
// Tea gives no way to wait for its loop, so this looks for the loop's
// goroutine; should the loop's name change, it finds none and returns.
func renderLoopEnded(limit time.Duration) {
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if !bytes.Contains(allStacks(), []byte(renderLoop)) {
			return
		}
	}
}

// allStacks returns every goroutine's stack, whole: the buffer grows
// until they fit (a busy tick may have thousands), up to 64 MiB.
func allStacks() []byte {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) || len(buf) >= 64<<20 {
			return buf[:n]
		}
		buf = make([]byte, 2*len(buf))
	}
}
