package config

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Choices the tests save: the setup screen's local server, a hosted
// provider with a key, and /model's default model alone.
var (
	local  = Choice{Provider: "ollama", BaseURL: "http://127.0.0.1:11434/v1", Model: "qwen3:8b"}
	hosted = Choice{Provider: "openrouter", BaseURL: "https://openrouter.ai/api/v1", APIKey: "sk-or-v1-0123", Model: "anthropic/claude-sonnet-4"}
	just   = Choice{Model: "llama3.2"}
)

// noFile stands for a missing file.
const noFile = "\x00missing"

// commented is a hand-written file with comments everywhere.
const commented = `# My tick setup.
# Keep the MCP servers at the bottom.

provider = "ollama"   # the local one
model = "qwen2.5-coder:7b"  # fast enough

sandbox = "workspace-write"
allow = [
  "bash(go test *)", # tests are fine
  "write_file(.env)",
]

# Local server (ollama serve).
[providers.ollama]
base_url = "http://localhost:11434/v1" # default port
context_window = 32768

# Hosted, for the hard ones.
[providers.openrouter]
api_key_env = "OPENROUTER_API_KEY" # from my shell

[mcp_servers.fs]
command = "mcp-fs"
args = ["--root", "."]
# env = { TOKEN = "x" }

[[hooks.pre_tool_use]]
matcher = "bash"
command = "audit.sh" # logs every command
`

// TestSaveKeepsText: Save changes the keys it writes and keeps every other
// byte of the file: comments, blank lines, key order, line endings.
func TestSaveKeepsText(t *testing.T) {
	for _, tc := range []struct {
		name, old string
		ch        Choice
		want      string
	}{
		{"missing file", noFile, hosted, header + `provider = "openrouter"
model = "anthropic/claude-sonnet-4"

[providers.openrouter]
base_url = "https://openrouter.ai/api/v1"
api_key = "sk-or-v1-0123"
`},
		{"empty file", "", just, header + "model = \"llama3.2\"\n"},
		{"blank file", "\n\n", local, header + `provider = "ollama"
model = "qwen3:8b"

[providers.ollama]
base_url = "http://127.0.0.1:11434/v1"
`},
		{"commented, model only", commented, just, strings.Replace(commented, `model = "qwen2.5-coder:7b"  # fast`, `model = "llama3.2"  # fast`, 1)},
		{"commented, local", commented, local, strings.NewReplacer(
			`model = "qwen2.5-coder:7b"  # fast`, `model = "qwen3:8b"  # fast`,
			`base_url = "http://localhost:11434/v1" # default`, `base_url = "http://127.0.0.1:11434/v1" # default`).Replace(commented)},
		{"commented, hosted key replaces the variable", commented, hosted, strings.NewReplacer(
			`provider = "ollama"   # the local one`, `provider = "openrouter"   # the local one`,
			`model = "qwen2.5-coder:7b"  # fast`, `model = "anthropic/claude-sonnet-4"  # fast`,
			"api_key_env = \"OPENROUTER_API_KEY\" # from my shell\n", "base_url = \"https://openrouter.ai/api/v1\"\napi_key = \"sk-or-v1-0123\"\n").Replace(commented)},
		{"CRLF", strings.ReplaceAll(commented, "\n", "\r\n"), hosted, strings.NewReplacer(
			`provider = "ollama"   # the local one`, `provider = "openrouter"   # the local one`,
			`model = "qwen2.5-coder:7b"  # fast`, `model = "anthropic/claude-sonnet-4"  # fast`,
			"api_key_env = \"OPENROUTER_API_KEY\" # from my shell\r\n", "base_url = \"https://openrouter.ai/api/v1\"\r\napi_key = \"sk-or-v1-0123\"\r\n").Replace(strings.ReplaceAll(commented, "\n", "\r\n"))},
		{"CRLF, new keys and table", "# mine\r\nsandbox = \"read-only\"\r\n", local,
			"# mine\r\nsandbox = \"read-only\"\r\nprovider = \"ollama\"\r\nmodel = \"qwen3:8b\"\r\n\r\n[providers.ollama]\r\nbase_url = \"http://127.0.0.1:11434/v1\"\r\n"},
		{"no trailing newline", `model = "old"`, local, `model = "qwen3:8b"
provider = "ollama"

[providers.ollama]
base_url = "http://127.0.0.1:11434/v1"
`},
		{"table header last, no newline", "provider = \"ollama\"\n\n[providers.ollama]", local, `provider = "ollama"
model = "qwen3:8b"

[providers.ollama]
base_url = "http://127.0.0.1:11434/v1"
`},
		{"keys in odd order", `sandbox = "read-only"
model = "m"
network = "loopback"
provider = "x"

[providers.ollama]
context_window = 8192
api_key = "old"
# the port I use
base_url = "http://h:1/v1"
idle = 1
`, Choice{Provider: "ollama", BaseURL: "http://h:2/v1", APIKey: "new", Model: "n"}, `sandbox = "read-only"
model = "n"
network = "loopback"
provider = "ollama"

[providers.ollama]
context_window = 8192
api_key = "new"
# the port I use
base_url = "http://h:2/v1"
idle = 1
`},
		{"new keys go after the table's last key, before the next table", `# providers first
[providers.ollama]
context_window = 8192 # big

# servers
[mcp_servers.x]
command = "x"
`, local, `provider = "ollama"
model = "qwen3:8b"

# providers first
[providers.ollama]
context_window = 8192 # big
base_url = "http://127.0.0.1:11434/v1"

# servers
[mcp_servers.x]
command = "x"
`},
		{"keys before the first table, after the leading comments", `# tick's settings
# by hand

# the file system server
[mcp_servers.fs]
command = "mcp-fs"

[[hooks.stop]]
command = "notify-send done"
`, local, `# tick's settings
# by hand

provider = "ollama"
model = "qwen3:8b"

# the file system server
[mcp_servers.fs]
command = "mcp-fs"

[[hooks.stop]]
command = "notify-send done"

[providers.ollama]
base_url = "http://127.0.0.1:11434/v1"
`},
		{"comments only", "# nothing yet\n# really", just, "# nothing yet\n# really\n\nmodel = \"llama3.2\"\n"},
		{"literal and multi-line strings replaced", "model = '''\nold\n''' # was long\n[providers.ollama]\nbase_url = 'c:\\x'\n", local,
			"model = \"qwen3:8b\" # was long\nprovider = \"ollama\"\n[providers.ollama]\nbase_url = \"http://127.0.0.1:11434/v1\"\n"},
		{"quoted keys", "\"model\" = \"a\"\n[providers.\"my server\"]\n\"base_url\" = \"http://old\"\n",
			Choice{Provider: "my server", BaseURL: "http://new", Model: "b"},
			"\"model\" = \"b\"\nprovider = \"my server\"\n[providers.\"my server\"]\n\"base_url\" = \"http://new\"\n"},
		{"a new provider with an odd name", "model = \"a\"\n", Choice{Provider: "a.b \"c\"", BaseURL: "http://x"},
			"model = \"a\"\nprovider = \"a.b \\\"c\\\"\"\n\n[providers.\"a.b \\\"c\\\"\"]\nbase_url = \"http://x\"\n"},
		{"values escaped", "model = \"a\"\n", Choice{Provider: "p", BaseURL: "http://x\"\n[evil]\nk = 1", APIKey: "k\\\"\x1b\x7f\t", Model: "m\"\n[x]"},
			"model = \"m\\\"\\n[x]\"\nprovider = \"p\"\n\n[providers.p]\nbase_url = \"http://x\\\"\\n[evil]\\nk = 1\"\napi_key = \"k\\\\\\\"\\u001B\\u007F\\t\"\n"},
		{"an inline providers table leaves the model edit in place", "# mine\nproviders = { ollama = { base_url = \"http://x\" } }\nmodel = \"a\" # here\n", just,
			"# mine\nproviders = { ollama = { base_url = \"http://x\" } }\nmodel = \"llama3.2\" # here\n"},
		{"a multi-line string holding key-like lines is not taken for keys", "notes = \"\"\"\nmodel = \"x\"\n[providers.ollama]\n\"\"\"\n", local,
			"notes = \"\"\"\nmodel = \"x\"\n[providers.ollama]\n\"\"\"\nprovider = \"ollama\"\nmodel = \"qwen3:8b\"\n\n[providers.ollama]\nbase_url = \"http://127.0.0.1:11434/v1\"\n"},
		{"an empty provider table is added as before", "model = \"a\"\n", Choice{Provider: "ollama"},
			"model = \"a\"\nprovider = \"ollama\"\n\n[providers.ollama]\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.toml")
			if tc.old != noFile {
				writeFile(t, path, tc.old, 0o600)
			}
			rewritten, err := Save(path, tc.ch)
			if err != nil {
				t.Fatal(err)
			}
			if got := readAll(t, path); got != tc.want || rewritten {
				t.Errorf("Save(%+v) rewrote %v, file:\n%s\nwant:\n%s", tc.ch, rewritten, got, tc.want)
			}
			checkDoc(t, tc.old, readAll(t, path), tc.ch)
			if k := tc.ch.APIKey; k != "" && strings.Count(readAll(t, path), quote(k)[1:len(quote(k))-1]) != 1 {
				t.Errorf("the key shows other than once, as its value:\n%s", readAll(t, path))
			}
		})
	}
}

// TestSaveSafetyNet: when the edited text does not decode to the intended
// document, Save rewrites the file instead and says so.
func TestSaveSafetyNet(t *testing.T) {
	for name, faulty := range map[string]func([]byte, Choice) ([]byte, error){
		"drops a setting": func(src []byte, ch Choice) ([]byte, error) {
			out, err := editText(src, ch)
			return bytes.Replace(out, []byte("sandbox"), []byte("# sandbox"), 1), err
		},
		"breaks the file": func(src []byte, ch Choice) ([]byte, error) {
			out, err := editText(src, ch)
			return append(out, "[["...), err
		},
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.toml")
			const old = "# mine\nsandbox = \"read-only\"\n"
			writeFile(t, path, old, 0o600)
			rewritten, err := save(path, hosted, faulty)
			if err != nil || !rewritten {
				t.Fatalf("save with a faulty editor: rewritten %v, %v", rewritten, err)
			}
			checkDoc(t, old, readAll(t, path), hosted)
		})
	}
}

// TestSaveRewrites: a form of the providers the editor does not change in
// place makes Save re-encode the file to the same settings, and say so.
func TestSaveRewrites(t *testing.T) {
	for _, tc := range []struct {
		name, old string
		ch        Choice
	}{
		{"inline table", "# mine\nproviders = { ollama = { base_url = \"http://x\" } }\n", local},
		{"dotted keys", "# mine\nproviders.ollama.base_url = \"http://x\"\n", local},
		{"dotted keys elsewhere", "# mine\nproviders.other.base_url = \"http://x\"\n", local},
		{"super-table with quoted names", "# mine\n[providers]\n\"my.server\" = { base_url = \"http://x\" }\n", hosted},
		{"empty super-table", "# mine\n[providers]\n[providers.ollama]\nbase_url = \"http://x\"\n", local},
		{"array of tables", "# mine\n[[providers.ollama]]\nbase_url = \"http://x\"\n", local},
		{"sub-table", "# mine\n[providers.ollama]\nbase_url = \"http://x\"\n[providers.ollama.headers]\nx = \"y\"\n", local},
		{"dotted provider key", "# mine\n[providers.ollama]\nbase_url.x = \"http://x\"\n", local},
		{"model not a string", "# mine\nmodel = 3\n", just},
		{"key not a string", "# mine\n[providers.ollama]\nbase_url = [\"http://x\"]\n", local},
		{"dotted model", "# mine\nmodel.name = \"x\"\n", just},
		{"a provider table", "# mine\n[provider]\nname = \"x\"\n", local},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.toml")
			writeFile(t, path, tc.old, 0o600)
			rewritten, err := Save(path, tc.ch)
			if err != nil {
				t.Fatal(err)
			}
			got := readAll(t, path)
			if !rewritten || strings.Contains(got, "# mine") {
				t.Errorf("rewritten %v, file:\n%s", rewritten, got)
			}
			checkDoc(t, tc.old, got, tc.ch)
			if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
				t.Errorf("mode %v, want 0600", st.Mode())
			}
		})
	}
}

// TestSaveLeavesBrokenFile: a file that does not parse is not touched.
func TestSaveLeavesBrokenFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	const broken = "# mine\nmodel = \"unterminated\n"
	writeFile(t, path, broken, 0o600)
	rewritten, err := Save(path, local)
	if err == nil || rewritten || !strings.Contains(err.Error(), "does not parse, so tick leaves it alone") {
		t.Errorf("Save over a broken file: %v, rewritten %v", err, rewritten)
	}
	if got := readAll(t, path); got != broken {
		t.Errorf("the broken file changed:\n%s", got)
	}
	if _, err := Save(path, Choice{Model: "a\xff"}); err == nil || !strings.Contains(err.Error(), "UTF-8") {
		t.Errorf("invalid UTF-8: %v", err)
	}
	if _, err := Save(filepath.Join(t.TempDir(), "none.toml"), Choice{APIKey: "sk-\xff"}); err == nil || strings.Contains(err.Error(), "sk-") {
		t.Errorf("an invalid key: %v (the key must not show)", err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(path), "none.toml")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a failed save wrote a file: %v", err)
	}
}

// checkDoc fails t unless text decodes to old's document with ch applied.
func checkDoc(t *testing.T, old, text string, ch Choice) {
	t.Helper()
	if old == noFile {
		old = ""
	}
	want, err := decode([]byte(old))
	if err != nil {
		t.Fatal(err)
	}
	applyChoice(want, ch)
	got, err := decode([]byte(text))
	if err != nil {
		t.Fatalf("the saved file does not parse: %v\n%s", err, text)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the saved file decodes to\n%#v\nwant\n%#v", got, want)
	}
}

// FuzzSave: whatever the file and the choice, Save leaves a file that does
// not parse alone, and otherwise writes one that parses to the old
// settings with the choice applied; when it edited in place (not
// rewritten), every comment line of the old file is still there and a
// CRLF file stays CRLF.
func FuzzSave(f *testing.F) {
	for _, old := range []string{"", commented, strings.ReplaceAll(commented, "\n", "\r\n"), "model = \"a\"", "[providers.x]",
		"# c\n[providers.ollama]\napi_key_env = \"K\"\n[mcp_servers.y]\ncommand = \"y\"\n", "providers = { x = { base_url = \"u\" } }\n",
		"a = \"\"\"\nmodel = \"x\"\n[providers.ollama]\n\"\"\"\n", "[providers.\"a b\"]\nbase_url = 'u'\n", "model = \"broken\n"} {
		for _, ch := range []Choice{local, hosted, just, {Provider: "a b", BaseURL: "u\"\n[x]", APIKey: "k\x00", Model: "'''"}} {
			f.Add(old, ch.Provider, ch.BaseURL, ch.APIKey, ch.Model)
		}
	}
	f.Fuzz(func(t *testing.T, old, prov, base, key, model string) {
		ch := Choice{Provider: prov, BaseURL: base, APIKey: key, Model: model}
		path := filepath.Join(t.TempDir(), "config.toml")
		writeFile(t, path, old, 0o600)
		_, parseErr := decode([]byte(old))
		rewritten, err := Save(path, ch)
		if parseErr != nil || !validUTF8(ch) {
			if err == nil || readAll(t, path) != old {
				t.Fatalf("Save over %q with %+v: %v; the file must stay as it was", old, ch, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("Save over %q with %+v: %v", old, ch, err)
		}
		got := readAll(t, path)
		checkDoc(t, old, got, ch)
		if rewritten {
			return
		}
		for _, line := range strings.Split(old, "\n") {
			if l := strings.TrimSpace(line); strings.HasPrefix(l, "#") && !strings.Contains(got, l) {
				t.Errorf("the comment %q is gone:\n%s", l, got)
			}
		}
		if strings.Contains(old, "\r\n") && !strings.Contains(strings.ReplaceAll(old, "\r\n", ""), "\n") &&
			strings.Contains(strings.ReplaceAll(got, "\r\n", ""), "\n") {
			t.Errorf("a CRLF file got LF lines:\n%q", got)
		}
	})
}

// FuzzEditText: the editor itself (without Save's safety net) either
// declines a file or edits it to exactly the intended document, so that
// the safety net is only ever a net.
func FuzzEditText(f *testing.F) {
	for _, old := range []string{"", commented, strings.ReplaceAll(commented, "\n", "\r\n"), "model = \"a\"", "[providers.x]",
		"# c\n[providers.ollama]\napi_key_env = \"K\"\n[mcp_servers.y]\ncommand = \"y\"\n", "providers = { x = { base_url = \"u\" } }\n",
		"a = \"\"\"\nmodel = \"x\"\n[providers.ollama]\n\"\"\"\n", "[providers.\"a b\"]\nbase_url = 'u'\n", "x = 1\r\n[a]\r\n# c\r\n[providers.ollama]"} {
		for _, ch := range []Choice{local, hosted, just, {Provider: "a b", BaseURL: "u\"\n[x]", APIKey: "k\x00", Model: "'''"}} {
			f.Add(old, ch.Provider, ch.BaseURL, ch.APIKey, ch.Model)
		}
	}
	f.Fuzz(func(t *testing.T, old, prov, base, key, model string) {
		ch := Choice{Provider: prov, BaseURL: base, APIKey: key, Model: model}
		want, err := decode([]byte(old))
		if err != nil || !validUTF8(ch) {
			return
		}
		applyChoice(want, ch)
		got, err := editText([]byte(old), ch)
		if err == nil && !decodesTo(got, want) {
			t.Errorf("editText(%q, %+v) = %q, which does not decode to %#v", old, ch, got, want)
		}
	})
}

// TestSaveThroughSymlink: a config.toml that is a symbolic link (a dotfile
// manager's, relative or absolute, through a chain, or to a file not made
// yet) stays a link: Save writes the file it points to.
func TestSaveThroughSymlink(t *testing.T) {
	for _, tc := range []struct {
		name     string
		relative bool
		chain    bool
		dangling bool
	}{
		{name: "absolute"},
		{name: "relative", relative: true},
		{name: "chain", chain: true},
		{name: "target not made yet", dangling: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home, dots := t.TempDir(), t.TempDir()
			target := filepath.Join(dots, "tick.toml")
			if !tc.dangling {
				if err := os.WriteFile(target, []byte("# mine\nmodel = \"old\"\n"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			link := filepath.Join(home, "config.toml")
			to := target
			if tc.relative {
				rel, err := filepath.Rel(home, target)
				if err != nil {
					t.Fatal(err)
				}
				to = rel
			}
			if tc.chain {
				mid := filepath.Join(home, "mid.toml")
				if err := os.Symlink(target, mid); err != nil {
					t.Fatal(err)
				}
				to = mid
			}
			if err := os.Symlink(to, link); err != nil {
				t.Fatal(err)
			}
			if _, err := Save(link, Choice{Model: "new"}); err != nil {
				t.Fatal(err)
			}
			fi, err := os.Lstat(link)
			if err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Fatalf("the link was replaced: %v, %v", fi.Mode(), err)
			}
			b, err := os.ReadFile(target)
			if err != nil || !strings.Contains(string(b), `model = "new"`) {
				t.Fatalf("the target holds %q, %v", b, err)
			}
			if !tc.dangling && !strings.Contains(string(b), "# mine") {
				t.Errorf("the target's comment was lost:\n%s", b)
			}
		})
	}
}
