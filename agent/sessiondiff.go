package agent

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tick-agent/tick/agent/undo"
)

// SessionDiff returns what changed in the workspace since a point of this
// run, from its undo point to the files now, for /diff. since is "" for
// the whole run (the first undo point), "N" for the N-th message sent in
// this run (1 is the first; of the points kept, at most undo.Max), or
// "#N" for item N (before it first went in progress). The result's Text
// says which point it starts from; Files and Patch are as ItemDiff's.
// Undo points come from tick's own checkpoint store, so it works in a
// workspace without git as in a repository. It returns ErrNoUndo when
// there is no such point, ErrNoDiff when the store cannot diff.
func (a *Agent) SessionDiff(ctx context.Context, since string) (ItemChanges, error) {
	pts, gen, d, err := a.diffPoints(ctx)
	if errors.Is(err, errNoPointsYet) {
		return ItemChanges{}, fmt.Errorf("%w: nothing has changed yet, no message was sent in this session", ErrNoUndo)
	}
	if err != nil {
		return ItemChanges{}, err
	}
	start, what, err := sincePoint(pts, gen, strings.TrimSpace(since))
	if err != nil {
		return ItemChanges{}, err
	}
	for _, p := range pts[start:] {
		if snapID(p) == "" {
			continue
		}
		files, patch, err := d.Diff(ctx, snapID(p), "")
		if err != nil {
			return ItemChanges{}, fmt.Errorf("diff since %s: %w", what, err)
		}
		return ItemChanges{Text: what, Files: files, Patch: patch}, nil
	}
	return ItemChanges{Text: what}, nil // no snapshot after it: nothing to compare
}

// sincePoint finds the index in pts of the point since names (see
// SessionDiff; an item of the plan of generation gen) and says which it is.
func sincePoint(pts undo.Points, gen int, since string) (int, string, error) {
	if since == "" {
		return 0, "the start of this session", nil
	}
	if item, ok := strings.CutPrefix(since, "#"); ok {
		if i := pts.ItemIndex(item, gen); i >= 0 {
			return i, fmt.Sprintf("item #%s %q", item, pts[i].Text), nil
		}
		return 0, "", fmt.Errorf("%w: item #%s has no undo point (it has not started in this run)", ErrNoUndo, item)
	}
	n, err := strconv.Atoi(since)
	if err != nil || n < 1 {
		return 0, "", fmt.Errorf("diff since %q: give a message number (1 is the first) or an item as #N", since)
	}
	i, k := pts.TurnIndex(n)
	if i >= 0 {
		return i, fmt.Sprintf("message %d %q", n, pts[i].Text), nil
	}
	return 0, "", fmt.Errorf("%w: message %d has no undo point (this run has %d)", ErrNoUndo, n, k)
}
