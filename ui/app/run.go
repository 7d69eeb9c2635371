package app

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/sandbox"
	"github.com/tick-agent/tick/agent/session"
	"github.com/tick-agent/tick/agent/tools"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/ui/printer"
	"github.com/tick-agent/tick/ui/termsafe"
)

// Main is tick with its arguments (without the program name), its standard
// streams and its environment, returning the exit code: the composition
// root that main calls, and tests call in process. It resolves the
// settings, runs a subcommand or the first-run setup, then wires the
// model client, the extensions, the session, the sandbox runner, undo and
// the agent to the headless run or the full-screen app.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, env func(string) string) int {
	cfg, err := parseConfig(args, env)
	fail := func(err error) int { return failJSON(cfg, stdout, stderr, err) } // -p JSON: the result object too
	if err != nil {
		return fail(err)
	}
	if code, done := runSubcommand(cfg, env, stdout, stderr); done {
		return code
	}
	if !cfg.Headless && !cfg.Settings.Configured() {
		var code int
		var ok bool
		if cfg, code, ok = firstRun(cfg, env, stdin, stdout, stderr); !ok {
			return code
		}
	}
	if err := cfg.CheckModel(); err != nil {
		return fail(err)
	}
	if err := checkCostBudget(cfg); err != nil {
		return fail(err)
	}
	client, err := prepare(&cfg, env, stdin, stdout)
	if err != nil {
		return fail(err)
	}
	code, err := start(&cfg, client, env, stdin, stdout, stderr)
	if err != nil {
		return fail(err)
	}
	return code
}

// runSubcommand runs --help, --version or the subcommand cfg names, and
// says whether it did.
func runSubcommand(cfg config, env func(string) string, stdout, stderr io.Writer) (code int, done bool) {
	switch {
	case cfg.Help:
		fmt.Fprint(stdout, usageText)
		return ExitOK, true
	case cfg.Version:
		fmt.Fprintln(stdout, versionString())
		return ExitOK, true
	}
	switch cfg.Cmd {
	case "sessions":
		printWarnings(cfg, stderr)
		return runSessions(cfg, env, stdout, stderr), true
	case "config", "config path":
		return runConfigCmd(cfg, stdout, stderr), true
	case "doctor":
		return runDoctor(cfg, env, stdout, stderr), true
	case "mcp list", "mcp trust": // it prints the warnings: trust changes them
		return runMCPCmd(cfg, env, stdout, stderr), true
	}
	return 0, false
}

// clientConfig is the model client's configuration from the settings.
// The provider's name tells the server's kind where it names one
// (provider.Server: "ollama" served on another port is still Ollama);
// any other name leaves the kind to the base URL.
func clientConfig(cfg *config) provider.Config {
	s := cfg.Settings
	return provider.Config{APIKey: s.APIKey, BaseURL: s.BaseURL, Model: s.Model, IdleTimeout: cfg.IdleTimeout, Server: provider.Server(s.Provider), NoImages: s.ImagesOff(s.Provider)}
}

// prepare makes the model client and what comes before the session: the
// first-frame signal (cfg.drawn, closed at once when headless), the check
// for a terminal, the question to a self-hosted server about its context
// size, and the project instructions.
func prepare(cfg *config, env func(string) string, stdin io.Reader, stdout io.Writer) (*provider.Client, error) {
	cfg.drawn = make(chan struct{})
	if cfg.Headless {
		close(cfg.drawn)
	}
	client, err := provider.New(clientConfig(cfg))
	if err != nil {
		return nil, &usageError{Msg: err.Error()}
	}
	if cfg.Headless {
		cfg.notices = append(cfg.notices, discoverContext(cfg)...)
	} else {
		if _, _, err := terminals(stdin, stdout); err != nil {
			return nil, err // before a session is opened for nothing
		}
		if env("TERM") == "dumb" {
			return nil, usagef("this terminal (TERM=dumb) cannot show the full-screen app; use -p PROMPT to run headless")
		}
		cfg.served = startDiscovery(cfg) // answered after the first frame
	}
	loadInstructions(cfg, env)
	return client, nil
}

// start wires the extensions, the session, the sandbox runner, undo and
// the agent, runs the headless turn or the full-screen app, and stops
// what it started before it returns. An error is a failure before the
// run, for Main to report (failJSON) with cfg as start left it (the
// resumed session's model).
func start(cfg *config, client *provider.Client, env func(string) string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	x, err := newExtensions(*cfg, env, true) // servers start in the background
	if err != nil {
		return 0, err
	}
	defer x.close()
	cfg.ext = x
	rec, ld, err := startSession(*cfg, env, stderr)
	if err != nil {
		return 0, err
	}
	if rec != nil {
		defer rec.Close()
	}
	if useSessionModel(cfg, ld) {
		if client, err = provider.New(clientConfig(cfg)); err != nil {
			return 0, &usageError{Msg: err.Error()}
		}
	}
	runner, cleanup, err := newSandbox(*cfg, env)
	if err != nil {
		return 0, err
	}
	defer cleanup()
	cfg.runner = runner
	if cfg.Headless {
		warnSandbox(*cfg, stderr)
	} else {
		stop := openUndo(cfg, env)
		defer stop()
		cfg.pasteDir = pastedImagesDir(env)
	}
	ag, err := newAgent(*cfg, client, rec)
	if err != nil {
		return 0, err
	}
	if ld != nil {
		// -p cannot switch modes or approve a plan: its flags decide.
		if err := Restore(ag, ld, cfg.Plan || cfg.Headless); err != nil {
			return 0, fmt.Errorf("restore session %s: %w", ld.Info.ID, err)
		}
	}
	if cfg.Headless {
		printWarnings(*cfg, stderr)
		if cfg.Verbose && cfg.instructionsLine != "" {
			fmt.Fprintf(stderr, "tick: %s\n", termsafe.Text(cfg.instructionsLine)) // names a repository's files
		}
		return runHeadless(*cfg, ag, rec, ld, stdin, stdout, stderr)
	}
	if !cfg.NoSession {
		cfg.historyFile = promptHistoryFile(env, cfg.Workspace)
	}
	return runTUI(*cfg, client, ag, rec, ld, stdin, stdout, stderr), nil
}

// newAgent returns an agent for cfg talking to client, saving through rec
// (nil: nothing is saved), running commands through cfg.runner.
func newAgent(cfg config, client agent.Streamer, rec *session.Recorder) (*agent.Agent, error) {
	mode := agent.ApproveAsk
	switch {
	case cfg.Yolo:
		mode = agent.ApproveAll
	case cfg.Headless:
		mode = agent.ApproveNone // nobody can answer a prompt
	}
	acfg := agent.Config{
		Model:         client,
		ModelName:     cfg.Settings.Model,
		Workspace:     cfg.Workspace,
		Approval:      mode,
		ContextWindow: cfg.Settings.ContextWindow,
		Instructions:  cfg.instructions.Text,
		Mentions:      true,
		PasteDir:      cfg.pasteDir,
		ToolOptions:   tools.Options{Env: commandEnv(cfg, os.Environ()), Sandbox: cfg.runner, Web: tools.WebOptions{Allow: cfg.Settings.Web.Allow, AllowPrivate: cfg.Settings.Web.AllowPrivate}},
		Headless:      cfg.Headless,
		Rules:         cfg.Rules,
		Effort:        cfg.Effort,
		MaxRounds:     cfg.Settings.Budgets(cfg.Budgets).Turns,
		Budget:        agent.Budget{MaxCost: cfg.Settings.Budgets(cfg.Budgets).Cost, MaxTime: cfg.Settings.Budgets(cfg.Budgets).Time},
		Verify:        agent.VerifyCheck(cfg.Settings.VerifyCheck(cfg.Verify)),
		Secrets:       []string{cfg.Settings.APIKey},

		NoCompletionReminder: cfg.NoReminder || (cfg.Settings != nil && !cfg.Settings.CompletionReminderOn()),
	}
	if st := cfg.Settings; st != nil {
		acfg.Pricing = func(model string) (provider.Price, agent.CostFrom) {
			p, src := st.PriceOf(model)
			return p, agent.CostFrom(src) // the config's sources are the agent's names
		}
	}
	acfg.MaxParallelTasks, acfg.ParallelTasksFunc = cfg.Settings.MaxParallelTasks, localSlots(&cfg)
	if s := cfg.served; s != nil && cfg.Settings.ContextWindow == 0 && s.model == cfg.Settings.Model {
		acfg.ContextWindowFunc = s.window // the server's answer, asked in the background
	}
	if rec != nil {
		acfg.Recorder = rec     // not a typed nil in the interface
		acfg.SessionID = rec.ID // also where its tasks' copies go (workcopy.SessionDir)
	}
	if cfg.undo != nil {
		acfg.Checkpoints = cfg.undo // not a typed nil either
	}
	cfg.ext.configure(&acfg, rec)
	ag, err := agent.New(acfg)
	if err != nil {
		return nil, fmt.Errorf("start the agent: %w", err)
	}
	if cfg.Plan {
		ag.SetMode(agent.ModePlan)
	}
	cfg.ext.attach(ag)
	return ag, nil
}

// commandEnv is the environment the model's commands get: environ without
// the API key tick uses and every variable whose name looks like a secret,
// except those the user allowed by name with --env-allow.
func commandEnv(cfg config, environ []string) []string {
	drop := []string{"OPENAI_API_KEY"}
	if cfg.Settings.APIKey != "" { // whatever variable holds the key tick sends
		for _, kv := range environ {
			if name, v, _ := strings.Cut(kv, "="); v == cfg.Settings.APIKey {
				drop = append(drop, name)
			}
		}
	}
	return sandbox.ScrubEnv(environ, drop, cfg.EnvAllow)
}

// failJSON is fail, and for -p with --output-format json the result
// object on stdout (the only thing there), with stream-json (--json) an
// "error" event and the "result" event that ends every stream. When the
// flags did not parse, the arguments say whether JSON was asked for.
func failJSON(cfg config, stdout, stderr io.Writer, err error) int {
	code := fail(stderr, err)
	format := wantedFormat(cfg)
	if format == printer.FormatText {
		return code
	}
	reason := ReasonError
	if code == ExitUsage {
		reason = ReasonUsage
	}
	_ = printer.WriteFailure(stdout, format, printer.Failure{
		ExitCode: code, ExitReason: reason, Message: err.Error(), Model: cfg.modelName(), Version: Version})
	return code
}

// wantedFormat is the -p output format of a run that failed before its
// turn: from the parsed flags, else (a flag error) from the arguments.
func wantedFormat(cfg config) string {
	if cfg.Headless {
		if cfg.JSON {
			return printer.FormatStreamJSON
		}
		if cfg.Format != "" {
			return cfg.Format
		}
		return printer.FormatText
	}
	return formatInArgs(cfg.args)
}

// formatInArgs reads -p and the output format from raw arguments that
// did not parse: text unless -p is there with --json or --output-format
// json|stream-json.
func formatInArgs(args []string) string {
	headless, format := false, printer.FormatText
	for i, a := range args {
		if a == "--" {
			break
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") {
			continue
		}
		switch name {
		case "p":
			headless = true
		case "json":
			if !hasVal || val == "true" {
				format = printer.FormatStreamJSON
			}
		case "output-format":
			if !hasVal && i+1 < len(args) {
				val = args[i+1]
			}
			if printer.CheckFormat(val) == nil {
				format = val
			}
		}
	}
	if !headless {
		return printer.FormatText
	}
	return format
}

// modelName is the model the settings name, "" before they resolved.
func (c config) modelName() string {
	if c.Settings == nil {
		return ""
	}
	return c.Settings.Model
}

// fail reports err on stderr and returns its exit code: ExitUsage for a
// usageError, ExitError otherwise.
func fail(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "tick: %s\n", termsafe.Text(err.Error())) // errors may quote a server
	var ue *usageError
	if errors.As(err, &ue) {
		if ue.Help {
			fmt.Fprintln(stderr, "Run 'tick --help' for usage.")
		}
		return ExitUsage
	}
	return ExitError
}
