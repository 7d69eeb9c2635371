package checkpoint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tick-agent/tick/agent/internal/safefile"
)

// Staging: a snapshot is the workspace's files as git's index of the
// shadow repository sees them after `git add -A` (done as `ls-files
// --others`, `add -u` and the untracked files added by name, so that
// the workspace is walked once and its tracked files stat'ed once), with
// three things git alone gets wrong for undo. A directory holding a repository of its own
// (a `git init` kept, a vendored clone) would be recorded as a gitlink, or
// fail outright when it has no commit: such a directory is excluded from
// `git add` and its files are staged one by one instead, its .git left
// out. A tracked file that became a FIFO, socket or device makes `git add`
// fail: it is taken out of the snapshot and named in what was left out.
// And the files the user's own git ignores (the workspace's .gitignore
// files, its .git/info/exclude, the user's global excludes file) are left
// out, as they are of the user's repository.

// Skip is a file a snapshot left out, and why (too large, not a regular
// file). Restoring leaves such a file as it is.
type Skip struct {
	Path string `json:"path"`
	Why  string `json:"why"`
}

// String is the file and why it was left out, for a note.
func (k Skip) String() string { return k.Path + " (" + k.Why + ")" }

// quarantinePattern matches the .git entries the git guard moved aside:
// never snapshotted, so that no restore brings one back.
const quarantinePattern = ".git.quarantined-by-tick*"

// Left returns the files the store's last snapshot or comparison left
// out (see Skip): those a restore now leaves alone.
func (s *Store) Left() []Skip {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Skip(nil), s.left...)
}

// tree stages the workspace in the shadow index (see Staging above) and
// returns its tree and the files left out; the caller holds the lock.
func (s *Store) tree(ctx context.Context) (tree string, skipped []Skip, err error) {
	if _, err := os.Stat(filepath.Join(s.dir, "index")); errors.Is(err, fs.ErrNotExist) && s.borrow(ctx) {
		s.indexChecked = true // borrow took the gitlinks out
	}
	if err := s.dropGitlinks(ctx); err != nil {
		return "", nil, err
	}
	if tree, skipped, ok := s.later(ctx); ok {
		s.setLeft(skipped)
		return tree, skipped, nil
	}
	pass := s.beginPass()
	skipped, nested, plain, fresh, err := s.prepare(ctx)
	if err != nil {
		return "", nil, err
	}
	more, clean, err := s.addAll(ctx, fresh)
	if err != nil {
		return "", nil, err
	}
	skipped = append(skipped, more...)
	if len(nested) > 0 {
		more, err := s.addNested(ctx, nested, plain)
		if err != nil {
			return "", nil, err
		}
		skipped = append(skipped, more...)
	}
	out, err := s.run(ctx, nil, "write-tree")
	if err != nil {
		return "", nil, err
	}
	tree = strings.TrimSpace(string(out))
	if pass != nil && clean && len(nested) == 0 {
		s.finish(pass, tree, skipped)
	}
	s.setLeft(skipped)
	return tree, skipped, nil
}

// setLeft records what the last staging left out (see Left).
func (s *Store) setLeft(skipped []Skip) {
	s.mu.Lock()
	s.left = skipped
	s.mu.Unlock()
}

// prepare writes the shadow repository's exclude file: the user's
// excludes, the untracked files larger than MaxFileSize and the
// directories holding a repository of their own (listed by git as "dir/"),
// then .git entries and their quarantines at any depth. It returns the
// large files, as skipped, the nested repositories' directories, the
// exclude file without them (for addNested), and the other untracked
// files, NUL-separated (for addAll).
func (s *Store) prepare(ctx context.Context) (large []Skip, nested []string, plain string, fresh []byte, err error) {
	tail := ".git\n" + quarantinePattern + "\n" // last: no pattern above re-includes them
	base := s.userExcludes(ctx) + tail
	if err := s.writeInfo(base); err != nil {
		return nil, nil, "", nil, err
	}
	out, err := s.run(ctx, nil, "ls-files", "-z", "--others", "--exclude-standard")
	if err != nil {
		return nil, nil, "", nil, err
	}
	var add bytes.Buffer
	for _, p := range strings.Split(string(out), "\x00") {
		switch {
		case p == "":
		case strings.HasSuffix(p, "/"):
			nested = append(nested, strings.TrimSuffix(p, "/"))
		default:
			if fi, err := os.Lstat(filepath.Join(s.work, p)); err == nil && fi.Mode().IsRegular() && fi.Size() > MaxFileSize {
				large = append(large, Skip{Path: p, Why: overCap(fi.Size())})
				continue
			}
			add.WriteString(p + "\x00")
		}
	}
	if len(large) == 0 && len(nested) == 0 {
		return nil, nil, base, add.Bytes(), nil
	}
	var b strings.Builder
	b.WriteString(base)
	for _, p := range large {
		b.WriteString("/" + escapePattern(p.Path) + "\n")
	}
	plain = b.String() + tail
	for _, d := range nested {
		b.WriteString("/" + escapePattern(d) + "/\n")
	}
	b.WriteString(tail)
	return large, nested, plain, add.Bytes(), s.writeInfo(b.String())
}

// overCap says how far a file is over MaxFileSize.
func overCap(size int64) string {
	return fmt.Sprintf("not kept: %s over the %s cap", humanSize(size), humanSize(MaxFileSize))
}

// humanSize writes n bytes as KB, MB or GB (powers of 1024), one decimal
// below 10.
func humanSize(n int64) string {
	units := []string{"B", "KB", "MB", "GB", "TB"}
	f, u := float64(n), 0
	for f >= 1024 && u < len(units)-1 {
		f /= 1024
		u++
	}
	if u > 0 && f < 10 && f != float64(int64(f)) {
		return fmt.Sprintf("%.1f %s", f, units[u])
	}
	return fmt.Sprintf("%.0f %s", f, units[u])
}

// addAll stages the workspace: `git add -u` for the files the index
// tracks (the one pass that stats them all), then the untracked files
// fresh (NUL-separated, as prepare listed them: not ignored, not too
// large) with `git update-index --add`, which walks no directory again.
// When that fails (a file unreadable, gone meanwhile), `git add -A` does
// both instead, leaving out what it cannot read. When the update fails
// because a tracked file is no longer a regular file, link or directory
// (a FIFO, a socket, a device), those files are taken out of the index,
// returned as skipped, and the add runs again. It says whether every
// file was staged as the first two commands stage them (clean): only
// then may the next snapshot start from this one (see later.go).
func (s *Store) addAll(ctx context.Context, fresh []byte) ([]Skip, bool, error) {
	_, err := s.run(ctx, nil, "add", "-u", "--ignore-errors", ".")
	if err == nil {
		clean, err := s.addFresh(ctx, fresh)
		return nil, clean, err
	}
	out, lerr := s.run(ctx, nil, "ls-files", "-z", "--modified")
	if lerr != nil {
		return nil, false, err
	}
	var special []Skip
	var paths bytes.Buffer
	for _, p := range strings.Split(string(out), "\x00") {
		if p == "" {
			continue
		}
		if fi, err := os.Lstat(filepath.Join(s.work, p)); err == nil && isSpecial(fi.Mode()) {
			special = append(special, Skip{Path: p, Why: "not kept: " + safefile.Kind(fi.Mode())})
			paths.WriteString(p + "\x00")
		}
	}
	if len(special) == 0 {
		return nil, false, err
	}
	if _, err := s.run(ctx, paths.Bytes(), "update-index", "--force-remove", "-z", "--stdin"); err != nil {
		return nil, false, err
	}
	if _, err := s.run(ctx, nil, "add", "-A", "--ignore-errors", "."); err != nil {
		return nil, false, err
	}
	return special, false, nil
}

// addFresh adds the untracked files fresh (NUL-separated) to the index,
// or, when git cannot add one of them, runs `git add -A` instead, which
// leaves out what it cannot read; it says whether the first way did.
func (s *Store) addFresh(ctx context.Context, fresh []byte) (bool, error) {
	if len(fresh) == 0 {
		return true, nil
	}
	if _, err := s.run(ctx, fresh, "update-index", "--add", "--replace", "-z", "--stdin"); err == nil {
		return true, nil
	}
	_, err := s.run(ctx, nil, "add", "-A", "--ignore-errors", ".")
	return false, err
}

// isSpecial reports whether m is neither a regular file, a link nor a
// directory.
func isSpecial(m fs.FileMode) bool {
	return !m.IsRegular() && !m.IsDir() && m&fs.ModeSymlink == 0
}

// escapePattern escapes the characters gitignore patterns treat specially.
func escapePattern(p string) string {
	r := strings.NewReplacer(`\`, `\\`, "*", `\*`, "?", `\?`, "[", `\[`, "!", `\!`, "#", `\#`)
	return r.Replace(p)
}
