package checkpoint

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

// Borrowing: in a git workspace most files equal what the user's index
// holds, so the first snapshot need not hash them. When the shadow
// repository has no index yet, its index starts as a copy of the user's
// (its entries only, with the file times git compared them at), and the
// objects those entries name are copied into the shadow repository first,
// read from the user's object store (never written: the one git command
// that reads it gets it as GIT_ALTERNATE_OBJECT_DIRECTORIES, and only
// reads). `git add` then hashes only the files changed since the user's
// git looked at them and the untracked ones. The store never depends on
// the user's objects afterwards: a gc of the user's repository changes
// nothing.
//
// A borrowed entry is the file's bytes only when the user's git stored
// it without conversion, so nothing is borrowed when any could apply:
// core.autocrlf set, an attributes file anywhere (the workspace's
// .gitattributes, the repository's info/attributes, the user's global
// one), a SHA-256 repository, an index split or sparse, an entry marked
// assume-unchanged, skip-worktree or intent-to-add, an unmerged one, or
// an object whose size is not the file's size as the index recorded it
// (a conversion that keeps the size is not caught). Nor when the user's
// index or anything in the object store is not a regular file in a real
// directory, or the store names another (see plainObjects): git would
// wait on a FIFO for ever, or read outside the repository. The copied
// objects are named by their bytes again (see copyPart): one that is not
// what its name says is not borrowed.
// Whatever goes wrong, the snapshot hashes every file instead.

// borrow starts the shadow index from the user's, when the workspace is
// a repository's top level and nothing above stands in the way; it says
// whether it did. The caller holds the lock, and the shadow index does
// not exist.
func (s *Store) borrow(ctx context.Context) bool {
	gitDir, common := s.userGitDir()
	if gitDir == "" || !s.convertsNothing(ctx, common) {
		return false
	}
	raw, fi, err := readIndex(gitDir)
	if err != nil || !plainObjects(filepath.Join(common, "objects")) {
		return false
	}
	ents, data, err := parseIndex(raw)
	if err != nil || len(ents) == 0 {
		return false
	}
	oids, drop, ok := borrowable(ents)
	if !ok {
		return false
	}
	index := filepath.Join(s.dir, "index")
	err = s.copyObjects(ctx, filepath.Join(common, "objects"), oids, ents)
	if err == nil {
		err = os.WriteFile(index, data, 0o600)
	}
	if err == nil { // git compares file times with the index's own
		err = os.Chtimes(index, fi.ModTime(), fi.ModTime())
	}
	if err == nil && len(drop) > 0 {
		_, err = s.run(ctx, drop, "update-index", "--force-remove", "-z", "--stdin")
	}
	if err != nil {
		_ = os.Remove(index)
		return false
	}
	return true
}

// borrowable returns the unique object ids of ents, hex, one a line, and
// the paths to take out of the borrowed index, NUL-separated: gitlinks
// (their files are staged one by one) and files over MaxFileSize (left
// out, as untracked ones are, instead of copied); false when an entry
// forbids borrowing (see Borrowing).
func borrowable(ents []indexEntry) (oids []byte, drop []byte, ok bool) {
	var b, l bytes.Buffer
	seen := make(map[[20]byte]bool, len(ents))
	for _, e := range ents {
		switch {
		case e.stage != 0, e.flags&0x8000 != 0, e.ext&0x6000 != 0, isAttributes(e.path):
			return nil, nil, false
		case e.mode == 0o160000, e.size > MaxFileSize:
			l.WriteString(e.path + "\x00")
		case !seen[e.oid]:
			seen[e.oid] = true
			b.WriteString(hex.EncodeToString(e.oid[:]) + "\n")
		}
	}
	return b.Bytes(), l.Bytes(), true
}

// copyObjects copies the objects oids (hex, one a line) from the user's
// object store objs into packs of the shadow repository, then checks
// that each entry's object has the size the index recorded for its file;
// when one has not (or is missing), the packs are removed again. The
// copy is split between a few pack-objects run side by side (see
// packParts): reading many loose objects is most of its time, and one
// process reads them one by one. The sizes are read from the packs just
// written, where reading them costs an index lookup each, not from the
// user's loose objects a second time.
func (s *Store) copyObjects(ctx context.Context, objs string, oids []byte, ents []indexEntry) error {
	env := []string{"GIT_ALTERNATE_OBJECT_DIRECTORIES=" + objs}
	pack := filepath.Join(s.dir, "objects", "pack", "pack")
	n := s.parts
	if n == 0 {
		n = packParts(len(ents))
	}
	parts := splitLines(oids, n)
	names := make([]string, len(parts))
	errs := make([]error, len(parts))
	var wg sync.WaitGroup
	for i, part := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			names[i], errs[i] = s.copyPart(ctx, part, env)
		}()
	}
	wg.Wait()
	err := errors.Join(errs...)
	if err == nil {
		var out []byte
		if out, err = s.run(ctx, oids, "cat-file", "--batch-check=%(objectname) %(objectsize)"); err == nil {
			err = sameSizes(out, ents)
		}
	}
	if err != nil {
		for _, name := range names {
			removePack(pack, name)
		}
	}
	return err
}

// copyPart copies the objects oids (hex, one a line) from the user's
// store (named in env) into one pack of the shadow repository, and
// returns the pack's name. pack-objects writes them out as the user's
// store holds them, which git reads without checking their names; the
// shadow repository's index-pack names each object by hashing its bytes,
// so an object that is not what its name says arrives under its true
// name, and the one asked for is missing (sameSizes then refuses).
func (s *Store) copyPart(ctx context.Context, oids []byte, env []string) (string, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return "", fmt.Errorf("checkpoint: copy the borrowed objects: %w", err)
	}
	pk := s.command(ctx, env, "-c", "pack.compression=1", "pack-objects", "-q", "--window=0", "--stdout")
	pk.Stdin, pk.Stdout = bytes.NewReader(oids), w
	ix := s.command(ctx, nil, "index-pack", "--stdin")
	ix.Stdin = r
	var out, pkErr, ixErr bytes.Buffer
	ix.Stdout, ix.Stderr, pk.Stderr = &out, &ixErr, &pkErr
	err = pk.Start()
	if err == nil {
		err = ix.Start()
		r.Close()
		w.Close()
		err = errors.Join(err, pk.Wait(), ix.Wait())
	} else {
		r.Close()
		w.Close()
	}
	if err != nil {
		return "", fmt.Errorf("checkpoint: copy the borrowed objects: %w: %s %s", err, strings.TrimSpace(pkErr.String()), strings.TrimSpace(ixErr.String()))
	}
	return strings.TrimPrefix(strings.TrimSpace(out.String()), "pack\t"), nil
}

// packParts is how many pack-objects copyObjects runs for n entries: one
// per CPU, at most four, and one for fewer than 20,000 (where a second
// process costs more than it saves).
func packParts(n int) int {
	if n < 20000 {
		return 1
	}
	return min(runtime.NumCPU(), 4)
}

// splitLines cuts b (lines ending in '\n') into at most n parts of about
// the same size, each whole lines.
func splitLines(b []byte, n int) [][]byte {
	var parts [][]byte
	for n > 1 && len(b) > 0 {
		cut := max(len(b)/n, 1)
		if i := bytes.IndexByte(b[cut-1:], '\n'); i >= 0 {
			cut += i // just past the line's end
		} else {
			cut = len(b)
		}
		parts = append(parts, b[:cut])
		b, n = b[cut:], n-1
	}
	if len(b) > 0 {
		parts = append(parts, b)
	}
	return parts
}

// sameSizes checks batch-check's output (object id and size per line;
// "ID missing" for an object not there) against the file sizes the
// index entries recorded.
func sameSizes(out []byte, ents []indexEntry) error {
	size := make(map[string]string, len(ents))
	for _, ln := range strings.Split(string(out), "\n") {
		if id, n, ok := strings.Cut(ln, " "); ok {
			size[id] = n
		}
	}
	for _, e := range ents {
		if e.mode == 0o160000 || e.size > MaxFileSize || e.size == 0 { // size 0: racily clean, git hashes it again
			continue
		}
		if n := size[hex.EncodeToString(e.oid[:])]; n != strconv.FormatUint(uint64(e.size), 10) {
			return fmt.Errorf("checkpoint: %s: object size %q, file size %d: converted, not borrowed", e.path, n, e.size)
		}
	}
	return nil
}

// removePack removes the files of the pack prefix-NAME (pack-objects
// printed NAME), if NAME is a pack's hash.
func removePack(prefix, name string) {
	if len(name) != 40 && len(name) != 64 || strings.Trim(name, "0123456789abcdef") != "" {
		return
	}
	for _, ext := range []string{".pack", ".idx", ".rev"} {
		_ = os.Remove(prefix + "-" + name + ext)
	}
}

// userGitDir returns the git directory of the repository whose top level
// is the workspace, and its common directory; "" when it is not one.
func (s *Store) userGitDir() (gitDir, common string) {
	dot := filepath.Join(s.work, ".git")
	fi, err := os.Lstat(dot)
	if err != nil || !fi.IsDir() {
		return "", "" // a worktree's or submodule's .git file: not borrowed
	}
	if _, err := os.Stat(filepath.Join(dot, "commondir")); err == nil {
		return "", ""
	}
	return dot, dot
}

// convertsNothing reports whether the user's git stores files as their
// bytes: no core.autocrlf, no attributes file beside the workspace's own
// (checked per entry), a SHA-1 repository.
func (s *Store) convertsNothing(ctx context.Context, common string) bool {
	for _, key := range []string{"core.autocrlf", "extensions.objectFormat", "core.attributesFile"} {
		if v, err := s.userConfig(ctx, key); err != nil || (v != "" && !(key == "core.autocrlf" && v == "false") && !(key == "extensions.objectFormat" && v == "sha1")) {
			return false
		}
	}
	for _, p := range []string{filepath.Join(common, "info", "attributes"), xdgAttributes(), "/etc/gitattributes"} {
		if fi, err := os.Stat(p); p != "" && err == nil && fi.Size() > 0 {
			return false
		}
	}
	return true
}

// userConfig returns the value of key in the user's git configuration of
// the workspace ("" when unset), read by git outside the shadow
// repository with the caller's environment.
func (s *Store) userConfig(ctx context.Context, key string) (string, error) {
	cmd := exec.CommandContext(ctx, s.git, "config", "--get", key)
	cmd.Dir = s.work
	cmd.Env = append(gitlessEnv(), "GIT_TERMINAL_PROMPT=0")
	out, err := cmd.Output()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 1 {
		return "", nil // unset
	}
	if err != nil {
		return "", fmt.Errorf("checkpoint: git config --get %s: %w", key, err)
	}
	return strings.ToLower(strings.TrimSpace(string(out))), nil
}

// xdgAttributes is git's default global attributes file.
func xdgAttributes() string {
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "git", "attributes")
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".config", "git", "attributes")
	}
	return ""
}
