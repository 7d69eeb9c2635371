package checkpoint

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/tick-agent/tick/agent/internal/safefile"
)

// gitlinkMode is the mode git gives an index entry that records a nested
// repository's commit instead of its files.
const gitlinkMode = "160000"

// addNested stages the files in the directories dirs, each holding a
// repository of its own, one by one (so git records files, not a
// gitlink): every file but .git entries and their quarantines at any
// depth, and those the .gitignore files along their paths or the exclude
// file plain (which does not exclude dirs) ignore. Files larger than
// MaxFileSize and special files are left out and returned. The caller
// holds the lock.
func (s *Store) addNested(ctx context.Context, dirs []string, plain string) ([]Skip, error) {
	var cand bytes.Buffer
	var skipped []Skip
	for _, d := range dirs {
		root := filepath.Join(s.work, filepath.FromSlash(d))
		_ = filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return nil // unreadable: left out, as git leaves it out
			}
			name := e.Name()
			if name == ".git" || strings.HasPrefix(name, ".git.quarantined-by-tick") {
				if e.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if e.IsDir() {
				return nil
			}
			rel, _ := filepath.Rel(s.work, p)
			rel = filepath.ToSlash(rel)
			fi, err := e.Info()
			switch {
			case err != nil:
			case isSpecial(fi.Mode()):
				skipped = append(skipped, Skip{Path: rel, Why: "not kept: " + safefile.Kind(fi.Mode())})
			case fi.Mode().IsRegular() && fi.Size() > MaxFileSize:
				skipped = append(skipped, Skip{Path: rel, Why: overCap(fi.Size())})
			default:
				cand.WriteString(rel + "\x00")
			}
			return nil
		})
	}
	if err := s.writeInfo(plain); err != nil {
		return skipped, err
	}
	files, err := s.notIgnored(ctx, cand.Bytes())
	if err != nil || len(files) == 0 {
		return skipped, err
	}
	_, err = s.run(ctx, files, "update-index", "--add", "--replace", "-z", "--stdin")
	return skipped, err
}

// notIgnored returns the NUL-separated paths of list that no exclude
// rule covers (the workspace's .gitignore files, the shadow repository's
// exclude file), NUL-separated.
func (s *Store) notIgnored(ctx context.Context, list []byte) ([]byte, error) {
	if len(list) == 0 {
		return nil, nil
	}
	out, err := s.checkIgnore(ctx, list)
	if err != nil {
		return nil, err
	}
	ignored := map[string]bool{}
	for _, p := range strings.Split(string(out), "\x00") {
		ignored[p] = true
	}
	var keep bytes.Buffer
	for _, p := range strings.Split(strings.TrimSuffix(string(list), "\x00"), "\x00") {
		if !ignored[p] && !ignoredDir(p, ignored) {
			keep.WriteString(p + "\x00")
		}
	}
	return keep.Bytes(), nil
}

// ignoredDir reports whether a directory above p is in ignored.
func ignoredDir(p string, ignored map[string]bool) bool {
	for d := path.Dir(p); d != "." && d != "/"; d = path.Dir(d) {
		if ignored[d] {
			return true
		}
	}
	return false
}

// checkIgnore runs `git check-ignore` on the NUL-separated paths of list
// and returns those ignored; its exit status 1 means none is.
func (s *Store) checkIgnore(ctx context.Context, list []byte) ([]byte, error) {
	// check-ignore refuses literal pathspecs; its paths are not patterns
	out, err := s.runEnv(ctx, list, []string{"GIT_LITERAL_PATHSPECS=0"}, "check-ignore", "--no-index", "-z", "--stdin")
	if err != nil && strings.Contains(err.Error(), "exit status 1:") {
		return nil, nil
	}
	return out, err
}

// noGitlinks is the file in the shadow repository saying its index holds
// no gitlink (this tick's snapshots never add one).
const noGitlinks = "tick-no-gitlinks"

// dropGitlinks takes the gitlinks out of the shadow index, once per
// repository: one made by an older tick recorded nested repositories as
// gitlinks, whose files it then never saw. The caller holds the lock.
func (s *Store) dropGitlinks(ctx context.Context) error {
	if s.indexChecked {
		return nil
	}
	marker := filepath.Join(s.dir, noGitlinks)
	if _, err := os.Stat(marker); err == nil {
		s.indexChecked = true
		return nil
	}
	out, err := s.run(ctx, nil, "ls-files", "-s", "-z")
	if err != nil {
		return err
	}
	var links bytes.Buffer
	for _, e := range strings.Split(string(out), "\x00") {
		if meta, p, ok := strings.Cut(e, "\t"); ok && strings.HasPrefix(meta, gitlinkMode+" ") {
			links.WriteString(p + "\x00")
		}
	}
	if links.Len() > 0 {
		if _, err := s.run(ctx, links.Bytes(), "update-index", "--force-remove", "-z", "--stdin"); err != nil {
			return err
		}
	}
	s.indexChecked = true
	_ = os.WriteFile(marker, nil, 0o600)
	return nil
}
