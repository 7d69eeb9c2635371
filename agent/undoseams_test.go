package agent_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
)

// hammerUndo asks, until stop closes, everything a front-end may ask of
// the undo points while a turn runs: /rewind's list, an item's diff,
// /diff, /undo's preview; and /undo and /rewind themselves, which a
// running turn refuses (ErrBusy) and which, should the turn have just
// ended, name nothing that exists (ErrNoUndo). It returns how many rounds
// it made.
func hammerUndo(t *testing.T, ag *agent.Agent, stop <-chan struct{}) int {
	ctx := context.Background()
	for n := 0; ; n++ {
		select {
		case <-stop:
			return n
		default:
		}
		_, _ = ag.RewindPoints(ctx)
		_, _ = ag.ItemDiff(ctx, "1")
		_, _ = ag.ItemDiff(ctx, "2")
		_, _ = ag.SessionDiff(ctx, "")
		_, _ = ag.PreviewUndo(ctx, "")
		if _, _, err := ag.Undo(ctx, "9"); !errors.Is(err, agent.ErrBusy) && !errors.Is(err, agent.ErrNoUndo) {
			t.Errorf("/undo #9 during the turn: %v, want ErrBusy or ErrNoUndo", err)
		}
		if _, err := ag.Rewind(ctx, "999", agent.RewindBoth); !errors.Is(err, agent.ErrBusy) && !errors.Is(err, agent.ErrNoUndo) {
			t.Errorf("/rewind 999 during the turn: %v, want ErrBusy or ErrNoUndo", err)
		}
	}
}

// editWhenPlanned makes the user's plan edit, adding an item, as soon as
// the model's plan is in (while its tasks run, or just after).
func editWhenPlanned(t *testing.T, ag *agent.Agent, stop <-chan struct{}) {
	for len(ag.Todos().Items) == 0 {
		select {
		case <-stop:
			t.Error("the turn ended without a plan to edit")
			return
		case <-time.After(time.Millisecond):
		}
	}
	if _, err := ag.EditPlan(agent.PlanEdit{Op: agent.PlanAdd, Text: "the user's own item"}); err != nil {
		t.Errorf("the user's plan edit: %v", err)
	}
}

// TestUndoPointsUnderParallelTasks: two tasks side by side each take
// their item's undo point, and the one after their patch, while the user
// lists the points, opens the items' diffs and /diff, previews /undo,
// tries /undo and /rewind, and edits the plan, all at once (run with
// -race: an item's diff read the checkpoint after a task's patch without
// the lock the task wrote it under). The user's plan edit lands while the
// tasks run or just after. Afterwards /undo of item 1 takes
// back its task's file alone, the user's item stays, and /rewind to the
// message takes back the rest.
func TestUndoPointsUnderParallelTasks(t *testing.T) {
	files := map[int]map[string]string{1: {"a.txt": "one"}, 2: {"b.txt": "two"}}
	h := taskTurns(t, [][]int{{1, 2}}, files)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(2)
	rounds := 0
	go func() {
		defer wg.Done()
		rounds = hammerUndo(t, h.ag, stop)
	}()
	go func() {
		defer wg.Done()
		editWhenPlanned(t, h.ag, stop)
	}()
	h.run("PARENT: plan, then two tasks")
	close(stop)
	wg.Wait()
	h.checkValid()
	if rounds == 0 {
		t.Fatal("nothing asked of the undo points during the turn")
	}
	ctx := context.Background()
	if d, err := h.ag.ItemDiff(ctx, "1"); err != nil || len(d.Files) != 1 || d.Files[0].Path != "a.txt" {
		t.Fatalf("item #1's diff = %+v, %v; want a.txt alone (its task's patch)", d, err)
	}
	if _, _, err := h.ag.Undo(ctx, "1"); err != nil {
		t.Fatal(err)
	}
	if readFile(t, h.dir, "a.txt") != "<missing>" || readFile(t, h.dir, "b.txt") != "two" {
		t.Errorf("after /undo 1: a.txt %q, b.txt %q; want a.txt gone, b.txt kept", readFile(t, h.dir, "a.txt"), readFile(t, h.dir, "b.txt"))
	}
	if !hasItem(h.ag, "the user's own item") {
		t.Errorf("the user's item is gone after /undo 1: %+v", h.ag.Todos().Items)
	}
	pts, err := h.ag.RewindPoints(ctx)
	if err != nil {
		t.Fatal(err)
	}
	msg := pts[len(pts)-1]
	if msg.Kind != agent.PointTurn {
		t.Fatalf("the oldest point is %+v, want the message's", msg)
	}
	if _, err := h.ag.Rewind(ctx, msg.ID, agent.RewindBoth); err != nil {
		t.Fatal(err)
	}
	if readFile(t, h.dir, "b.txt") != "<missing>" || len(h.ag.Todos().Items) != 0 {
		t.Errorf("after /rewind to the message: b.txt %q, list %+v; want both as before it", readFile(t, h.dir, "b.txt"), h.ag.Todos().Items)
	}
	if _, err := h.ag.RewindPoints(ctx); !errors.Is(err, agent.ErrNoUndo) {
		t.Errorf("points after rewinding to the first message: %v, want none (ErrNoUndo)", err)
	}
}

// hasItem reports whether ag's list has an item whose text holds text.
func hasItem(ag *agent.Agent, text string) bool {
	for _, it := range ag.Todos().Items {
		if strings.Contains(it.Text, text) {
			return true
		}
	}
	return false
}
