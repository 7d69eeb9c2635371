package config

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tick-agent/tick/agent/sandbox"
)

// Args is what tick's command line asks for, parsed but not yet resolved
// with the environment and the files (Resolve does that).
type Args struct {
	// Cmd is the subcommand: "", "sessions", "config", "config path",
	// "doctor", "mcp list" or "mcp trust".
	Cmd string

	// Headless (-p).
	Prompt   string // the prompt; "-" means read it from stdin
	Headless bool   // -p was given
	JSON     bool   // --json: events as JSON lines
	Verbose  bool   // --verbose: more progress on stderr
	// Format is --output-format: "text", "json" or "stream-json" ("":
	// text, or stream-json with --json).
	Format string
	// Verify is --verify CMD: the check a turn must pass to be done (""
	// : the files' verify; see Settings.VerifyCheck).
	Verify string
	// Budgets are --max-turns, --max-cost and --max-time (zero: the
	// files' max_turns, max_cost, max_time; see Settings.Budgets).
	Budgets Budgets

	// ModelFlags are --provider, --model, --base-url and --context-window,
	// which Load resolves with the environment and the files.
	ModelFlags Flags

	// The agent.
	Yolo       bool   // --yolo: approve every tool call
	Plan       bool   // --plan: start in plan mode
	NoReminder bool   // --completion-reminder=false
	Workspace  string // -C/--workspace as given; absolute once resolved
	// EnvAllow are the --env-allow names (repeatable): secrets commands
	// may see; Resolve adds the files' env_allow.
	EnvAllow []string
	// Sandbox is --sandbox MODE; Resolve puts the files' sandbox in when
	// the flag is absent.
	Sandbox sandbox.Mode
	// IdleTimeout is --idle-timeout (Resolve: else idle_timeout); 0: the
	// provider's default, <0: none.
	IdleTimeout time.Duration
	// Effort is --reasoning-effort (Resolve: else reasoning_effort): how
	// hard a reasoning model thinks; "" the server's default.
	Effort string

	// Sessions.
	Continue  bool   // -c/--continue: reopen the workspace's latest session
	Resume    string // --resume ID: reopen that session (a unique prefix is enough)
	NoSession bool   // --no-session: save nothing

	// Initial is the full-screen app's first prompt: tick "fix the build".
	Initial string

	Help    bool // -h/--help
	Version bool // --version
}

// UsageError is a mistake in how tick was invoked or configured (tick
// exits 2 for it). Help adds a pointer to --help after the message.
type UsageError struct {
	Msg  string
	Help bool
}

func (e *UsageError) Error() string { return e.Msg }

// usagef returns a UsageError that points to --help.
func usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...), Help: true}
}

// ParseArgs reads tick's arguments (without the program name). Flag
// syntax is Go's: -flag and --flag are the same, values follow as
// "--model x" or "--model=x". Errors are UsageErrors. -h and --help give
// Args{Help: true}; Help and Version skip the checks of the other flags.
func ParseArgs(args []string) (Args, error) {
	var a Args
	cmd, rest, err := subcommand(args)
	if err != nil {
		return a, err
	}
	a.Cmd = cmd
	fs, prompt, reminder := a.flagSet()
	if err := fs.Parse(rest); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return Args{Help: true}, nil
		}
		return a, usagef("%v", err)
	}
	if a.Help || a.Version {
		return a, nil
	}
	resumeSet := false
	fs.Visit(func(f *flag.Flag) {
		a.Headless = a.Headless || f.Name == "p"
		resumeSet = resumeSet || f.Name == "resume"
	})
	a.Prompt, a.NoReminder = *prompt, !*reminder
	a.Resume = strings.TrimSpace(a.Resume)
	if resumeSet && a.Resume == "" {
		return a, usagef("--resume needs a session id (see tick sessions)")
	}
	if fs.NArg() > 0 {
		if err := a.positional(fs.Args()); err != nil {
			return a, err
		}
	}
	return a, a.check()
}

// subcommand splits a leading subcommand ("sessions", "config",
// "config path", "doctor", "mcp list", "mcp trust") off args.
func subcommand(args []string) (cmd string, rest []string, err error) {
	switch {
	case len(args) > 1 && args[0] == "config" && args[1] == "path":
		return "config path", args[2:], nil
	case len(args) > 0 && (args[0] == "sessions" || args[0] == "config" || args[0] == "doctor"):
		return args[0], args[1:], nil
	case len(args) > 0 && args[0] == "mcp":
		if len(args) < 2 || (args[1] != "list" && args[1] != "trust") {
			return "", nil, usagef("tick mcp takes list or trust: tick mcp list, tick mcp trust")
		}
		return "mcp " + args[1], args[2:], nil
	}
	return "", args, nil
}

// flagSet is tick's flags, writing into a; -p and --completion-reminder
// are returned for ParseArgs to read after parsing.
func (a *Args) flagSet() (fs *flag.FlagSet, prompt *string, reminder *bool) {
	fs = flag.NewFlagSet("tick", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // tick prints the error, and the usage for -h
	fs.Usage = func() {}
	prompt = fs.String("p", "", "")
	fs.BoolVar(&a.JSON, "json", false, "")
	fs.BoolVar(&a.Verbose, "verbose", false, "")
	fs.Func("output-format", "", a.setFormat)
	fs.IntVar(&a.Budgets.Turns, "max-turns", 0, "")
	fs.Func("verify", "", a.setVerify)
	fs.Func("max-cost", "", func(v string) (err error) { a.Budgets.Cost, err = ParseCost(v); return err })
	fs.Func("max-time", "", func(v string) (err error) { a.Budgets.Time, err = ParseMaxTime(v); return err })
	fs.StringVar(&a.ModelFlags.Model, "model", "", "")
	fs.StringVar(&a.ModelFlags.BaseURL, "base-url", "", "")
	fs.StringVar(&a.ModelFlags.Provider, "provider", "", "")
	fs.BoolVar(&a.Yolo, "yolo", false, "")
	fs.BoolVar(&a.Plan, "plan", false, "")
	reminder = fs.Bool("completion-reminder", true, "")
	fs.StringVar(&a.Workspace, "C", "", "")
	fs.StringVar(&a.Workspace, "workspace", "", "")
	fs.IntVar(&a.ModelFlags.ContextWindow, "context-window", 0, "")
	fs.BoolVar(&a.Continue, "c", false, "")
	fs.BoolVar(&a.Continue, "continue", false, "")
	fs.StringVar(&a.Resume, "resume", "", "")
	fs.Func("sandbox", "", a.setSandbox)
	fs.Func("env-allow", "", a.addEnvAllow)
	fs.Func("idle-timeout", "", a.setIdleTimeout)
	fs.Func("reasoning-effort", "", a.setEffort)
	fs.BoolVar(&a.NoSession, "no-session", false, "")
	fs.BoolVar(&a.Version, "version", false, "")
	fs.BoolVar(&a.Help, "h", false, "")
	fs.BoolVar(&a.Help, "help", false, "")
	return fs, prompt, reminder
}

// setVerify is --verify CMD.
func (a *Args) setVerify(v string) error {
	if strings.TrimSpace(v) == "" {
		return fmt.Errorf("--verify needs a command, such as \"go test ./...\"")
	}
	a.Verify = v
	return nil
}

// setSandbox is --sandbox MODE.
func (a *Args) setSandbox(v string) error {
	m, err := sandbox.ParseMode(v)
	a.Sandbox = m
	return err
}

// addEnvAllow is one --env-allow NAME.
func (a *Args) addEnvAllow(v string) error {
	v = strings.TrimSpace(v)
	if v == "" || strings.ContainsAny(v, "= \t") {
		return fmt.Errorf("--env-allow needs a variable name, not %q", v)
	}
	a.EnvAllow = append(a.EnvAllow, v)
	return nil
}

// setIdleTimeout is --idle-timeout D; 0 means none (stored as -1).
func (a *Args) setIdleTimeout(v string) error {
	d, err := time.ParseDuration(strings.TrimSpace(v))
	switch {
	case err != nil || d < 0:
		return fmt.Errorf("--idle-timeout needs a duration such as 90s or 5m (0 for none), not %q", v)
	case d == 0:
		d = -1 // none
	}
	a.IdleTimeout = d
	return nil
}

// setEffort is --reasoning-effort LEVEL.
func (a *Args) setEffort(v string) error {
	if !effortLevel(v) {
		return fmt.Errorf("--reasoning-effort needs off, low, medium or high, not %q", v)
	}
	a.Effort = strings.TrimSpace(v)
	return nil
}

// positional takes the arguments after the flags: the full-screen app's
// first prompt, refused for -p and the subcommands.
func (a *Args) positional(rest []string) error {
	switch {
	case a.Cmd != "":
		return usagef("unexpected argument %q: tick %s takes no arguments", rest[0], a.Cmd)
	case a.Headless:
		return usagef("unexpected argument %q: -p takes the prompt as its value (quote it: -p \"fix the build\"), and flags go before it", rest[0])
	}
	a.Initial = strings.TrimSpace(strings.Join(rest, " "))
	return nil
}

// check refuses combinations of flags that make no sense.
func (a Args) check() error {
	if err := a.checkSessionFlags(); err != nil {
		return err
	}
	switch {
	case a.Headless && strings.TrimSpace(a.Prompt) == "":
		return usagef("-p needs a prompt (or - to read it from stdin)")
	case !a.Headless && a.Cmd == "" && a.JSON:
		return usagef("--json works only with -p PROMPT")
	case !a.Headless && a.Cmd == "" && a.Verbose:
		return usagef("--verbose works only with -p PROMPT")
	case !a.Headless && a.Format != "":
		return usagef("--output-format works only with -p PROMPT")
	case a.Budgets.Turns < 0:
		return usagef("--max-turns must be a positive number of model calls, not %d", a.Budgets.Turns)
	case a.ModelFlags.ContextWindow < 0:
		return usagef("--context-window must be a positive number of tokens, not %d", a.ModelFlags.ContextWindow)
	}
	return nil
}

// checkSessionFlags refuses the session and mode flags where the
// subcommand takes none, and --continue with --resume.
func (a Args) checkSessionFlags() error {
	jsonOK, takes := subcommandTakes(a.Cmd)
	if takes != "" && (a.Headless || a.Continue || a.Resume != "" || a.Yolo || (a.JSON && !jsonOK)) {
		return usagef("%s", takes)
	}
	if a.Continue && a.Resume != "" {
		return usagef("give either --continue or --resume ID, not both")
	}
	return nil
}

// subcommandTakes says whether the subcommand cmd takes --json, and what
// it takes instead of the session and mode flags ("" for no subcommand).
func subcommandTakes(cmd string) (jsonOK bool, takes string) {
	switch {
	case strings.HasPrefix(cmd, "config"):
		return false, "tick " + cmd + " takes only -C DIR and the model flags"
	case strings.HasPrefix(cmd, "mcp"):
		return true, "tick " + cmd + " takes only -C DIR and --json"
	case cmd == "doctor":
		return false, "tick doctor takes only -C DIR and --sandbox MODE"
	case cmd == "sessions":
		return true, "tick sessions only lists this workspace's sessions; it takes -C DIR and --json"
	}
	return true, ""
}
