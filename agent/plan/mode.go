package plan

import (
	"fmt"

	"github.com/tick-agent/tick/todo"
)

// Mode is how the agent works, cycled by the user (shift+tab in the TUI,
// --plan for -p) and shown in the status bar. The agent owns it: front-ends
// call SetMode and render what comes back; they never change it themselves.
//
//   - ModeAuto: sandboxed commands and edits inside the workspace run without
//     asking; anything the sandbox cannot contain asks. The default where the
//     command sandbox works.
//   - ModeAsk: every change asks for approval.
//   - ModePlan: only tools that cannot change anything are offered; the turn
//     ends with a proposed plan for the user to approve.
//
// ApprovalMode (--yolo, headless) is separate: it says whether anybody is
// asked at all.
type Mode int

// The modes, in the order shift+tab cycles them.
const (
	ModeAuto Mode = iota
	ModeAsk
	ModePlan
)

// String returns the mode's name as the status bar shows it.
func (m Mode) String() string {
	switch m {
	case ModeAsk:
		return "ask"
	case ModePlan:
		return "plan"
	default:
		return "auto"
	}
}

// ParseMode returns the mode String names.
func ParseMode(s string) (Mode, error) {
	for _, m := range []Mode{ModeAuto, ModeAsk, ModePlan} {
		if m.String() == s {
			return m, nil
		}
	}
	return ModeAuto, fmt.Errorf("unknown mode %q (auto, ask or plan)", s)
}

// Mode returns the current mode.
func (b *Book) Mode() Mode {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.mode
}

// Modes returns the mode and the mode approving a plan returns to, read
// together (what a session saves).
func (b *Book) Modes() (mode, beforePlan Mode) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.mode, b.beforePlan
}

// SetMode switches the mode; switching into plan mode remembers the mode
// approving the plan returns to.
func (b *Book) SetMode(m Mode) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if m == ModePlan && b.mode != ModePlan {
		b.beforePlan = b.mode
	}
	b.mode = m
}

// RestoreMode gives a resumed session back its mode and the mode approving
// its plan returns to, by name ("" leaves each as it is; plan mode is
// never the mode to return to). An unknown name changes nothing and
// returns an error.
func (b *Book) RestoreMode(mode, beforePlan string) error {
	var m, before Mode
	var err error
	if mode != "" {
		if m, err = ParseMode(mode); err != nil {
			return fmt.Errorf("restore the mode: %w", err)
		}
	}
	if beforePlan != "" {
		if before, err = ParseMode(beforePlan); err != nil {
			return fmt.Errorf("restore the mode: %w", err)
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if mode != "" {
		b.mode = m
	}
	if beforePlan != "" && before != ModePlan {
		b.beforePlan = before
	}
	return nil
}

// Approve approves the plan proposed in plan mode: the mode goes back to
// the one before plan mode and the proposal is dropped. It returns the
// list as the model reads it (todo.List.Render), or ErrNoPlan when no item
// is open.
func (b *Book) Approve() (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.list.Open()) == 0 {
		return "", ErrNoPlan
	}
	if b.mode == ModePlan {
		b.mode = b.beforePlan
	}
	b.proposal = nil
	return b.list.Render(), nil
}

// Propose records the list as the plan of a plan-mode turn, to mark what
// the next proposal changes. It returns the list, the changes since the
// previous proposal (nil for the first) and the revision; ok is false,
// and nothing is recorded, when the list is empty.
func (b *Book) Propose() (list todo.List, changes []todo.Change, rev int, ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.list.Empty() {
		return todo.List{}, nil, 0, false
	}
	if b.proposal != nil {
		changes = todo.Diff(*b.proposal, b.list)
	}
	c := b.list.Clone()
	b.proposal = &c
	return b.list.Clone(), changes, b.rev, true
}

// Pending returns the proposal a resumed session waits on: the list and
// its revision when the mode is plan and a proposal awaits approval.
func (b *Book) Pending() (todo.List, int, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.mode != ModePlan || b.proposal == nil || b.list.Empty() {
		return todo.List{}, 0, false
	}
	return b.list.Clone(), b.rev, true
}
