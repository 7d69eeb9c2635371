package config

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/tick-agent/tick/agent/permission"
	"github.com/tick-agent/tick/agent/sandbox"
)

// Run is one run's settings, resolved once at start-up from the command
// line, the environment and the files: the only source of the model, the
// base URL, the key, the sandbox and the rest for the code that wires tick
// together. Args hold the command line with Workspace made absolute and
// Sandbox, EnvAllow and IdleTimeout completed from the files; Settings
// hold the model connection (Model, BaseURL, APIKey, ContextWindow) and
// the files' other values.
type Run struct {
	Args
	// Settings are the effective config-file settings with their sources;
	// nil only for --help and --version.
	Settings *Settings
	// Rules are the config file's allow and deny rules.
	Rules permission.Rules
	// NoColor is set when NO_COLOR is set or TERM is dumb.
	NoColor bool
	// ColorFGBG is COLORFGBG, a fallback for the background colour.
	ColorFGBG string
	// ThemeEnv is TICK_THEME ("auto", "light", "dark"), which wins over
	// the config's theme.
	ThemeEnv string
	// Trusted answers whether the user trusted the project file's pending
	// settings (definition) for workspace (Options.Approved); nil
	// approves nothing.
	Trusted func(workspace string, definition any) bool
}

// Resolve resolves a with the environment (env) and the config files into
// a Run. For --help and --version it returns a Run without Settings. A
// bad file or value is a UsageError "path:line: ..."; failing to find the
// working directory is another error. trusted is Run.Trusted.
func Resolve(a Args, env func(string) string, trusted func(workspace string, definition any) bool) (Run, error) {
	r := Run{Args: a, Trusted: trusted}
	if a.Help || a.Version {
		return r, nil
	}
	r.NoColor = env("NO_COLOR") != "" || env("TERM") == "dumb"
	r.ColorFGBG = env("COLORFGBG")
	r.ThemeEnv = env("TICK_THEME")
	ws, err := workspaceDir(a.Workspace)
	if err != nil {
		return r, err
	}
	r.Workspace = ws
	return r, r.Reload(env)
}

// Reload reads the config files again (after the first-run setup wrote
// one) and resolves them with the flags and env into r.Settings, Sandbox
// (when --sandbox was absent), EnvAllow, IdleTimeout and Rules. A bad file
// is a UsageError "path:line: ...".
func (r *Run) Reload(env func(string) string) error {
	var approved func(any) bool
	if r.Trusted != nil {
		approved = func(def any) bool { return r.Trusted(r.Workspace, def) }
	}
	s, err := Load(Options{Env: env, Workspace: r.Workspace, Flags: r.ModelFlags, Approved: approved})
	if err != nil {
		return &UsageError{Msg: err.Error()}
	}
	r.Settings = s
	if r.Sandbox == "" {
		m, err := sandbox.ParseMode(s.Sandbox)
		if err != nil {
			return &UsageError{Msg: fmt.Sprintf("config: sandbox: %v", err)}
		}
		r.Sandbox = m
	}
	switch s.Network {
	case "", sandbox.NetworkLoopback:
	default:
		return &UsageError{Msg: fmt.Sprintf("config: network = %q: use \"loopback\" or leave it out (no network)", s.Network)}
	}
	r.EnvAllow = append(r.EnvAllow, s.EnvAllow...)
	if r.Effort == "" {
		r.Effort = s.ReasoningEffort
	}
	if r.IdleTimeout == 0 && s.IdleTimeout != "" {
		if r.IdleTimeout = s.IdleTimeoutDuration(); r.IdleTimeout == 0 {
			r.IdleTimeout = -1 // "0s": none
		}
	}
	if r.Rules, err = permission.ParseRules(s.Allow, s.Deny); err != nil {
		return &UsageError{Msg: fmt.Sprintf("config: %v", err)}
	}
	return nil
}

// CheckModel says what to set when tick cannot reach any model.
func (r Run) CheckModel() error {
	if !r.Settings.Configured() {
		file := r.Settings.UserFile
		if file == "" {
			file = "$XDG_CONFIG_HOME/tick/config.toml"
		}
		return &UsageError{Msg: "no model configured: run tick (without -p) to set one up, or write " + file +
			", or set OPENAI_API_KEY for OpenAI, or OPENAI_BASE_URL (or --base-url) for another OpenAI-compatible server such as Ollama (http://localhost:11434/v1)"}
	}
	if err := r.Settings.NeedsKey(); err != nil {
		return &UsageError{Msg: err.Error()}
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
