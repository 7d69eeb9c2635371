package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/pelletier/go-toml/v2"
	"github.com/tick-agent/tick/agent/atomicfile"
)

// Choice is a model server and model the user picked (the setup screen,
// or /model saved as the default).
type Choice struct {
	Provider string // the [providers.NAME] to write, e.g. "ollama"
	BaseURL  string // its API root; "" leaves the table's base_url alone
	APIKey   string // its key; "" writes none
	Model    string // the default model
}

// header starts a config file tick writes from scratch.
const header = `# tick's configuration (tick --help, "Configuration", lists the keys).
# tick config prints the effective settings and where each came from.

`

// Save writes ch into the config file at path as the default provider and
// model, keeping the file's other settings (its comments are not kept).
// The file is written atomically with mode 0600, its directory created
// with mode 0700.
func Save(path string, ch Choice) error {
	return update(path, func(doc map[string]any) {
		if ch.Provider != "" {
			doc["provider"] = ch.Provider
			providers, _ := doc["providers"].(map[string]any)
			if providers == nil {
				providers = map[string]any{}
			}
			p, _ := providers[ch.Provider].(map[string]any)
			if p == nil {
				p = map[string]any{}
			}
			if ch.BaseURL != "" {
				p["base_url"] = ch.BaseURL
			}
			if ch.APIKey != "" {
				p["api_key"] = ch.APIKey
				delete(p, "api_key_env")
			}
			providers[ch.Provider] = p
			doc["providers"] = providers
		}
		if ch.Model != "" {
			doc["model"] = ch.Model
		}
	})
}

// update rewrites the config file at path through edit.
func update(path string, edit func(map[string]any)) error {
	if path == "" {
		return errors.New("save the config: no config file path (set XDG_CONFIG_HOME or HOME)")
	}
	doc := map[string]any{}
	old, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("save the config: read %s: %w", path, err)
	default:
		if err := toml.Unmarshal(old, &doc); err != nil {
			return fmt.Errorf("save the config: %s does not parse, so tick leaves it alone: %w", path, err)
		}
	}
	edit(doc)
	body, err := toml.Marshal(doc)
	if err != nil {
		return fmt.Errorf("save the config: encode: %w", err)
	}
	var buf bytes.Buffer
	if len(old) == 0 || bytes.HasPrefix(old, []byte(header[:20])) {
		buf.WriteString(header)
	}
	buf.Write(body)
	if err := atomicfile.WritePrivate(path, buf.Bytes()); err != nil {
		return fmt.Errorf("save the config: %w", err)
	}
	return nil
}
