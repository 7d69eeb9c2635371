package app

import (
	"fmt"
	"runtime/debug"

	"github.com/tick-agent/tick/agent/checkpoint"

	tickcfg "github.com/tick-agent/tick/agent/config"
	"github.com/tick-agent/tick/agent/instructions"
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

// config is everything tick was asked to do and what Main built for it:
// the run's settings, resolved once by agent/config (the only source of
// the model, the base URL, the sandbox and the rest), and the live
// handles wired from them.
type config struct {
	tickcfg.Run
	live
}

// live are the handles and state Main builds from the settings; the zero
// value is what a subcommand has.
type live struct {
	notices []string // shown at the top of the full-screen app's chat
	// args are the command line as given, for a failure before the flags
	// parsed to say whether -p asked for JSON (see failJSON).
	args []string
	// ext are the MCP servers, hooks and custom commands (see
	// newExtensions); nil in the subcommands.
	ext *extensions

	// The project instructions (AGENTS.md files) and the line naming them.
	instructions     instructions.Set
	instructionsLine string

	undo   *checkpoint.Store // the workspace's undo points; nil: undo is off
	runner *sandbox.Runner   // built by Main from the settings; nil: plain bash

	// drawn is closed once the app's first frame is on screen (at once
	// when headless): background work that start-up does not need (the
	// sandbox probe, the first undo snapshot) waits for it, so that it
	// does not compete with the first frame for the CPU.
	drawn chan struct{}
	// served is the app's background question to a self-hosted server
	// about its context size (nil: not asked; see startDiscovery).
	served *servedWindow

	// Where the app keeps the workspace's prompt history ("": nowhere).
	historyFile string
	// Where the app keeps images pasted from the clipboard ("": nowhere;
	// ctrl+v then pastes text only).
	pasteDir string
}

// withModel returns c talking to model with a context window of window
// tokens (0: the server's and the built-in table's), on a copy of its
// settings, so that the config values held elsewhere (the background
// question to the server, the app's conversation) keep their own.
func (c config) withModel(model string, window int) config {
	s := *c.Settings
	s.Model, s.ContextWindow = model, window
	c.Settings = &s
	return c
}

// usageError is a mistake in how tick was invoked or configured: exit 2.
type usageError = tickcfg.UsageError

// usagef returns a usageError that points to --help.
func usagef(format string, args ...any) error {
	return &usageError{Msg: fmt.Sprintf(format, args...), Help: true}
}

// parseConfig reads args (without the program name) and resolves them
// with the environment and the config files (tickcfg.ParseArgs,
// tickcfg.Resolve). Errors are usageErrors, except a failure to find the
// working directory.
func parseConfig(args []string, env func(string) string) (config, error) {
	a, err := tickcfg.ParseArgs(args)
	if err != nil {
		return config{Run: tickcfg.Run{Args: a}, live: live{args: args}}, err
	}
	r, err := tickcfg.Resolve(a, env, projectTrusted(env))
	if err != nil && !r.Headless {
		r.Args = a // the flags say what a failure prints
	}
	return config{Run: r, live: live{args: args}}, err
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
  -p PROMPT            run headless with this prompt ("-" reads stdin; data
                       piped on stdin is appended to PROMPT)
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
                       writes only in the workspace, every .git read-only, no
                       network), read-only, or danger-full-access (none)
  --env-allow NAME     let commands see the environment variable NAME even
                       though its name looks like a secret (repeatable)
  --yolo               run commands and file changes without asking. Without it,
                       -p runs sandboxed commands and file changes inside the
                       workspace, and refuses the rest (commands the sandbox
                       cannot contain, changes outside the workspace); writes
                       into .git are refused even with it
  --output-format F    with -p: text (default), json (one result object at
                       the end) or stream-json (every event; also --json)
  --verify CMD         a turn is done only when CMD passes: it runs in the
                       workspace, sandboxed, when the model ends its turn; a
                       failure goes back to the model (verify_attempts, default
                       3; verify_timeout, default 10m); with -p a final failure
                       exits 4 (verify_failed). Config key verify; /verify
  --max-turns N        stop a turn after N model calls (default 200)
  --max-cost USD       stop a turn when its cost reaches USD (the server's
                       figure, else a price table of hosted models)
  --max-time D         stop a turn after D (e.g. 15m)
  --plan               plan mode: the model investigates and proposes a plan
                       without changing anything; with -p the plan is printed
                       as Markdown after the answer (json: the result's plan)
  --completion-reminder=false
                       do not remind the model of open todo items when it
                       ends its turn (it is reminded once per turn)
  -C, --workspace DIR  the directory tick works in (default: the current one)
  --context-window N   the model's context size in tokens (default: from the
                       model name, 128k when unknown); tick compacts the
                       conversation when a request comes near it
  --idle-timeout D     end a model call when the server sends nothing for D
                       (default 5m; 0 for none; config key idle_timeout)
  --reasoning-effort L how hard a reasoning model thinks: off, low, medium,
                       high (default: the server's; /think; reasoning_effort)
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
  0 the work was done, 1 it failed (the error is on stderr), 2 bad usage or
  configuration, 3 a tool refused or blocked by the sandbox, 4 open todo
  items, 5 empty answer, 6 budget reached, 7 auth, 8 rate limit, 9 context
  too long, 10 idle timeout, 130 interrupted (SIGINT), 143 SIGTERM.

Examples:
  OPENAI_API_KEY=sk-... tick
  tick "fix the build"
  tick -p "what does main.go do?"
  tick -p "add a --verbose flag and test it" --yolo
  echo "fix the failing test" | tick -p - --yolo --json
  tick -c -p "carry on" --yolo
  OPENAI_BASE_URL=http://localhost:11434/v1 tick --model qwen2.5-coder
`
