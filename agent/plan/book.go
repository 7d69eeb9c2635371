// Package plan is the plan of one conversation as the agent keeps it: the
// todo list, its revision, the user's side of it (items the user added,
// cancelled or worded, the gates, the notes of the user's edits and undos
// not yet told to the model, the proposal of plan mode awaiting approval,
// the plans put aside), the items tasks work on (Owned) and the mode
// (auto, ask, plan) with the mode approving a plan returns to. It holds
// the rules of the plan: how a user's edit applies (Edit), when the
// model's list is refused or replaces the plan (Replace), what a resumed
// session gets back (User, Restore), what a rewind or an undo leaves of
// the user's authority (Rewind, Undo), which item a change or a task
// starts (StartNext, Start), and where a turn pauses (GateHit,
// OpenGateBefore). See docs/architecture.md, "Sessions" and "Undo points,
// rewind and changes under an item".
//
// A Book has its own lock, and that lock is a leaf: every method takes
// only the Book's mutex, calls nothing outside the package while holding
// it (no callbacks, no channel sends that block) and returns copies, never
// the Book's own lists or maps (Resume's channel is the one thing
// shared). So a caller may hold its own locks when it calls a Book (the
// agent holds its mutex around the calls whose change must be atomic with
// its own state, such as a rewind's history and list), and the order is
// always the caller's locks first, the Book's last; the Book never calls
// back into the agent. Each method is one atomic step: a user's edit can
// land between two calls, never inside one.
//
// The package imports only todo.
package plan

import (
	"errors"
	"sync"

	"github.com/tick-agent/tick/todo"
)

// ErrNoPlan is returned when there is no plan to approve or clear.
var ErrNoPlan = errors.New("there is no plan")

// maxArchived caps the plans a Book keeps aside; the oldest go first.
const maxArchived = 10

// Book is the plan of one conversation (see the package doc). Its methods
// are safe for concurrent use. Use New; the zero Book is not ready.
type Book struct {
	mu         sync.Mutex
	list       todo.List
	rev        int               // bumped on every change of the list
	added      map[string]bool   // items the user added
	cancelled  map[string]bool   // items the user cancelled
	text       map[string]string // items whose text the user wrote
	stopAfter  map[string]bool   // gates: pause after these complete
	edits      []string          // edit notes not yet told to the model
	undone     []string          // restore notes not yet told to the model
	proposal   *todo.List        // the last plan proposed in plan mode
	archived   []todo.List       // plans put aside, oldest first
	owned      map[string]bool   // items tasks work on (see Owned)
	mode       Mode              // see Mode
	beforePlan Mode              // the mode to return to on approval
	resume     chan struct{}     // Wake lets a paused turn go on (Resume)
}

// New returns an empty plan in ModeAuto.
func New() *Book {
	b := &Book{resume: make(chan struct{}, 1), owned: map[string]bool{}}
	b.forget()
	return b
}

// forget drops the user's authority over every item. b.mu is held (or b is
// not shared yet).
func (b *Book) forget() {
	b.added, b.cancelled = map[string]bool{}, map[string]bool{}
	b.text, b.stopAfter = map[string]string{}, map[string]bool{}
}

// List returns a copy of the todo list.
func (b *Book) List() todo.List {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.list.Clone()
}

// Snapshot returns a copy of the todo list and its revision, read together.
func (b *Book) Snapshot() (todo.List, int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.list.Clone(), b.rev
}

// bump counts a change of the list and returns a copy of it with its
// revision. b.mu is held.
func (b *Book) bump() (todo.List, int) {
	b.rev++
	return b.list.Clone(), b.rev
}

// Reset makes list the plan of a resumed conversation, at revision rev
// (where the replay of its history ends): the user's side starts empty
// (Restore gives it back) and the plans put aside are dropped. The mode is
// not the plan's and stays.
func (b *Book) Reset(list todo.List, rev int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.list, b.rev = list.Clone(), rev
	b.forget()
	b.edits, b.undone, b.proposal, b.archived = nil, nil, nil, nil
	clear(b.owned) // no task of this conversation runs
}

// Wake lets a turn paused at a gate go on (Continue, a steer message). It
// never blocks; a wake with nobody paused is kept for the next Resume
// wait, so a pause drains it first (see Resume).
func (b *Book) Wake() {
	select {
	case b.resume <- struct{}{}:
	default:
	}
}

// Resume returns the channel a paused turn waits on; Wake sends on it.
// A pause drains it before it waits, so that a wake from before the pause
// does not count.
func (b *Book) Resume() <-chan struct{} { return b.resume }
