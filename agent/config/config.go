// Package config is tick's configuration: the typed shape of the TOML files,
// their loading and validation, and the resolution of flags, environment,
// project file, user file and defaults into one effective Settings value.
//
// The user file is $XDG_CONFIG_HOME/tick/config.toml (default
// ~/.config/tick/config.toml); the project file is .tick/config.toml in the
// workspace. Precedence, highest first: flags, the environment
// (OPENAI_API_KEY, OPENAI_BASE_URL, TICK_MODEL), the project file, the user
// file, the defaults. A project file comes with a repository the user may
// not have written, so it may not set base URLs or keys (refused with a
// warning), may not loosen the sandbox, and its MCP servers, hooks, allow
// rules and choice of provider are held apart as Pending until the user
// approves them (Options.Approved). Both files are read through safefile:
// a project file that is not a regular file inside the workspace, or is
// too large, is skipped with a warning.
//
// It also reads tick's command line (ParseArgs into Args) and resolves it
// with the environment and the files into a Run (Resolve): the one value
// the composition root (ui/app) takes the model, base URL, sandbox and
// the rest from.
//
// This package reads only the files and variables it is given through
// Options and Resolve; ui/app resolves them once at start-up and hands the
// Settings down. Other packages read their fields from Settings and never
// load files or read the environment themselves.
package config

import (
	"fmt"
	"time"

	"github.com/tick-agent/tick/provider"
)

// Config is the shape of a config.toml file. The key names are fixed: they
// are the file format users write.
type Config struct {
	// Provider names the entry of Providers (or a built-in preset such as
	// "openai" or "ollama") that tick talks to by default.
	Provider string `toml:"provider"`
	// Model is the default model name.
	Model string `toml:"model"`
	// Providers are the model servers the user has set up, by name.
	Providers map[string]Provider `toml:"providers"`
	// Sandbox is how commands are confined: "read-only", "workspace-write"
	// or "danger-full-access"; "" lets the sandbox choose its default.
	Sandbox string `toml:"sandbox"`
	// WritableRoots are directories besides the workspace that commands
	// may write.
	WritableRoots []string `toml:"writable_roots"`
	// Network is what a sandboxed command may reach: "" (nothing) or
	// "loopback".
	Network string `toml:"network"`
	// EnvAllow names the environment variables passed to commands.
	EnvAllow []string `toml:"env_allow"`
	// Allow are rules for tool calls that run without asking, such as
	// "bash(go test *)" or "write_file(.env)".
	Allow []string `toml:"allow"`
	// Deny are rules for tool calls that are refused outright.
	Deny []string `toml:"deny"`
	// IdleTimeout is a Go duration ("90s", "5m") after which a model call
	// whose server sent nothing (no headers, no first or next chunk) ends
	// with a timeout; "" keeps the default (5m), "0s" means none. The
	// --idle-timeout flag wins over it.
	IdleTimeout string `toml:"idle_timeout"`
	// ReasoningEffort is how hard a reasoning model is asked to think:
	// "off", "low", "medium" or "high"; "" leaves it to the server. The
	// --reasoning-effort flag and /think win over it.
	ReasoningEffort string `toml:"reasoning_effort"`
	// MCPStartTimeout is a Go duration ("10s") that a first request waits
	// at most for MCP servers still starting before it goes without them;
	// "" means DefaultMCPStartTimeout. It must be positive.
	MCPStartTimeout string `toml:"mcp_start_timeout"`
	// CompletionReminder turns the reminder to finish the todo list on or
	// off; nil means on.
	CompletionReminder *bool `toml:"completion_reminder"`
	// Mouse, when false, leaves the mouse to the terminal: its own
	// selection works and tick's (drag to select, wheel to scroll) does
	// not; nil means on.
	Mouse *bool `toml:"mouse"`
	// Theme picks the full-screen app's colours: "auto" (or "") follows
	// the terminal's background (asked, else COLORFGBG, else dark);
	// "light" and "dark" fix them, for terminals that do not answer. The
	// environment's TICK_THEME wins over it.
	Theme string `toml:"theme"`
	// MaxParallelTasks caps how many task calls of one answer run at the
	// same time (1 to MaxParallelTasksLimit); 0 leaves it to tick: 3 for
	// a hosted provider, else the slots the local server reports, else 1.
	MaxParallelTasks int `toml:"max_parallel_tasks"`
	// Verify is a command a turn must pass to be done (see verify.go);
	// VerifyTimeout (a Go duration, default 10m) and VerifyAttempts
	// (default 3) bound it. A project file's verify waits for /trust.
	Verify         string `toml:"verify"`
	VerifyTimeout  string `toml:"verify_timeout"`
	VerifyAttempts int    `toml:"verify_attempts"`
	// MCPServers are Model Context Protocol servers whose tools join the
	// registry, by name.
	MCPServers map[string]MCPServer `toml:"mcp_servers"`
	// Hooks are commands run around tool calls, prompts and turn ends.
	Hooks Hooks `toml:"hooks"`
	// MaxTurns, MaxCost (US dollars) and MaxTime (a Go duration) are the
	// budgets of a turn (see budget.go); the flags --max-turns, --max-cost
	// and --max-time win over them. Only the user file sets them.
	MaxTurns int     `toml:"max_turns"`
	MaxCost  float64 `toml:"max_cost"`
	MaxTime  string  `toml:"max_time"`
	// Web tunes the web_fetch tool. Only the user file may set it.
	Web Web `toml:"web"`
}

// Web is the [web] table: the hosts web_fetch reaches without asking.
type Web struct {
	// Allow are host names ("docs.example.org", "*.go.dev" for the
	// subdomains too) fetched without asking, offered in plan mode and
	// -p, and the only hosts that may be on a loopback, link-local or
	// private address: an IP address on it is dialled as it is, a name
	// only on a public address unless AllowPrivate names it too.
	Allow []string `toml:"allow"`
	// AllowPrivate are host names (as Allow) that may resolve to a
	// loopback, link-local, private or reserved address, or one of this
	// machine's own (allow_private = ["intranet.example"]).
	AllowPrivate []string `toml:"allow_private"`
}

// Provider is one OpenAI-compatible server.
type Provider struct {
	// BaseURL is the API root, e.g. http://127.0.0.1:11434/v1.
	BaseURL string `toml:"base_url"`
	// APIKeyEnv names the environment variable that holds the key.
	APIKeyEnv string `toml:"api_key_env"`
	// APIKey is the key itself; the file holding it must be mode 0600.
	APIKey string `toml:"api_key"`
	// ContextWindow is the served context size in tokens; 0 leaves it to
	// discovery and the built-in table.
	ContextWindow int `toml:"context_window"`
	// Images says whether the model takes images; nil means try, and
	// stop sending them once the server refuses one.
	Images *bool `toml:"images"`
	// Prices are what the provider's models cost, by model name, in US
	// dollars per million tokens ([providers.NAME.prices."MODEL"]); they
	// override tick's built-in table (see Settings.PriceOf).
	Prices map[string]provider.Price `toml:"prices"`
}

// MCPServer is one MCP server: a command to start (stdio) or a URL
// (streamable HTTP).
type MCPServer struct {
	Command string            `toml:"command"`
	Args    []string          `toml:"args"`
	Env     map[string]string `toml:"env"`
	Cwd     string            `toml:"cwd"`
	URL     string            `toml:"url"`
	Headers map[string]string `toml:"headers"`
	// Timeout is a Go duration for each request; "" keeps the default.
	Timeout string `toml:"timeout"`
}

// Hooks are the commands run at each point of a turn.
type Hooks struct {
	PreToolUse       []Hook `toml:"pre_tool_use"`
	PostToolUse      []Hook `toml:"post_tool_use"`
	UserPromptSubmit []Hook `toml:"user_prompt_submit"`
	Stop             []Hook `toml:"stop"`
}

// Empty reports whether no hook is set.
func (h Hooks) Empty() bool {
	return len(h.PreToolUse)+len(h.PostToolUse)+len(h.UserPromptSubmit)+len(h.Stop) == 0
}

// Hook is one hook command; Matcher selects the tools it runs for (empty:
// all).
type Hook struct {
	Matcher string `toml:"matcher"`
	Command string `toml:"command"`
	// Timeout is a Go duration; "" keeps the default.
	Timeout string `toml:"timeout"`
}

// Sandbox levels, loosest last.
const (
	SandboxReadOnly       = "read-only"
	SandboxWorkspaceWrite = "workspace-write"
	SandboxFullAccess     = "danger-full-access"
)

// NetworkLoopback lets sandboxed commands reach 127.0.0.1 and ::1 only.
const NetworkLoopback = "loopback"

// sandboxRank orders the sandbox levels from strictest to loosest; "" is
// the default and ranks as workspace-write.
func sandboxRank(s string) int {
	switch s {
	case SandboxReadOnly:
		return 0
	case SandboxFullAccess:
		return 2
	}
	return 1
}

// IdleTimeoutDuration returns IdleTimeout parsed; 0 when unset. Load has
// already refused a value that does not parse.
func (c Config) IdleTimeoutDuration() time.Duration {
	d, _ := time.ParseDuration(c.IdleTimeout)
	return d
}

// MaxParallelTasksLimit is the largest max_parallel_tasks.
const MaxParallelTasksLimit = 16

// DefaultMCPStartTimeout is MCPStartTimeout's value when it is not set.
const DefaultMCPStartTimeout = 30 * time.Second

// MCPStartTimeoutDuration returns MCPStartTimeout parsed, or
// DefaultMCPStartTimeout when it is unset. Load has already refused a
// value that does not parse or is not positive.
func (c Config) MCPStartTimeoutDuration() time.Duration {
	if d, err := time.ParseDuration(c.MCPStartTimeout); err == nil && d > 0 {
		return d
	}
	return DefaultMCPStartTimeout
}

// ImagesOff reports whether the user file's [providers.NAME] says the
// provider's models take no images (images = false).
func (c Config) ImagesOff(name string) bool {
	p, ok := c.Providers[name]
	return ok && p.Images != nil && !*p.Images
}

// CompletionReminderOn reports whether the completion reminder is on (the
// default).
func (c Config) CompletionReminderOn() bool {
	return c.CompletionReminder == nil || *c.CompletionReminder
}

// MouseOn reports whether tick takes the mouse (mouse is not false).
func (c Config) MouseOn() bool { return c.Mouse == nil || *c.Mouse }

// validate checks the values the file format constrains; key is the
// dotted path of the offending key for the caller to locate.
func (c Config) validate() (key string, err error) {
	switch c.Sandbox {
	case "", SandboxReadOnly, SandboxWorkspaceWrite, SandboxFullAccess:
	default:
		return "sandbox", fmt.Errorf("sandbox = %q: want %q, %q or %q", c.Sandbox, SandboxReadOnly, SandboxWorkspaceWrite, SandboxFullAccess)
	}
	switch c.Theme {
	case "", "auto", "light", "dark":
	default:
		return "theme", fmt.Errorf("theme = %q: want \"auto\", \"light\" or \"dark\"", c.Theme)
	}
	if c.Network != "" && c.Network != NetworkLoopback {
		return "network", fmt.Errorf("network = %q: want \"\" (none) or %q", c.Network, NetworkLoopback)
	}
	if err := checkDuration("idle_timeout", c.IdleTimeout); err != nil {
		return "idle_timeout", err
	}
	if !effortLevel(c.ReasoningEffort) {
		return "reasoning_effort", fmt.Errorf("reasoning_effort = %q: want off, low, medium or high", c.ReasoningEffort)
	}
	if key, err := c.validateBudget(); err != nil {
		return key, err
	}
	if key, err := c.validateVerify(); err != nil {
		return key, err
	}
	if d, err := time.ParseDuration(c.MCPStartTimeout); c.MCPStartTimeout != "" && (err != nil || d <= 0) {
		return "mcp_start_timeout", fmt.Errorf("mcp_start_timeout = %q: want a positive duration such as \"10s\"", c.MCPStartTimeout)
	}
	if c.MaxParallelTasks < 0 || c.MaxParallelTasks > MaxParallelTasksLimit {
		return "max_parallel_tasks", fmt.Errorf("max_parallel_tasks = %d: want 1 to %d (0 or absent: tick chooses)", c.MaxParallelTasks, MaxParallelTasksLimit)
	}
	for name, p := range c.Providers {
		if p.ContextWindow < 0 {
			return "context_window", fmt.Errorf("providers.%s.context_window = %d: want a positive number of tokens", name, p.ContextWindow)
		}
		for model, pr := range p.Prices {
			if !pr.Valid() {
				return "prices", fmt.Errorf("providers.%s.prices.%q: want input, cached_input and output as non-negative US dollars per million tokens", name, model)
			}
		}
		if p.BaseURL != "" {
			if err := checkURL(p.BaseURL); err != nil {
				return "base_url", fmt.Errorf("providers.%s.base_url: %w", name, err)
			}
		}
	}
	for name, s := range c.MCPServers {
		if (s.Command == "") == (s.URL == "") {
			return "mcp_servers", fmt.Errorf("mcp_servers.%s: set either command or url", name)
		}
		if err := checkDuration("mcp_servers."+name+".timeout", s.Timeout); err != nil {
			return "timeout", err
		}
	}
	return c.Hooks.validate()
}

// validate checks every hook has a command and a valid timeout.
func (h Hooks) validate() (string, error) {
	for _, set := range []struct {
		name  string
		hooks []Hook
	}{{"pre_tool_use", h.PreToolUse}, {"post_tool_use", h.PostToolUse}, {"user_prompt_submit", h.UserPromptSubmit}, {"stop", h.Stop}} {
		for i, hk := range set.hooks {
			if hk.Command == "" {
				return set.name, fmt.Errorf("hooks.%s[%d]: command is empty", set.name, i)
			}
			if err := checkDuration(fmt.Sprintf("hooks.%s[%d].timeout", set.name, i), hk.Timeout); err != nil {
				return "timeout", err
			}
		}
	}
	return "", nil
}

// checkDuration refuses a duration that does not parse or is negative.
func checkDuration(key, s string) error {
	if s == "" {
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return fmt.Errorf("%s = %q: want a duration such as \"90s\" or \"5m\"", key, s)
	}
	return nil
}

// effortLevel reports whether s names a thinking level: off (none), low,
// medium, high, default or "" (the last two: the server's own), as
// provider.ParseEffort reads them.
func effortLevel(s string) bool {
	_, err := provider.ParseEffort(s)
	return err == nil
}
