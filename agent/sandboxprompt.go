package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/tick-agent/tick/agent/compact"
	"github.com/tick-agent/tick/agent/sandbox"
	"github.com/tick-agent/tick/provider"
)

// sandboxLines says in the system prompt what the command sandbox allows
// and how to get more, in words that stay fixed for the session: they
// come from the policy and the approval mode, never from the probe (which
// finishes later) nor from the private temporary directory's name (new in
// every run). "" without a sandbox runner.
func (a *Agent) sandboxLines() string {
	r := a.cfg.ToolOptions.Sandbox
	if r == nil {
		return ""
	}
	p := r.Policy()
	net := "no network"
	if p.Network == sandbox.NetworkLoopback {
		net = "loopback network only"
	}
	var allows string
	switch p.Mode {
	case sandbox.FullAccess:
		return "Sandbox: none; commands run with the user's rights."
	case sandbox.ReadOnly:
		allows = "bash runs read-only (it may write only to $TMPDIR), " + net
	default:
		places := []string{"the workspace (not .git)", "$TMPDIR", "the user's cache directory"}
		places = append(places, p.WritableRoots...)
		allows = "bash may write only to " + strings.Join(places, ", ") + "; " + net
	}
	more := "the user is asked whether to run it again outside the sandbox, so do not work around it"
	if a.cfg.Approval != ApproveAsk || a.cfg.Headless {
		more = "nothing can lift it in this run: say what needs to run outside it (the user can start tick with --sandbox danger-full-access)"
	}
	return "Sandbox (" + string(p.Mode) + "): " + allows + " (so no package downloads).\n" +
		"When a command fails because of it (Permission denied, no network), " + more + "."
}

// PromptSize is what every request of a session carries before the
// conversation: the system prompt and the tool schemas, in estimated
// tokens (see compact.Estimate), without MCP tools.
type PromptSize struct {
	System int // the system prompt with the user's instructions
	Tools  int // the JSON schemas of the tools on offer
}

// Total is System plus Tools.
func (s PromptSize) Total() int { return s.System + s.Tools }

// PromptSize measures the system prompt and tool schemas the agent sends
// with every request (tick doctor prints it): keep them small, local
// models have small contexts.
func (a *Agent) PromptSize() PromptSize {
	l := &loop{a: a, system: a.systemPrompt(), mu: &a.mu, hist: &a.history}
	l.tools = l.toolsFor(a.Mode())
	specs, _ := json.Marshal(l.specs())
	return PromptSize{
		System: compact.Estimate([]provider.Message{{Role: provider.RoleSystem, Content: l.system}}),
		Tools:  (len(specs) + 3) / 4,
	}
}

// MeasurePrompt returns the PromptSize of an agent made with cfg, without
// talking to a model: cfg.Model may be nil.
func MeasurePrompt(cfg Config) (PromptSize, error) {
	if cfg.Model == nil {
		cfg.Model = noModel{}
	}
	a, err := New(cfg)
	if err != nil {
		return PromptSize{}, fmt.Errorf("measure the system prompt: %w", err)
	}
	return a.PromptSize(), nil
}

// noModel is the model of an agent that is only measured.
type noModel struct{}

func (noModel) Stream(context.Context, provider.Request, provider.Handler) (*provider.Response, error) {
	return nil, errors.New("no model: this agent is only measured")
}
