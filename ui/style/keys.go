package style

import "charm.land/bubbles/v2/key"

// KeyMap holds every key binding of the TUI. The logic matches keys only
// through these bindings (key.Matches), and the help overlay lists them.
type KeyMap struct {
	// Input.
	Send        key.Binding // send the input; while a turn runs, steer it
	Queue       key.Binding // while a turn runs, queue the input as the next turn
	Newline     key.Binding // insert a line break
	HistoryPrev key.Binding // previous prompt (on an empty input)
	HistoryNext key.Binding // next prompt (while walking the history)

	// Turn and app.
	Erase       key.Binding // the input's erasing keys (a character or a word back, the character under the cursor): a question typed over passes them to the input
	Interrupt   key.Binding // stop the running turn
	Quit        key.Binding // interrupt, clear the input, or quit (pressed twice)
	Exit        key.Binding // quit on an empty idle input (ctrl+d, as in a shell)
	Suspend     key.Binding // suspend to the shell (ctrl+z); fg brings tick back
	Retry       key.Binding // send the failed turn again
	TogglePanel key.Binding // expand or collapse the todo panel
	CycleMode   key.Binding // switch the agent's mode: auto, plan, ask
	OpenPlan    key.Binding // open the plan editor (as /plan does)
	Help        key.Binding // show or hide the help overlay
	HelpOnEmpty key.Binding // the same, but only on an empty input ("?")
	Tasks       key.Binding // select a running task's row; on a selected row, stop that task alone

	// Chat.
	PageUp     key.Binding
	PageDown   key.Binding
	HalfUp     key.Binding
	HalfDown   key.Binding
	Top        key.Binding
	Bottom     key.Binding
	ExpandTool key.Binding // expand or collapse the output of the lowest tool call in view

	// Approval dialog.
	Allow       key.Binding
	AllowAlways key.Binding
	Deny        key.Binding
	Dismiss     key.Binding // deny (approval); close the / popup
	Back        key.Binding // close a dialog or go one step back (task rows, a task's transcript, /sessions): esc, ctrl+c
	Confirm     key.Binding // send the typed reason, resume the selected session

	// Sessions picker (/sessions).
	SelectPrev key.Binding
	SelectNext key.Binding

	// The plan editor and a proposed plan.
	Plan     PlanKeyMap
	Proposal ProposalKeyMap
	Undo     UndoKeyMap
	Rewind   RewindKeyMap // /rewind's list and choice; the item diff's esc
	Diff     DiffKeyMap   // the /diff dialog
	Kept     KeptKeyMap   // the offer of a task kept for a conflict
	Fork     key.Binding  // copy a session open in another tick into a new one

	// The help overlay: scrolling and closing it.
	HelpScreen HelpKeyMap
}

// DefaultKeyMap returns tick's key bindings.
func DefaultKeyMap() KeyMap {
	b, k, h := key.NewBinding, key.WithKeys, key.WithHelp
	return KeyMap{
		Send:        b(k("enter"), h("enter", "send · steer while running")),
		Queue:       b(k("tab"), h("tab", "complete · queue (running)")),
		Newline:     b(k("shift+enter", "ctrl+j", "alt+enter"), h("shift+enter/ctrl+j", "new line")),
		HistoryPrev: b(k("up"), h("↑", "previous prompt")),
		HistoryNext: b(k("down"), h("↓", "next prompt")),

		Erase:       b(k("backspace", "ctrl+h", "ctrl+w", "alt+backspace", "delete"), h("backspace/ctrl+w", "erase")),
		Interrupt:   b(k("esc"), h("esc", "interrupt")),
		Quit:        b(k("ctrl+c"), h("ctrl+c", "interrupt · clear · quit ×2")),
		Exit:        b(k("ctrl+d"), h("ctrl+d", "quit (empty input)")),
		Suspend:     b(k("ctrl+z"), h("ctrl+z", "suspend (fg resumes)")),
		Retry:       b(k("ctrl+r"), h("ctrl+r", "retry the failed turn")),
		TogglePanel: b(k("ctrl+t"), h("ctrl+t", "todo panel")),
		CycleMode:   b(k("shift+tab"), h("shift+tab", "mode: auto · plan · ask")),
		OpenPlan:    b(k("ctrl+p"), h("ctrl+p", "plan editor (/plan)")),
		Help:        b(k("ctrl+g"), h("?/ctrl+g", "help")),
		HelpOnEmpty: b(k("?"), h("?", "help")),
		Tasks:       b(k("ctrl+x"), h("ctrl+x", "task rows: select · stop one")),

		PageUp:     b(k("pgup"), h("pgup", "scroll up")),
		PageDown:   b(k("pgdown"), h("pgdn", "scroll down")),
		HalfUp:     b(k("ctrl+u"), h("ctrl+u", "half page up")),
		HalfDown:   b(k("ctrl+d"), h("ctrl+d", "half page down")),
		Top:        b(k("home", "ctrl+home"), h("home", "top (empty input)")),
		Bottom:     b(k("end", "ctrl+end"), h("end", "bottom, follow")),
		ExpandTool: b(k("ctrl+o"), h("ctrl+o", "expand tool output")),

		Allow:       b(k("y", "Y"), h("y", "allow once")),
		AllowAlways: b(k("a", "A"), h("a", "allow for the session")),
		Deny:        b(k("n", "N"), h("n", "deny, with a reason")),
		Dismiss:     b(k("esc"), h("esc", "deny")),
		Back:        b(closeKeys(), h("esc", "close")),
		Confirm:     b(k("enter"), h("enter", "send")),

		SelectPrev: b(k("up", "k"), h("↑/k", "move up (/sessions)")),
		SelectNext: b(k("down", "j"), h("↓/j", "move down")),

		Plan:       DefaultPlanKeyMap(),
		Proposal:   DefaultProposalKeyMap(),
		Undo:       DefaultUndoKeyMap(),
		Rewind:     DefaultRewindKeyMap(),
		Diff:       DefaultDiffKeyMap(),
		Kept:       DefaultKeptKeyMap(),
		HelpScreen: DefaultHelpKeyMap(),
		Fork:       b(k("f"), h("f", "fork it into a new session")),
	}
}

// ShortHelp returns the bindings of the one-line help (help.KeyMap).
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Send, k.Queue, k.Interrupt, k.TogglePanel, k.Help}
}

// FullHelp returns every binding in columns, for the help overlay
// (help.KeyMap). The sessions picker's keys are left out: the picker shows
// them itself.
func (k KeyMap) FullHelp() [][]key.Binding {
	secs := k.HelpSections()
	out := make([][]key.Binding, len(secs))
	for i, s := range secs {
		out[i] = s.Keys
	}
	return out
}

// HelpSection is one titled group of keys in the help overlay.
type HelpSection struct {
	Title string
	Keys  []key.Binding
}

// HelpSections returns the groups of FullHelp with their titles.
func (k KeyMap) HelpSections() []HelpSection {
	return []HelpSection{
		{"Input and turn", []key.Binding{k.Send, k.Queue, k.Newline, k.HistoryPrev, k.HistoryNext, k.Interrupt, k.Retry, k.CycleMode, k.Quit, k.Exit}},
		{"Chat", []key.Binding{k.PageUp, k.PageDown, k.HalfUp, k.HalfDown, k.Top, k.Bottom, k.ExpandTool, k.TogglePanel, k.Help}},
		{"Approval dialog", []key.Binding{k.Allow, k.AllowAlways, k.Deny, k.Dismiss}},
		{"Plan", []key.Binding{k.OpenPlan, k.Tasks, k.Proposal.Summary()}},
	}
}
