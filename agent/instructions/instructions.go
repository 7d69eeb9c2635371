// Package instructions loads the user's project instructions for the
// system prompt: the AGENTS.md files from the repository root (the nearest
// directory above the workspace holding .git, else the workspace) down to
// the workspace, after the user's own AGENTS.md in tick's config directory.
// In a directory without AGENTS.md a CLAUDE.md is read instead. Each file
// is labelled with its path, general first, and the whole is capped at
// MaxBytes with a note saying what was cut.
//
// A repository chooses these files, so each is read through safefile: a
// project file must resolve inside the repository root (links included),
// the user's inside their config directory, and both must be regular
// files, opened without blocking and read only up to the cap. Anything
// else (a link to /proc/self/environ or ~/.ssh/id_rsa, a named pipe, a
// device) is skipped, and Load's error names it and says why.
package instructions

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tick-agent/tick/agent/internal/safefile"
)

// MaxBytes caps the text of all the files together.
const MaxBytes = 32 << 10

// File is one instructions file that was loaded.
type File struct {
	Path  string // absolute
	Bytes int    // what of it went into the prompt
	Cut   bool   // the cap cut it short (or left it out)
}

// Set is the loaded instructions.
type Set struct {
	// Text is the section for the system prompt; "" when no file exists.
	Text  string
	Files []File
}

// Load reads the instructions for workspace (absolute) and the user's
// config directory userDir ("" for none). Unreadable and refused files are
// skipped; the error names each with the reason, and the Set holds the
// rest.
func Load(workspace, userDir string) (Set, error) {
	var paths []source
	if userDir != "" {
		paths = append(paths, source{filepath.Join(userDir, "AGENTS.md"), userDir})
	}
	ds := dirs(workspace)
	for _, dir := range ds {
		for _, n := range []string{"AGENTS.md", "CLAUDE.md"} { // the first that exists
			p := filepath.Join(dir, n)
			if _, err := os.Lstat(p); err == nil {
				paths = append(paths, source{p, ds[0]})
				break
			}
		}
	}
	var (
		set   Set
		b     strings.Builder
		errs  []error
		left  = MaxBytes
		empty = true
	)
	for _, src := range paths {
		p := src.path
		text, err := readCapped(src, left)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			errs = append(errs, err)
			continue
		}
		f := File{Path: p, Bytes: len(text.body), Cut: text.cut}
		set.Files = append(set.Files, f)
		if empty {
			b.WriteString(header)
			empty = false
		}
		fmt.Fprintf(&b, "\n## %s\n\n%s\n", p, strings.TrimSpace(text.body))
		if text.cut {
			fmt.Fprintf(&b, "\n[%s was cut here: project instructions are limited to %d KiB in all]\n", p, MaxBytes>>10)
		}
		left -= len(text.body)
	}
	set.Text = b.String()
	return set, errors.Join(errs...)
}

// header introduces the section in the system prompt.
const header = `# Project instructions

The user keeps instructions for this project in the files below (general
first, the most specific last; a later file wins where they disagree).
Follow them.
`

// dirs returns the directories from the repository root down to
// workspace.
func dirs(workspace string) []string {
	root := workspace
	for d := workspace; ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			root = d
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	var out []string
	for d := workspace; ; d = filepath.Dir(d) {
		out = append([]string{d}, out...)
		if d == root || filepath.Dir(d) == d {
			break
		}
	}
	return out
}

// source is an instructions file and the directory it must resolve in.
type source struct {
	path, root string
}

// capped is a file's text, at most the bytes allowed.
type capped struct {
	body string
	cut  bool
}

// readCapped reads at most limit bytes of src, as valid UTF-8.
func readCapped(src source, limit int) (capped, error) {
	buf, cut, err := safefile.ReadPrefix(src.root, src.path, int64(limit))
	if err != nil {
		var refused *safefile.Error
		if errors.As(err, &refused) || errors.Is(err, fs.ErrNotExist) {
			return capped{}, err
		}
		return capped{}, fmt.Errorf("read instructions %s: %w", src.path, err)
	}
	return capped{body: strings.ToValidUTF8(string(buf), ""), cut: cut}, nil
}

// Summary names the loaded files for the welcome line, relative to
// workspace where they are inside it, e.g. "AGENTS.md, web/AGENTS.md,
// ~/.config/tick/AGENTS.md (cut)".
func (s Set) Summary(workspace, home string) string {
	var parts []string
	for _, f := range s.Files {
		p := f.Path
		if rel, err := filepath.Rel(workspace, p); err == nil && !strings.HasPrefix(rel, "..") {
			p = rel
		} else if home != "" && strings.HasPrefix(p, home+string(filepath.Separator)) {
			p = "~" + p[len(home):]
		}
		if f.Cut {
			p += " (cut)"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ", ")
}
