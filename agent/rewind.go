package agent

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tick-agent/tick/agent/checkpoint"
	"github.com/tick-agent/tick/agent/compact"
	"github.com/tick-agent/tick/agent/undo"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
)

// Rewind goes back to an undo point (see undopoint.go): RewindPoints lists
// them newest first with the files each changed since, Rewind restores the
// files, the conversation or both, and ItemDiff shows what one item
// changed. It needs no git repository in the workspace: the points live in
// the checkpoint store. A front-end asks for the user's confirmation
// before Rewind, as for Undo.

// RewindPoint is one point to go back to. ID names it for Rewind; Kind
// says whether it is a user message (Text is the prompt's first line) or
// an item (Item is its id, Text its text). Files are what restoring it
// would change in the workspace now; Messages how many messages of the
// conversation came after it. NoFiles marks a message whose snapshot was
// not taken (the turn was interrupted first, or the snapshot failed): only
// its conversation can be rewound. NotKept are the files going back
// leaves as they are, and why: too large for a snapshot (over
// checkpoint.MaxFileSize) or not a regular file.
type RewindPoint struct {
	ID       string              `json:"id"`
	Kind     PointKind           `json:"kind"`
	Item     string              `json:"item,omitempty"`
	Text     string              `json:"text"`
	At       time.Time           `json:"at"`
	Files    []checkpoint.Change `json:"files"`
	Messages int                 `json:"messages"`
	NoFiles  bool                `json:"no_files,omitempty"`
	NotKept  []checkpoint.Skip   `json:"not_kept,omitempty"`
}

// RewindScope says what Rewind restores.
type RewindScope string

// The scopes of Rewind.
const (
	RewindFiles        RewindScope = "files"        // the workspace only
	RewindConversation RewindScope = "conversation" // the conversation and the list only
	RewindBoth         RewindScope = "both"
)

// Rewound is what a Rewind did: the point, the files restored (scope
// files or both) and the messages dropped (conversation or both). Prompt
// is the whole message of a turn point, for the front-end to offer again in its
// input. Events are those it caused, which a front-end applies as it
// applies a turn's: a TodoUpdate with the list after it. History, for a
// rewind of the conversation, is the conversation now as Replay shows it
// (a compaction's summary at its start as Compacted), for a front-end to
// show instead of its transcript, as it shows a resumed session.
type Rewound struct {
	Point   RewindPoint
	Scope   RewindScope
	Files   []checkpoint.Change
	Dropped int
	Prompt  string
	Events  []Event
	History []Event
}

// differ is what a checkpoint store may also offer to list points and
// diffs cheaply; *checkpoint.Store implements it.
type differ interface {
	Since(ctx context.Context, ids []string) ([][]checkpoint.Change, error)
	Diff(ctx context.Context, from, to string) ([]checkpoint.Change, string, error)
}

// RewindPoints lists the undo points, newest first, each with the files
// restoring it would change now. It waits for a snapshot still being
// taken. It returns ErrNoUndo when undo is off or no point exists yet.
func (a *Agent) RewindPoints(ctx context.Context) ([]RewindPoint, error) {
	pts, err := a.readyPoints(ctx)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, p := range pts {
		if s, _ := p.Result(); s.ID != "" {
			ids = append(ids, s.ID)
		}
	}
	files, err := a.since(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("list the rewind points: %w", err)
	}
	a.mu.Lock()
	n := a.seenLocked()
	a.mu.Unlock()
	out := make([]RewindPoint, len(pts))
	for i, p := range pts { // newest first
		var fs []checkpoint.Change
		s, _ := p.Result()
		if s.ID != "" {
			fs, files = files[0], files[1:]
		}
		out[len(pts)-1-i] = pointOf(p, fs, n)
		if s.ID != "" {
			out[len(pts)-1-i].NotKept = a.notKept(s.Skipped)
		}
	}
	return out, nil
}

// pointOf describes p, whose snapshot is done, for a front-end; n is the
// conversation's length as the user sees it (seenLocked).
func pointOf(p *undo.Point, files []checkpoint.Change, n int) RewindPoint {
	s, _ := p.Result()
	return RewindPoint{ID: strconv.Itoa(p.Seq), Kind: p.Kind, Item: p.Item, Text: p.Text, At: p.At,
		Files: files, Messages: max(n-len(p.Hist)-p.Folded, 0), NoFiles: s.ID == ""}
}

// seenLocked is the conversation's length as the user sees it: the
// history and the messages compactions summarised out of it, so that a
// rewind's count of messages dropped counts those too. a.mu is held.
func (a *Agent) seenLocked() int { return len(a.history) + a.folded }

// readyPoints returns the points, oldest first, once their snapshots are
// done: those whose snapshot succeeded, and the messages whose snapshot
// did not (id ""), whose conversation can still be rewound.
func (a *Agent) readyPoints(ctx context.Context) (undo.Points, error) {
	if a.cfg.Checkpoints == nil {
		return nil, fmt.Errorf("%w: undo is off in this run (it needs git; see tick doctor)", ErrNoUndo)
	}
	pts, err := a.undo.Ready(ctx)
	if err != nil {
		return nil, err
	}
	if len(pts) == 0 {
		return nil, errNoPointsYet
	}
	return pts, nil
}

// errNoPointsYet is readyPoints' error before the first message.
var errNoPointsYet = fmt.Errorf("%w yet: each message you send makes a rewind point", ErrNoUndo)

// since asks the store what restoring each checkpoint would change.
func (a *Agent) since(ctx context.Context, ids []string) ([][]checkpoint.Change, error) {
	if d, ok := a.cfg.Checkpoints.(differ); ok {
		return d.Since(ctx, ids)
	}
	out := make([][]checkpoint.Change, len(ids))
	for i, id := range ids {
		cs, err := a.cfg.Checkpoints.Changes(ctx, id)
		if err != nil {
			return nil, err
		}
		out[i] = cs
	}
	return out, nil
}

// Rewind goes back to the point id (a RewindPoint.ID): with RewindFiles
// or RewindBoth the workspace is restored to the point's snapshot; with
// RewindConversation or RewindBoth the conversation is cut back to what
// it was at the point (what came after is dropped, as a fork leaves the
// original behind; a session records it as a compaction, so a resumed
// session sends the model the rewound conversation) and the todo list is
// the one of then. Points after it are dropped (a files-only rewind keeps
// the conversation's points). The model is told what was restored before
// its next call, in a note after the next user message. It fails while a
// turn runs (ErrBusy) and with ErrNoUndo for an unknown point.
func (a *Agent) Rewind(ctx context.Context, id string, scope RewindScope) (Rewound, error) {
	if scope != RewindFiles && scope != RewindConversation && scope != RewindBoth {
		return Rewound{}, fmt.Errorf("rewind: unknown scope %q (files, conversation or both)", scope)
	}
	if a.isRunning() {
		return Rewound{}, ErrBusy
	}
	pts, err := a.readyPoints(ctx)
	if err != nil {
		return Rewound{}, err
	}
	p := pts.Find(id)
	if p == nil {
		return Rewound{}, fmt.Errorf("%w: no rewind point %q", ErrNoUndo, id)
	}
	snap, _ := p.Result()
	if snap.ID == "" && scope != RewindConversation {
		return Rewound{}, fmt.Errorf("%w: point %s has no snapshot of the files (its turn was interrupted before it was taken); rewind its conversation only", ErrNoUndo, id)
	}
	res := Rewound{Scope: scope}
	if scope != RewindConversation {
		if res.Files, err = a.cfg.Checkpoints.Restore(ctx, snap.ID); err != nil {
			return Rewound{}, fmt.Errorf("rewind the files to point %s: %w", id, err)
		}
	}
	a.mu.Lock()
	if a.running {
		a.mu.Unlock()
		return Rewound{}, ErrBusy
	}
	res.Point = pointOf(p, res.Files, a.seenLocked())
	if scope != RewindConversation {
		res.Point.NotKept = a.notKept(snap.Skipped)
	}
	if scope != RewindFiles {
		res.Dropped = res.Point.Messages
		a.history = append([]provider.Message(nil), p.Hist...)
		a.folded = p.Folded
		a.failed = false
		if p.Kind == PointTurn {
			res.Prompt = p.Prompt
		}
		res.History = replayRewound(a.history)
	}
	// the points it makes stale go, the plan's generation goes back with
	// the conversation, and the applies whose files went back are named
	unapplied := a.undo.RewindTo(p, scope != RewindConversation, scope != RewindFiles)
	var back *todo.List // the list goes back with the conversation
	if scope != RewindFiles {
		back = &p.Todos
	}
	list, rev := a.plan.Rewind(back, rewindNote(p, scope, res.Files))
	hist := a.history
	res.Events = []Event{TodoUpdate{List: list.Clone(), Rev: rev}}
	a.mu.Unlock()
	for _, n := range unapplied {
		a.tasks.setApplied(n, false)
	}
	return res, a.recordRewind(p, scope, list, hist)
}

// replayRewound is what a front-end shows of a rewound conversation: its
// Replay, with a compaction's summary at its start shown as Compacted.
func replayRewound(hist []provider.Message) []Event {
	if len(hist) > 0 && hist[0].Role == provider.RoleUser && compact.IsSummary(hist[0].Content) {
		return append([]Event{Compacted{}}, Replay(hist[1:])...)
	}
	return Replay(hist)
}

// isRunning reports whether a turn runs.
func (a *Agent) isRunning() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.running
}

// recordRewind saves what a rewind changed: the list, the conversation
// (as a compaction whose kept history is the rewound one) and the note.
func (a *Agent) recordRewind(p *undo.Point, scope RewindScope, list todo.List, hist []provider.Message) error {
	rec := a.cfg.Recorder
	if rec != nil && scope != RewindFiles {
		if err := rec.Compaction(rewoundPrefix+pointName(p), append([]provider.Message{}, hist...)); err != nil {
			return fmt.Errorf("save the rewind: %w", err)
		}
		if err := rec.Todo(list); err != nil {
			return fmt.Errorf("save the rewind: %w", err)
		}
	}
	if err := a.savePlan(); err != nil {
		return fmt.Errorf("save the rewind: %w", err)
	}
	return nil
}

// rewoundPrefix starts the summary a rewind of the conversation records
// in the session (as a compaction), so that a replay tells it apart.
const rewoundPrefix = "rewound to before "

// MarkRewinds tells the rewinds apart from the compactions in a replay:
// evs are Replay's events of a saved session and summaries its
// compactions' summaries in order (session.Loaded.Summaries), one for
// each Compacted in evs. A Compacted whose summary a rewind recorded gets
// Rewound, the point it went back to. evs is changed in place and
// returned; when the counts differ it is returned as it is.
func MarkRewinds(evs []Event, summaries []string) []Event {
	k := 0
	for _, ev := range evs {
		if _, ok := ev.(Compacted); ok {
			k++
		}
	}
	if k != len(summaries) {
		return evs
	}
	k = 0
	for i, ev := range evs {
		c, ok := ev.(Compacted)
		if !ok {
			continue
		}
		if point, ok := strings.CutPrefix(summaries[k], rewoundPrefix); ok {
			c.Rewound = point
			evs[i] = c
		}
		k++
	}
	return evs
}

// pointName names a point in notes: the message "…" or item #N "…".
func pointName(p *undo.Point) string {
	switch p.Kind {
	case PointItem:
		return fmt.Sprintf("item #%s %q", p.Item, p.Text)
	case PointApply:
		return p.Text
	}
	return fmt.Sprintf("the message %q", p.Text)
}

// rewindNote tells the model what a rewind restored.
func rewindNote(p *undo.Point, scope RewindScope, cs []checkpoint.Change) string {
	var b strings.Builder
	switch scope {
	case RewindConversation:
		fmt.Fprintf(&b, "The user rewound the conversation to before %s: what came after it was dropped, and the todo list is as it was then. The files were NOT restored: changes made after that point are still in the workspace; read files again before you rely on them.", pointName(p))
		return b.String()
	case RewindBoth:
		fmt.Fprintf(&b, "The user rewound the conversation and the files to before %s: what came after it was dropped.", pointName(p))
	default:
		fmt.Fprintf(&b, "The user rewound the files to their state before %s; the conversation is kept.", pointName(p))
	}
	b.WriteString(" " + restoredFiles(cs))
	return b.String()
}

// restoredFiles lists restored files for a note to the model.
func restoredFiles(cs []checkpoint.Change) string {
	if len(cs) == 0 {
		return "No file had changed."
	}
	var b strings.Builder
	b.WriteString("Files restored:")
	for i, ch := range cs {
		if i == 30 {
			fmt.Fprintf(&b, " … and %d more", len(cs)-30)
			break
		}
		switch ch.Kind {
		case checkpoint.Created:
			fmt.Fprintf(&b, " %s (deleted: created after that point);", ch.Path)
		case checkpoint.Deleted:
			fmt.Fprintf(&b, " %s (brought back);", ch.Path)
		default:
			fmt.Fprintf(&b, " %s (old content);", ch.Path)
		}
	}
	return strings.TrimSuffix(b.String(), ";") + ". Read them again before you change them."
}

// ItemChanges is what one item changed: the files that differ from its
// undo point to the next point (or to the workspace now, for the last
// one; for a task's item, to the snapshot just after its patch), with
// their unified diff.
type ItemChanges struct {
	Item  string
	Text  string
	Files []checkpoint.Change
	Patch string
}

// ErrNoDiff is returned by ItemDiff when the store cannot diff two points.
var ErrNoDiff = errors.New("this checkpoint store cannot show diffs")

// diffPoints returns the ready points (readyPoints), the plan's
// generation (undo.Log.Gen) and the store that diffs them, for ItemDiff
// and SessionDiff: ErrNoDiff when it cannot.
func (a *Agent) diffPoints(ctx context.Context) (undo.Points, int, differ, error) {
	pts, err := a.readyPoints(ctx)
	if err != nil {
		return nil, 0, nil, err
	}
	d, ok := a.cfg.Checkpoints.(differ)
	if !ok {
		return nil, 0, nil, ErrNoDiff
	}
	return pts, a.undo.Gen(), d, nil
}

// ItemDiff returns what item changed (see ItemChanges), for a front-end
// to show when the user opens an item of the plan. It returns ErrNoUndo
// when the item has no undo point (it never started in this run).
func (a *Agent) ItemDiff(ctx context.Context, item string) (ItemChanges, error) {
	item = strings.TrimPrefix(item, "#")
	pts, gen, d, err := a.diffPoints(ctx)
	if err != nil {
		return ItemChanges{}, err
	}
	if i := pts.ItemIndex(item, gen); i >= 0 {
		p := pts[i]
		to := a.undo.After(p) // a task's item: its patch alone
		for _, q := range pts[i+1:] {
			if to != "" {
				break
			}
			to = snapID(q)
		}
		files, patch, err := d.Diff(ctx, snapID(p), to)
		if err != nil {
			return ItemChanges{}, fmt.Errorf("diff item #%s: %w", item, err)
		}
		return ItemChanges{Item: item, Text: p.Text, Files: files, Patch: patch}, nil
	}
	return ItemChanges{}, fmt.Errorf("%w: item #%s has no undo point (it has not started in this run)", ErrNoUndo, item)
}

// snapID is the checkpoint of p, a ready point (readyPoints): "" for a
// message whose snapshot failed.
func snapID(p *undo.Point) string {
	s, _ := p.Result()
	return s.ID
}
