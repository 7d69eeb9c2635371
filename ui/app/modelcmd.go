package app

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	tickcfg "github.com/tick-agent/tick/agent/config"
	"github.com/tick-agent/tick/agent/session"
	"github.com/tick-agent/tick/provider"
)

// listTimeout bounds the /model picker's listing of the models.
const listTimeout = 20 * time.Second

// useSessionModel carries on with the model a resumed session switched to
// with /model, unless --model or TICK_MODEL chose one for this run. (The
// model a session merely started with is not forced on it: the user may
// have set up another server since.) A switch to another provider of the
// config carries that provider on too, unless --provider, --base-url or
// the environment chose the server; it returns true then, and the caller
// makes a client for it. A provider no longer configured is said in a
// notice, and the run keeps its own model.
func useSessionModel(cfg *config, ld *session.Loaded) (newServer bool) {
	if ld == nil || !ld.Info.ModelSwitched || ld.Info.Model == "" || cfg.Settings == nil {
		return false
	}
	if k := cfg.Settings.Sources["model"].Kind; k == tickcfg.SourceFlag || k == tickcfg.SourceEnv {
		return false
	}
	window := cfg.Settings.ContextWindow
	if cfg.Settings.Sources["context_window"].Kind != tickcfg.SourceFlag {
		window = 0 // the other model's size does not apply
	}
	if p := ld.Info.Provider; p != "" && p != cfg.Settings.Provider {
		return useSessionProvider(cfg, p, ld.Info.Model, window)
	}
	if ld.Info.Model != cfg.Settings.Model {
		*cfg = cfg.withModel(ld.Info.Model, window)
	}
	return false
}

// useSessionProvider switches cfg to model of the config's provider name,
// as a resumed session left it; see useSessionModel.
func useSessionProvider(cfg *config, name, model string, window int) bool {
	for _, k := range []string{"provider", "base_url"} {
		if src := cfg.Settings.Sources[k].Kind; src == tickcfg.SourceFlag || src == tickcfg.SourceEnv {
			return false // this run chose its server
		}
	}
	for _, ep := range cfg.Settings.Endpoints() {
		if ep.Name == name {
			s := *cfg.Settings
			s.Provider, s.BaseURL, s.APIKey, s.Model, s.ContextWindow = ep.Name, ep.BaseURL, ep.APIKey, model, window
			cfg.Settings = &s
			return true
		}
	}
	cfg.notices = append(cfg.notices, fmt.Sprintf("this session was using %s of the provider %q, which is no longer configured: carrying on with %s; choose another with /model", model, name, cfg.Settings.Model))
	return false
}

// saveDefault is the /model picker's "save as default" (the user file
// is ts.cfg.Settings.UserFile, offered only when set): it writes the model
// with the provider it came from (the one in use, or the other provider
// it was listed under).
func (ts *tuiSession) saveDefault(label string) (string, error) {
	cfg := ts.cfg
	ch, known := ts.defaultChoice(label)
	note, err := saveNote(tickcfg.Save(cfg.Settings.UserFile, ch))
	if err == nil && !known {
		note = joinNotes(note, "the server in use ("+cfg.Settings.Sources["base_url"].String()+") is no provider of the file, so only the model was saved")
	}
	return note, err
}

// defaultChoice is what /model's "save as default" writes for the picker
// label: a working pair, the model with the provider it came from (the
// other provider it was listed under, else the provider in use), never
// the model alone beside another server's provider. known is false when
// the server in use was given only as a URL (--base-url,
// OPENAI_BASE_URL) that no provider has: then only the model is written.
func (ts *tuiSession) defaultChoice(label string) (ch tickcfg.Choice, known bool) {
	if ep, model, ok := ts.otherModel(label); ok {
		return tickcfg.Choice{Provider: ep.Name, Model: model}, true
	}
	name, ok := ts.cfg.Settings.ProviderInUse()
	if k := ts.cfg.Settings.Sources["base_url"].Kind; !ok && k != tickcfg.SourceFlag && k != tickcfg.SourceEnv {
		ok = true // no provider at all: the default server, nothing to pair
	}
	return tickcfg.Choice{Provider: name, Model: label}, ok
}

// joinNotes joins the non-empty notes with "; ".
func joinNotes(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// saveNote is what the user should know of a config.Save that returned
// rewritten and err: that the file was rewritten, when it was.
func saveNote(rewritten bool, err error) (string, error) {
	if err != nil || !rewritten {
		return "", err
	}
	return tickcfg.RewrittenNotice, nil
}

// otherSep separates another provider's name from its model in the
// picker's labels ("openrouter: openai/gpt-4.1").
const otherSep = ": "

// listModels lists the models of the server in use (plain names) and of
// the config file's other providers ("NAME: model"), asking them all at
// once; a provider that does not answer is left out, the server in use
// failing is an error.
func (ts *tuiSession) listModels() ([]string, error) {
	cfg := ts.cfg
	base := cfg.Settings.BaseURL
	if base == "" {
		base = provider.DefaultBaseURL
	}
	ctx, cancel := context.WithTimeout(context.Background(), listTimeout)
	defer cancel()
	var others []tickcfg.Endpoint
	for _, ep := range cfg.Settings.Endpoints() {
		if strings.TrimRight(ep.BaseURL, "/") != strings.TrimRight(base, "/") {
			others = append(others, ep)
		}
	}
	lists := make([][]string, len(others))
	var wg sync.WaitGroup
	for i, ep := range others {
		wg.Add(1)
		go func() {
			defer wg.Done()
			octx, ocancel := context.WithTimeout(ctx, otherTimeout)
			defer ocancel()
			lists[i], _ = provider.ListModels(octx, ep.BaseURL, ep.APIKey)
		}()
	}
	own, err := provider.ListModels(ctx, base, cfg.Settings.APIKey)
	wg.Wait()
	if err != nil {
		return nil, err
	}
	byLabel := map[string]otherModel{}
	for i, ep := range others {
		for _, m := range lists[i] {
			label := ep.Name + otherSep + m
			byLabel[label] = otherModel{ep, m}
			own = append(own, label)
		}
	}
	ts.mu.Lock()
	ts.others = byLabel
	ts.mu.Unlock()
	return own, nil
}

// otherTimeout bounds the listing of another provider's models.
const otherTimeout = 5 * time.Second

// otherModel is a model of another provider the picker listed.
type otherModel struct {
	ep    tickcfg.Endpoint
	model string
}

// otherModel returns the provider and model behind a picker label of
// another provider's model.
func (ts *tuiSession) otherModel(label string) (tickcfg.Endpoint, string, bool) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	o, ok := ts.others[label]
	return o.ep, o.model, ok
}

// switchModel is the /model picker's choice: the agent asks the model from
// the next request, with its context size from --context-window, else the
// server (self-hosted ones), else the built-in table. Another provider's
// model gets a client of its own for the rest of the session.
func (ts *tuiSession) switchModel(label string) error {
	cfg := ts.cfg
	base, key, name := cfg.Settings.BaseURL, cfg.Settings.APIKey, label
	ep, model, other := ts.otherModel(label)
	if other {
		base, key, name = ep.BaseURL, ep.APIKey, model
	}
	window := 0
	if cfg.Settings.Sources["context_window"].Kind == tickcfg.SourceFlag {
		window = cfg.Settings.ContextWindow
	} else if base != "" && !tickcfg.IsHosted(base) {
		ctx, cancel := context.WithTimeout(context.Background(), provider.DiscoverTimeout)
		window = provider.DiscoverContext(ctx, base, key, name).Tokens
		cancel()
	}
	ag, _ := ts.Current()
	if !other {
		if err := ag.SetModel(name, window); err != nil {
			return err
		}
		ts.SetModel(name, window)
		return nil
	}
	client, err := provider.New(provider.Config{APIKey: key, BaseURL: base, Model: name, NoImages: cfg.Settings.ImagesOff(ep.Name)})
	if err != nil {
		return fmt.Errorf("switch to %s: %w", label, err)
	}
	if err := ag.SetModelOn(client, name, window); err != nil {
		return err
	}
	if _, rec := ts.Current(); rec != nil {
		if err := rec.ModelOn(ep.Name, name); err != nil {
			return fmt.Errorf("switched to %s, but could not save the choice: %w", label, err)
		}
	}
	return nil
}

// modelCheck returns the app's start-up question whether the server in use
// lists the configured model (ui.Config.ModelCheck): it waits for the
// first frame, so that start-up never waits for it, and asks within
// provider.DiscoverTimeout. A server that does not answer, or lists
// nothing, gets no warning (the first turn says what is wrong).
func modelCheck(cfg config) func(model string) string {
	base, key, drawn := cfg.Settings.BaseURL, cfg.Settings.APIKey, cfg.drawn
	if base == "" {
		base = provider.DefaultBaseURL
	}
	return func(model string) string {
		afterDrawn(drawn, nil)
		ctx, cancel := context.WithTimeout(context.Background(), provider.DiscoverTimeout)
		defer cancel()
		models, err := provider.ListModels(ctx, base, key)
		if err != nil || len(models) == 0 || listed(models, model) {
			return ""
		}
		return model + " is not on the server's list · /model"
	}
}

// listed reports whether model is among the server's models; a name
// without a tag matches its ":latest" (Ollama lists "llama3:latest" and
// serves it as "llama3").
func listed(models []string, model string) bool {
	for _, m := range models {
		if m == model || (!strings.Contains(model, ":") && m == model+":latest") {
			return true
		}
	}
	return false
}
