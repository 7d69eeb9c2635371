package config

import (
	"net/url"
	"slices"
	"sort"

	"github.com/tick-agent/tick/provider"
)

// Preset is a well-known provider that a config may name without a
// [providers.NAME] table of its own; a table of that name overrides the
// preset's fields one by one.
type Preset struct {
	Name    string // the key for provider = "..."
	Title   string // what the setup screen shows
	BaseURL string
	// APIKeyEnv is the variable tick reads the key from by default.
	APIKeyEnv string
	// Local is a server on this machine, which needs no key.
	Local bool
}

// Hosted are the hosted providers the setup screen offers, in its order.
var hostedPresets = []Preset{
	{Name: "openai", Title: "OpenAI", BaseURL: "https://api.openai.com/v1", APIKeyEnv: "OPENAI_API_KEY"},
	{Name: "openrouter", Title: "OpenRouter", BaseURL: "https://openrouter.ai/api/v1", APIKeyEnv: "OPENROUTER_API_KEY"},
	{Name: "deepseek", Title: "DeepSeek", BaseURL: "https://api.deepseek.com/v1", APIKeyEnv: "DEEPSEEK_API_KEY"},
	{Name: "groq", Title: "Groq", BaseURL: "https://api.groq.com/openai/v1", APIKeyEnv: "GROQ_API_KEY"},
	{Name: "mistral", Title: "Mistral", BaseURL: "https://api.mistral.ai/v1", APIKeyEnv: "MISTRAL_API_KEY"},
}

// localPresets are the usual local servers at their default ports, as
// the provider probes them (provider.LocalServers).
func localPresets() []Preset {
	var out []Preset
	for _, l := range provider.LocalServers("") {
		out = append(out, Preset{Name: l.Name, Title: l.Title, BaseURL: l.BaseURL, Local: true})
	}
	return out
}

// HostedPresets returns the hosted providers the setup screen offers.
func HostedPresets() []Preset { return append([]Preset(nil), hostedPresets...) }

// IsHosted reports whether base is the API of one of the hosted presets
// (same host), whose context sizes tick knows without asking the server.
func IsHosted(base string) bool {
	u, err := url.Parse(base)
	if err != nil {
		return false
	}
	for _, p := range hostedPresets {
		if pu, err := url.Parse(p.BaseURL); err == nil && pu.Host == u.Host {
			return true
		}
	}
	return false
}

// LookupPreset returns the preset called name.
func LookupPreset(name string) (Preset, bool) {
	for _, p := range slices.Concat(hostedPresets, localPresets()) {
		if p.Name == name {
			return p, true
		}
	}
	return Preset{}, false
}

// presetNames lists every preset name, sorted, for error messages.
func presetNames() []string {
	var names []string
	for _, p := range slices.Concat(hostedPresets, localPresets()) {
		names = append(names, p.Name)
	}
	sort.Strings(names)
	return names
}
