package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// secretWords mark a variable as a secret when its name contains one of
// them, in any case.
var secretWords = [...]string{"KEY", "TOKEN", "SECRET", "PASSWORD"}

// IsSecretName reports whether an environment variable's name looks like it
// holds a secret: it contains KEY, TOKEN, SECRET or PASSWORD in any case.
func IsSecretName(name string) bool {
	up := strings.ToUpper(name)
	for _, w := range secretWords {
		if strings.Contains(up, w) {
			return true
		}
	}
	return false
}

// ScrubEnv returns environ ("NAME=value" entries) without the variables a
// command must not see: those named in drop (the API key tick itself uses),
// every variable whose name looks like a secret (see IsSecretName) and
// every one whose value does (IsSecretValue: URL credentials, known token
// shapes).
// A variable named in allow is kept whatever its name: the user asked for
// it by name. environ is not modified.
func ScrubEnv(environ, drop, allow []string) []string {
	allowed := make(map[string]bool, len(allow))
	for _, n := range allow {
		allowed[n] = true
	}
	dropped := make(map[string]bool, len(drop))
	for _, n := range drop {
		dropped[n] = true
	}
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		if !allowed[name] && (dropped[name] || IsSecretName(name) || IsSecretValue(value)) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// cacheVars are the variables that send a tool's cache into the commands'
// own cache directory, with the subdirectory each gets ("" for the
// directory itself).
var cacheVars = [...]struct{ name, sub string }{
	{"XDG_CACHE_HOME", ""}, // pip, uv, Go and most others default under it
	{"GOCACHE", "go-build"},
	{"npm_config_cache", "npm"},
	{"PIP_CACHE_DIR", "pip"},
	{"YARN_CACHE_FOLDER", "yarn"},
}

// CacheEnv returns the "NAME=value" entries that point the usual build
// caches (XDG_CACHE_HOME, GOCACHE, npm's, pip's, yarn's) into dir, the
// commands' own cache directory; "" gives none. Cargo keeps its registry
// under CARGO_HOME with its configuration and installed programs, so
// CARGO_HOME is left to the user (readable, not writable).
func CacheEnv(dir string) []string {
	if dir == "" {
		return nil
	}
	out := make([]string, 0, len(cacheVars))
	for _, v := range cacheVars {
		out = append(out, v.name+"="+filepath.Join(dir, v.sub))
	}
	return out
}

// CommandCacheDir returns the commands' own cache directory,
// tick/commands under the user's cache directory (~/.cache/tick/commands),
// creating it: sandboxed commands write their caches there, never in the
// user's ~/.cache, where a planted file would later be trusted by the
// user's own tools.
func CommandCacheDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("find the commands' cache directory: %w", err)
	}
	if !filepath.IsAbs(base) {
		return "", fmt.Errorf("find the commands' cache directory: %q is not absolute", base)
	}
	dir := filepath.Join(base, "tick", "commands")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("make the commands' cache directory: %w", err)
	}
	return dir, nil
}
