package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"

	"github.com/pelletier/go-toml/v2"
	"github.com/tick-agent/tick/agent/atomicfile"
	"github.com/tick-agent/tick/agent/internal/safefile"
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

// RewrittenNotice is what to tell the user when Save reports that it
// rewrote the file.
const RewrittenNotice = "the file was rewritten and its comments were not kept"

// Save writes ch into the config file at path as the default provider and
// model: the top-level provider and model, the [providers.NAME] table's
// base_url and api_key (dropping its api_key_env once a key is written).
// It edits the file's text in place, keeping every comment, blank line
// and key it does not change byte for byte, and checks that the edited
// text decodes to the old settings with exactly these changes. When the
// file holds a form the editor does not change in place (an inline or
// dotted providers table, a [providers] super-table, an array of tables,
// a key it writes holding a non-string) it re-encodes the whole file
// instead and returns rewritten true: the caller tells the user
// RewrittenNotice. A file that does not parse is left alone (an error).
// The file is written atomically with mode 0600, its directory created
// with mode 0700; when path is a symbolic link, the file it points to is
// written (next to it), and the link stays.
func Save(path string, ch Choice) (rewritten bool, err error) {
	return save(path, ch, editText)
}

// save is Save with the in-place editor given (tests give a faulty one to
// see the safety net catch it).
func save(path string, ch Choice, edit func([]byte, Choice) ([]byte, error)) (rewritten bool, err error) {
	if path == "" {
		return false, errors.New("save the config: no config file path (set XDG_CONFIG_HOME or HOME)")
	}
	if !validUTF8(ch) {
		return false, errors.New("save the config: the provider, base URL, key or model is not valid UTF-8")
	}
	old, err := safefile.Read("", path, maxFileSize)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return false, fmt.Errorf("save the config: read %s: %w", path, err)
	}
	want, err := decode(old)
	if err != nil {
		return false, fmt.Errorf("save the config: %s does not parse, so tick leaves it alone: %w", path, err)
	}
	applyChoice(want, ch)
	src := old
	if len(bytes.TrimSpace(old)) == 0 {
		src = []byte(header)
	}
	body, err := edit(src, ch)
	if err != nil || !decodesTo(body, want) {
		if body, err = reencode(old, want); err != nil {
			return false, err
		}
		rewritten = len(bytes.TrimSpace(old)) > 0
	}
	target, err := linkTarget(path)
	if err != nil {
		return false, fmt.Errorf("save the config: %w", err)
	}
	if err := atomicfile.WritePrivate(target, body); err != nil {
		return false, fmt.Errorf("save the config: %w", err)
	}
	return rewritten, nil
}

// maxLinks bounds the symbolic links linkTarget follows (a loop).
const maxLinks = 40

// linkTarget returns the file a write to path should replace: path
// itself, or, when path is a symbolic link (a dotfile manager's), the
// file it points to, through every link of a chain (the target need not
// exist yet). Replacing the link itself with a regular file would cut
// the user's own file off from the config.
func linkTarget(path string) (string, error) {
	p := path
	for range maxLinks {
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) || (err == nil && fi.Mode()&fs.ModeSymlink == 0) {
			return p, nil
		}
		if err != nil {
			return "", fmt.Errorf("look at %s: %w", p, err)
		}
		link, err := os.Readlink(p)
		if err != nil {
			return "", fmt.Errorf("follow the link %s: %w", p, err)
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(p), link)
		}
		p = link
	}
	return "", fmt.Errorf("follow the link %s: more than %d links", path, maxLinks)
}

// applyChoice makes the decoded document doc what Save means by ch.
func applyChoice(doc map[string]any, ch Choice) {
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
}

// decode returns the document text holds (empty for no text).
func decode(text []byte) (map[string]any, error) {
	doc := map[string]any{}
	if err := toml.Unmarshal(text, &doc); err != nil {
		return nil, err
	}
	return doc, nil
}

// decodesTo reports whether text parses and decodes to exactly want: the
// safety net under the in-place editor.
func decodesTo(text []byte, want map[string]any) bool {
	got, err := decode(text)
	return err == nil && reflect.DeepEqual(got, want)
}

// reencode returns doc encoded from scratch, with the header tick writes
// when old is empty or started with it; old's comments are lost.
func reencode(old []byte, doc map[string]any) ([]byte, error) {
	body, err := toml.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("save the config: encode: %w", err)
	}
	var buf bytes.Buffer
	if len(old) == 0 || bytes.HasPrefix(old, []byte(header[:20])) {
		buf.WriteString(header)
	}
	buf.Write(body)
	return buf.Bytes(), nil
}
