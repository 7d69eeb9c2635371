package config

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tick-agent/tick/provider"
)

// Flags are the command-line settings, which win over everything else.
// Zero values are "not given".
type Flags struct {
	Provider      string // --provider
	Model         string // --model
	BaseURL       string // --base-url
	ContextWindow int    // --context-window
}

// Options are the inputs of Load.
type Options struct {
	// Env reads the environment (os.Getenv in main, a map in tests).
	Env func(string) string
	// Workspace is the directory whose .tick/config.toml is the project
	// file; "" reads no project file.
	Workspace string
	// UserPath overrides the user file; "" means UserPath(Env).
	UserPath string
	// Flags are the command-line settings.
	Flags Flags
	// Approved reports whether the user approved a project's pending
	// settings, given their Pending.Definition (the trust record's
	// answer); nil approves nothing. A project's provider is applied
	// only when it says yes.
	Approved func(def any) bool
}

// Settings is the effective configuration: the merged Config, the model
// connection it resolves to, where each value came from, and what needs
// the user's attention.
type Settings struct {
	// Config holds the merged values. Providers is the merged table
	// (without the presets); MCPServers, Hooks and Allow hold the user
	// file's only: a project file's are in Pending.
	Config

	// BaseURL is the API root to talk to; "" means provider.DefaultBaseURL.
	BaseURL string
	// APIKey is the key to send; "" sends none.
	APIKey string
	// ContextWindow is the model's context size from a flag or the config;
	// 0 leaves it to the server and the built-in table.
	ContextWindow int

	// Sources says where each effective value came from, by key: "provider",
	// "model", "base_url", "api_key", "context_window", "sandbox",
	// "writable_roots", "network", "env_allow", "allow", "deny",
	// "idle_timeout", "reasoning_effort", "mcp_start_timeout", "completion_reminder", "max_parallel_tasks", "mcp_servers", "hooks", "web.allow". A key
	// that is absent has its default.
	Sources map[string]Source

	// UserFile and ProjectFile are the paths of the two files ("" when
	// there is none to look at); the Exists fields say whether they were
	// found.
	UserFile, ProjectFile            string
	UserFileExists, ProjectFileExist bool

	// Warnings are problems that do not stop tick, as "path:line: ..."
	// where a file is at fault. Show them before the first turn.
	Warnings []string

	// Pending are the project file's commands (MCP servers, hooks, allow
	// rules) and its choice of provider, which take no effect until the
	// user approves them.
	Pending Pending

	env func(string) string // for the keys of Endpoints
}

// Load reads the user and project files and resolves them with opts'
// flags and environment into Settings. A file that cannot be read or
// parsed, or an invalid value, is a *FileError ("path:line: ..."); a
// provider that is neither defined nor a preset is an error naming where it
// was set.
func Load(opts Options) (*Settings, error) {
	if opts.Env == nil {
		opts.Env = func(string) string { return "" }
	}
	s := &Settings{Sources: map[string]Source{}, UserFile: opts.UserPath, env: opts.Env}
	if s.UserFile == "" {
		s.UserFile = UserPath(opts.Env)
	}
	user, err := readFile(s.UserFile)
	if err != nil {
		return nil, err
	}
	var project *file
	if opts.Workspace != "" {
		s.ProjectFile = ProjectPath(opts.Workspace)
		if project, err = readProjectFile(opts.Workspace, s.ProjectFile); err != nil {
			if fe := (*FileError)(nil); errors.As(err, &fe) {
				return nil, err
			}
			s.Warnings = append(s.Warnings, err.Error()+": the project's config file is not used")
		}
	}
	s.UserFileExists, s.ProjectFileExist = user != nil, project != nil
	if user != nil {
		s.Warnings = append(s.Warnings, user.warnings...)
		s.mergeUser(user)
	}
	if project != nil {
		s.Warnings = append(s.Warnings, project.warnings...)
		s.mergeProject(project, opts)
	}
	if err := s.resolveModel(opts); err != nil {
		return nil, err
	}
	if s.CompletionReminder == nil {
		on := true
		s.CompletionReminder = &on
	}
	return s, nil
}

// mergeUser takes every value of the user file, warning when it holds a
// key others may read.
func (s *Settings) mergeUser(f *file) {
	src := Source{Kind: SourceUser, Detail: f.path}
	c := f.cfg
	s.Config = c
	if s.Providers == nil {
		s.Providers = map[string]Provider{}
	}
	for key, set := range map[string]bool{
		"provider": c.Provider != "", "model": c.Model != "", "sandbox": c.Sandbox != "",
		"writable_roots": c.WritableRoots != nil, "network": c.Network != "", "env_allow": c.EnvAllow != nil,
		"allow": c.Allow != nil, "deny": c.Deny != nil, "idle_timeout": c.IdleTimeout != "",
		"reasoning_effort":  c.ReasoningEffort != "",
		"mcp_start_timeout": c.MCPStartTimeout != "",
		"max_turns":         c.MaxTurns != 0, "max_parallel_tasks": c.MaxParallelTasks != 0, "max_cost": c.MaxCost != 0, "max_time": c.MaxTime != "",
		"completion_reminder": c.CompletionReminder != nil, "mouse": c.Mouse != nil, "theme": c.Theme != "", "mcp_servers": len(c.MCPServers) > 0, "hooks": !c.Hooks.Empty(),
		"web.allow": c.Web.Allow != nil, "web.allow_private": c.Web.AllowPrivate != nil,
		"verify": c.Verify != "", "verify_timeout": c.VerifyTimeout != "", "verify_attempts": c.VerifyAttempts != 0,
	} {
		if set {
			s.Sources[key] = src
		}
	}
	if f.loose {
		for name, p := range c.Providers {
			if p.APIKey != "" {
				s.warnf(f, "api_key", "providers.%s.api_key is in a file that others can read: run chmod 600 %s", name, f.path)
			}
		}
	}
}

// mergeProject lays the project file over the user's, refusing what a
// cloned repository must not decide and holding back what waits for the
// user's approval (see holdProject).
func (s *Settings) mergeProject(f *file, opts Options) {
	src := Source{Kind: SourceProject, Detail: f.path}
	c := f.cfg
	set := func(key string, ok bool, apply func()) {
		if ok {
			apply()
			s.Sources[key] = src
		}
	}
	set("model", c.Model != "", func() { s.Model = c.Model })
	set("idle_timeout", c.IdleTimeout != "", func() { s.IdleTimeout = c.IdleTimeout })
	set("reasoning_effort", c.ReasoningEffort != "", func() { s.ReasoningEffort = c.ReasoningEffort })
	set("mcp_start_timeout", c.MCPStartTimeout != "", func() { s.MCPStartTimeout = c.MCPStartTimeout })
	set("completion_reminder", c.CompletionReminder != nil, func() { s.CompletionReminder = c.CompletionReminder })
	set("max_parallel_tasks", c.MaxParallelTasks != 0, func() { s.MaxParallelTasks = c.MaxParallelTasks })
	set("verify_timeout", c.VerifyTimeout != "", func() { s.VerifyTimeout = c.VerifyTimeout })
	set("verify_attempts", c.VerifyAttempts != 0, func() { s.VerifyAttempts = c.VerifyAttempts })
	if c.Deny != nil { // deny rules add up: a project may only tighten
		s.Deny = append(append([]string(nil), s.Deny...), c.Deny...)
		if prev, ok := s.Sources["deny"]; ok {
			s.Sources["deny"] = Source{Kind: SourceProject, Detail: prev.Detail + " + " + f.path}
		} else {
			s.Sources["deny"] = src
		}
	}
	if c.Sandbox != "" {
		if sandboxRank(c.Sandbox) > sandboxRank(s.Sandbox) {
			s.warnf(f, "sandbox", "sandbox = %q in a project file is ignored: a project may only tighten the sandbox; set it in %s", c.Sandbox, s.userFileName())
		} else {
			s.Sandbox = c.Sandbox
			s.Sources["sandbox"] = src
		}
	}
	for key, given := range map[string]bool{"writable_roots": c.WritableRoots != nil, "network": c.Network != "", "env_allow": c.EnvAllow != nil} {
		if given {
			s.warnf(f, key, "%s in a project file is ignored: it would loosen the sandbox; set it in %s", key, s.userFileName())
		}
	}
	if c.Web.AllowPrivate != nil {
		s.warnf(f, "allow_private", "[web] allow_private in a project file is ignored: it would let pages on this machine's network be fetched; set it in %s", s.userFileName())
	}
	if c.Web.Allow != nil {
		s.warnf(f, "allow", "[web] allow in a project file is ignored: it would let pages be fetched without asking; set it in %s", s.userFileName())
	}
	s.mergeProjectProviders(f)
	s.holdProject(f, opts)
}

// mergeProjectProviders takes the project's context windows and refuses
// its base URLs and keys: a cloned repository must not redirect the key.
func (s *Settings) mergeProjectProviders(f *file) {
	for name, p := range f.cfg.Providers {
		for key, given := range map[string]bool{"base_url": p.BaseURL != "", "api_key": p.APIKey != "", "api_key_env": p.APIKeyEnv != ""} {
			if given {
				s.warnf(f, key, "providers.%s.%s in a project file is ignored: a repository must not redirect your key; set it in %s", name, key, s.userFileName())
			}
		}
		if p.ContextWindow > 0 {
			if s.Providers == nil {
				s.Providers = map[string]Provider{}
			}
			cur := s.Providers[name]
			cur.ContextWindow = p.ContextWindow
			s.Providers[name] = cur
			s.Sources["providers."+name+".context_window"] = Source{Kind: SourceProject, Detail: f.path}
		}
	}
}

// warnf adds a warning placed at key's line in f.
func (s *Settings) warnf(f *file, key, format string, args ...any) {
	where := f.path
	if line := lineOf(f.data, key); line > 0 {
		where = fmt.Sprintf("%s:%d", f.path, line)
	}
	s.Warnings = append(s.Warnings, where+": "+fmt.Sprintf(format, args...))
}

// userFileName names the user file for messages.
func (s *Settings) userFileName() string {
	if s.UserFile == "" {
		return "your user config file"
	}
	return s.UserFile
}

// resolveModel picks the provider, base URL, key, model and context window
// from flags, environment and the merged files.
func (s *Settings) resolveModel(opts Options) error {
	env := func(k string) string { return strings.TrimSpace(opts.Env(k)) }
	if opts.Flags.Provider != "" {
		s.Provider = opts.Flags.Provider
		s.Sources["provider"] = Source{Kind: SourceFlag, Detail: "--provider"}
	}
	entry, entrySrc, err := s.providerEntry()
	if err != nil {
		return err
	}
	switch {
	case opts.Flags.BaseURL != "":
		s.BaseURL, s.Sources["base_url"] = opts.Flags.BaseURL, Source{Kind: SourceFlag, Detail: "--base-url"}
	case opts.Flags.Provider != "" && entry.BaseURL != "":
		// A provider chosen by flag brings its own server, over the
		// environment's: flags win.
		s.BaseURL, s.Sources["base_url"] = entry.BaseURL, entrySrc["base_url"]
	case env("OPENAI_BASE_URL") != "":
		s.BaseURL, s.Sources["base_url"] = env("OPENAI_BASE_URL"), Source{Kind: SourceEnv, Detail: "OPENAI_BASE_URL"}
	case entry.BaseURL != "":
		s.BaseURL, s.Sources["base_url"] = entry.BaseURL, entrySrc["base_url"]
	}
	s.resolveKey(entry, entrySrc, env)
	switch {
	case opts.Flags.Model != "":
		s.Model, s.Sources["model"] = opts.Flags.Model, Source{Kind: SourceFlag, Detail: "--model"}
	case env("TICK_MODEL") != "":
		s.Model, s.Sources["model"] = env("TICK_MODEL"), Source{Kind: SourceEnv, Detail: "TICK_MODEL"}
	case s.Model == "":
		s.Model = provider.DefaultModel
	}
	switch {
	case opts.Flags.ContextWindow > 0:
		s.ContextWindow, s.Sources["context_window"] = opts.Flags.ContextWindow, Source{Kind: SourceFlag, Detail: "--context-window"}
	case entry.ContextWindow > 0:
		s.ContextWindow, s.Sources["context_window"] = entry.ContextWindow, entrySrc["context_window"]
	}
	return nil
}

// resolveKey picks the API key. OPENAI_API_KEY goes with an endpoint from
// the flag or OPENAI_BASE_URL, with no provider, or with the OpenAI API;
// it is never sent to another provider's server, which uses its own
// api_key or api_key_env.
func (s *Settings) resolveKey(entry Provider, entrySrc map[string]Source, env func(string) string) {
	envKey := env("OPENAI_API_KEY")
	own := func() bool {
		switch {
		case entry.APIKey != "":
			s.APIKey, s.Sources["api_key"] = entry.APIKey, entrySrc["api_key"]
		case entry.APIKeyEnv != "" && env(entry.APIKeyEnv) != "":
			s.APIKey, s.Sources["api_key"] = env(entry.APIKeyEnv), Source{Kind: SourceEnv, Detail: entry.APIKeyEnv}
		default:
			return false
		}
		return true
	}
	src := s.Sources["base_url"]
	endpointFromEnv := src.Kind == SourceFlag || src.Kind == SourceEnv
	openAI := s.BaseURL == "" || strings.HasPrefix(s.BaseURL, provider.DefaultBaseURL)
	switch {
	case endpointFromEnv || s.Provider == "" || openAI:
		if envKey != "" {
			s.APIKey, s.Sources["api_key"] = envKey, Source{Kind: SourceEnv, Detail: "OPENAI_API_KEY"}
			return
		}
		if !endpointFromEnv {
			own()
		}
	default:
		own()
	}
	s.warnUnsetKeyEnv(entry, entrySrc, env)
}

// warnUnsetKeyEnv warns, once, when the config's api_key_env names a
// variable that is not set and no other key was found: tick would send
// no key (a placeholder) without a word.
func (s *Settings) warnUnsetKeyEnv(entry Provider, entrySrc map[string]Source, env func(string) string) {
	src, fromFile := entrySrc["api_key_env"]
	if s.APIKey != "" || entry.APIKeyEnv == "" || env(entry.APIKeyEnv) != "" || !fromFile || (src.Kind != SourceUser && src.Kind != SourceProject) {
		return
	}
	s.Warnings = append(s.Warnings, fmt.Sprintf("%s: providers.%s.api_key_env names %s, which is not set: no API key is sent", src.Detail, s.Provider, entry.APIKeyEnv))
}

// providerEntry returns the selected provider: its preset overlaid with
// the merged [providers.NAME] table, and where each field came from. No
// provider is the zero Provider.
func (s *Settings) providerEntry() (Provider, map[string]Source, error) {
	return s.entryOf(s.Provider)
}

// entryOf returns the provider called name: its preset overlaid with the
// merged [providers.NAME] table, and where each field came from.
func (s *Settings) entryOf(name string) (Provider, map[string]Source, error) {
	srcs := map[string]Source{}
	if name == "" {
		return Provider{}, srcs, nil
	}
	preset, isPreset := LookupPreset(name)
	p, defined := s.Providers[name]
	if !isPreset && !defined {
		where := s.Sources["provider"]
		return Provider{}, nil, fmt.Errorf("%s: provider %q is not defined: add a [providers.%s] table with its base_url, or use one of %s",
			where.Where(), name, name, strings.Join(presetNames(), ", "))
	}
	presetSrc := Source{Kind: SourceDefault, Detail: "preset " + name}
	userSrc := Source{Kind: SourceUser, Detail: s.UserFile}
	pick := func(key, mine, fromPreset string) string {
		if mine != "" {
			srcs[key] = userSrc
			return mine
		}
		if fromPreset != "" {
			srcs[key] = presetSrc
		}
		return fromPreset
	}
	out := Provider{
		BaseURL:       pick("base_url", p.BaseURL, preset.BaseURL),
		APIKey:        pick("api_key", p.APIKey, ""),
		APIKeyEnv:     pick("api_key_env", p.APIKeyEnv, preset.APIKeyEnv),
		ContextWindow: p.ContextWindow,
		Prices:        p.Prices,
	}
	if cw, ok := s.Sources["providers."+name+".context_window"]; ok {
		srcs["context_window"] = cw
	} else if p.ContextWindow > 0 {
		srcs["context_window"] = userSrc
	}
	return out, srcs, nil
}

// Configured reports whether tick knows a model server to talk to: a base
// URL or a key from any source. Without one the TUI opens the setup screen
// and -p refuses to run.
func (s *Settings) Configured() bool {
	return s.BaseURL != "" || s.APIKey != ""
}

// NeedsKey returns an error when the selected provider is a hosted preset
// and no key was found, saying where to put one; nil otherwise.
func (s *Settings) NeedsKey() error {
	p, ok := LookupPreset(s.Provider)
	if !ok || p.Local || s.APIKey != "" {
		return nil
	}
	if src := s.Sources["base_url"]; src.Kind == SourceFlag || src.Kind == SourceEnv {
		return nil
	}
	env := p.APIKeyEnv
	if e := s.Providers[s.Provider].APIKeyEnv; e != "" {
		env = e
	}
	return fmt.Errorf("provider %s needs an API key: set %s, or api_key in [providers.%s] of %s", s.Provider, env, s.Provider, s.userFileName())
}
