package agent

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/tick-agent/tick/agent/permission"
	"github.com/tick-agent/tick/agent/sandbox"
	"github.com/tick-agent/tick/agent/tools"
	"github.com/tick-agent/tick/provider"
)

// sandboxMode returns ctx with the sandbox mode for the call: read-only in
// plan mode, none for a command the user allowed outside the sandbox for
// the session, else the runner's own.
func (l *loop) sandboxMode(ctx context.Context, c provider.ToolCall) context.Context {
	if c.Name != "bash" || l.runner() == nil || sandbox.ModeFrom(ctx) != "" {
		return ctx
	}
	if l.a.Mode() == ModePlan || l.readOnly {
		return sandbox.WithMode(ctx, sandbox.ReadOnly)
	}
	subject := l.callSubject(c.Name, json.RawMessage(c.Arguments))
	l.a.mu.Lock()
	defer l.a.mu.Unlock()
	for _, r := range l.a.outside {
		if r.Matches(c.Name, subject, false) {
			return sandbox.WithMode(ctx, sandbox.FullAccess)
		}
	}
	return ctx
}

// blockSigns are what failures caused by the sandbox print: a denied
// write or socket, a read-only .git, no network, a killed 32-bit binary.
var blockSigns = [...]string{
	"Permission denied", "permission denied", "Operation not permitted", "operation not permitted",
	"Read-only file system", "read-only file system", "Network is unreachable", "network is unreachable",
	"Bad system call", "bad system call", "Could not resolve host", "Temporary failure in name resolution",
}

// blockedBySandbox reports whether a bash result looks like the sandbox
// stopped the command: it failed, and said so in one of the usual ways.
func blockedBySandbox(res string) bool {
	i := strings.LastIndexByte(res, '\n')
	status := res[i+1:]
	if status == "exit status 0" || !(strings.HasPrefix(status, "exit status ") || strings.HasPrefix(status, "killed by signal: bad system call")) {
		return false
	}
	for _, s := range blockSigns {
		if strings.Contains(res, s) {
			return true
		}
	}
	return strings.HasPrefix(status, "killed by signal: bad system call")
}

// afterSandbox looks at a bash result: when the sandbox seems to have
// blocked the command, the model is told so in one line, and in the TUI
// (not with --yolo, which never asks) the user is offered to run it again
// without the sandbox.
func (l *loop) afterSandbox(ctx context.Context, c provider.ToolCall, t tools.Tool, args json.RawMessage, res string) string {
	if c.Name != "bash" || !l.confined(ctx) || !blockedBySandbox(res) {
		return res
	}
	if notTheSandbox(res, l.a.cfg.Workspace, writableOutside) {
		return res + "\n(not the sandbox: tick cannot write there either; the file or its file system is read-only)"
	}
	l.blocked = true
	mode := sandbox.ModeFrom(ctx)
	note := sandboxReason(res, l.a.cfg.Workspace, l.runner().Mode(mode), l.runner().Describe(mode))
	if l.a.cfg.Approval != ApproveAsk || l.a.cfg.Headless || mode == sandbox.ReadOnly {
		return res + "\n" + note + ": " + sandboxAllows(l.runner().Mode(mode)) + "; --sandbox danger-full-access lifts it"
	}
	subject := l.callSubject(c.Name, args)
	req := ApprovalRequest{
		ID: c.ID, Tool: c.Name, Rerun: true,
		Summary: "run it again without the sandbox? " + firstLineOf(subject),
		Detail:  note + "; run it again without the sandbox?\n\n" + subject + "\n\n" + tail(res, 12),
		Scope:   firstLineOf(subject) + " (outside the sandbox)",
	}
	ans, _, ok := l.ask(ctx, req)
	if !ok {
		return res + "\n" + note + "; the user declined to run it outside the sandbox"
	}
	if ans.Always {
		l.a.mu.Lock()
		l.a.outside = append(l.a.outside, permission.Rule{Tool: c.Name, Pattern: strings.TrimSpace(subject)})
		l.a.mu.Unlock()
	}
	l.blocked = false // the user let it run outside
	again, err := t.Run(sandbox.WithMode(ctx, sandbox.FullAccess), args)
	if err != nil {
		return res + "\n" + note + "; running it again outside the sandbox failed: " + err.Error()
	}
	return "(" + note + "; run again outside the sandbox with the user's approval)\n" + again
}

// sandboxAllows says, for the model, what a command in mode m may do.
func sandboxAllows(m sandbox.Mode) string {
	if m == sandbox.ReadOnly {
		return "it is read-only: it may read the workspace but write nowhere except its private temporary directory, and use no network"
	}
	return "it may write only inside the workspace and use no network"
}

// firstLineOf returns s's first line.
func firstLineOf(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
