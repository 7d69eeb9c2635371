package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/commands"
	tickcfg "github.com/tick-agent/tick/agent/config"
	"github.com/tick-agent/tick/agent/hooks"
	"github.com/tick-agent/tick/agent/mcp"
	"github.com/tick-agent/tick/agent/permission"
	"github.com/tick-agent/tick/agent/sandbox"
	"github.com/tick-agent/tick/agent/session"
	"github.com/tick-agent/tick/agent/tools"
	"github.com/tick-agent/tick/ui"
)

// extensions are what the user adds to tick: MCP servers, hooks and
// custom commands, built once from the config files. A project file's MCP
// servers and hooks join only once the user trusted them (tick mcp trust
// or /trust); until then they are listed in notices.
type extensions struct {
	mcp      *mcp.Manager  // nil without servers
	hooks    *hooks.Runner // nil without hooks
	commands []commands.Command
	notices  []string // for the app's chat or -p's stderr

	trust   *mcp.Trust // nil when there is no state directory
	project string     // the workspace, the key of the trust record
	pending tickcfg.Pending
	environ []string
	// startTimeout is how long a first request waits for servers still
	// starting (mcp_start_timeout).
	startTimeout time.Duration

	mu        sync.Mutex
	untrusted bool              // pending holds servers, hooks or allow rules not trusted yet
	started   bool              // the project's servers and hooks were trusted once this session (they are wired)
	allow     []permission.Rule // the project's allow rules, once trusted
	agent     *agent.Agent      // the latest agent built (see attach)
}

// newExtensions builds the extensions of cfg. startServers starts the MCP
// servers in the background (the subcommands that only list them pass
// true too; `tick mcp trust` passes false).
func newExtensions(cfg config, env func(string) string, startServers bool) (*extensions, error) {
	// Servers and hooks get the model's commands' environment (no API key,
	// no secret-looking variable unless in env_allow); a server's own env
	// table is added on top by the mcp package.
	x := &extensions{project: cfg.Workspace, environ: commandEnv(cfg, os.Environ())}
	s := cfg.Settings
	if dir, err := session.DefaultDir(env); err == nil {
		x.trust = mcp.NewTrust(filepath.Dir(dir))
	}
	servers, err := mcpServers(s.MCPServers, nil)
	if err != nil {
		return nil, err
	}
	hcfg, err := hookConfig(s.Hooks, nil)
	if err != nil {
		return nil, err
	}
	x.pending = s.Pending
	if !x.pending.Empty() {
		trusted := false
		if x.trust != nil {
			trusted, err = x.trust.Approved(x.project, x.pendingDefinition())
			if err != nil {
				x.notices = append(x.notices, err.Error())
			}
		}
		if !trusted && x.pending.Stale && cfg.Headless {
			return nil, &usageError{Msg: x.pending.Warning() + " (tick -p does not run them without that: run tick mcp trust, or /trust in the app, after checking them)"}
		}
		if trusted {
			ps, err := mcpServers(x.pending.MCPServers, x.checkRun)
			if err != nil {
				return nil, err
			}
			servers = append(servers, ps...)
			ph, err := hookConfig(x.pending.Hooks, x.checkRun)
			if err != nil {
				return nil, err
			}
			hcfg = hcfg.Merge(ph)
			if x.allow, err = projectAllow(x.pending); err != nil {
				return nil, err
			}
			dropWarning(s, x.pending.Warning()) // approved: no longer true
			x.started = true
		} else {
			x.untrusted = true
			x.notices = append(x.notices, x.untrustedNotice())
		}
	}
	if startServers && (len(servers) > 0 || len(x.pending.MCPServers) > 0) {
		x.startTimeout = s.MCPStartTimeoutDuration()
		x.mcp = mcp.Start(mcp.Options{Servers: servers, Environ: x.environ, Dir: cfg.Workspace, Version: Version, StartTimeout: x.startTimeout, After: cfg.drawn})
	}
	r, err := hooks.New(hooks.Options{Hooks: hcfg, Dir: cfg.Workspace, Environ: x.environ})
	if err != nil {
		return nil, &usageError{Msg: err.Error()}
	}
	if !r.Empty() {
		x.hooks = r
	}
	userDir := ""
	if d := tickcfg.UserDir(env); d != "" {
		userDir = filepath.Join(d, "commands")
	}
	var warns []string
	x.commands, warns = commands.Load(userDir, filepath.Join(cfg.Workspace, ".tick", "commands"))
	x.notices = append(x.notices, warns...)
	return x, nil
}

// checkRun returns the check of one trusted project hook or server whose
// command line is words, run in dir: the files it names must be as the
// user trusted them, in the workspace and, for a run in another
// directory (in, a task's copy of the workspace; "" for none), there
// too. A file that changed in the workspace makes the whole project wait
// for /trust again (which reads the files anew), and the hook or server
// does not run.
func (x *extensions) checkRun(dir string, words []string) func(in string) error {
	return func(in string) error {
		x.mu.Lock()
		defer x.mu.Unlock()
		sub := x.pending.RunFiles.Sub(x.project, dir, words)
		if err := sub.Check(x.project); err != nil {
			x.untrusted = true
			return err
		}
		if in == "" {
			return nil
		}
		return sub.Check(in)
	}
}

// pendingDefinition is what a trust record covers (tickcfg's
// Pending.Definition: servers, hooks, allow rules, provider).
func (x *extensions) pendingDefinition() any {
	return x.pending.Definition()
}

// projectTrusted answers tickcfg.Run.Trusted from the trust records; nil
// (nothing approved) without a state directory.
func projectTrusted(env func(string) string) func(workspace string, def any) bool {
	dir, err := session.DefaultDir(env)
	if err != nil {
		return nil
	}
	t := mcp.NewTrust(filepath.Dir(dir))
	return func(workspace string, def any) bool { ok, _ := t.Approved(workspace, def); return ok }
}

// dropWarning removes the warning w from s.
func dropWarning(s *tickcfg.Settings, w string) {
	kept := s.Warnings[:0]
	for _, have := range s.Warnings {
		if have != w {
			kept = append(kept, have)
		}
	}
	s.Warnings = kept
}

// projectAllow parses the project file's allow rules.
func projectAllow(p tickcfg.Pending) ([]permission.Rule, error) {
	rs, err := permission.ParseRules(p.Allow, nil)
	if err != nil {
		return nil, usagef("%s: %v", p.Path, err)
	}
	return rs.Allow, nil
}

// untrustedNotice says what the project file would run and how to allow it.
func (x *extensions) untrustedNotice() string {
	var parts []string
	if n := len(x.pending.MCPServers); n > 0 {
		names := make([]string, 0, n)
		for name, s := range x.pending.MCPServers {
			target := s.URL
			if target == "" {
				target = strings.Join(append([]string{s.Command}, s.Args...), " ")
			}
			names = append(names, fmt.Sprintf("%s (%s)", name, target))
		}
		sort.Strings(names)
		parts = append(parts, "MCP servers "+strings.Join(names, ", "))
	}
	h := x.pending.Hooks
	if n := len(h.PreToolUse) + len(h.PostToolUse) + len(h.UserPromptSubmit) + len(h.Stop); n > 0 {
		parts = append(parts, fmt.Sprintf("%d hook command(s)", n))
	}
	if len(x.pending.Allow) > 0 {
		parts = append(parts, "allow rules "+strings.Join(x.pending.Allow, ", "))
	}
	if x.pending.Verify != "" {
		parts = append(parts, "the verify command "+x.pending.Verify)
	}
	what := "which run programs on your machine"
	if p := x.pending.Provider; p != "" {
		if what = "which chooses where your conversation is sent"; len(parts) > 0 {
			what = "which run programs on your machine or choose where your conversation is sent"
		}
		parts = append(parts, "provider "+p)
	}
	if x.pending.Stale {
		what += " (the files they run changed since you trusted them: " + strings.Join(x.pending.RunFiles.Paths(), ", ") + ")"
	}
	return fmt.Sprintf("%s defines %s, %s: they stay off until you allow them with /trust (or tick mcp trust)", x.pending.Path, strings.Join(parts, " and "), what)
}

// needsTrust reports whether the project's servers or hooks wait for the
// user's approval.
func (x *extensions) needsTrust() bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.untrusted
}

// trustable reports whether /trust has anything to do this session: the
// project's servers or hooks wait for trust now, or were trusted and may
// wait again when a file they run changes (see checkRun).
func (x *extensions) trustable() bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.untrusted || x.started
}

// trustProject records the user's approval of the project's servers and
// hooks, and starts the servers now. It returns what to tell the user.
func (x *extensions) trustProject() (string, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if !x.untrusted {
		return "nothing to allow: this project's config file defines no MCP servers or hooks, or you allowed them already", nil
	}
	if x.trust == nil {
		return "", fmt.Errorf("allow the project's servers: no state directory (set XDG_STATE_HOME or HOME)")
	}
	x.pending.ReadRunFiles(x.project) // the files as they are now: what the user allows
	if err := x.trust.Approve(x.project, x.pendingDefinition(), x.pending.DefinitionWithoutFiles()); err != nil {
		return "", err
	}
	x.untrusted = false
	msg := "allowed for this project: " + strings.TrimPrefix(x.untrustedNotice(), x.pending.Path+" defines ")
	msg = strings.SplitN(msg, ", which ", 2)[0]
	if x.started {
		return msg + " (the new version of the files they run; a server that did not start because of the change starts the next time tick starts)", nil
	}
	ps, err := mcpServers(x.pending.MCPServers, x.checkRun)
	if err != nil {
		return "", err
	}
	if len(ps) > 0 && x.mcp != nil {
		x.mcp.Add(ps...)
	}
	if x.allow, err = projectAllow(x.pending); err != nil {
		return "", err
	}
	if x.agent != nil {
		x.agent.AllowRules(x.allow...)
		if x.pending.Verify != "" && x.agent.Verify().Command == "" {
			x.agent.SetVerify(x.pending.Verify) // --verify and the user's own verify win
		}
	}
	if !x.pending.Hooks.Empty() {
		msg += " (the hooks take effect the next time tick starts)"
	}
	if x.pending.Provider != "" {
		msg += " (the provider is used from the next time tick starts)"
	}
	return msg, nil
}

// configure wires the extensions into an agent's config.
func (x *extensions) configure(acfg *agent.Config, rec *session.Recorder) {
	if x == nil {
		return
	}
	if x.mcp != nil {
		acfg.ToolSource = mcpTools{x}
	}
	if x.hooks != nil {
		acfg.Hooks = x.hooks
	}
	x.mu.Lock()
	acfg.Rules.Allow = append(append([]permission.Rule(nil), acfg.Rules.Allow...), x.allow...)
	x.mu.Unlock()
	if rec != nil {
		acfg.SessionID = rec.ID
	}
}

// attach makes ag the agent that the project's allow rules join when the
// user trusts the project mid-session (agents built later get them from
// configure).
func (x *extensions) attach(ag *agent.Agent) {
	if x == nil {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.agent = ag
}

// close stops the MCP servers.
func (x *extensions) close() {
	if x != nil && x.mcp != nil {
		x.mcp.Close()
	}
}

// mcpTools adapts the MCP manager to agent.ToolSource.
type mcpTools struct{ x *extensions }

// Tools waits for servers still starting (up to the start timeout) and
// returns the ready ones' tools.
func (s mcpTools) Tools(ctx context.Context, note func(string)) []tools.Tool {
	m := s.x.mcp
	if m == nil {
		return nil
	}
	if !m.Settled() {
		note(fmt.Sprintf("waiting for MCP servers to start (at most %s)", s.x.startTimeout))
	}
	ts, notes := m.Tools(ctx)
	for _, n := range notes {
		note(n)
	}
	return ts
}

// uiMCP adapts the MCP manager to ui.MCPStatus.
type uiMCP struct{ m *mcp.Manager }

func (u uiMCP) Counts() (int, int)       { return u.m.Counts() }
func (u uiMCP) Report() string           { return mcp.Report(u.m.Status()) }
func (u uiMCP) Updates() <-chan struct{} { return u.m.Updates() }

// uiMCP returns the MCP servers for ui.Config.MCP (nil without any).
func (x *extensions) uiMCP() ui.MCPStatus {
	if x == nil || x.mcp == nil {
		return nil
	}
	return uiMCP{x.mcp}
}

// trustCommand is /trust: it allows the project's servers and hooks.
func (x *extensions) trustCommand() tea.Cmd {
	return func() tea.Msg {
		msg, err := x.trustProject()
		if err != nil {
			msg = "could not allow the project's servers: " + err.Error()
		}
		return ui.NoticeMsg{Text: msg}
	}
}

// uiCustom returns the custom commands for ui.Config.Custom.
func (x *extensions) uiCustom() []ui.CustomCommand {
	out := make([]ui.CustomCommand, 0, len(x.commands))
	for _, c := range x.commands {
		out = append(out, ui.CustomCommand{Name: c.Name, Description: c.Description, Expand: c.Expand})
	}
	return out
}

// mcpServers converts the config's servers; check is nil for the user's
// own, else the project's (see checkRun).
func mcpServers(in map[string]tickcfg.MCPServer, check func(dir string, words []string) func(string) error) ([]mcp.Server, error) {
	var out []mcp.Server
	for name, s := range in {
		var timeout time.Duration
		if s.Timeout != "" {
			d, err := time.ParseDuration(s.Timeout)
			if err != nil || d <= 0 {
				return nil, usagef("mcp_servers.%s.timeout: %q is not a duration such as 60s", name, s.Timeout)
			}
			timeout = d
		}
		srv := mcp.Server{Name: name, Command: s.Command, Args: s.Args, Env: s.Env, Cwd: s.Cwd, URL: s.URL, Headers: s.Headers, Timeout: timeout, Project: check != nil}
		if check != nil && s.URL == "" {
			c := check(s.Cwd, append([]string{s.Command}, s.Args...))
			srv.Check = func() error { return c("") }
		}
		out = append(out, srv)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// hookConfig converts the config's hooks; check is nil for the user's
// own, else the project's (see checkRun).
func hookConfig(in tickcfg.Hooks, check func(dir string, words []string) func(string) error) (hooks.Config, error) {
	conv := func(event string, hs []tickcfg.Hook) ([]hooks.Hook, error) {
		var out []hooks.Hook
		for i, h := range hs {
			var d time.Duration
			if h.Timeout != "" {
				var err error
				if d, err = time.ParseDuration(h.Timeout); err != nil || d <= 0 {
					return nil, usagef("hooks.%s[%d].timeout: %q is not a duration such as 10s", event, i, h.Timeout)
				}
			}
			hk := hooks.Hook{Matcher: h.Matcher, Command: h.Command, Timeout: d}
			if check != nil {
				hk.Check = check("", sandbox.ShellWords(h.Command))
			}
			out = append(out, hk)
		}
		return out, nil
	}
	var c hooks.Config
	var err error
	if c.PreToolUse, err = conv("pre_tool_use", in.PreToolUse); err != nil {
		return c, err
	}
	if c.PostToolUse, err = conv("post_tool_use", in.PostToolUse); err != nil {
		return c, err
	}
	if c.UserPromptSubmit, err = conv("user_prompt_submit", in.UserPromptSubmit); err != nil {
		return c, err
	}
	c.Stop, err = conv("stop", in.Stop)
	return c, err
}
