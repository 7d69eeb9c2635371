package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tick-agent/tick/agent/plan"
	"github.com/tick-agent/tick/agent/undo"
	"github.com/tick-agent/tick/provider"
)

// maxItemNote bounds the note a task's result leaves on its item.
const maxItemNote = 300

// acceptedLive is the taskOwned of a replayed todo call: the live loop
// accepted it, so every in_progress item counts as a task's.
func acceptedLive(string) bool { return true }

// startItem puts plan item id in progress for a task starting on it and
// marks it task-owned (plan.Book.Start); with checkpoint, an undo point is saved before its
// first start, as for the model's own items (a task in a copy of the
// workspace saves it before its patch instead, see mergeBack). An unknown, completed or cancelled item
// is an error for the model; the task does not start.
func (l *loop) startItem(ctx context.Context, id string, checkpoint bool) error {
	a := l.a
	a.tasks.itemMu.Lock() // one item start, and its checkpoint, at a time
	defer a.tasks.itemMu.Unlock()
	st, started, err := a.plan.Start(id)
	if err != nil || !started {
		return err
	}
	if checkpoint {
		l.checkpointBefore(ctx, st.Item, st.Before)
	}
	l.saveTodos(TodoUpdate{List: st.List, Rev: st.Rev})
	return nil
}

// checkpointItem saves the undo point of plan item id, unless it has one,
// and returns the point it made (nil for none).
func (l *loop) checkpointItem(ctx context.Context, id string) *undo.Point {
	it, before, ok := l.a.plan.Item(id)
	if !ok {
		return nil
	}
	return l.checkpointBefore(ctx, it, before)
}

// noteItem makes result the note of plan item id (its first line, capped),
// when the item is still in the plan. Completing the item is the model's.
func (l *loop) noteItem(id, result string) {
	note, _, _ := strings.Cut(strings.TrimSpace(result), "\n")
	if r := []rune(note); len(r) > maxItemNote {
		note = string(r[:maxItemNote-1]) + "…"
	}
	if note == "" {
		return
	}
	if list, rev, changed := l.a.plan.SetNote(id, note); changed { // not over the user's reason
		l.saveTodos(TodoUpdate{List: list, Rev: rev})
	}
}

// userCancelled reports whether the user cancelled plan item id (see
// EditPlan), with the reason the user gave.
func (a *Agent) userCancelled(id string) (string, bool) {
	return a.plan.UserCancelled(id)
}

// saveTodos records the changed plan and sends it to the front-end.
func (l *loop) saveTodos(up TodoUpdate) {
	if rec := l.a.cfg.Recorder; rec != nil {
		if err := rec.Todo(up.List); err != nil {
			l.emit(Notice{Text: fmt.Sprintf("could not save the todo list: %v", err)})
		}
	}
	l.emit(up)
}

// taskItem returns the plan item a task call's arguments name ("" for
// none or unparsable arguments), without a leading "#".
func taskItem(args string) string {
	var a struct {
		Item string `json:"item"`
	}
	if json.Unmarshal([]byte(args), &a) != nil {
		return ""
	}
	return itemID(a.Item)
}

// itemID is the plan item a task's "item" names, without a leading "#".
func itemID(s string) string { return plan.ItemID(s) }

// TaskRecorder is implemented by a Recorder that keeps subagents'
// transcripts (*session.Recorder does): Task is called with the whole
// history of the subagent of task call id when its task ends.
type TaskRecorder interface {
	Task(id, item string, msgs []provider.Message) error
}

// recordTask saves the transcript of the subagent of task call id, when
// the Recorder keeps them.
func (l *loop) recordTask(id, item string, hist []provider.Message) {
	rec, ok := l.a.cfg.Recorder.(TaskRecorder)
	if !ok {
		return
	}
	if err := rec.Task(id, item, hist); err != nil {
		l.emit(Notice{Text: fmt.Sprintf("could not save the task's transcript: %v", err)})
	}
}

// ReplayTasks puts the saved transcripts of subagents (by task call id,
// see TaskRecorder) into the events of a replayed conversation: after the
// ToolStart of each task call, its subagent's events wrapped in Subagent,
// as they arrived live (without the prompt, which the call carries). A
// resumed session then shows each task's work under its item.
func ReplayTasks(evs []Event, tasks map[string][]provider.Message) []Event {
	if len(tasks) == 0 {
		return evs
	}
	out := make([]Event, 0, len(evs))
	for _, ev := range evs {
		out = append(out, ev)
		s, ok := ev.(ToolStart)
		if !ok || s.Name != TaskTool {
			continue
		}
		for _, cev := range Replay(tasks[s.ID]) {
			if _, prompt := cev.(UserMessage); !prompt {
				out = append(out, Subagent{ParentID: s.ID, Event: cev})
			}
		}
	}
	return out
}
