package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	tea "charm.land/bubbletea/v2"

	tickcfg "github.com/tick-agent/tick/agent/config"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/ui"
)

// localServers are the servers the setup screen looks for:
// TICK_LOCAL_SERVERS (comma-separated API roots, each optionally NAME=URL
// with a preset name such as ollama, for servers on other ports) or the
// usual ones, with OLLAMA_HOST.
func localServers(env func(string) string) []provider.LocalServer {
	list := strings.TrimSpace(env("TICK_LOCAL_SERVERS"))
	if list == "" {
		return provider.LocalServers(env("OLLAMA_HOST"))
	}
	var out []provider.LocalServer
	for _, item := range strings.Split(list, ",") {
		name, u, named := strings.Cut(strings.TrimSpace(item), "=")
		if !named {
			name, u = "local", name
		}
		if u = strings.TrimRight(strings.TrimSpace(u), "/"); u == "" {
			continue
		}
		title := "Local server"
		if p, ok := tickcfg.LookupPreset(name); ok {
			title = p.Title
		}
		out = append(out, provider.LocalServer{Name: name, Title: title, BaseURL: u})
	}
	return out
}

// firstRun opens the setup screen when nothing is configured and the
// full-screen app is wanted: the user picks a local server or a hosted
// provider and a model, tick saves them in the user file and reloads the
// settings. It returns the updated config, or an exit code when the user
// quit (ExitUsage, with the message -p gives) or setup failed.
func firstRun(cfg config, env func(string) string, stdin io.Reader, stdout, stderr io.Writer) (config, int, bool) {
	in, out, err := terminals(stdin, stdout)
	if err != nil {
		return cfg, fail(stderr, err), false
	}
	path := cfg.Settings.UserFile
	if path == "" {
		return cfg, fail(stderr, cfg.CheckModel()), false
	}
	servers := localServers(env)
	var note string // what else to say of the save; RunSetup returns after it
	dark, ask := ui.Theme(themeSetting(cfg), cfg.ColorFGBG)
	sc := ui.SetupConfig{
		Dark:          dark,
		AskBackground: ask,
		Version:       Version,
		ConfigPath:    path,
		FindLocal: func(ctx context.Context) []ui.SetupServer {
			var out []ui.SetupServer
			for _, f := range provider.FindLocal(ctx, servers, 0) {
				out = append(out, ui.SetupServer{Name: f.Name, Title: f.Title, BaseURL: f.BaseURL, Models: f.Models})
			}
			return out
		},
		ListModels: listModelsForUI,
		Save: func(ch ui.SetupChoice) error {
			var err error
			note, err = saveNote(tickcfg.Save(path, tickcfg.Choice{Provider: ch.Provider, BaseURL: ch.BaseURL, APIKey: ch.APIKey, Model: ch.Model}))
			return err
		},
	}
	for _, p := range tickcfg.HostedPresets() {
		sc.Hosted = append(sc.Hosted, ui.SetupProvider{Name: p.Name, Title: p.Title, BaseURL: p.BaseURL})
	}
	ch, err := ui.RunSetup(context.Background(), sc, tea.WithInput(in), tea.WithOutput(out))
	switch {
	case errors.Is(err, ui.ErrSetupCancelled):
		return cfg, fail(stderr, cfg.CheckModel()), false
	case err != nil:
		return cfg, fail(stderr, err), false
	}
	if err := cfg.Reload(env); err != nil {
		return cfg, fail(stderr, err), false
	}
	saved := fmt.Sprintf("set up: %s on %s, saved in %s (tick config shows the settings)", ch.Model, ch.Title, path)
	if note != "" {
		saved = fmt.Sprintf("set up: %s on %s, saved in %s; %s (tick config shows the settings)", ch.Model, ch.Title, path, note)
	}
	cfg.notices = append(cfg.notices, saved)
	return cfg, ExitOK, true
}

// listModelsForUI is provider.ListModels with a refused key reported as
// ui.ErrKeyRefused.
func listModelsForUI(ctx context.Context, baseURL, apiKey string) ([]string, error) {
	models, err := provider.ListModels(ctx, baseURL, apiKey)
	if errors.Is(err, provider.ErrUnauthorized) {
		return nil, fmt.Errorf("%w: %w", ui.ErrKeyRefused, err)
	}
	return models, err
}
