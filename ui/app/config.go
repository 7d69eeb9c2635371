package app

import (
	"errors"
	"flag"
	"fmt"
	"github.com/tick-agent/tick/agent/checkpoint"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	tickcfg "github.com/tick-agent/tick/agent/config"
	"github.com/tick-agent/tick/agent/instructions"
	"github.com/tick-agent/tick/agent/permission"
	"github.com/tick-agent/tick/agent/sandbox"
	"github.com/tick-agent/tick/provider"
)

// Version is tick's release; the build's VCS revision is added to it by
// versionString.
const Version = "0.1.0-dev"

// defaultModel is the model used when neither --model nor TICK_MODEL says
// otherwise. gpt-4.1-mini is the provider's default because it is cheap and
// fast, follows tool-calling instructions (including the todo discipline)
// reliably, has a 1M-token context window, and streams for every API key,
// whereas some newer reasoning models need a verified organisation to
// stream and spend much longer thinking before each tool call.
const defaultModel = provider.DefaultModel

// config is everything tick was asked to do, from its flags, the
// environment and the config files (settings, loaded once here and handed
// down; apiKey, baseURL, model and contextWindow are its resolution).
type config struct {
	// Headless (-p).
	prompt   string // the prompt; "-" means read it from stdin
	headless bool   // -p was given
	json     bool   // --json: events as JSON lines
	verbose  bool   // --verbose: more progress on stderr
	noColor  bool   // NO_COLOR is set or TERM is dumb

	// The model, resolved from flags, environment and config files.
	apiKey  string // OPENAI_API_KEY or the provider's key
	baseURL string // --base-url, OPENAI_BASE_URL or the provider's base_url
	model   string // --model, TICK_MODEL or the files' model
	// settings are the effective config-file settings with their sources;
	// nil only for --help and --version.
	settings *tickcfg.Settings
	flags    tickcfg.Flags // the model flags, to load the settings again
	notices  []string      // shown at the top of the full-screen app's chat
	// ext are the MCP servers, hooks and custom commands (see
	// newExtensions); nil in the subcommands.
	ext *extensions

	// The project instructions (AGENTS.md files) and the line naming them.
	instructions     instructions.Set
	instructionsLine string

	// The agent.
	yolo          bool              // --yolo: approve every tool call
	plan          bool              // --plan: start in plan mode
	undo          *checkpoint.Store // the workspace's undo points; nil: undo is off
	noReminder    bool              // --completion-reminder=false (else completion_reminder)
	workspace     string            // -C/--workspace, absolute; default the working directory
	contextWindow int               // --context-window; 0 picks from the model name
	envAllow      []string          // --env-allow NAME (repeatable): secrets commands may see
	sandbox       sandbox.Mode      // --sandbox MODE
	idleTimeout   time.Duration     // --idle-timeout or idle_timeout; 0: the provider's default, <0: none
	runner        *sandbox.Runner   // built by run from the above; nil: plain bash
	rules         permission.Rules  // the config file's allow and deny rules

	// The full-screen app.
	colorFGBG string // COLORFGBG, a fallback for the background colour
	// drawn is closed once the app's first frame is on screen (at once
	// when headless): background work that start-up does not need (the
	// sandbox probe, the first undo snapshot) waits for it, so that it
	// does not compete with the first frame for the CPU.
	drawn chan struct{}
	// served is the app's background question to a self-hosted server
	// about its context size (nil: not asked; see startDiscovery).
	served *servedWindow

	// Sessions.
	cont      bool   // -c/--continue: reopen the workspace's latest session
	resume    string // --resume ID: reopen that session (a unique prefix is enough)
	noSession bool   // --no-session: save nothing
	cmd       string // a subcommand: "sessions", "config" or "config path"

	// The full-screen app's first prompt: tick "fix the build".
	initial string
	// Where the app keeps the workspace's prompt history ("": nowhere);
	// set by run, not by a flag.
	historyFile string

	help    bool // -h/--help
	version bool // --version
}

// usageError is a mistake in how tick was invoked or configured: exit 2.
// help adds a pointer to --help after the message.
type usageError struct {
	msg  string
	help bool
}

func (e *usageError) Error() string { return e.msg }

// usagef returns a usageError that points to --help.
func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...), help: true}
}

// parseConfig reads args (without the program name) and the environment.
// Flag syntax is Go's: -flag and --flag are the same, values follow as
// "--model x" or "--model=x". Errors are usageErrors, except a failure to
// find the working directory.
func parseConfig(args []string, env func(string) string) (config, error) {
	var c config
	switch {
	case len(args) > 1 && args[0] == "config" && args[1] == "path":
		c.cmd, args = "config path", args[2:]
	case len(args) > 0 && (args[0] == "sessions" || args[0] == "config" || args[0] == "doctor"):
		c.cmd, args = args[0], args[1:]
	case len(args) > 0 && args[0] == "mcp":
		if len(args) < 2 || (args[1] != "list" && args[1] != "trust") {
			return c, usagef("tick mcp takes list or trust: tick mcp list, tick mcp trust")
		}
		c.cmd, args = "mcp "+args[1], args[2:]
	}
	var flags tickcfg.Flags
	fs := flag.NewFlagSet("tick", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // run prints the error, and the usage for -h
	fs.Usage = func() {}
	prompt := fs.String("p", "", "")
	fs.BoolVar(&c.json, "json", false, "")
	fs.BoolVar(&c.verbose, "verbose", false, "")
	fs.StringVar(&flags.Model, "model", "", "")
	fs.StringVar(&flags.BaseURL, "base-url", "", "")
	fs.StringVar(&flags.Provider, "provider", "", "")
	fs.BoolVar(&c.yolo, "yolo", false, "")
	fs.BoolVar(&c.plan, "plan", false, "")
	reminder := fs.Bool("completion-reminder", true, "")
	fs.StringVar(&c.workspace, "C", "", "")
	fs.StringVar(&c.workspace, "workspace", "", "")
	fs.IntVar(&c.contextWindow, "context-window", 0, "")
	fs.BoolVar(&c.cont, "c", false, "")
	fs.BoolVar(&c.cont, "continue", false, "")
	fs.StringVar(&c.resume, "resume", "", "")
	fs.Func("sandbox", "", func(v string) error {
		m, err := sandbox.ParseMode(v)
		c.sandbox = m
		return err
	})
	fs.Func("env-allow", "", func(v string) error {
		v = strings.TrimSpace(v)
		if v == "" || strings.ContainsAny(v, "= \t") {
			return fmt.Errorf("--env-allow needs a variable name, not %q", v)
		}
		c.envAllow = append(c.envAllow, v)
		return nil
	})
	fs.Func("idle-timeout", "", func(v string) error {
		d, err := time.ParseDuration(strings.TrimSpace(v))
		switch {
		case err != nil || d < 0:
			return fmt.Errorf("--idle-timeout needs a duration such as 90s or 5m (0 for none), not %q", v)
		case d == 0:
			d = -1 // none
		}
		c.idleTimeout = d
		return nil
	})
	fs.BoolVar(&c.noSession, "no-session", false, "")
	fs.BoolVar(&c.version, "version", false, "")
	fs.BoolVar(&c.help, "h", false, "")
	fs.BoolVar(&c.help, "help", false, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return config{help: true}, nil
		}
		return c, usagef("%v", err)
	}
	if c.help || c.version {
		return c, nil
	}
	resumeSet := false
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "p":
			c.headless = true
		case "resume":
			resumeSet = true
		}
	})
	c.resume = strings.TrimSpace(c.resume)
	if resumeSet && c.resume == "" {
		return c, usagef("--resume needs a session id (see tick sessions)")
	}
	c.prompt = *prompt
	c.noReminder = !*reminder
	if fs.NArg() > 0 {
		switch {
		case c.cmd != "":
			return c, usagef("unexpected argument %q: tick %s takes no arguments", fs.Arg(0), c.cmd)
		case c.headless:
			return c, usagef("unexpected argument %q: -p takes the prompt as its value (quote it: -p \"fix the build\"), and flags go before it", fs.Arg(0))
		}
		c.initial = strings.TrimSpace(strings.Join(fs.Args(), " "))
	}
	if err := c.checkSessionFlags(); err != nil {
		return c, err
	}
	if c.headless && strings.TrimSpace(c.prompt) == "" {
		return c, usagef("-p needs a prompt (or - to read it from stdin)")
	}
	if !c.headless && c.cmd == "" {
		for _, f := range []struct {
			set  bool
			name string
		}{{c.json, "--json"}, {c.verbose, "--verbose"}} {
			if f.set {
				return c, usagef("%s works only with -p PROMPT", f.name)
			}
		}
	}
	if c.contextWindow < 0 {
		return c, usagef("--context-window must be a positive number of tokens, not %d", c.contextWindow)
	}

	c.noColor = env("NO_COLOR") != "" || env("TERM") == "dumb"
	c.colorFGBG = env("COLORFGBG")

	ws, err := workspaceDir(c.workspace)
	if err != nil {
		return c, err
	}
	c.workspace = ws
	flags.ContextWindow = c.contextWindow
	c.flags = flags
	if err := c.loadSettings(flags, env); err != nil {
		return c, err
	}
	return c, nil
}

// loadSettings reads the config files and resolves them with the flags
// and the environment into c.settings and the model fields. A bad file is
// a usageError "path:line: ...".
func (c *config) loadSettings(flags tickcfg.Flags, env func(string) string) error {
	s, err := tickcfg.Load(tickcfg.Options{Env: env, Workspace: c.workspace, Flags: flags})
	if err != nil {
		return &usageError{msg: err.Error()}
	}
	c.settings = s
	c.apiKey, c.baseURL, c.model, c.contextWindow = s.APIKey, s.BaseURL, s.Model, s.ContextWindow
	if c.sandbox == "" {
		m, err := sandbox.ParseMode(s.Sandbox)
		if err != nil {
			return &usageError{msg: fmt.Sprintf("config: sandbox: %v", err)}
		}
		c.sandbox = m
	}
	switch s.Network {
	case "", sandbox.NetworkLoopback:
	default:
		return &usageError{msg: fmt.Sprintf("config: network = %q: use \"loopback\" or leave it out (no network)", s.Network)}
	}
	c.envAllow = append(c.envAllow, s.EnvAllow...)
	if c.idleTimeout == 0 && s.IdleTimeout != "" {
		if c.idleTimeout = s.IdleTimeoutDuration(); c.idleTimeout == 0 {
			c.idleTimeout = -1 // "0s": none
		}
	}
	if c.rules, err = permission.ParseRules(s.Allow, s.Deny); err != nil {
		return &usageError{msg: fmt.Sprintf("config: %v", err)}
	}
	return nil
}

// checkSessionFlags refuses combinations of the session flags that make no
// sense.
func (c config) checkSessionFlags() error {
	switch {
	case strings.HasPrefix(c.cmd, "config") && (c.headless || c.cont || c.resume != "" || c.yolo || c.json):
		return usagef("tick %s takes only -C DIR and the model flags", c.cmd)
	case strings.HasPrefix(c.cmd, "mcp") && (c.headless || c.cont || c.resume != "" || c.yolo):
		return usagef("tick %s takes only -C DIR and --json", c.cmd)
	case c.cmd == "doctor" && (c.headless || c.cont || c.resume != "" || c.yolo || c.json):
		return usagef("tick doctor takes only -C DIR and --sandbox MODE")
	case c.cmd == "sessions" && (c.headless || c.cont || c.resume != "" || c.yolo):
		return usagef("tick sessions only lists this workspace's sessions; it takes -C DIR and --json")
	case c.cont && c.resume != "":
		return usagef("give either --continue or --resume ID, not both")
	}
	return nil
}

// checkModelConfig says what to set when tick cannot reach any model.
func (c config) checkModelConfig() error {
	if !c.settings.Configured() {
		file := c.settings.UserFile
		if file == "" {
			file = "$XDG_CONFIG_HOME/tick/config.toml"
		}
		return &usageError{msg: "no model configured: run tick (without -p) to set one up, or write " + file +
			", or set OPENAI_API_KEY for OpenAI, or OPENAI_BASE_URL (or --base-url) for another OpenAI-compatible server such as Ollama (http://localhost:11434/v1)"}
	}
	if err := c.settings.NeedsKey(); err != nil {
		return &usageError{msg: err.Error()}
	}
	return nil
}

// workspaceDir returns dir (default: the working directory) as an absolute
// path, checking that it is a directory.
func workspaceDir(dir string) (string, error) {
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("find the current directory for the workspace: %w", err)
		}
		dir = wd
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", usagef("workspace %q: %v", dir, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", usagef("workspace %q: %v", dir, err)
	}
	if !st.IsDir() {
		return "", usagef("workspace %q is not a directory", dir)
	}
	return abs, nil
}

// versionString is "tick VERSION", with the VCS revision when the binary
// was built from a checkout.
func versionString() string {
	s := "tick " + Version
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return s
	}
	var rev, dirty string
	for _, kv := range info.Settings {
		switch kv.Key {
		case "vcs.revision":
			rev = kv.Value
		case "vcs.modified":
			if kv.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" {
		s += " (" + rev + dirty + ")"
	}
	return s + " " + info.GoVersion
}

// usageText is the --help text.
const usageText = `tick is a terminal coding agent: it plans multi-step work as a todo list,
keeps the list up to date while it works, and talks to any OpenAI-compatible
Chat Completions server.

Usage:
  tick [flags]              open the full-screen app in the workspace
  tick [flags] "PROMPT"     the same, with PROMPT sent as the first message
  tick -p PROMPT [flags]    run one turn headless: the answer on stdout,
                            progress (todo lists, tool calls) on stderr
  tick -p - [flags]         the same, reading the prompt from stdin
  tick -c [flags]           carry on with the workspace's latest session
                            (with -p too: tick -c -p "carry on")
  tick sessions [--json]    list the workspace's sessions, newest first
  tick config               print the effective settings and where each
                            came from (keys masked)
  tick config path          print the config file's path
  tick doctor               say what the command sandbox can do on this machine,
                            what it cannot and why, and whether git is there
  tick mcp list             start the MCP servers, list their state and tools
  tick mcp trust            allow this project's MCP servers and hooks
                            (from its .tick/config.toml), once

Flags:
  -p PROMPT            run headless with this prompt ("-" reads stdin)
  --json               with -p: write every event as one JSON line on stdout
  --verbose            with -p: also show the model's text between tool calls,
                       its reasoning, commands' output as it comes, tool
                       results and token use on stderr
  --model NAME         model name (default: $TICK_MODEL, else the config
                       file's model, else ` + defaultModel + `)
  --provider NAME      a provider of the config file, or a preset: openai,
                       openrouter, deepseek, groq, mistral, ollama, lmstudio,
                       llamacpp, vllm, jan
  --base-url URL       API root of an OpenAI-compatible server (default:
                       $OPENAI_BASE_URL, else the provider's, else OpenAI's)
  --sandbox MODE       confine the model's commands: workspace-write (default:
                       writes only in the workspace, its .git read-only, no
                       network), read-only, or danger-full-access (none)
  --env-allow NAME     let commands see the environment variable NAME even
                       though its name looks like a secret (repeatable)
  --yolo               run commands and file changes without asking; with -p,
                       they are refused unless --yolo is given
  --plan               plan mode: the model investigates and proposes a plan
                       without changing anything; with -p the plan is printed
                       as Markdown after the answer
  --completion-reminder=false
                       do not remind the model of open todo items when it
                       ends its turn (it is reminded once per turn)
  -C, --workspace DIR  the directory tick works in (default: the current one)
  --context-window N   the model's context size in tokens (default: from the
                       model name, 128k when unknown); tick compacts the
                       conversation when a request comes near it
  --idle-timeout D     end a model call when the server sends nothing for D
                       (default 5m; 0 for none; config key idle_timeout)
  -c, --continue       reopen the latest session of the workspace
  --resume ID          reopen the session ID (a unique prefix is enough)
  --no-session         do not save this session
  --version            print the version and exit
  -h, --help           print this help and exit

Configuration:
  $XDG_CONFIG_HOME/tick/config.toml (default ~/.config/tick/config.toml),
  then the project's .tick/config.toml, which may not set base URLs, keys
  or commands. Flags win over the environment, which wins over the files:

    provider = "local"
    model = "qwen2.5-coder:7b"
    [providers.local]
    base_url = "http://127.0.0.1:11434/v1"
    api_key_env = "MY_KEY_VAR"   # or api_key = "..." in a 0600 file
    context_window = 32768

Environment:
  OPENAI_API_KEY   API key; not needed for a local server set with OPENAI_BASE_URL
  OPENAI_BASE_URL  API root, e.g. http://localhost:11434/v1 for Ollama
  TICK_MODEL       the default model name
  NO_COLOR         set to disable colours in -p progress output
  XDG_CONFIG_HOME  the config file is $XDG_CONFIG_HOME/tick/config.toml
  OLLAMA_HOST      the setup screen also looks for Ollama there
  TICK_LOCAL_SERVERS  the API roots the setup screen looks for instead of
                   the usual local ports (comma-separated; NAME=URL names
                   a preset, e.g. ollama=http://127.0.0.1:11500/v1)
  XDG_STATE_HOME   sessions are saved in $XDG_STATE_HOME/tick/sessions
                   (default ~/.local/state/tick/sessions), the prompt
                   history in $XDG_STATE_HOME/tick/history

Keys in the full-screen app (? shows them all):
  enter sends (steers a running turn), tab completes /commands (queues
  while a turn runs, never sends on an idle screen), ↑ recalls earlier
  prompts (kept across restarts), ctrl+r retries a failed turn, esc
  interrupts, ctrl+o shows a tool's whole output (live while it runs),
  ctrl+c twice or ctrl+d on an empty input quits. Approval dialogs take
  y / a / n only after a pause: keys typed while you type go to the input.

Exit status:
  0 the turn finished, 1 it failed (the error is on stderr), 2 bad usage or
  configuration, 130 interrupted by ctrl+c (SIGINT), 143 terminated (SIGTERM).

Examples:
  OPENAI_API_KEY=sk-... tick
  tick "fix the build"
  tick -p "what does main.go do?"
  tick -p "add a --verbose flag and test it" --yolo
  echo "fix the failing test" | tick -p - --yolo --json
  tick -c -p "carry on" --yolo
  OPENAI_BASE_URL=http://localhost:11434/v1 tick --model qwen2.5-coder
`
