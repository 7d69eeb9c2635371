package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/tick-agent/tick/agent/sandbox"
	"github.com/tick-agent/tick/provider"
)

//go:embed bash.md
var bashDescription string

const bashExpected = `{"command": "...", "timeout": 120}`

const bashSchema = `{
  "type": "object",
  "properties": {
    "command": {"type": "string", "description": "The bash command to run in the workspace directory."},
    "timeout": {"type": "number", "description": "Seconds before the command is killed. Default 120, maximum 600."}
  },
  "required": ["command"],
  "additionalProperties": false
}`

// How long Run keeps reading output after the shell has exited (a
// background process may still hold the output pipe) or after the process
// group was killed (only a process that left the group can).
const (
	drainAfterExit = time.Second
	drainAfterKill = 200 * time.Millisecond
)

// Bash is the bash tool: it runs a command with `bash -c` in the workspace
// root, with stdin from /dev/null, in a session and process group of its
// own, and returns the combined stdout and stderr (head and tail kept when
// long) followed by the exit status. On timeout or cancellation the whole
// process group is killed.
type Bash struct {
	ws  *Workspace
	opt Options
}

// NewBash returns the bash tool for ws; zero fields of opt take their
// defaults (see Options).
func NewBash(ws *Workspace, opt Options) *Bash {
	return &Bash{ws: ws, opt: opt.withDefaults()}
}

// Spec describes the tool to the model.
func (b *Bash) Spec() provider.ToolSpec {
	return provider.ToolSpec{Name: "bash", Description: bashDescription, Parameters: json.RawMessage(bashSchema)}
}

// bashCall is one decoded call.
type bashCall struct {
	command string
	timeout time.Duration
	note    string // said before the output, e.g. that the timeout was capped
}

func (b *Bash) decode(raw json.RawMessage) (bashCall, error) {
	a, err := parseArgs("bash", bashExpected, raw)
	if err != nil {
		return bashCall{}, err
	}
	var c bashCall
	if c.command, err = a.str("command", true); err != nil {
		return bashCall{}, err
	}
	if strings.TrimSpace(c.command) == "" {
		return bashCall{}, a.errorf(nil, `"command" is empty`)
	}
	secs, err := a.number("timeout")
	if err != nil {
		return bashCall{}, err
	}
	switch {
	case secs < 0:
		return bashCall{}, a.errorf(nil, `"timeout" must be a positive number of seconds, not %v`, secs)
	case secs == 0:
		c.timeout = b.opt.BashTimeout
	case secs > b.opt.BashMaxTimeout.Seconds():
		c.timeout = b.opt.BashMaxTimeout
		c.note = fmt.Sprintf("(timeout %vs is above the maximum; using %s)\n", secs, fmtSeconds(c.timeout))
	default:
		c.timeout = time.Duration(secs * float64(time.Second))
	}
	return c, nil
}

// Preview returns the command's first line as the summary and the whole
// command as the detail.
func (b *Bash) Preview(raw json.RawMessage) (summary, detail string, err error) {
	c, err := b.decode(raw)
	if err != nil {
		return "", "", err
	}
	return firstLine(c.command, 200), c.command, nil
}

// Run runs the command. A nonzero exit status is not an error: the result
// is the output followed by a line with the status ("exit status 2",
// "killed: timed out after 120s", "interrupted by user"). Errors are
// reserved for bad arguments and a shell that cannot be started. Run
// returns promptly when ctx is cancelled, with what was output so far.
func (b *Bash) Run(ctx context.Context, raw json.RawMessage) (string, error) {
	c, err := b.decode(raw)
	if err != nil {
		return "", err
	}
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("run bash command %q: not started: %w", firstLine(c.command, 80), err)
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return "", fmt.Errorf("run bash command %q: %w", firstLine(c.command, 80), err)
	}
	defer pr.Close()

	cmd := b.command(ctx, c.command)
	cmd.Stdin = nil // /dev/null
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		pw.Close()
		return "", fmt.Errorf("run bash command %q: %w", firstLine(c.command, 80), err)
	}
	pw.Close() // the child holds its own copy

	out := newHeadTail(b.opt.OutputCap)
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		_, _ = io.Copy(progressTo(ctx, out), pr) // live to the front-end too
	}()
	waitDone := make(chan error, 1)
	exited := make(chan struct{})
	go func() {
		err := cmd.Wait()
		close(exited)
		waitDone <- err
	}()

	timer := time.NewTimer(c.timeout)
	defer timer.Stop()
	var waitErr error
	var status string
	killGroup := func() { sandbox.Stop(cmd, exited) }
	select {
	case waitErr = <-waitDone:
	case <-timer.C:
		killGroup()
		waitErr = <-waitDone
		status = "killed: timed out after " + fmtSeconds(c.timeout) +
			" (the whole process group was killed; pass a larger timeout, at most " +
			fmtSeconds(b.opt.BashMaxTimeout) + ", or run it in the background with output to a file)"
	case <-ctx.Done():
		killGroup()
		waitErr = <-waitDone
		status = interruptedStatus(ctx)
	}

	drain := drainAfterExit
	if status != "" {
		drain = drainAfterKill
	}
	held := false
	drainTimer := time.NewTimer(drain)
	defer drainTimer.Stop()
	select {
	case <-readDone:
	case <-drainTimer.C:
		held = true
	case <-ctx.Done():
	}
	pr.Close() // unblocks the reader if a straggler holds the pipe
	<-readDone

	if status == "" {
		status = exitStatus(waitErr)
	}
	if code, ok := exitCode(waitErr); ok && ctx.Err() == nil {
		reportExit(ctx, code) // an interrupted call has no status of its own
	}
	var res strings.Builder
	res.WriteString(c.note)
	output := out.String()
	text := binaryNote(out.total)
	if !binaryOutput(output) {
		text = cleanOutput(output) // binary output is not cleaned only to be dropped
	}
	if strings.TrimSpace(text) == "" {
		text = "(no output)\n"
	}
	res.WriteString(text)
	if !strings.HasSuffix(text, "\n") {
		res.WriteByte('\n')
	}
	if held {
		res.WriteString("(a background process still holds the output open; its further output is not shown — redirect it to a file)\n")
	}
	res.WriteString(status)
	return res.String(), nil
}

// command returns the command to run script: through the sandbox runner
// in the context's mode when there is one, else plain bash. Either way it
// runs in a session of its own: a new process group to kill as a whole,
// and no controlling terminal for sudo, ssh and the like to read the
// user's keystrokes from.
func (b *Bash) command(ctx context.Context, script string) *sandbox.Cmd {
	env := append(slices.Clip(b.opt.Env), "PAGER=cat", "GIT_PAGER=cat", "GIT_TERMINAL_PROMPT=0")
	if b.opt.Sandbox != nil {
		return b.opt.Sandbox.Command(sandbox.ModeFrom(ctx), script, env)
	}
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = b.ws.Root()
	cmd.Env = env
	cmd.SysProcAttr = sandbox.NewSession()
	return &sandbox.Cmd{Cmd: cmd}
}

// exitStatus describes how the shell ended.
func exitStatus(err error) string {
	if err == nil {
		return "exit status 0"
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return "killed by signal: " + ws.Signal().String()
		}
		return fmt.Sprintf("exit status %d", ee.ExitCode())
	}
	return "error: " + err.Error()
}

// interruptedStatus is the status line of a command ctx cut short: what
// stopped it when ctx's cause says (a time budget, a signal), else the
// user's interrupt.
func interruptedStatus(ctx context.Context) string {
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) && !errors.Is(cause, context.DeadlineExceeded) {
		return cause.Error() // "stopped by SIGTERM", "stopped by the time budget ..."
	}
	return "interrupted by user"
}

// exitCode returns the process's exit status from its Wait error (128+N
// for a signal), and false when the process did not run to an end.
func exitCode(err error) (int, bool) {
	if err == nil {
		return 0, true
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return 0, false
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal()), true
	}
	return ee.ExitCode(), true
}

// fmtSeconds formats a duration as whole or fractional seconds: "120s",
// "0.5s".
func fmtSeconds(d time.Duration) string {
	return fmt.Sprintf("%gs", d.Seconds())
}
