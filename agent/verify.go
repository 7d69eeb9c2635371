package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/tick-agent/tick/agent/tools"
	"github.com/tick-agent/tick/provider"
)

// Defaults of a VerifyCheck's zero fields.
const (
	DefaultVerifyTimeout  = 10 * time.Minute
	DefaultVerifyAttempts = 3
)

// verifyTailLines and verifyTailBytes bound the output tail the model
// and the result get of a failed check.
const (
	verifyTailLines = 40
	verifyTailBytes = 4 << 10
)

// VerifyCheck is the check a turn must pass to be done (--verify): when
// the model ends its turn, Command runs in the workspace like the model's
// commands (the same sandbox, environment and git guard), for at most
// Timeout; exit status 0 passes. A failure goes back to the model in one
// message (the command, its exit status, the tail of its output) and the
// turn goes on, up to Attempts runs of the check in the turn; when the
// last one fails the turn ends with its work not done (a final Verified
// that did not pass). Plan mode and subagents do not run it.
type VerifyCheck struct {
	Command  string
	Timeout  time.Duration
	Attempts int
}

// withDefaults fills in the zero Timeout and Attempts.
func (v VerifyCheck) withDefaults() VerifyCheck {
	if v.Timeout <= 0 {
		v.Timeout = DefaultVerifyTimeout
	}
	if v.Attempts <= 0 {
		v.Attempts = DefaultVerifyAttempts
	}
	return v
}

// Verify returns the verify check in effect (Command "" for none).
func (a *Agent) Verify() VerifyCheck {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.verify
}

// SetVerify sets the verify command for the session's next turns (/verify
// CMD); "" turns the check off. Timeout and Attempts stay as configured.
func (a *Agent) SetVerify(command string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.verify.Command = strings.TrimSpace(command)
}

// verifyAgain runs the verify check when the model ended its turn, and
// reports whether the turn goes on: the check failed and an attempt is
// left, so the model was told why in one message.
func (l *loop) verifyAgain(ctx context.Context) bool {
	v := l.a.Verify()
	if l.child || v.Command == "" || l.a.Mode() == ModePlan || ctx.Err() != nil {
		return false
	}
	l.verifyRuns++
	l.emit(VerifyStarted{Command: v.Command, Attempt: l.verifyRuns, Max: v.Attempts})
	code, out := l.runVerify(ctx, v)
	passed := code != nil && *code == 0
	last := passed || l.verifyRuns >= v.Attempts || ctx.Err() != nil
	tailText := outputTail(out)
	l.emit(Verified{Command: v.Command, Attempt: l.verifyRuns, Max: v.Attempts, ExitCode: code, Passed: passed, OutputTail: tailText, Final: last})
	if last {
		return false
	}
	l.add(provider.Message{Role: provider.RoleUser, Content: verifyNote(v, l.verifyRuns, code, tailText)})
	return true
}

// runVerify runs the check's command through the bash tool with the
// workspace's options and the check's timeout, and returns the process's
// exit status (nil when it did not run to an end) and its output.
func (l *loop) runVerify(ctx context.Context, v VerifyCheck) (*int, string) {
	opts := l.a.cfg.ToolOptions
	opts.BashTimeout, opts.BashMaxTimeout = v.Timeout, v.Timeout
	ws, err := tools.NewWorkspace(l.a.cfg.Workspace)
	if err != nil {
		return nil, "Error: " + err.Error()
	}
	var st exitStatus
	args, _ := json.Marshal(map[string]string{"command": v.Command}) // a string: cannot fail
	out, err := tools.NewBash(ws, opts).Run(tools.WithExitStatus(ctx, st.set), args)
	if err != nil {
		return nil, "Error: " + err.Error()
	}
	return st.get(), out
}

// outputTail is the end of a check's output: its last lines, capped.
func outputTail(out string) string {
	t := tail(out, verifyTailLines)
	if len(t) > verifyTailBytes {
		t = t[len(t)-verifyTailBytes:]
		if i := strings.IndexByte(t, '\n'); i >= 0 {
			t = t[i+1:]
		}
	}
	return t
}

// verifyNote is the one message the model gets for a failed check.
func verifyNote(v VerifyCheck, attempt int, code *int, tailText string) string {
	status := "it did not run to an end"
	if code != nil {
		status = fmt.Sprintf("exit status %d", *code)
	}
	return fmt.Sprintf("<reminder>The verify check failed, so the work is not done: `%s` ended with %s (check %d of %d). The end of its output:\n```\n%s\n```\nFind and fix the cause, then end your turn again: tick runs the check again. Do not mark items completed or say the work is done while it fails.</reminder>",
		v.Command, status, attempt, v.Attempts, tailText)
}
