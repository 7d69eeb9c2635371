// Package checkpoint records snapshots of a workspace in a shadow git
// repository, so that the user can undo what a step of the plan did.
//
// The repository lives in a directory of tick's state (one per workspace,
// chosen by the caller); the workspace's own .git is never touched: every
// git command runs with GIT_DIR set to the shadow repository and
// GIT_WORK_TREE to the workspace. Files are stored and restored as their
// bytes: the repository's info/attributes overrides whatever the
// workspace's .gitattributes say, and neither the caller's GIT_*
// environment nor the user's global or system git configuration reaches
// it. A snapshot leaves out what the user's git ignores (the workspace's
// .gitignore files, its .git/info/exclude, the user's global excludes),
// skips untracked files larger than MaxFileSize and files that are not
// regular (each named, with why, in Checkpoint.Skipped and Store.Left),
// takes the files of repositories nested in the workspace like any others
// (never a .git), and is incremental: git's index in the shadow
// repository remembers what it hashed, so a snapshot of an unchanged
// workspace only stats its files; in a git workspace the first one starts
// from the user's index (see borrow.go); a later one in the same process
// stats the files itself, lists only the directories that changed, and
// hashes the few changed files without a git process but the commit's
// (see later.go). It needs the git binary (ErrNoGit).
package checkpoint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/tick-agent/tick/agent/internal/flock"
)

// MaxFileSize is the largest untracked file a snapshot takes in; larger
// ones are skipped and named in Checkpoint.Skipped.
const MaxFileSize = 5 << 20

// ErrNoGit is returned by Open when the git binary cannot be found.
var ErrNoGit = errors.New("git is not installed (undo needs it)")

// Store is the shadow repository of one workspace. Its methods are safe
// for concurrent use; they run one at a time, also across processes: two
// ticks in one workspace share its repository and take turns.
type Store struct {
	git, dir, work string
	sem            chan struct{} // one git operation at a time in this process
	exists         bool          // the repository has been created (read and set holding sem)
	held           *os.File      // the lock file, flocked while an operation runs
	userExcl       []string      // the user's exclude files (see userExcludes), found by the first staging
	indexChecked   bool          // the index holds no gitlink (see dropGitlinks); read and set holding sem
	last           *laterState   // what the last snapshot left for the next (see later.go); read and set holding sem
	quick          int           // the snapshots staged by the quick pass (see later.go), for tests; holding sem
	walkSkip       int           // full stagings left to run without a listing (see beginPass); holding sem
	parts          int           // pack-objects a borrow runs side by side; 0: packParts's choice (tests set it)
	mu             sync.Mutex    // guards left
	left           []Skip        // what the last staging left out
}

// Checkpoint is one snapshot: its commit in the shadow repository and the
// files it left out (too large, or not a regular file).
type Checkpoint struct {
	ID      string
	Skipped []Skip
}

// Kind says how a file differs from a checkpoint.
type Kind string

// The kinds of Change, as restoring sees them.
const (
	Changed Kind = "changed" // restoring writes the old content back
	Created Kind = "created" // created since: restoring deletes it
	Deleted Kind = "deleted" // deleted since: restoring brings it back
)

// Change is one file restoring a checkpoint changes, by its
// workspace-relative path.
type Change struct {
	Kind Kind
	Path string
}

// Open returns the store of workspace keeping its repository in dir. A
// missing repository is created by the store's first operation, not by
// Open, so that opening costs no git process (tick opens the store before
// its first frame). It fails with ErrNoGit when git is missing, and when
// dir cannot be created.
func Open(ctx context.Context, dir, workspace string) (*Store, error) {
	git, err := exec.LookPath("git")
	if err != nil {
		return nil, ErrNoGit
	}
	s := &Store{git: git, dir: dir, work: workspace, sem: make(chan struct{}, 1)}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("checkpoint: create %s: %w", dir, err)
	}
	return s, nil
}

// create makes the shadow repository; the caller holds sem.
func (s *Store) create(ctx context.Context) error {
	for _, args := range [][]string{
		{"init", "-q"},
		{"config", "core.autocrlf", "false"},
		{"config", "core.eol", "lf"},
		{"config", "core.safecrlf", "false"},
		{"config", "core.attributesFile", os.DevNull},
		{"config", "core.hooksPath", os.DevNull},
		{"config", "core.fsmonitor", "false"},
		{"config", "core.untrackedCache", "false"},
		{"config", "gc.auto", "0"},
		{"config", "core.quotepath", "false"},
	} {
		if _, err := s.run(ctx, nil, args...); err != nil {
			return err
		}
	}
	s.exists = true
	return nil
}

// lock takes the store for one operation, or fails when ctx ends first:
// within this process first, then across processes, with an flock on
// lockName in the repository's directory, so that two ticks in one
// workspace take turns. Holding both, an index.lock git left behind is
// from a snapshot cut short (tick killed) and is removed. The first
// operation creates the repository when it is missing.
func (s *Store) lock(ctx context.Context) error {
	select {
	case s.sem <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("checkpoint: wait for the previous snapshot: %w", ctx.Err())
	}
	f, err := lockFile(ctx, filepath.Join(s.dir, lockName))
	if err != nil {
		<-s.sem
		return err
	}
	s.held = f
	_ = os.Remove(filepath.Join(s.dir, "index.lock"))
	if !s.exists {
		if _, err := os.Stat(filepath.Join(s.dir, "HEAD")); err == nil {
			s.exists = true // made by an earlier run, or by another tick meanwhile
		} else if err := s.create(ctx); err != nil {
			s.unlock()
			return err
		}
	}
	return nil
}

// unlock ends the operation lock began.
func (s *Store) unlock() {
	_ = s.held.Close() // drops the flock
	s.held = nil
	<-s.sem
}

// lockName is the file in the repository's directory that ticks flock.
const lockName = "tick.lock"

// lockPoll is how often lockFile tries again while another tick holds
// the lock.
const lockPoll = 20 * time.Millisecond

// lockFile opens path and takes its flock, waiting while another process
// holds it, until ctx ends.
func lockFile(ctx context.Context, path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: open the lock %s: %w", path, err)
	}
	for {
		ok, err := flock.Try(f)
		switch {
		case err != nil:
			f.Close()
			return nil, fmt.Errorf("checkpoint: lock %s: %w", path, err)
		case ok:
			return f, nil
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("checkpoint: wait for another tick's snapshot of this workspace: %w", ctx.Err())
		case <-time.After(lockPoll):
		}
	}
}

// run runs git with args on the shadow repository and the workspace.
func (s *Store) run(ctx context.Context, stdin []byte, args ...string) ([]byte, error) {
	return s.runEnv(ctx, stdin, nil, args...)
}

// runEnv is run with the variables env added to git's environment (a
// later one of a name wins).
func (s *Store) runEnv(ctx context.Context, stdin []byte, env []string, args ...string) ([]byte, error) {
	cmd := s.command(ctx, env, args...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("checkpoint: git %s: %w: %s", subcommand(args), err, strings.TrimSpace(errb.String()))
	}
	return out.Bytes(), nil
}

// command is git with args on the shadow repository and the workspace,
// with the variables env added to its environment (a later one of a
// name wins).
func (s *Store) command(ctx context.Context, env []string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, s.git, args...)
	cmd.Dir = s.work
	cmd.Env = append(gitlessEnv(), "GIT_DIR="+s.dir, "GIT_WORK_TREE="+s.work,
		"GIT_AUTHOR_NAME=tick", "GIT_AUTHOR_EMAIL=tick@localhost", "GIT_COMMITTER_NAME=tick", "GIT_COMMITTER_EMAIL=tick@localhost",
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_TERMINAL_PROMPT=0", "GIT_LITERAL_PATHSPECS=1",
		"GIT_ATTR_NOSYSTEM=1")
	cmd.Env = append(append(cmd.Env, speedConfig()...), env...)
	return cmd
}

// Save takes a snapshot of the workspace now, labelled with label.
func (s *Store) Save(ctx context.Context, label string) (Checkpoint, error) {
	if err := s.lock(ctx); err != nil {
		return Checkpoint{}, err
	}
	defer s.unlock()
	tree, skipped, err := s.tree(ctx)
	if err != nil {
		return Checkpoint{}, err
	}
	out, err := s.run(ctx, nil, "commit-tree", tree, "-m", label)
	if err != nil {
		return Checkpoint{}, err
	}
	id := strings.TrimSpace(string(out))
	if err := s.keep(id); err != nil {
		return Checkpoint{}, err
	}
	return Checkpoint{ID: id, Skipped: skipped}, nil
}

// keep writes the loose ref refs/tick/<id> naming the commit id, so that
// no gc of the shadow repository loses it: the file git's update-ref
// would write, written here without a git process (one fewer per
// snapshot). The file is written aside and renamed into place, so a
// reader never sees it half written. The caller holds the lock.
func (s *Store) keep(id string) error {
	if len(id) != 40 || strings.Trim(id, "0123456789abcdef") != "" {
		return fmt.Errorf("checkpoint: commit-tree printed %q, not a commit id", id)
	}
	dir := filepath.Join(s.dir, "refs", "tick")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("checkpoint: keep %s: %w", id, err)
	}
	tmp := filepath.Join(dir, id+".tmp")
	if err := os.WriteFile(tmp, []byte(id+"\n"), 0o600); err != nil {
		return fmt.Errorf("checkpoint: keep %s: %w", id, err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, id)); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("checkpoint: keep %s: %w", id, err)
	}
	return nil
}

// subcommand is the git command args run, after any "-c key=value".
func subcommand(args []string) string {
	for len(args) > 2 && args[0] == "-c" {
		args = args[2:]
	}
	return args[0]
}

// speedConfig is the configuration, given to every git command as
// environment (so a repository an older tick made gets it too), that
// makes a snapshot of many new files faster: loose objects stored
// without compression.
func speedConfig() []string {
	return []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.looseCompression", "GIT_CONFIG_VALUE_0=0"}
}

// rawAttributes is the shadow repository's info/attributes, which git
// ranks above every .gitattributes of the workspace: every path is stored
// and checked out as its bytes, whatever the workspace's attribute files
// say (no line-ending conversion, no filter, no keyword expansion, no
// re-encoding; the diff and merge drivers unset too).
const rawAttributes = "* -text -crlf -eol -filter -ident -working-tree-encoding -diff -merge\n"

// gitlessEnv is the process's environment without the variables that
// change what git reads (GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT and its
// keys, GIT_ATTR_SOURCE, GIT_INDEX_FILE, GIT_OBJECT_DIRECTORY, ...): the
// shadow repository's git obeys only the settings run gives it.
func gitlessEnv() []string {
	env := os.Environ()
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, "GIT_") {
			out = append(out, kv)
		}
	}
	return out
}

// writeInfo writes the shadow repository's info/attributes (see
// rawAttributes) and info/exclude (excl), before every operation: a
// repository made by an older tick gets them too.
func (s *Store) writeInfo(excl string) error {
	info := filepath.Join(s.dir, "info")
	if err := os.MkdirAll(info, 0o700); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	for name, content := range map[string]string{"attributes": rawAttributes, "exclude": excl} {
		if err := os.WriteFile(filepath.Join(info, name), []byte(content), 0o600); err != nil {
			return fmt.Errorf("checkpoint: write %s: %w", filepath.Join(info, name), err)
		}
	}
	return nil
}

// Changes returns what restoring the checkpoint id would change in the
// workspace now, sorted by path.
func (s *Store) Changes(ctx context.Context, id string) ([]Change, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.unlock()
	return s.changes(ctx, id)
}

func (s *Store) changes(ctx context.Context, id string) ([]Change, error) {
	cur, _, err := s.tree(ctx)
	if err != nil {
		return nil, err
	}
	return s.nameStatus(ctx, id, cur)
}

// Restore brings the workspace back to the checkpoint id: files changed or
// deleted since are written back, files created since are deleted, and the
// directories that deleting them leaves empty are removed too (an empty
// directory is all git cannot tell apart: one that was there, empty, at
// the checkpoint goes as well). Files the snapshot skipped or that
// .gitignore covers are left alone, and so are the directories holding
// them. It returns what it changed.
func (s *Store) Restore(ctx context.Context, id string) ([]Change, error) {
	return s.RestoreOnly(ctx, id, nil)
}

// RestoreOnly is Restore for the files of paths alone (workspace-relative,
// slash-separated; nil for every file): the others stay as they are. It
// returns what it changed.
func (s *Store) RestoreOnly(ctx context.Context, id string, paths []string) ([]Change, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.unlock()
	cs, err := s.changes(ctx, id)
	if err != nil {
		return nil, err
	}
	if paths != nil {
		cs = only(cs, paths)
	}
	var back bytes.Buffer
	var created []string
	for _, c := range cs {
		if c.Kind == Created {
			if err := os.Remove(filepath.Join(s.work, filepath.FromSlash(c.Path))); err != nil && !errors.Is(err, os.ErrNotExist) {
				return nil, fmt.Errorf("checkpoint: delete %s: %w", c.Path, err)
			}
			created = append(created, c.Path)
			continue
		}
		back.WriteString(c.Path)
		back.WriteByte(0)
	}
	if back.Len() > 0 {
		if _, err := s.run(ctx, back.Bytes(), "checkout", id, "--pathspec-from-file=-", "--pathspec-file-nul"); err != nil {
			return nil, err
		}
	}
	s.pruneDirs(created)
	return cs, nil
}

// only returns the changes of cs whose path is one of paths.
func only(cs []Change, paths []string) []Change {
	want := make(map[string]bool, len(paths))
	for _, p := range paths {
		want[p] = true
	}
	out := []Change{}
	for _, c := range cs {
		if want[c.Path] {
			out = append(out, c)
		}
	}
	return out
}

// pruneDirs removes the directories of the workspace-relative files paths
// that are empty, deepest first, never the workspace itself and never
// through a symbolic link.
func (s *Store) pruneDirs(paths []string) {
	seen := map[string]bool{}
	var dirs []string
	for _, p := range paths {
		for d := path.Dir(p); d != "." && d != "/" && !seen[d]; d = path.Dir(d) {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	sort.Slice(dirs, func(i, j int) bool {
		if di, dj := strings.Count(dirs[i], "/"), strings.Count(dirs[j], "/"); di != dj {
			return di > dj
		}
		return dirs[i] < dirs[j]
	})
	for _, d := range dirs {
		full := filepath.Join(s.work, filepath.FromSlash(d))
		if fi, err := os.Lstat(full); err == nil && fi.IsDir() {
			_ = os.Remove(full) // fails, and keeps it, unless it is empty
		}
	}
}
