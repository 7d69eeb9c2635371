package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tickcfg "github.com/tick-agent/tick/agent/config"
	"github.com/tick-agent/tick/provider/providertest"
)

// TestModelSaveDefault: /model's "save as the default" edits the user
// file in place, comments kept and no note, writing a working pair: the
// model with the provider it came from (the one in use, found by its URL
// when the environment chose the server); a file the editor cannot
// change in place (an inline providers table) is rewritten and the note
// says so, for the picker's notice.
func TestModelSaveDefault(t *testing.T) {
	for _, tc := range []struct {
		name, file, label, note string
		keeps                   []string
	}{
		{"comments kept", "# my models\nmodel = \"old\" # the usual\n\n[providers.other]\nbase_url = \"http://o/v1\" # spare\n",
			"new-7b", "", []string{"# my models", "model = \"new-7b\" # the usual", "base_url = \"http://o/v1\" # spare"}},
		{"another provider's model", "# my models\nmodel = \"old\"\n\n[providers.other]\nbase_url = \"http://o/v1\"\n",
			"other: delta-3b", "", []string{"# my models", "model = \"delta-3b\"\nprovider = \"other\"\n"}},
		{"the provider in use with its model", "provider = \"ollama\"\nmodel = \"llama3\"\n\n[providers.ollama]\n\n[providers.lmstudio]\n",
			"qwen-7b", "", []string{"provider = \"lmstudio\"\nmodel = \"qwen-7b\"\n"}},
		{"the server from OPENAI_BASE_URL", "provider = \"ollama\"\nmodel = \"llama3\"\n",
			"qwen-7b", "", []string{"provider = \"lmstudio\"\nmodel = \"qwen-7b\"\n"}},
		{"a bare URL", "model = \"llama3\"\n",
			"qwen-7b", "the server in use (flag --base-url) is no provider of the file, so only the model was saved", []string{"model = \"qwen-7b\"\n"}},
		{"rewritten", "# my models\nproviders = { other = { base_url = \"http://o/v1\" } }\n",
			"other: delta-3b", tickcfg.RewrittenNotice, []string{"delta-3b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.toml")
			if err := os.WriteFile(path, []byte(tc.file), 0o600); err != nil {
				t.Fatal(err)
			}
			set := &tickcfg.Settings{UserFile: path}
			switch tc.name {
			case "the provider in use with its model":
				set.Provider = "lmstudio" // running against LM Studio, the file says ollama
			case "the server from OPENAI_BASE_URL":
				set.Provider, set.BaseURL = "ollama", "http://127.0.0.1:1234/v1/" // LM Studio's, from the environment
				set.Sources = map[string]tickcfg.Source{"base_url": {Kind: tickcfg.SourceEnv, Detail: "OPENAI_BASE_URL"}}
			case "a bare URL":
				set.Provider, set.BaseURL = "ollama", "http://10.0.0.9:7000/v1"
				set.Sources = map[string]tickcfg.Source{"base_url": {Kind: tickcfg.SourceFlag, Detail: "--base-url"}}
			}
			ts := &tuiSession{cfg: config{Run: tickcfg.Run{Settings: set}}, others: map[string]otherModel{
				"other: delta-3b": {ep: tickcfg.Endpoint{Name: "other", BaseURL: "http://o/v1"}, model: "delta-3b"},
			}}
			note, err := ts.saveDefault(tc.label)
			if err != nil || note != tc.note {
				t.Fatalf("SaveDefault(%q) = %q, %v; want note %q", tc.label, note, err, tc.note)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range tc.keeps {
				if !strings.Contains(string(data), want) {
					t.Errorf("the file lacks %q:\n%s", want, data)
				}
			}
		})
	}
}

// TestModelCheck: the start-up check warns when the server's /v1/models
// does not list the configured model, and only then (a tagless name
// matches its ":latest"; a server that does not answer gets no warning).
func TestModelCheck(t *testing.T) {
	srv := providertest.New(t)
	srv.SetModels("qwen3:latest", "gpt-oss-20b")
	cfg := config{Run: tickcfg.Run{Settings: &tickcfg.Settings{BaseURL: srv.URL}}}
	check := modelCheck(cfg)
	for model, want := range map[string]string{
		"gpt-oss-20b": "",
		"qwen3":       "",
		"llama-9b":    "llama-9b is not on the server's list · /model",
	} {
		if got := check(model); got != want {
			t.Errorf("check(%q) = %q, want %q", model, got, want)
		}
	}
	down := config{Run: tickcfg.Run{Settings: &tickcfg.Settings{BaseURL: "http://127.0.0.1:1/v1"}}}
	if got := modelCheck(down)("llama-9b"); got != "" {
		t.Errorf("a server that does not answer: %q", got)
	}
}
