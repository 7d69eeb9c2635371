package sandbox

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// gitConfigTimeout bounds each git command GitConfigPaths runs.
const gitConfigTimeout = 5 * time.Second

// gitConfigMax bounds what GitConfigPaths reads of git's answer.
const gitConfigMax = 1 << 20

// GitConfigPaths reads the effective git configuration of the repository
// at ws (the user's git: `git config --list --show-origin`) and returns the
// workspace-relative paths it names inside ws that the user's git reads
// or runs: the files included (include.path, includeIf.*.path),
// core.hooksPath, core.fsmonitor's program (and a script it is given:
// git runs it through the shell), core.excludesFile and
// core.attributesFile. Relative paths resolve as git resolves them (an
// include against the file that includes it, the others against the
// working tree's top); symbolic links are followed, and a path that is a
// link is listed as well (its replacement is reported by
// Runner.GitChanges). Paths inside .git are
// left out (already protected); so are paths outside ws. Without git, or
// outside a repository, it returns nil. The git commands inherit tick's
// environment (git needs HOME for the user's global config) and run
// nothing else: `git config` reads files only. A core.hooksPath inside
// the workspace that is missing is made, empty, so that it can be
// protected; a missing file it names is not.
func GitConfigPaths(ws string) []string {
	if ws == "" {
		return nil
	}
	ws = filepath.Clean(ws)
	out := gitOutput(ws, "config", "--list", "--show-origin", "-z")
	if out == nil {
		return nil
	}
	top := topOnce(ws)
	home, _ := os.UserHomeDir()
	seen := map[string]bool{}
	fields := bytes.Split(out, []byte{0})
	for i := 0; i+1 < len(fields); i += 2 {
		origin, entry := string(fields[i]), string(fields[i+1])
		key, value, _ := strings.Cut(entry, "\n")
		for _, p := range configPaths(strings.ToLower(key), strings.TrimSpace(value)) {
			addConfigPath(ws, top, home, origin, key, p, seen)
		}
	}
	paths := make([]string, 0, len(seen))
	for rel := range seen {
		paths = append(paths, rel)
	}
	sort.Strings(paths)
	return paths
}

// topOnce returns the function that gives the working tree's top of the
// repository at ws (`git rev-parse --show-toplevel`, ws when git does not
// say), asking git the first time only: most configurations name no
// path relative to it, and then git runs once, not twice.
func topOnce(ws string) func() string {
	top := ""
	return func() string {
		if top == "" {
			top = ws
			if t := strings.TrimSpace(string(gitOutput(ws, "rev-parse", "--show-toplevel"))); t != "" && filepath.IsAbs(t) {
				top = filepath.Clean(t)
			}
		}
		return top
	}
}

// addConfigPath adds to seen the workspace-relative path(s) p names, a
// path the config entry key (from the file origin) holds; top gives the
// working tree's top, which the keys other than includes are relative to.
func addConfigPath(ws string, top func() string, home, origin, key, p string, seen map[string]bool) {
	var base string
	if strings.HasSuffix(strings.ToLower(key), ".path") && (strings.HasPrefix(strings.ToLower(key), "include.") || strings.HasPrefix(strings.ToLower(key), "includeif.")) {
		f, ok := strings.CutPrefix(origin, "file:")
		if !ok {
			return
		}
		if !filepath.IsAbs(f) {
			f = filepath.Join(ws, f)
		}
		base = filepath.Dir(f)
	} else if !filepath.IsAbs(p) && !(strings.HasPrefix(p, "~/") && home != "") {
		base = top()
	}
	abs := resolveConfigPath(base, home, p)
	if rel := insideWorkspace(ws, abs); rel != "" && !InGitMeta(rel) {
		seen[rel] = true
		if strings.EqualFold(key, "core.hooksPath") {
			makeHooksDir(ws, rel)
		}
	}
	if rel := literalInside(ws, abs); rel != "" && !InGitMeta(rel) {
		seen[rel] = true // a link there: its target is protected, the link is watched (Runner.GitChanges)
	}
}

// makeHooksDir makes the hooks directory rel (workspace-relative) when it
// is missing, empty: only what exists can be made read-only, and git runs
// nothing from an empty hooks directory (nor shows it in git status).
func makeHooksDir(ws, rel string) {
	abs := filepath.Join(ws, filepath.FromSlash(rel))
	if _, err := os.Lstat(abs); err != nil && os.IsNotExist(err) {
		_ = os.MkdirAll(abs, 0o755)
	}
}

// configPaths returns the paths a config entry names when it is one of
// the keys GitConfigPaths protects, else nil. core.fsmonitor is a
// command line git runs through the shell: its program, and every later
// word that looks like a path (`sh tools/fsmon.sh`).
func configPaths(key, value string) []string {
	switch {
	case value == "":
		return nil
	case key == "include.path", strings.HasPrefix(key, "includeif.") && strings.HasSuffix(key, ".path"):
		return []string{value}
	case key == "core.hookspath", key == "core.excludesfile", key == "core.attributesfile":
		return []string{value}
	case key == "core.fsmonitor":
		switch strings.ToLower(value) {
		case "true", "false", "yes", "no", "on", "off", "1", "0":
			return nil // the built-in daemon, or none
		}
		var out []string
		for i, w := range ShellWords(value) {
			if i == 0 || !strings.HasPrefix(w, "-") && (strings.Contains(w, "/") || strings.LastIndexByte(w, '.') > 0) {
				out = append(out, w) // the program (where git looks), or a script it is given
			}
		}
		return out
	}
	return nil
}

// resolveConfigPath makes p (a config value) absolute: ~/ is home, a
// relative path is relative to base.
func resolveConfigPath(base, home, p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok && home != "" {
		return filepath.Join(home, rest)
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

// insideWorkspace returns abs (its symbolic links followed where it
// exists) as a slash-separated path relative to ws when it lies inside
// ws, else "".
func insideWorkspace(ws, abs string) string {
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	} else if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		abs = filepath.Join(dir, filepath.Base(abs)) // missing: where it would be made
	}
	wsReal := ws
	if r, err := filepath.EvalSymlinks(ws); err == nil {
		wsReal = r
	}
	rel, err := filepath.Rel(wsReal, abs)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(rel)
}

// literalInside returns abs, its links not followed, relative to ws
// (slash-separated) when it lies inside ws, else "".
func literalInside(ws, abs string) string {
	roots := []string{ws}
	if real, err := filepath.EvalSymlinks(ws); err == nil && real != ws {
		roots = append(roots, real) // git names the top by its real path
	}
	for _, root := range roots {
		rel, err := filepath.Rel(root, filepath.Clean(abs))
		if err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rel)
		}
	}
	return ""
}

// gitOutput runs git with args in dir and returns its standard output, at
// most gitConfigMax bytes; nil when git is missing or fails.
func gitOutput(dir string, args ...string) []byte {
	ctx, cancel := context.WithTimeout(context.Background(), gitConfigTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Stdin = nil
	cmd.SysProcAttr = newSession() // no terminal to ask on
	out, err := cmd.Output()
	if err != nil || len(out) > gitConfigMax {
		return nil
	}
	return out
}

// Protects reports whether the workspace-relative, slash-separated path
// rel is one the sandbox makes read-only besides git metadata (see
// Policy.Protect: .tick, the files trusted hooks and servers run, what
// the repository's git config names), or lies under one. The file tools
// use it to ask before writing there, as they do for .git. It waits for
// the support probe (which reads the git config).
func (r *Runner) Protects(rel string) bool {
	rel = path.Clean(strings.TrimPrefix(filepath.ToSlash(rel), "./"))
	for _, p := range r.protected() {
		if rel == p || strings.HasPrefix(rel, p+"/") {
			return true
		}
	}
	return false
}

// protected returns the policy's Protect paths and those the git config
// names, cleaned, once the support probe has finished.
func (r *Runner) protected() []string {
	<-r.ready
	out := make([]string, 0, len(r.policy.Protect)+len(r.gitConf))
	for _, p := range append(append([]string(nil), r.policy.Protect...), r.gitConf...) {
		if p = path.Clean(filepath.ToSlash(p)); p != "." && p != ".." && !strings.HasPrefix(p, "../") && !path.IsAbs(p) {
			out = append(out, p)
		}
	}
	return out
}
