package config

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tick-agent/tick/agent/internal/safefile"
	"github.com/tick-agent/tick/agent/sandbox"
)

// ProjectDirName is the project's tick directory in a workspace: its
// config file, custom commands and the scripts its hooks usually run.
const ProjectDirName = ".tick"

// runFileMax bounds how much of one file a digest reads; a larger file's
// digest covers its first runFileMax bytes and its size.
const runFileMax = 256 << 20

// RunFiles are the workspace files a project's hooks and MCP servers run
// (a script named on a hook's command line, a server's program or
// arguments), by workspace-relative slash-separated path, each with a
// digest of its content: what trusting the project covers besides the
// definitions. A path that names nothing has the digest "absent", so a
// file planted there later is a change too. The files a program reads
// on its own (modules it imports) are not covered.
type RunFiles map[string]string

// Paths returns the files' paths, sorted.
func (f RunFiles) Paths() []string {
	out := make([]string, 0, len(f))
	for p := range f {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// ChangedError says which of a trusted project's run files no longer
// match what the user trusted.
type ChangedError struct {
	Files []string // workspace-relative, sorted
}

// Error names the files and what to do.
func (e *ChangedError) Error() string {
	return fmt.Sprintf("%s changed since you trusted this project's hooks and MCP servers, so they do not run: /trust in the app (or tick mcp trust) allows the new version", strings.Join(e.Files, ", "))
}

// Check reads the files again under workspace and returns a *ChangedError
// naming those whose digest differs, nil when all match.
func (f RunFiles) Check(workspace string) error {
	var changed []string
	for _, rel := range f.Paths() {
		if digestFile(filepath.Join(workspace, filepath.FromSlash(rel))) != f[rel] {
			changed = append(changed, rel)
		}
	}
	if len(changed) > 0 {
		return &ChangedError{Files: changed}
	}
	return nil
}

// Sub returns the part of f that the command line words (run in dir,
// workspace-relative; "" is the workspace) name, for one hook or server.
func (f RunFiles) Sub(workspace, dir string, words []string) RunFiles {
	out := RunFiles{}
	for _, rel := range namedFiles(workspace, dir, words) {
		if d, ok := f[rel]; ok {
			out[rel] = d
		}
	}
	return out
}

// findRunFiles returns the files the hooks and servers name, read now.
func findRunFiles(workspace string, hooks Hooks, servers map[string]MCPServer) RunFiles {
	out := RunFiles{}
	add := func(dir string, words []string) {
		for _, rel := range namedFiles(workspace, dir, words) {
			if _, ok := out[rel]; !ok {
				out[rel] = digestFile(filepath.Join(workspace, filepath.FromSlash(rel)))
			}
		}
	}
	for _, hs := range [][]Hook{hooks.PreToolUse, hooks.PostToolUse, hooks.UserPromptSubmit, hooks.Stop} {
		for _, h := range hs {
			add("", sandbox.ShellWords(h.Command))
		}
	}
	for _, s := range servers {
		if s.URL == "" {
			add(s.Cwd, append([]string{s.Command}, s.Args...))
		}
	}
	return out
}

// namedFiles returns the workspace-relative paths that words (a command
// line run in dir) name inside the workspace: a word that names an
// existing file, or that looks like a path (it holds a slash, or a dot
// after its first character) and names nothing yet. Options' values
// (--config=x.toml) count as words; directories and paths outside the
// workspace do not. A `cd DIR` among the words makes the words after it
// relative to DIR (`cd scripts && ./fmt.sh` runs scripts/fmt.sh), and a
// word that is itself a command line (`sh -c 'cd x && ./y'`) is read as
// one, two levels deep.
func namedFiles(workspace, dir string, words []string) []string {
	if workspace == "" {
		return nil
	}
	base := workspace
	if dir != "" {
		if filepath.IsAbs(dir) {
			base = dir
		} else {
			base = filepath.Join(workspace, dir)
		}
	}
	return namedIn(workspace, base, words, 0)
}

// namedIn is namedFiles for words run in base, depth levels of `sh -c`
// down.
func namedIn(workspace, base string, words []string, depth int) []string {
	var out []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		if depth < 2 && strings.ContainsAny(w, " \t\n;&|") {
			out = append(out, namedIn(workspace, base, sandbox.ShellWords(w), depth+1)...)
			continue
		}
		if w == "cd" && i+1 < len(words) {
			d := words[i+1]
			if !filepath.IsAbs(d) {
				d = filepath.Join(base, d)
			}
			if fi, err := os.Stat(d); err == nil && fi.IsDir() {
				base, i = d, i+1
			}
			continue
		}
		if rel, ok := namedWord(workspace, base, w); ok {
			out = append(out, rel)
		}
	}
	return out
}

// namedWord returns the workspace-relative path the word w (run in base)
// names, if it names one (see namedFiles).
func namedWord(workspace, base, w string) (string, bool) {
	if i := strings.LastIndexByte(w, '='); i >= 0 {
		w = w[i+1:]
	}
	if w == "" || strings.HasPrefix(w, "-") || strings.HasPrefix(w, "~") || strings.ContainsAny(w, "$`*?") {
		return "", false
	}
	abs := w
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(base, w)
	}
	rel, err := filepath.Rel(workspace, abs)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	fi, err := os.Stat(abs)
	switch {
	case err == nil && fi.IsDir():
	case err == nil, errors.Is(err, fs.ErrNotExist) && looksLikePath(w):
		return filepath.ToSlash(rel), true
	}
	return "", false
}

// looksLikePath reports whether a word that names nothing yet is meant as
// a file: it holds a slash, or a dot after its first character (x.py).
func looksLikePath(w string) bool {
	return strings.Contains(w, "/") || strings.LastIndexByte(w, '.') > 0
}

// digestFile returns "sha256:HEX:SIZE" of the regular file at path (its
// symbolic links followed), "absent" when nothing is there, or a word
// for what else is there.
func digestFile(path string) string {
	f, st, err := safefile.Open("", path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "absent"
	case errors.Is(err, safefile.ErrNotRegular):
		return "not a regular file"
	case err != nil:
		return "unreadable"
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, io.LimitReader(f, runFileMax)); err != nil {
		return "unreadable"
	}
	return fmt.Sprintf("sha256:%s:%d", hex.EncodeToString(h.Sum(nil)), st.Size())
}
