package agent

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/tick-agent/tick/agent/tools"
	"github.com/tick-agent/tick/provider"
)

//go:embed prompts/plan.md
var planModePrompt string

// Plan mode offers only tools that cannot change anything: read_file,
// todo, task (whose child is read-only too), bash, which asks the user
// before every command (even with --yolo) until commands run in a
// read-only sandbox, and web_fetch when the config allows hosts, for those
// hosts only. Other tools are not offered; a call to one anyway is
// refused with an Error saying plan mode is on.

// readOnlyTools are the base tools plan mode offers as they are.
var readOnlyTools = map[string]bool{"read_file": true}

// planTools returns base as plan mode offers it (see above).
func planTools(base []tools.Tool) []tools.Tool {
	out := make([]tools.Tool, 0, len(base))
	for _, t := range base {
		name := t.Spec().Name
		switch {
		case readOnlyTools[name]:
			out = append(out, t)
		case isEgress(t):
			if eg := t.(tools.Egress); eg.HasAllowList() {
				out = append(out, planEgress{eg: eg})
				continue
			}
			out = append(out, planBlocked{name: name})
		case name == "bash":
			if ap, ok := t.(tools.Approvable); ok {
				out = append(out, askEveryTime{Tool: t, ap: ap})
				continue
			}
			out = append(out, planBlocked{name: name})
		default:
			out = append(out, planBlocked{name: name})
		}
	}
	return out
}

// toolsFor returns the tools of a parent loop in mode m: the base tools,
// todo, task and the extra tools (MCP), filtered in plan mode.
func (l *loop) toolsFor(m Mode) []tools.Tool {
	base, extra := l.a.tools, l.extra
	if m == ModePlan {
		base, extra = planTools(base), planTools(extra)
	}
	out := append(append([]tools.Tool(nil), base...), &todoTool{l: l}, &taskTool{l: l})
	return append(out, extra...)
}

// childTools returns the tools of a subagent of l: the base tools and the
// extra ones, read-only in plan mode.
func (l *loop) childTools() []tools.Tool {
	all := append(append([]tools.Tool(nil), l.a.tools...), l.extra...)
	if l.a.Mode() == ModePlan {
		return planTools(all)
	}
	return all
}

// askEveryTime is a tool that needs the user's approval for every call,
// whatever the approval mode and the session's "allow always" answers.
type askEveryTime struct {
	tools.Tool
	ap tools.Approvable
}

func (t askEveryTime) Preview(args json.RawMessage) (string, string, error) {
	return t.ap.Preview(args)
}

// AlwaysAsk marks the tool for approve.
func (askEveryTime) AlwaysAsk() bool { return true }

// alwaysAsk reports whether a tool asks before every call.
func alwaysAsk(t any) bool {
	a, ok := t.(interface{ AlwaysAsk() bool })
	return ok && a.AlwaysAsk()
}

// errPlanMode is the refusal of a tool that could change something.
var errPlanMode = errors.New("plan mode is on")

// planBlocked stands in for a tool plan mode does not offer: it is not in
// the request's tools, and a call to it is refused.
type planBlocked struct{ name string }

func (b planBlocked) Spec() provider.ToolSpec { return provider.ToolSpec{Name: b.name} }

// hidden keeps the tool out of the specs sent to the model.
func (planBlocked) hidden() bool { return true }

func (b planBlocked) Run(context.Context, json.RawMessage) (string, error) {
	return "", fmt.Errorf("%w: %s cannot run because nothing may change until the user approves the plan. Investigate with read_file (and bash for commands that only read), write the plan with todo, and end with a short summary", errPlanMode, b.name)
}

// offered reports whether t is sent to the model.
func offered(t tools.Tool) bool {
	h, ok := t.(interface{ hidden() bool })
	return !ok || !h.hidden()
}

// isEgress reports whether t reaches out from tick's own process.
func isEgress(t tools.Tool) bool {
	_, ok := t.(tools.Egress)
	return ok
}

// planEgress is an egress tool in plan mode: it fetches from the allowed
// hosts, without asking (it is not Approvable), and refuses the rest.
type planEgress struct{ eg tools.Egress }

func (p planEgress) Spec() provider.ToolSpec { return p.eg.Spec() }

func (p planEgress) Run(ctx context.Context, args json.RawMessage) (string, error) {
	if !p.eg.HostAllowed(args) {
		return "", fmt.Errorf("%w: %s reaches only the hosts in [web] allow of the user's config until the user approves the plan; plan without this page, or note in the plan that it needs reading", errPlanMode, p.eg.Spec().Name)
	}
	return p.eg.Run(ctx, args)
}

// ToolNames returns the names of the tools the model is offered in the
// current mode, sorted: the base tools, todo and task (tools of MCP
// servers join at the turn's start and are not among them).
func (a *Agent) ToolNames() []string {
	l := &loop{a: a}
	var names []string
	for _, t := range l.toolsFor(a.Mode()) {
		if h, ok := t.(interface{ hidden() bool }); ok && h.hidden() {
			continue
		}
		names = append(names, t.Spec().Name)
	}
	sort.Strings(names)
	return names
}
