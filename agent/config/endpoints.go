package config

import (
	"sort"
	"strings"
)

// Endpoint is a configured provider resolved to what a client needs.
type Endpoint struct {
	Name    string
	BaseURL string
	APIKey  string // from api_key or the api_key_env variable; "" for none
}

// Endpoints returns the providers of the config files' [providers.*]
// tables that have a base URL (their own or their preset's), sorted by
// name, with their keys. A provider whose preset needs a key and has none
// is left out. The /model picker lists their models besides the current
// server's.
func (s *Settings) Endpoints() []Endpoint {
	var out []Endpoint
	for _, name := range sortedKeys(s.Providers) {
		p, _, err := s.entryOf(name)
		if err != nil || p.BaseURL == "" {
			continue
		}
		key := p.APIKey
		if key == "" && p.APIKeyEnv != "" && s.env != nil {
			key = strings.TrimSpace(s.env(p.APIKeyEnv))
		}
		if pr, ok := LookupPreset(name); ok && !pr.Local && key == "" {
			continue
		}
		out = append(out, Endpoint{Name: name, BaseURL: p.BaseURL, APIKey: key})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// ProviderInUse returns the name of the provider whose server tick talks
// to (BaseURL): the configured provider, unless --base-url or
// OPENAI_BASE_URL chose the server, when it is the [providers.*] table or
// preset with that base URL. ok is false when no provider has it (a
// server given only as a URL), and name is then "".
func (s *Settings) ProviderInUse() (name string, ok bool) {
	if k := s.Sources["base_url"].Kind; k != SourceFlag && k != SourceEnv {
		return s.Provider, s.Provider != ""
	}
	same := func(a, b string) bool { return a != "" && strings.TrimRight(a, "/") == strings.TrimRight(b, "/") }
	if p, _, err := s.entryOf(s.Provider); err == nil && same(p.BaseURL, s.BaseURL) {
		return s.Provider, true
	}
	for _, n := range sortedKeys(s.Providers) {
		if p, _, err := s.entryOf(n); err == nil && same(p.BaseURL, s.BaseURL) {
			return n, true
		}
	}
	for _, n := range presetNames() {
		if p, _ := LookupPreset(n); same(p.BaseURL, s.BaseURL) {
			return n, true
		}
	}
	return "", false
}
