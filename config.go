package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/tick-agent/tick/provider"
)

// version is tick's release; the build's VCS revision is added to it by
// versionString.
const version = "0.1.0-dev"

// defaultModel is the model used when neither --model nor TICK_MODEL says
// otherwise. gpt-4.1-mini is the provider's default because it is cheap and
// fast, follows tool-calling instructions (including the todo discipline)
// reliably, has a 1M-token context window, and streams for every API key,
// whereas some newer reasoning models need a verified organisation to
// stream and spend much longer thinking before each tool call.
const defaultModel = provider.DefaultModel

// config is everything tick was asked to do, from its flags and the
// environment.
type config struct {
	// Headless (-p).
	prompt   string // the prompt; "-" means read it from stdin
	headless bool   // -p was given
	json     bool   // --json: events as JSON lines
	verbose  bool   // --verbose: more progress on stderr
	noColor  bool   // NO_COLOR is set or TERM is dumb

	// The model.
	apiKey  string // OPENAI_API_KEY
	baseURL string // --base-url or OPENAI_BASE_URL
	model   string // --model or TICK_MODEL

	// The agent.
	yolo          bool   // --yolo: approve every tool call
	plan          bool   // --plan: start in plan mode
	noReminder    bool   // --completion-reminder=false
	workspace     string // -C/--workspace, absolute; default the working directory
	contextWindow int    // --context-window; 0 picks from the model name

	// The full-screen app.
	colorFGBG string // COLORFGBG, a fallback for the background colour

	// Sessions.
	cont      bool   // -c/--continue: reopen the workspace's latest session
	resume    string // --resume ID: reopen that session (a unique prefix is enough)
	noSession bool   // --no-session: save nothing
	cmd       string // a subcommand: "sessions"

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
	if len(args) > 0 && args[0] == "sessions" {
		c.cmd, args = args[0], args[1:]
	}
	fs := flag.NewFlagSet("tick", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // run prints the error, and the usage for -h
	fs.Usage = func() {}
	prompt := fs.String("p", "", "")
	fs.BoolVar(&c.json, "json", false, "")
	fs.BoolVar(&c.verbose, "verbose", false, "")
	fs.StringVar(&c.model, "model", "", "")
	fs.StringVar(&c.baseURL, "base-url", "", "")
	fs.BoolVar(&c.yolo, "yolo", false, "")
	fs.BoolVar(&c.plan, "plan", false, "")
	reminder := fs.Bool("completion-reminder", true, "")
	fs.StringVar(&c.workspace, "C", "", "")
	fs.StringVar(&c.workspace, "workspace", "", "")
	fs.IntVar(&c.contextWindow, "context-window", 0, "")
	fs.BoolVar(&c.cont, "c", false, "")
	fs.BoolVar(&c.cont, "continue", false, "")
	fs.StringVar(&c.resume, "resume", "", "")
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
		if c.cmd != "" {
			return c, usagef("unexpected argument %q: tick %s takes no arguments", fs.Arg(0), c.cmd)
		}
		return c, usagef("unexpected argument %q: give the prompt with -p PROMPT, or run tick without arguments for the full-screen app", fs.Arg(0))
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
	c.apiKey = strings.TrimSpace(env("OPENAI_API_KEY"))
	if c.baseURL == "" {
		c.baseURL = strings.TrimSpace(env("OPENAI_BASE_URL"))
	}
	if c.model == "" {
		c.model = strings.TrimSpace(env("TICK_MODEL"))
	}
	if c.model == "" {
		c.model = defaultModel
	}

	ws, err := workspaceDir(c.workspace)
	if err != nil {
		return c, err
	}
	c.workspace = ws
	return c, nil
}

// checkSessionFlags refuses combinations of the session flags that make no
// sense.
func (c config) checkSessionFlags() error {
	switch {
	case c.cmd == "sessions" && (c.headless || c.cont || c.resume != "" || c.yolo):
		return usagef("tick sessions only lists this workspace's sessions; it takes -C DIR and --json")
	case c.cont && c.resume != "":
		return usagef("give either --continue or --resume ID, not both")
	}
	return nil
}

// checkModelConfig says what to set when tick cannot reach any model.
func (c config) checkModelConfig() error {
	if c.apiKey == "" && c.baseURL == "" {
		return &usageError{msg: "no model configured: set OPENAI_API_KEY for OpenAI, or OPENAI_BASE_URL (or --base-url) for another OpenAI-compatible server such as Ollama (http://localhost:11434/v1)"}
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
	s := "tick " + version
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
  tick -p PROMPT [flags]    run one turn headless: the answer on stdout,
                            progress (todo lists, tool calls) on stderr
  tick -p - [flags]         the same, reading the prompt from stdin
  tick -c [flags]           carry on with the workspace's latest session
                            (with -p too: tick -c -p "carry on")
  tick sessions [--json]    list the workspace's sessions, newest first

Flags:
  -p PROMPT            run headless with this prompt ("-" reads stdin)
  --json               with -p: write every event as one JSON line on stdout
  --verbose            with -p: also show the model's text between tool calls,
                       its reasoning, tool output and token use on stderr
  --model NAME         model name (default: $TICK_MODEL, else ` + defaultModel + `)
  --base-url URL       API root of an OpenAI-compatible server
                       (default: $OPENAI_BASE_URL, else the OpenAI API)
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
  -c, --continue       reopen the latest session of the workspace
  --resume ID          reopen the session ID (a unique prefix is enough)
  --no-session         do not save this session
  --version            print the version and exit
  -h, --help           print this help and exit

Environment:
  OPENAI_API_KEY   API key; not needed for a local server set with OPENAI_BASE_URL
  OPENAI_BASE_URL  API root, e.g. http://localhost:11434/v1 for Ollama
  TICK_MODEL       the default model name
  NO_COLOR         set to disable colours in -p progress output
  XDG_STATE_HOME   sessions are saved in $XDG_STATE_HOME/tick/sessions
                   (default ~/.local/state/tick/sessions)

Exit status:
  0 the turn finished, 1 it failed (the error is on stderr), 2 bad usage or
  configuration, 130 interrupted by ctrl+c (SIGINT), 143 terminated (SIGTERM).

Examples:
  OPENAI_API_KEY=sk-... tick
  tick -p "what does main.go do?"
  tick -p "add a --verbose flag and test it" --yolo
  echo "fix the failing test" | tick -p - --yolo --json
  tick -c -p "carry on" --yolo
  OPENAI_BASE_URL=http://localhost:11434/v1 tick --model qwen2.5-coder
`
