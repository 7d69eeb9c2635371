package checkpoint

import (
	"context"
	"sort"
	"strings"
)

// MaxPatch is the most bytes of a unified diff Diff returns; a longer one
// is cut and ends with a line saying so.
const MaxPatch = 1 << 20

// Since returns, for each checkpoint of ids, what restoring it would
// change in the workspace now (as Changes does), staging the workspace
// once for all of them: the list of rewind points asks this of every
// point at once.
func (s *Store) Since(ctx context.Context, ids []string) ([][]Change, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.unlock()
	cur, _, err := s.tree(ctx)
	if err != nil {
		return nil, err
	}
	out := make([][]Change, len(ids))
	for i, id := range ids {
		if out[i], err = s.nameStatus(ctx, id, cur); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Diff returns the files that differ from checkpoint from to checkpoint
// to ("" for the workspace now), sorted by path, with their unified diff
// (at most MaxPatch bytes). A file's Kind says what happened to it between
// the two: Created in to, Deleted from it, or Changed.
func (s *Store) Diff(ctx context.Context, from, to string) ([]Change, string, error) {
	if err := s.lock(ctx); err != nil {
		return nil, "", err
	}
	defer s.unlock()
	if to == "" {
		cur, _, err := s.tree(ctx)
		if err != nil {
			return nil, "", err
		}
		to = cur
	}
	cs, err := s.nameStatus(ctx, from, to)
	if err != nil {
		return nil, "", err
	}
	// --text: the store's attributes mark every file binary for diff (see
	// rawAttributes); binaryAsSuch puts back the files that really are.
	out, err := s.run(ctx, nil, "diff-tree", "-r", "-p", "--text", "--no-renames", "--no-color", "--no-ext-diff", "--no-textconv", from, to)
	if err != nil {
		return nil, "", err
	}
	patch := binaryAsSuch(string(out))
	if len(patch) > MaxPatch {
		patch = patch[:MaxPatch] + "\n… the diff is cut at " + "1 MiB\n"
	}
	return cs, patch, nil
}

// binaryAsSuch replaces the hunks of each file of a unified diff made
// with --text whose lines hold a NUL byte (git's own test for a binary
// file) with git's "Binary files … differ" line.
func binaryAsSuch(patch string) string {
	if !strings.Contains(patch, "\x00") {
		return patch
	}
	parts := strings.SplitAfter(patch, "\ndiff --git ")
	var b strings.Builder
	for i, part := range parts {
		body := part
		next := ""
		if i+1 < len(parts) {
			body, next = strings.TrimSuffix(part, "diff --git "), "diff --git "
		}
		if strings.Contains(body, "\x00") {
			body = binaryFile(body)
		}
		b.WriteString(body + next)
	}
	return b.String()
}

// binaryFile keeps the header lines of one file's diff (up to its "---"
// line) and says the file is binary instead of its hunks.
func binaryFile(section string) string {
	head, _, _ := strings.Cut(section, "\n--- ")
	head, _, _ = strings.Cut(head, "\n@@")
	a, b := "a/…", "b/…"
	if first, _, ok := strings.Cut(section, "\n"); ok {
		if f := strings.Fields(strings.TrimPrefix(first, "diff --git ")); len(f) == 2 {
			a, b = f[0], f[1]
		}
	}
	return strings.TrimRight(head, "\n") + "\nBinary files " + a + " and " + b + " differ\n"
}

// nameStatus lists the files that differ between two trees or commits;
// the caller holds the lock.
func (s *Store) nameStatus(ctx context.Context, from, to string) ([]Change, error) {
	out, err := s.run(ctx, nil, "diff-tree", "-r", "-z", "--no-renames", "--name-status", from, to)
	if err != nil {
		return nil, err
	}
	f := strings.Split(strings.TrimRight(string(out), "\x00"), "\x00")
	var cs []Change
	for i := 0; i+1 < len(f); i += 2 {
		k := Changed
		switch f[i] {
		case "A":
			k = Created
		case "D":
			k = Deleted
		}
		cs = append(cs, Change{Kind: k, Path: f[i+1]})
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].Path < cs[j].Path })
	return cs, nil
}
