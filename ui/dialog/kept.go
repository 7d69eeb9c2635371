package dialog

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/ui/style"
)

// Kept is the offer that follows a task whose changes conflicted with the
// workspace (agent.Notice.KeptTask): p shows the task's patch (the /diff
// dialog opens above it), a applies it over the current files with the
// conflicting hunks marked, esc leaves it for later (/tasks apply N). It
// opens when the notice arrives, perhaps while the user types, so p and a
// answer only after a pause (see Deliberate); faster keys go to the input.
// Keys it does not take (the scroll keys) pass to the screen below.
type Kept struct {
	keys     style.KeptKeyMap
	n        int    // the kept task's number
	desc     string // its description (untrusted: the model wrote it)
	shown    time.Time
	diverted bool
	patch    tea.Cmd // asks the agent for the patch; its answer opens it
	apply    tea.Cmd // applies the task off the update loop
}

// NewKept returns the offer for kept task n (desc its description), shown
// at shown; patch and apply run the agent's TaskPatch and ApplyTask.
func NewKept(keys style.KeptKeyMap, n int, desc string, shown time.Time, patch, apply tea.Cmd) *Kept {
	return &Kept{keys: keys, n: n, desc: desc, shown: shown, patch: patch, apply: apply}
}

// Layer puts the offer lowest: any other dialog covers it, an approval
// the turn waits on first of all.
func (d *Kept) Layer() int { return LayerProposal }

// AsksNow reports that the offer always waits for a key.
func (d *Kept) AsksNow() bool { return true }

// Task is the number of the kept task offered.
func (d *Kept) Task() int { return d.n }

// Update takes p, a and esc; typing goes to the input.
func (d *Kept) Update(c Context, msg tea.Msg) (Action, bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, false
	}
	answers := key.Matches(k, d.keys.Patch, d.keys.Apply)
	switch {
	case IsTyping(k, c.Keys) && (!answers || !Deliberate(c.Now, d.shown, c.LastKey)):
		d.diverted = true
		if key.Matches(k, c.Keys.Send) {
			return nil, false // enter sends what the user typed
		}
		return TypeAside{k}, true
	case key.Matches(k, d.keys.Patch):
		return Run{d.patch}, true
	case key.Matches(k, d.keys.Apply):
		return Seq{Close{}, Run{d.apply}}, true
	case key.Matches(k, d.keys.Later):
		return Seq{Close{}, Notice{fmt.Sprintf("task %d is kept: /tasks patch %d shows its patch, /tasks apply %d applies it", d.n, d.n, d.n)}}, true
	}
	return nil, false
}

// View draws the offer over the bottom of the area, as short as it can.
func (d *Kept) View(c Context, w, h int) []string {
	st := c.St
	iw := max(w-4, 10)
	title := style.OneLine(fmt.Sprintf("Task %d %q was not applied: its files changed meanwhile", d.n, d.desc))
	lines := []string{st.DialogTitle.Render(style.TruncateWidth(title, iw, st.Glyphs.Ellipsis))}
	lines = append(lines, GuardLines(st, d.diverted, iw)...)
	for _, l := range clauseLines("applying takes its changes over the current files · a hunk changed on both sides is written between <<<<<<< current and >>>>>>> task · /undo takes it back", iw) {
		lines = append(lines, st.DialogText.Render(l))
	}
	h2 := func(b key.Binding) [2]string { return [2]string{b.Help().Key, b.Help().Desc} }
	foot := style.FootLines(st, [][2]string{h2(d.keys.Patch), h2(d.keys.Apply), h2(d.keys.Later)}, iw)
	if room := max(h-2-len(foot), 1); len(lines) > room { // the keys always show
		lines = lines[:room]
	}
	lines = append(lines, foot...)
	for i, l := range lines {
		lines[i] = style.TruncateWidth(l, iw, st.Glyphs.Ellipsis)
	}
	return strings.Split(st.DialogBox.Render(strings.Join(lines, "\n")), "\n")
}
