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

// afterSandbox looks at a bash result: when the sandbox seems to have
// blocked the command, the model is told so in one line, and in the TUI
// (not with --yolo, which never asks) the user is offered to run it again
// without the sandbox.
func (l *loop) afterSandbox(ctx context.Context, c provider.ToolCall, t tools.Tool, args json.RawMessage, res string) string {
	if c.Name != "bash" || !l.confined(ctx) {
		return res
	}
	mode := sandbox.ModeFrom(ctx)
	verdict, note := sandboxBlame(res, l.policy(mode), writableOutside)
	switch verdict {
	case blameNone:
		return res
	case blameNotSandbox:
		return res + "\n(not the sandbox: tick cannot write there either; the file or its file system is read-only)"
	}
	outcomeOf(ctx).blocked = true
	if l.a.cfg.Approval != ApproveAsk || l.a.cfg.Headless || mode == sandbox.ReadOnly {
		return res + "\n" + note + ": " + sandboxAllows(l.runner().Mode(mode)) + "; --sandbox danger-full-access lifts it"
	}
	subject := l.callSubject(c.Name, args)
	req := ApprovalRequest{
		ID: c.ID, Tool: c.Name, Rerun: true,
		Summary: "run it again without the sandbox? " + firstLineOf(subject),
		Detail:  note + "; run it again without the sandbox?\n\n" + subject + "\n\n" + tail(l.a.redact(res), 12), // execute masks the result later
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
	outcomeOf(ctx).blocked = false // the user let it run outside
	again, err := t.Run(sandbox.WithMode(ctx, sandbox.FullAccess), args)
	if err != nil {
		return res + "\n" + note + "; running it again outside the sandbox failed: " + err.Error()
	}
	return "(" + note + "; run again outside the sandbox with the user's approval)\n" + again
}

// policy returns what a command of the loop run in mode m may touch.
func (l *loop) policy(m sandbox.Mode) sandbox.Policy {
	p := l.runner().Policy()
	p.Mode, p.Workspace = l.runner().Mode(m), l.workspace()
	return p
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
