package main

import (
	"context"
	"github.com/tick-agent/tick/agent/mention"
	"sync"
	"time"

	tickcfg "github.com/tick-agent/tick/agent/config"
	"github.com/tick-agent/tick/agent/session"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/ui"
)

// listTimeout bounds the /model picker's listing of the models.
const listTimeout = 20 * time.Second

// useSessionModel carries on with the model a resumed session switched to
// with /model, unless --model or TICK_MODEL chose one for this run. (The
// model a session merely started with is not forced on it: the user may
// have set up another server since.)
func useSessionModel(cfg *config, ld *session.Loaded) {
	if ld == nil || !ld.Info.ModelSwitched || ld.Info.Model == "" || cfg.settings == nil {
		return
	}
	if k := cfg.settings.Sources["model"].Kind; k == tickcfg.SourceFlag || k == tickcfg.SourceEnv {
		return
	}
	if ld.Info.Model != cfg.model {
		cfg.model = ld.Info.Model
		if cfg.settings.Sources["context_window"].Kind != tickcfg.SourceFlag {
			cfg.contextWindow = 0 // the other model's size does not apply
		}
	}
}

// config returns the session's config as it is now.
func (ts *tuiSession) config() config {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.cfg
}

// model returns the conversation's model.
func (ts *tuiSession) model() string { return ts.config().model }

// setModel makes name (with its context size, 0: from the name) the
// model of later sessions (/new) too.
func (ts *tuiSession) setModel(name string, window int) {
	ts.mu.Lock()
	ts.cfg.model, ts.cfg.contextWindow = name, window
	ts.mu.Unlock()
}

// modelConfig is the /model picker's wiring: the models of the server in
// use, the switch, and saving the default into the user file.
func (ts *tuiSession) modelConfig() *ui.ModelConfig {
	cfg := ts.config()
	base := cfg.baseURL
	if base == "" {
		base = provider.DefaultBaseURL
	}
	mc := &ui.ModelConfig{
		List: func() ([]string, error) {
			ctx, cancel := context.WithTimeout(context.Background(), listTimeout)
			defer cancel()
			return provider.ListModels(ctx, base, cfg.apiKey)
		},
		Switch: ts.switchModel,
	}
	if path := cfg.settings.UserFile; path != "" {
		mc.Path = path
		mc.SaveDefault = func(name string) error { return tickcfg.Save(path, tickcfg.Choice{Model: name}) }
	}
	return mc
}

// switchModel is the /model picker's choice: the agent asks name from the
// next request, with its context size from --context-window, else the
// server (self-hosted ones), else the built-in table.
func (ts *tuiSession) switchModel(name string) error {
	cfg := ts.config()
	window := 0
	if cfg.settings.Sources["context_window"].Kind == tickcfg.SourceFlag {
		window = cfg.contextWindow
	} else if cfg.baseURL != "" && !hostedURL(cfg.baseURL) {
		ctx, cancel := context.WithTimeout(context.Background(), provider.DiscoverTimeout)
		window = provider.DiscoverContext(ctx, cfg.baseURL, cfg.apiKey, name).Tokens
		cancel()
	}
	ag, _ := ts.current()
	if err := ag.SetModel(name, window); err != nil {
		return err
	}
	ts.setModel(name, window)
	return nil
}

// workspaceFiles returns the @ picker's file source: an index of the
// workspace, started on the first @ and grown in the background.
func workspaceFiles(workspace string) func() ([]string, bool) {
	var once sync.Once
	var ix *mention.Index
	return func() ([]string, bool) {
		once.Do(func() { ix = mention.NewIndex(workspace) })
		return ix.Paths()
	}
}
