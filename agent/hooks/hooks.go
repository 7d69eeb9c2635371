// Package hooks runs the user's hook commands at points of the agent's
// loop: pre_tool_use, post_tool_use, user_prompt_submit and stop. A Runner
// implements agent.Hooks.
//
// Contract:
//   - Each hook is a shell command (sh -c) run in the workspace, outside
//     the command sandbox (hooks are the user's own), with one JSON object
//     (agent.HookInput) on stdin.
//   - A hook's optional matcher is a regular expression that must match
//     the whole tool name ("bash", "write_file|edit_file", "mcp__.*"); an
//     empty matcher or "*" matches every tool. Matchers apply to the tool
//     events only.
//   - Exit status 0 allows; 2 blocks (pre_tool_use: the call, with the
//     hook's stderr as the reason; user_prompt_submit: the prompt); any
//     other status, a timeout (default 60 s) or a failure to start is a
//     hook failure, reported and otherwise ignored. Hooks of one event run
//     in order; the first block stops the rest.
//   - A hook that times out or is interrupted has its whole process group
//     killed. Output kept from a hook is bounded.
//   - A hook with a Check runs only while it passes (a trusted project's
//     script unchanged); otherwise it is a failure and is not run.
//   - A hook for a task's tool call (HookInput.Dir set: the task's copy of
//     the workspace) runs there, with "workspace" naming the copy and
//     "task" the task. A project's hook's Check is then asked about the
//     copy too: the scripts it runs there must be the trusted ones (a
//     task may have changed its copy's), else it is not run.
package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/tick-agent/tick/agent"
)

// DefaultTimeout bounds a hook that sets no timeout of its own.
const DefaultTimeout = 60 * time.Second

// outputMax is how much of a hook's stderr is kept.
const outputMax = 4 << 10

// Hook is one configured hook command.
type Hook struct {
	Matcher string        // regular expression on the tool name; "" or "*" is every tool
	Command string        // run with sh -c
	Timeout time.Duration // 0 is DefaultTimeout
	// Check, when set, is asked before every run, with the directory
	// the hook runs in when that is another one (a task's copy of the
	// workspace), else "": an error (a file the hook runs changed since
	// the user trusted it, or differs in dir from the trusted one) means
	// the hook is not run and is reported as a failure with that error.
	Check func(dir string) error `json:"-"`
}

// Config holds the hooks of each event, in the order they run.
type Config struct {
	PreToolUse       []Hook
	PostToolUse      []Hook
	UserPromptSubmit []Hook
	Stop             []Hook
}

// Merge returns c's hooks followed by more's, event by event (a project's
// trusted hooks run after the user's). Neither c nor more is changed.
func (c Config) Merge(more Config) Config {
	return Config{
		PreToolUse:       slices.Concat(c.PreToolUse, more.PreToolUse),
		PostToolUse:      slices.Concat(c.PostToolUse, more.PostToolUse),
		UserPromptSubmit: slices.Concat(c.UserPromptSubmit, more.UserPromptSubmit),
		Stop:             slices.Concat(c.Stop, more.Stop),
	}
}

// Options configure a Runner.
type Options struct {
	Hooks   Config
	Dir     string   // where hooks run: the workspace
	Environ []string // their environment (KEY=VALUE)
}

// Runner runs configured hooks. It is safe for concurrent use.
type Runner struct {
	dir     string
	environ []string
	byEvent map[string][]compiled
}

// compiled is a hook with its matcher compiled.
type compiled struct {
	Hook
	re *regexp.Regexp // nil matches every tool
}

// New checks the hooks' matchers and returns their Runner.
func New(opts Options) (*Runner, error) {
	r := &Runner{dir: opts.Dir, environ: opts.Environ, byEvent: map[string][]compiled{}}
	events := map[string][]Hook{
		agent.HookPreToolUse:       opts.Hooks.PreToolUse,
		agent.HookPostToolUse:      opts.Hooks.PostToolUse,
		agent.HookUserPromptSubmit: opts.Hooks.UserPromptSubmit,
		agent.HookStop:             opts.Hooks.Stop,
	}
	for ev, hs := range events {
		for i, h := range hs {
			if strings.TrimSpace(h.Command) == "" {
				return nil, fmt.Errorf("hooks.%s[%d]: command is empty", ev, i)
			}
			c := compiled{Hook: h}
			if c.Timeout <= 0 {
				c.Timeout = DefaultTimeout
			}
			if m := strings.TrimSpace(h.Matcher); m != "" && m != "*" {
				re, err := regexp.Compile("^(?:" + m + ")$")
				if err != nil {
					return nil, fmt.Errorf("hooks.%s[%d]: matcher %q: %w", ev, i, h.Matcher, err)
				}
				c.re = re
			}
			r.byEvent[ev] = append(r.byEvent[ev], c)
		}
	}
	return r, nil
}

// Empty reports whether no hook is configured.
func (r *Runner) Empty() bool { return r == nil || len(r.byEvent) == 0 }

// Run runs the hooks of in.Event that match in.Tool, in order, and returns
// what they decided. It implements agent.Hooks.
func (r *Runner) Run(ctx context.Context, in agent.HookInput) agent.HookOutcome {
	var out agent.HookOutcome
	if r == nil {
		return out
	}
	toolEvent := in.Event == agent.HookPreToolUse || in.Event == agent.HookPostToolUse
	payload, err := json.Marshal(in)
	if err != nil {
		out.Failures = append(out.Failures, agent.HookFailed{Event: in.Event, Error: "encode the hook input: " + err.Error()})
		return out
	}
	for _, h := range r.byEvent[in.Event] {
		if toolEvent && h.re != nil && !h.re.MatchString(in.Tool) {
			continue
		}
		if err := h.check(in.Dir); err != nil {
			out.Failures = append(out.Failures, agent.HookFailed{Event: in.Event, Command: h.Command, Error: "not run: " + err.Error()})
			continue
		}
		code, stderr, err := r.exec(ctx, h.Hook, in.Dir, payload)
		switch {
		case ctx.Err() != nil:
			return out // interrupted: nothing to report
		case err != nil:
			out.Failures = append(out.Failures, agent.HookFailed{Event: in.Event, Command: h.Command, Error: withStderr(err.Error(), stderr)})
		case code == 2:
			out.Block, out.Message = true, strings.TrimSpace(stderr)
			return out
		case code != 0:
			out.Failures = append(out.Failures, agent.HookFailed{Event: in.Event, Command: h.Command, Error: withStderr(fmt.Sprintf("exit status %d", code), stderr)})
		}
	}
	return out
}

// exec runs one hook with payload on stdin and returns its exit status and
// stderr. err is set when it could not run or timed out.
func (r *Runner) exec(ctx context.Context, h Hook, dir string, payload []byte) (code int, stderr string, err error) {
	tctx, cancel := context.WithTimeout(ctx, h.Timeout)
	defer cancel()
	cmd := exec.CommandContext(tctx, "sh", "-c", h.Command)
	cmd.Dir = r.dir
	if dir != "" {
		cmd.Dir = dir
	}
	cmd.Env = r.environ
	cmd.Stdin = bytes.NewReader(payload)
	errBuf := &capped{max: outputMax}
	cmd.Stderr = errBuf
	cmd.Stdout = &capped{max: outputMax}
	setProcessGroup(cmd)
	cmd.WaitDelay = time.Second
	runErr := cmd.Run()
	stderr = errBuf.String()
	if errors.Is(tctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil {
		return -1, stderr, fmt.Errorf("timed out after %s", h.Timeout)
	}
	var exitErr *exec.ExitError
	if errors.As(runErr, &exitErr) {
		return exitErr.ExitCode(), stderr, nil
	}
	if runErr != nil {
		return -1, stderr, fmt.Errorf("run: %w", runErr)
	}
	return 0, stderr, nil
}

// check asks the hook's Check, if any, about a run in dir.
func (h compiled) check(dir string) error {
	if h.Check == nil {
		return nil
	}
	return h.Check(dir)
}

// withStderr appends the hook's stderr to msg.
func withStderr(msg, stderr string) string {
	if s := strings.TrimSpace(stderr); s != "" {
		return msg + ": " + s
	}
	return msg
}

// capped keeps the first max bytes written to it and drops the rest.
type capped struct {
	buf  bytes.Buffer
	max  int
	lost bool
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room < len(p) {
		c.lost = true
		if room > 0 {
			c.buf.Write(p[:room])
		}
		return len(p), nil
	}
	c.buf.Write(p)
	return len(p), nil
}

func (c *capped) String() string {
	s := strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f {
			return -1
		}
		return r
	}, strings.ToValidUTF8(c.buf.String(), "\uFFFD"))
	if c.lost {
		s += "…"
	}
	return s
}
