package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// hideGitSecrets covers the workspace repository's config file with a
// copy that leaves out the values of http.*.extraheader (actions/checkout
// leaves the job's token there), so that a command reads neither the file
// nor `git config` the header. The copy is bound over the file in the
// helper's mount namespace (its name unlinked from the private temporary
// directory before the command starts); the user's git, outside it,
// reads the file as it is.
func hideGitSecrets(p Policy) error {
	cfg := repoConfigFile(p.Workspace)
	if cfg == "" {
		return nil
	}
	b := readSmall(cfg)
	filtered, changed := dropExtraHeaders(b)
	if !changed {
		return nil
	}
	dir := p.TempDir
	if dir == "" {
		dir = os.TempDir() // the namespace's own tmpfs
	}
	f, err := os.CreateTemp(dir, ".tick-git-config-")
	if err != nil {
		return fmt.Errorf("hide the extraheader of %s: %w", cfg, err)
	}
	defer os.Remove(f.Name()) // the bind keeps the file
	_, werr := f.Write(filtered)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return fmt.Errorf("hide the extraheader of %s: %w", cfg, werr)
	}
	if err := unix.Mount(f.Name(), cfg, "", unix.MS_BIND, ""); err != nil {
		return fmt.Errorf("hide the extraheader of %s: %w", cfg, err)
	}
	if err := unix.Mount("", cfg, "", unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("make the copy of %s read-only: %w", cfg, err)
	}
	return nil
}

// repoConfigFile returns the config file of the repository whose .git is
// in ws: .git/config, or for a gitfile (a worktree, a submodule) the
// config of the repository it names (its commondir's); "" if none.
func repoConfigFile(ws string) string {
	dotgit := filepath.Join(ws, GitMetaName)
	fi, err := os.Lstat(dotgit)
	if err != nil {
		return ""
	}
	dir := dotgit
	if fi.Mode().IsRegular() {
		s, ok := strings.CutPrefix(strings.TrimSpace(string(readSmall(dotgit))), "gitdir:")
		if !ok {
			return ""
		}
		dir = pointsTo(dotgit, strings.TrimSpace(s))
		if c := strings.TrimSpace(string(readSmall(filepath.Join(dir, "commondir")))); c != "" {
			dir = pointsTo(filepath.Join(dir, "commondir"), c)
		}
	} else if !fi.IsDir() {
		return ""
	}
	cfg := filepath.Join(dir, "config")
	if st, err := os.Lstat(cfg); err != nil || !st.Mode().IsRegular() {
		return ""
	}
	return cfg
}

// dropExtraHeaders returns the git config text b without its extraheader
// entries (with their continuation lines) and whether there were any.
func dropExtraHeaders(b []byte) ([]byte, bool) {
	lines := strings.SplitAfter(string(b), "\n")
	var out strings.Builder
	changed, cont := false, false
	for _, line := range lines {
		if cont { // the value goes on after a backslash at the end of the line
			cont = strings.HasSuffix(strings.TrimRight(line, "\r\n"), "\\")
			continue
		}
		header, rest := splitSectionHeader(line)
		key, _, _ := strings.Cut(strings.TrimSpace(rest), "=")
		if strings.EqualFold(strings.TrimSpace(key), "extraheader") {
			changed = true
			cont = strings.HasSuffix(strings.TrimRight(line, "\r\n"), "\\")
			if header != "" {
				out.WriteString(header + "\n") // git reads a key after the header on its line
			}
			continue
		}
		out.WriteString(line)
	}
	return []byte(out.String()), changed
}

// splitSectionHeader splits a config line that starts with a section
// header ("[http \"https://x/\"]", a quoted subsection may hold "]") into
// the header and what follows it on the line; a line without one is all
// rest.
func splitSectionHeader(line string) (header, rest string) {
	t := strings.TrimLeft(line, " \t")
	if !strings.HasPrefix(t, "[") {
		return "", line
	}
	quoted := false
	for i := 1; i < len(t); i++ {
		switch c := t[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case c == ']' && !quoted:
			return t[:i+1], t[i+1:]
		}
	}
	return "", line
}
