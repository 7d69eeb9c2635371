package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/pelletier/go-toml/v2"
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
	return writeAtomic(path, buf.Bytes())
}

// writeAtomic writes data to path through a temporary file in the same
// directory, mode 0600, creating the directory with mode 0700.
func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("save the config: create %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, ".config-*.toml")
	if err != nil {
		return fmt.Errorf("save the config: %w", err)
	}
	defer os.Remove(tmp.Name()) // after a successful rename: nothing to remove
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("save the config: %w", err)
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("save the config: write %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("save the config: write %s: %w", tmp.Name(), err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("save the config: %w", err)
	}
	return nil
}
