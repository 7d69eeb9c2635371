// Package panel is the TUI's todo panel (docs/architecture.md, "The
// panel"), a part the root ui routes to: a Model that holds the plan as
// the agent's TodoUpdate events and the user's edits leave it, the
// per-item clocks and tool counts, the subagents running under the items,
// a proposal's marks and the plan editor's selection, and draws the
// collapsed summary line and the expanded list. It imports the style leaf,
// never the root ui; it takes no keys (ctrl+t, the editor's and the task
// focus's keys are the root's and the dialogs'), so it has no KeyMap.
package panel

import (
	"fmt"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/tick-agent/tick/todo"
	"github.com/tick-agent/tick/ui/style"
)

// Model is the todo panel (docs/architecture.md, "The panel"). It opens on a todo
// update, shows the goal, done/total and every item (the running one with
// its active form, a spinner and its elapsed time), collapses to one
// Summary line when the turn ends, and is toggled by hand with ctrl+t. It
// remembers for each item how long it ran and how many tool calls were made
// while it was in progress.
type Model struct {
	st       *style.Styles
	list     todo.List
	expanded bool
	byHand   bool   // the user toggled it during this turn: updates keep it as it is
	running  bool   // a turn is running: the in-progress item's clock runs
	waiting  string // the item waiting at a gate (TodoUpdate.Waiting): no spinner, no clock
	stats    map[string]*itemStats
	now      time.Time

	// The user's side of the plan (the root's plan.go; plan.go here draws it).
	rev     int                        // the newest revision applied
	hold    bool                       // stay expanded when the turn ends (open items, a proposal)
	marks   map[string]todo.ChangeKind // a proposal's changes by item
	removed []todo.Change              // a proposal's removed items, drawn at the end
	sel     int                        // the plan editor's selection, -1 when closed
	footer  func(w int) []string       // lines under the items (the proposal's question, the editor's keys), drawn
	// for width w
	subs    []*Task // subagents under the items they ran in
	taskSel string  // the selected task row's call id (the root's taskfocus.go); "" for none
	verify  string  // the verify check's state, the last line when set (the root's verify.go)
}

// itemStats is what the panel remembers of one item.
type itemStats struct {
	text  string        // the item's text when the stats began
	ran   time.Duration // time spent in progress, not counting the current run
	since time.Time     // start of the current run; zero when not running
	calls int           // tool calls made while it was in progress
}

// Panel geometry, for the root's layout.
const (
	Share     = 3.0 / 8 // of the terminal's width, when at the right
	MinWidth  = 40
	MaxWidth  = 56
	WideFrom  = 120 // terminal width from which the panel sits at the right
	NarrowMax = 12  // most lines of the panel above the input
)

// New returns an empty, collapsed panel drawn with st (shared with the
// root, which restyles it in place).
func New(st *style.Styles) *Model {
	return &Model{st: st, stats: map[string]*itemStats{}, sel: -1}
}

// Restore shows a list from a resumed session, collapsed.
func (p *Model) Restore(l todo.List) {
	p.list = l.Clone()
	p.expanded = false
	p.stats = map[string]*itemStats{}
	p.rev, p.hold, p.marks, p.removed, p.subs = 0, false, nil, nil, nil
}

// Visible reports whether the panel shows anything at all.
func (p *Model) Visible() bool { return !p.list.Empty() }

// Open reports whether the panel is expanded.
func (p *Model) Open() bool { return p.Visible() && p.expanded }

// SetList takes a new list from a todo call.
func (p *Model) SetList(l todo.List, now time.Time) {
	p.now = now
	p.sel = min(p.sel, len(l.Items)-1)
	p.list = l.Clone()
	if !p.byHand {
		p.expanded = true
	}
	seen := make(map[string]bool, len(l.Items))
	for _, it := range l.Items {
		seen[it.ID] = true
		s := p.stats[it.ID]
		if s == nil || s.text != it.Text {
			s = &itemStats{text: it.Text}
			p.stats[it.ID] = s
		}
		switch {
		case it.Status == todo.InProgress && s.since.IsZero() && p.running && it.ID != p.waiting:
			s.since = now
		case (it.Status != todo.InProgress || it.ID == p.waiting) && !s.since.IsZero():
			s.ran += now.Sub(s.since)
			s.since = time.Time{}
		}
	}
	for id := range p.stats {
		if !seen[id] {
			delete(p.stats, id)
		}
	}
}

// ToolCall counts a tool call toward the item in progress.
func (p *Model) ToolCall() {
	if it, ok := p.list.Current(); ok {
		if s := p.stats[it.ID]; s != nil {
			s.calls++
		}
	}
}

// TurnStart resumes the clock of the item in progress.
func (p *Model) TurnStart(now time.Time) {
	p.now, p.running, p.byHand, p.hold = now, true, false, false
	p.marks, p.removed, p.subs = nil, nil, nil
	if it, ok := p.list.Current(); ok {
		s := p.stats[it.ID]
		if s == nil {
			s = &itemStats{text: it.Text}
			p.stats[it.ID] = s
		}
		s.since = now
	}
}

// TurnEnd stops the clocks and collapses the panel.
func (p *Model) TurnEnd(now time.Time) {
	p.now, p.running = now, false
	for _, s := range p.stats {
		if !s.since.IsZero() {
			s.ran += now.Sub(s.since)
			s.since = time.Time{}
		}
	}
	p.expanded = p.hold && p.Visible()
	p.byHand = false
}

// Toggle expands or collapses the panel by hand.
func (p *Model) Toggle() {
	if !p.Visible() {
		return
	}
	p.expanded = !p.expanded
	p.byHand = true
}

// elapsed returns how long the item has been in progress in total.
func (p *Model) elapsed(id string) (time.Duration, int) {
	s := p.stats[id]
	if s == nil {
		return 0, 0
	}
	d := s.ran
	if !s.since.IsZero() && p.now.After(s.since) {
		d += p.now.Sub(s.since)
	}
	return d, s.calls
}

// Summary is the collapsed panel: "Plan 3/5 · next: Write tests".
func (p *Model) Summary(w int) string {
	g := p.st.Glyphs
	done, total := p.list.Counts()
	s := fmt.Sprintf("%s Plan %d/%d", g.Plan, done, total)
	if it, ok := p.list.Next(); ok {
		s += g.Separator + "next: " + it.Text
	} else {
		s += g.Separator + "all done"
	}
	hint := g.Separator + "ctrl+t"
	line := style.TruncateWidth(s, max(w-ansi.StringWidth(hint), 1), g.Ellipsis)
	if ansi.StringWidth(line)+ansi.StringWidth(hint) <= w {
		return p.st.PanelSummary.Render(line) + p.st.ItemMeta.Render(hint)
	}
	return p.st.PanelSummary.Render(style.TruncateWidth(s, w, g.Ellipsis))
}
