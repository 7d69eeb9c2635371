package app

import (
	"context"
	"fmt"

	tickcfg "github.com/tick-agent/tick/agent/config"
	"github.com/tick-agent/tick/provider"
)

// smallContext is the served context below which tick warns: its system
// prompt and tools alone take a few thousand tokens.
const smallContext = 16384

// wantsDiscovery reports whether tick asks the server how large a context
// it serves: a self-hosted server (not the OpenAI API or another hosted
// preset), when neither --context-window nor the config said.
func wantsDiscovery(cfg *config) bool {
	return cfg.Settings.ContextWindow == 0 && cfg.Settings.BaseURL != "" && !tickcfg.IsHosted(cfg.Settings.BaseURL)
}

// discoverContext asks the server (see wantsDiscovery) and waits for the
// answer, which becomes cfg.Settings.ContextWindow. It returns the warning to show
// before the first turn, if any (see servedWarning). -p uses it; the full-screen
// app asks in the background (startDiscovery).
func discoverContext(cfg *config) []string {
	if !wantsDiscovery(cfg) {
		return nil
	}
	sc := askServed(cfg.Settings.BaseURL, cfg.Settings.APIKey, cfg.Settings.Model)
	if sc.Tokens > 0 {
		cfg.Settings.ContextWindow = sc.Tokens
		cfg.Settings.Sources["context_window"] = tickcfg.Source{Kind: tickcfg.SourceDefault, Detail: "server: " + sc.Source}
	}
	if w := servedWarning(cfg, sc); w != "" {
		return []string{w}
	}
	return nil
}

// askServed asks the server at baseURL for model's served context, within
// provider.DiscoverTimeout.
func askServed(baseURL, apiKey, model string) provider.ServedContext {
	ctx, cancel := context.WithTimeout(context.Background(), provider.DiscoverTimeout)
	defer cancel()
	return provider.DiscoverContext(ctx, baseURL, apiKey, model)
}

// servedWarning is the warning about a served context sc ("" for none):
// Ollama serving the model with its small default context, or any server
// serving less than smallContext.
func servedWarning(cfg *config, sc provider.ServedContext) string {
	where := "context_window = 32768 under [providers." + providerName(cfg) + "] in " + cfg.Settings.UserFile
	switch {
	case sc.OllamaDefault:
		return fmt.Sprintf("Ollama will serve %s with its default context (a few thousand tokens unless the server sets OLLAMA_CONTEXT_LENGTH) and silently cuts longer conversations, which breaks tool use. Raise it: restart Ollama with OLLAMA_CONTEXT_LENGTH=32768 (or add PARAMETER num_ctx 32768 to a Modelfile and ollama create), then set %s.", cfg.Settings.Model, where)
	case sc.Ollama && sc.Tokens > 0 && sc.Tokens < smallContext:
		return fmt.Sprintf("Ollama serves %s with a context of %d tokens (%s), too small for tick's prompt, tools and a conversation; longer ones are cut silently. Raise it with OLLAMA_CONTEXT_LENGTH=32768 or PARAMETER num_ctx 32768, then set %s.", cfg.Settings.Model, sc.Tokens, sc.Source, where)
	case sc.Tokens > 0 && sc.Tokens < smallContext:
		return fmt.Sprintf("the server serves %s with a context of only %d tokens (%s); tick compacts often and may not fit its tools. Start the server with a larger context (e.g. 32768).", cfg.Settings.Model, sc.Tokens, sc.Source)
	}
	return ""
}

// servedWindow is the full-screen app's question to the server about the
// context it serves one model with, asked in the background once the first
// frame is drawn: a start-up does not wait for it (it took 3 ms of a 17 ms
// start against a local server, and up to provider.DiscoverTimeout against
// a hung one). The agent waits for the answer at its first request, long
// after it came in.
type servedWindow struct {
	model   string        // the model asked about
	done    chan struct{} // closed once tokens and warning are set
	tokens  int           // the served context; 0: the server did not say
	warning string        // see servedWarning
}

// startDiscovery asks the server about cfg.Settings.Model in the background once
// cfg.drawn is closed, or returns nil when tick does not ask (see
// wantsDiscovery).
func startDiscovery(cfg *config) *servedWindow {
	if !wantsDiscovery(cfg) {
		return nil
	}
	s := &servedWindow{model: cfg.Settings.Model, done: make(chan struct{})}
	c := *cfg // what the question and the warning read; cfg goes on changing
	go func() {
		defer close(s.done)
		afterDrawn(c.drawn, nil)
		sc := askServed(c.Settings.BaseURL, c.Settings.APIKey, c.Settings.Model)
		s.tokens, s.warning = sc.Tokens, servedWarning(&c, sc)
	}()
	return s
}

// window waits for the answer and returns the served context (0: the
// server did not say). It is agent.Config.ContextWindowFunc.
func (s *servedWindow) window() int {
	<-s.done
	return s.tokens
}

// lateNotice returns the func that waits for the answer and returns its
// warning, for the app's chat (ui.Config.LateNotice); nil when nothing was
// asked.
func (s *servedWindow) lateNotice() func() string {
	if s == nil {
		return nil
	}
	return func() string {
		<-s.done
		return s.warning
	}
}

// providerName names the provider for a config hint.
func providerName(cfg *config) string {
	if cfg.Settings.Provider != "" {
		return cfg.Settings.Provider
	}
	return "NAME"
}

// localSlots returns agent.Config.ParallelTasksFunc for cfg: for a
// self-hosted server when max_parallel_tasks is not set, the func that asks
// the server how many requests it serves at once (llama.cpp's
// total_slots; 0, counted as 1, when it does not say: a single-slot server
// only queues parallel requests and loses its prompt cache); nil otherwise
// (a hosted provider gets agent.DefaultParallelTasks).
func localSlots(cfg *config) func() int {
	s := cfg.Settings
	if s.MaxParallelTasks != 0 || s.BaseURL == "" || tickcfg.IsHosted(s.BaseURL) {
		return nil
	}
	base, key := s.BaseURL, s.APIKey
	return func() int {
		ctx, cancel := context.WithTimeout(context.Background(), provider.DiscoverTimeout)
		defer cancel()
		return provider.DiscoverSlots(ctx, base, key)
	}
}
