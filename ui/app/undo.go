package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"path/filepath"
	"time"

	"github.com/tick-agent/tick/agent/checkpoint"
	"github.com/tick-agent/tick/agent/session"
)

// openUndo opens the workspace's undo points (a shadow git repository in
// $XDG_STATE_HOME/tick/checkpoints/, one per workspace) into cfg.undo and
// starts a first snapshot in the background once the first frame is drawn
// (cfg.drawn), so that the one before the
// first item is incremental and does not stall the turn. Without git, or
// without a state directory, undo is off and cfg.notices says why. The
// returned func stops a snapshot still running (its git is killed) and
// waits for it to end, at most undoStopWait, so that nothing of tick's
// writes under the state directory once tick has exited.
func openUndo(cfg *config, env func(string) string) (stop func()) {
	sessions, err := session.DefaultDir(env)
	if err != nil {
		cfg.notices = append(cfg.notices, "undo is off: no state directory for its checkpoints ("+err.Error()+")")
		return func() {}
	}
	sum := sha256.Sum256([]byte(cfg.Workspace))
	dir := filepath.Join(filepath.Dir(sessions), "checkpoints", hex.EncodeToString(sum[:8]))
	ctx, cancel := context.WithCancel(context.Background())
	store, err := checkpoint.Open(ctx, dir, cfg.Workspace)
	switch {
	case errors.Is(err, checkpoint.ErrNoGit):
		cfg.notices = append(cfg.notices, "undo is off: git is not installed (tick doctor says more)")
		cancel()
		return func() {}
	case err != nil:
		cfg.notices = append(cfg.notices, "undo is off: "+err.Error())
		cancel()
		return func() {}
	}
	cfg.undo = store
	drawn := cfg.drawn
	done := make(chan struct{})
	go func() {
		defer close(done)
		if afterDrawn(drawn, ctx.Done()) {
			_, _ = store.Save(ctx, "session start")
		}
	}()
	return func() {
		cancel() // kills a snapshot still running; its index.lock is cleared by the next operation
		select {
		case <-done:
		case <-time.After(undoStopWait):
		}
	}
}

// undoStopWait bounds how long quitting waits for a killed snapshot's git
// to exit.
const undoStopWait = 2 * time.Second
