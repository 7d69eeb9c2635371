package main

import (
	"context"
	"fmt"

	tickcfg "github.com/tick-agent/tick/agent/config"
	"github.com/tick-agent/tick/provider"
)

// smallContext is the served context below which tick warns: its system
// prompt and tools alone take a few thousand tokens.
const smallContext = 16384

// discoverContext asks a self-hosted server (not the OpenAI API or another
// hosted preset) how large a context it serves the model with, when
// neither --context-window nor the config said; the answer becomes
// cfg.contextWindow. It returns warnings to show before the first turn:
// Ollama serving the model with its small default context, or any server
// serving less than smallContext.
func discoverContext(cfg *config) []string {
	if cfg.contextWindow > 0 || cfg.baseURL == "" || tickcfg.IsHosted(cfg.baseURL) {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), provider.DiscoverTimeout)
	defer cancel()
	sc := provider.DiscoverContext(ctx, cfg.baseURL, cfg.apiKey, cfg.model)
	if sc.Tokens > 0 {
		cfg.contextWindow = sc.Tokens
		cfg.settings.ContextWindow = sc.Tokens
		cfg.settings.Sources["context_window"] = tickcfg.Source{Kind: tickcfg.SourceDefault, Detail: "server: " + sc.Source}
	}
	where := "context_window = 32768 under [providers." + providerName(cfg) + "] in " + cfg.settings.UserFile
	switch {
	case sc.OllamaDefault:
		return []string{fmt.Sprintf("Ollama will serve %s with its default context (a few thousand tokens unless the server sets OLLAMA_CONTEXT_LENGTH) and silently cuts longer conversations, which breaks tool use. Raise it: restart Ollama with OLLAMA_CONTEXT_LENGTH=32768 (or add PARAMETER num_ctx 32768 to a Modelfile and ollama create), then set %s.", cfg.model, where)}
	case sc.Ollama && sc.Tokens > 0 && sc.Tokens < smallContext:
		return []string{fmt.Sprintf("Ollama serves %s with a context of %d tokens (%s), too small for tick's prompt, tools and a conversation; longer ones are cut silently. Raise it with OLLAMA_CONTEXT_LENGTH=32768 or PARAMETER num_ctx 32768, then set %s.", cfg.model, sc.Tokens, sc.Source, where)}
	case sc.Tokens > 0 && sc.Tokens < smallContext:
		return []string{fmt.Sprintf("the server serves %s with a context of only %d tokens (%s); tick compacts often and may not fit its tools. Start the server with a larger context (e.g. 32768).", cfg.model, sc.Tokens, sc.Source)}
	}
	return nil
}

// providerName names the provider for a config hint.
func providerName(cfg *config) string {
	if cfg.settings.Provider != "" {
		return cfg.settings.Provider
	}
	return "NAME"
}
