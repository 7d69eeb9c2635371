package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/tick-agent/tick/agent/permission"
	"github.com/tick-agent/tick/agent/sandbox"
	"github.com/tick-agent/tick/agent/tools"
	"github.com/tick-agent/tick/provider"
)

// fileTools change files inside the workspace; a write into .git by one of
// them always needs the user's approval of that very write.
var fileTools = map[string]bool{"write_file": true, "edit_file": true}

// callSubject is what permission rules match for a call: the command of
// bash, the workspace-relative path of the file tools.
func (l *loop) callSubject(name string, args json.RawMessage) string {
	var a struct {
		Command string `json:"command"`
		Path    string `json:"path"`
	}
	_ = json.Unmarshal(args, &a)
	if name == "bash" {
		return a.Command
	}
	if a.Path == "" {
		return ""
	}
	ws := l.workspace()
	p := a.Path
	if !filepath.IsAbs(p) {
		p = filepath.Join(ws, p)
	}
	if w, err := tools.NewWorkspace(ws); err == nil {
		if real, err := w.Resolve(p); err == nil {
			p = real // symlinks followed: a link to .git counts as .git
		}
	}
	if rel, err := filepath.Rel(ws, p); err == nil {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(p)
}

// runner is the sandbox runner of the loop's base tools (a task's own,
// with its own watch of git metadata), or nil.
func (l *loop) runner() *sandbox.Runner {
	if l.sbx != nil {
		return l.sbx
	}
	return l.a.cfg.ToolOptions.Sandbox
}

// workspace is the directory the loop's tools work in: the workspace, or
// a task's copy of it. Every check of a call (git metadata, deny rules,
// the permission subject) resolves paths there.
func (l *loop) workspace() string {
	if l.ws != "" {
		return l.ws
	}
	return l.a.cfg.Workspace
}

// confined reports whether a bash call would run inside the sandbox.
func (l *loop) confined(ctx context.Context) bool {
	r := l.runner()
	return r != nil && r.Confined(sandbox.ModeFrom(ctx))
}

// approve decides whether a call that changes something may run, asking
// the user when nothing else decides. In order: a deny rule refuses; a
// write into .git asks every time (never covered by a rule, the session or
// --yolo); --yolo allows; an allow rule or a session choice allows; in
// auto mode a sandboxed command and a file change inside the workspace
// run; headless, the call is refused with a message naming the flag;
// otherwise the user is asked. It returns the tool result to send when
// the call is not allowed.
func (l *loop) approve(ctx context.Context, c provider.ToolCall, ap tools.Approvable, args json.RawMessage) (string, bool) {
	subject := l.callSubject(c.Name, args)
	if d, r := l.a.cfg.Rules.Decide(c.Name, subject); d == permission.Deny {
		return fmt.Sprintf("Error: %s was not run: the user's configuration denies it (deny rule %s). Do not retry it; take another approach or ask the user.", c.Name, r), false
	}
	if eg, ok := ap.(tools.Egress); ok {
		return l.approveEgress(ctx, c, eg, args)
	}
	gitWrite := fileTools[c.Name] && l.protectedWrite(subject)
	mode := l.a.cfg.Approval
	every := alwaysAsk(ap) // plan mode's bash: it runs read-only in the sandbox, or asks every time
	if every && l.confined(ctx) {
		return "", true
	}
	if !gitWrite && !every {
		if mode == ApproveAll || l.allowedByRule(c.Name, subject) || l.autoAllows(ctx, c.Name) {
			return "", true
		}
	}
	summary, detail, err := ap.Preview(args)
	if err != nil {
		return "Error: " + err.Error(), false
	}
	if mode == ApproveNone || l.a.cfg.Headless {
		o := outcomeOf(ctx)
		o.refused, o.gitWrite = true, gitWrite // nobody could approve it: the work may be undone
		return l.refusal(c.Name, gitWrite), false
	}
	req := ApprovalRequest{ID: c.ID, Tool: c.Name, Summary: summary, Detail: detail, Once: gitWrite}
	var scope permission.Rule
	if c.Name == "bash" {
		scope, req.Scope = permission.BashScope(subject)
	} else {
		scope = permission.Rule{Tool: c.Name}
	}
	ans, msg, ok := l.ask(ctx, req)
	if !ok {
		return msg, false
	}
	if ans.Always && !gitWrite && !every {
		l.a.mu.Lock()
		l.a.approved = append(l.a.approved, scope)
		l.a.mu.Unlock()
	}
	return "", true
}

// approveEgress decides a call that reaches out from tick's own process
// (tools.Egress): a host on the allow list runs, --yolo runs, headless
// refuses naming both ways, otherwise the user is asked about this very
// call (no "allow always": the next URL may go anywhere).
func (l *loop) approveEgress(ctx context.Context, c provider.ToolCall, eg tools.Egress, args json.RawMessage) (string, bool) {
	if eg.HostAllowed(args) || l.a.cfg.Approval == ApproveAll {
		return "", true
	}
	summary, detail, err := eg.Preview(args)
	if err != nil {
		return "Error: " + err.Error(), false
	}
	if l.a.cfg.Approval == ApproveNone || l.a.cfg.Headless {
		outcomeOf(ctx).refused = true // nobody could approve it: the work may be undone
		return fmt.Sprintf("Error: %s was not run: it reaches the network from outside the sandbox, which needs the user's approval unless the host is in [web] allow of the config, and tick -p cannot ask. Do what you can without it, and tell the user to add the host to [web] allow or rerun with --yolo.", c.Name), false
	}
	_, msg, ok := l.ask(ctx, ApprovalRequest{ID: c.ID, Tool: c.Name, Summary: summary, Detail: detail, Once: true})
	return msg, ok
}

// refusal is the result for a call tick cannot ask about.
func (l *loop) refusal(name string, gitWrite bool) string {
	if gitWrite {
		return fmt.Sprintf("Error: %s was not run: it writes into .git or another place whose files run outside the sandbox (git hooks and config, tick's .tick, scripts of trusted hooks), which needs the user's approval of that very write, and nobody can be asked here. Do not write there; tell the user what you wanted to change.", name)
	}
	why := "commands that the sandbox cannot contain and file changes need the user's approval"
	if l.a.Mode() == ModeAsk {
		why = "ask mode needs the user's approval for every change"
	}
	return fmt.Sprintf("Error: %s was not run: %s, and tick -p cannot ask. Do what you can without it, and tell the user to rerun with --yolo to allow it.", name, why)
}

// allowedByRule reports whether a config allow rule or a session choice
// covers the call.
func (l *loop) allowedByRule(name, subject string) bool {
	if d, _ := l.a.cfg.Rules.Decide(name, subject); d == permission.Allow {
		return true
	}
	l.a.mu.Lock()
	defer l.a.mu.Unlock()
	for _, r := range l.a.approved {
		if r.Matches(name, subject, false) {
			return true
		}
	}
	return false
}

// autoAllows reports whether auto mode runs the call without asking: a
// command the sandbox contains, a file change inside the workspace (the
// file tools refuse paths outside it).
func (l *loop) autoAllows(ctx context.Context, name string) bool {
	if l.a.Mode() != ModeAuto {
		return false
	}
	switch {
	case name == "bash":
		return l.confined(ctx)
	case fileTools[name]:
		return true
	}
	return false
}

// ask sends req and waits for the answer, counting the wait out of the
// tool's duration. ok is false when the call may not run; msg is then its
// result.
func (l *loop) ask(ctx context.Context, req ApprovalRequest) (ans Approval, msg string, ok bool) {
	reply := make(chan Approval, 1)
	req.Reply = reply
	start := time.Now()
	defer func() { outcomeOf(ctx).wait += time.Since(start) }()
	l.emitApproval(req)
	select {
	case <-ctx.Done():
		return Approval{}, stoppedResult(ctx) + " (it was waiting for approval)", false
	case ans = <-reply:
	}
	if ans.Allow || ans.Always {
		return ans, "", true
	}
	msg = fmt.Sprintf("Error: the user denied this %s call.", req.Tool)
	if r := strings.TrimSpace(ans.Reason); r != "" {
		msg += " The user said: " + r
	} else {
		msg += " Do not retry it as is; ask the user or take another approach."
	}
	return ans, msg, false
}

// AllowRules allows the calls rs match for the rest of the session, as if
// the user had allowed each for the session: a deny rule of the config
// still wins. main uses it for a project's allow rules once the user
// trusted the project mid-session.
func (a *Agent) AllowRules(rs ...permission.Rule) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.approved = append(a.approved, rs...)
}
