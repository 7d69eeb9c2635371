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
	"github.com/tick-agent/tick/ui/termsafe"
)

// Main is tick with its arguments (without the program name), its standard
// streams and its environment, returning the exit code: the composition
// root that main calls, and tests call in process. It parses the flags,
// runs a subcommand or the first-run setup, then wires the model client,
// the extensions, the session, the sandbox runner, undo and the agent to
// the headless run or the full-screen app.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, env func(string) string) int {
	cfg, err := parseConfig(args, env)
	if err != nil {
		return fail(stderr, err)
	}
	switch {
	case cfg.help:
		fmt.Fprint(stdout, usageText)
		return ExitOK
	case cfg.version:
		fmt.Fprintln(stdout, versionString())
		return ExitOK
	}
	switch cfg.cmd {
	case "sessions":
		printWarnings(cfg, stderr)
		return runSessions(cfg, env, stdout, stderr)
	case "config", "config path":
		return runConfigCmd(cfg, stdout, stderr)
	case "doctor":
		return runDoctor(cfg, stdout, stderr)
	case "mcp list", "mcp trust": // it prints the warnings: trust changes them
		return runMCPCmd(cfg, env, stdout, stderr)
	}

	if !cfg.headless && !cfg.settings.Configured() {
		var code int
		var ok bool
		if cfg, code, ok = firstRun(cfg, env, stdin, stdout, stderr); !ok {
			return code
		}
	}
	if err := cfg.checkModelConfig(); err != nil {
		return fail(stderr, err)
	}
	cfg.drawn = make(chan struct{})
	if cfg.headless {
		close(cfg.drawn)
	}
	client, err := provider.New(provider.Config{APIKey: cfg.apiKey, BaseURL: cfg.baseURL, Model: cfg.model, IdleTimeout: cfg.idleTimeout})
	if err != nil {
		return fail(stderr, &usageError{msg: err.Error()})
	}
	if !cfg.headless {
		if _, _, err := terminals(stdin, stdout); err != nil {
			return fail(stderr, err) // before a session is opened for nothing
		}
	}
	if cfg.headless {
		cfg.notices = append(cfg.notices, discoverContext(&cfg)...)
	} else {
		cfg.served = startDiscovery(&cfg) // answered after the first frame
	}
	loadInstructions(&cfg, env)
	x, err := newExtensions(cfg, env, true) // servers start in the background
	if err != nil {
		return fail(stderr, err)
	}
	defer x.close()
	cfg.ext = x
	rec, ld, err := startSession(cfg, env, stderr)
	if err != nil {
		return fail(stderr, err)
	}
	if rec != nil {
		defer rec.Close()
	}
	useSessionModel(&cfg, ld)
	runner, cleanup, err := newSandbox(cfg)
	if err != nil {
		return fail(stderr, err)
	}
	defer cleanup()
	cfg.runner = runner
	if cfg.headless {
		warnSandbox(cfg, stderr)
	} else {
		stop := openUndo(&cfg, env)
		defer stop()
	}
	ag, err := newAgent(cfg, client, rec)
	if err != nil {
		return fail(stderr, err)
	}
	if ld != nil {
		// -p cannot switch modes or approve a plan: its flags decide.
		if err := Restore(ag, ld, cfg.plan || cfg.headless); err != nil {
			return fail(stderr, fmt.Errorf("restore session %s: %w", ld.Info.ID, err))
		}
	}
	if cfg.headless {
		printWarnings(cfg, stderr)
		if cfg.verbose && cfg.instructionsLine != "" {
			fmt.Fprintf(stderr, "tick: %s\n", cfg.instructionsLine)
		}
		return runHeadless(cfg, ag, rec, ld, stdin, stdout, stderr)
	}
	if !cfg.noSession {
		cfg.historyFile = promptHistoryFile(env, cfg.workspace)
	}
	return runTUI(cfg, client, ag, rec, ld, stdin, stdout, stderr)
}

// newAgent returns an agent for cfg talking to client, saving through rec
// (nil: nothing is saved), running commands through cfg.runner.
func newAgent(cfg config, client agent.Streamer, rec *session.Recorder) (*agent.Agent, error) {
	mode := agent.ApproveAsk
	switch {
	case cfg.yolo:
		mode = agent.ApproveAll
	case cfg.headless:
		mode = agent.ApproveNone // nobody can answer a prompt
	}
	acfg := agent.Config{
		Model:         client,
		ModelName:     cfg.model,
		Workspace:     cfg.workspace,
		Approval:      mode,
		ContextWindow: cfg.contextWindow,
		Instructions:  cfg.instructions.Text,
		Mentions:      true,
		ToolOptions:   tools.Options{Env: commandEnv(cfg, os.Environ()), Sandbox: cfg.runner},
		Headless:      cfg.headless,
		Rules:         cfg.rules,

		NoCompletionReminder: cfg.noReminder || (cfg.settings != nil && !cfg.settings.CompletionReminderOn()),
	}
	if s := cfg.served; s != nil && cfg.contextWindow == 0 && s.model == cfg.model {
		acfg.ContextWindowFunc = s.window // the server's answer, asked in the background
	}
	if rec != nil {
		acfg.Recorder = rec // not a typed nil in the interface
	}
	if cfg.undo != nil {
		acfg.Checkpoints = cfg.undo // not a typed nil either
	}
	cfg.ext.configure(&acfg, rec)
	ag, err := agent.New(acfg)
	if err != nil {
		return nil, fmt.Errorf("start the agent: %w", err)
	}
	if cfg.plan {
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
	if cfg.apiKey != "" { // whatever variable holds the key tick sends
		for _, kv := range environ {
			if name, v, _ := strings.Cut(kv, "="); v == cfg.apiKey {
				drop = append(drop, name)
			}
		}
	}
	return sandbox.ScrubEnv(environ, drop, cfg.envAllow)
}

// fail reports err on stderr and returns its exit code: ExitUsage for a
// usageError, ExitError otherwise.
func fail(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "tick: %s\n", termsafe.Text(err.Error())) // errors may quote a server
	var ue *usageError
	if errors.As(err, &ue) {
		if ue.help {
			fmt.Fprintln(stderr, "Run 'tick --help' for usage.")
		}
		return ExitUsage
	}
	return ExitError
}
