package style

import "charm.land/bubbles/v2/key"

// HelpKeyMap holds the keys of the help overlay (? on an empty input,
// ctrl+g, /help). The overlay scrolls when it is taller than the screen;
// Close (esc, ctrl+c), and any key that does not scroll, closes it.
type HelpKeyMap struct {
	Up, Down         key.Binding // one line
	PageUp, PageDown key.Binding // one page
	Top, Bottom      key.Binding
	Close            key.Binding
}

// DefaultHelpKeyMap returns the help overlay's keys.
func DefaultHelpKeyMap() HelpKeyMap {
	b, k, h := key.NewBinding, key.WithKeys, key.WithHelp
	return HelpKeyMap{
		Up:       b(k("up", "k"), h("↑", "scroll up")),
		Down:     b(k("down", "j"), h("↓", "scroll down")),
		PageUp:   b(k("pgup", "ctrl+u"), h("pgup", "page up")),
		PageDown: b(k("pgdown", "ctrl+d", "space"), h("pgdn", "page down")),
		Top:      b(k("home"), h("home", "top")),
		Bottom:   b(k("end"), h("end", "bottom")),
		Close:    b(closeKeys(), h("esc", "close")),
	}
}

// closeKeys are the keys that close a dialog or take it one step back:
// esc, and ctrl+c, which never quits tick while a dialog is open.
func closeKeys() key.BindingOpt { return key.WithKeys("esc", "ctrl+c") }

// MentionKeyMap are the @ picker's keys.
type MentionKeyMap struct {
	Up, Down key.Binding
	Insert   key.Binding // put the selected path into the input
	Close    key.Binding
}

// DefaultMentionKeyMap returns the @ picker's keys.
func DefaultMentionKeyMap() MentionKeyMap {
	b, k, h := key.NewBinding, key.WithKeys, key.WithHelp
	return MentionKeyMap{
		Up:     b(k("up"), h("↑", "up")),
		Down:   b(k("down"), h("↓", "down")),
		Insert: b(k("tab", "enter"), h("tab/enter", "insert the path")),
		Close:  b(k("esc"), h("esc", "close")),
	}
}

// ModelPickerKeyMap are the /model picker's keys.
type ModelPickerKeyMap struct {
	Up, Down key.Binding
	Pick     key.Binding // use the selected model
	Close    key.Binding // clear the filter, else close
	Erase    key.Binding // delete the last character of the filter
	Yes, No  key.Binding // answer "save as the default?"
}

// DefaultModelPickerKeyMap returns the /model picker's keys.
func DefaultModelPickerKeyMap() ModelPickerKeyMap {
	b, k, h := key.NewBinding, key.WithKeys, key.WithHelp
	return ModelPickerKeyMap{
		Up:    b(k("up", "ctrl+p"), h("↑", "up")),
		Down:  b(k("down", "ctrl+n"), h("↓", "down")),
		Pick:  b(k("enter"), h("enter", "use it")),
		Close: b(k("esc"), h("esc", "close")),
		Erase: b(k("backspace"), h("backspace", "erase")),
		Yes:   b(k("y", "Y"), h("y", "save as default")),
		No:    b(k("n", "N", "esc", "enter"), h("n", "only this session")),
	}
}

// PlanKeyMap holds the keys of the plan editor (/plan or ctrl+p): the panel
// takes focus, and each key is one edit the agent applies at once.
type PlanKeyMap struct {
	Up, Down         key.Binding // move the selection
	Add              key.Binding // add an item after the selection
	Edit             key.Binding // edit the selected item's text
	Cancel           key.Binding // cancel the selected item, with a reason
	Delete           key.Binding // delete the selected pending item
	MoveUp, MoveDown key.Binding // move the selected item
	Gate             key.Binding // toggle "stop after this item"
	Changes          key.Binding // show what the selected item changed
	Close            key.Binding // close the editor (never interrupts the turn)
	Confirm          key.Binding // apply the typed text
}

// DefaultPlanKeyMap returns the plan editor's keys.
func DefaultPlanKeyMap() PlanKeyMap {
	b, k, h := key.NewBinding, key.WithKeys, key.WithHelp
	return PlanKeyMap{
		Up:       b(k("up"), h("↑", "select up")),
		Down:     b(k("down"), h("↓", "select down")),
		Add:      b(k("a"), h("a", "add after")),
		Edit:     b(k("e"), h("e", "edit text")),
		Cancel:   b(k("x"), h("x", "cancel with reason")),
		Delete:   b(k("d"), h("d", "delete pending")),
		MoveUp:   b(k("K"), h("K", "move up")),
		MoveDown: b(k("J"), h("J", "move down")),
		Gate:     b(k("g"), h("g", "stop after this item")),
		Changes:  b(k("enter"), h("enter", "what it changed")),
		Close:    b(closeKeys(), h("esc", "close the editor")),
		Confirm:  b(k("enter"), h("enter", "apply")),
	}
}

// Bindings lists the keys for the editor's footer.
func (k PlanKeyMap) Bindings() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Changes, k.Add, k.Edit, k.Cancel, k.Delete, k.MoveUp, k.MoveDown, k.Gate, k.Close}
}

// ProposalKeyMap holds the keys of a plan proposed in plan mode, active
// while the app is idle and the input is empty.
type ProposalKeyMap struct {
	Approve key.Binding // carry the plan out in the mode before plan mode
	Edit    key.Binding // open the plan editor
}

// Summary is one help entry for the proposal's keys.
func (k ProposalKeyMap) Summary() key.Binding {
	return key.NewBinding(key.WithKeys(k.Approve.Keys()...), key.WithHelp(k.Approve.Help().Key+" / "+k.Edit.Help().Key, "approve / edit a proposal"))
}

// DefaultProposalKeyMap returns the proposal's keys.
func DefaultProposalKeyMap() ProposalKeyMap {
	b, k, h := key.NewBinding, key.WithKeys, key.WithHelp
	return ProposalKeyMap{
		Approve: b(k("y"), h("y", "approve")),
		Edit:    b(k("e"), h("e", "edit")),
	}
}

// RewindKeyMap holds the keys of /rewind's list and its choice of what to
// restore. The last step is the undo confirmation's (UndoKeyMap): the same
// deliberate key.
type RewindKeyMap struct {
	Up, Down     key.Binding // move the selection
	Choose       key.Binding // take the selected point or choice
	Files        key.Binding // restore the files only
	Conversation key.Binding // rewind the conversation only
	Both         key.Binding // both
	Back         key.Binding // one step back; from the list, close it
}

// DefaultRewindKeyMap returns /rewind's keys.
func DefaultRewindKeyMap() RewindKeyMap {
	b, k, h := key.NewBinding, key.WithKeys, key.WithHelp
	return RewindKeyMap{
		Up:           b(k("up"), h("↑", "up")),
		Down:         b(k("down"), h("↓", "down")),
		Choose:       b(k("enter"), h("enter", "choose")),
		Files:        b(k("f"), h("f", "files")),
		Conversation: b(k("c"), h("c", "conversation")),
		Both:         b(k("b"), h("b", "both")),
		Back:         b(closeKeys(), h("esc", "back")),
	}
}

// SetupKeyMap are the setup screen's keys.
type SetupKeyMap struct {
	Up, Down key.Binding
	Confirm  key.Binding // pick the row, send the text, pick the model
	Back     key.Binding // clear the filter, else one step back
	Erase    key.Binding // delete the last character of the filter
	Quit     key.Binding // leave without a model
}

// DefaultSetupKeyMap returns the setup screen's keys.
func DefaultSetupKeyMap() SetupKeyMap {
	b, k, h := key.NewBinding, key.WithKeys, key.WithHelp
	return SetupKeyMap{
		Up:      b(k("up", "ctrl+p"), h("↑", "up")),
		Down:    b(k("down", "ctrl+n"), h("↓", "down")),
		Confirm: b(k("enter"), h("enter", "choose")),
		Back:    b(k("esc"), h("esc", "back")),
		Erase:   b(k("backspace"), h("backspace", "erase")),
		Quit:    b(k("ctrl+c"), h("ctrl+c", "quit")),
	}
}

// UndoKeyMap holds the keys of the undo confirmation.
type UndoKeyMap struct {
	Confirm key.Binding // restore the files
	Cancel  key.Binding // keep everything as it is
}

// DefaultUndoKeyMap returns the undo confirmation's keys: y after a
// pause restores, like the answer of every other question in tick.
func DefaultUndoKeyMap() UndoKeyMap {
	b, k, h := key.NewBinding, key.WithKeys, key.WithHelp
	return UndoKeyMap{
		Confirm: b(k("y", "Y"), h("y", "restore these files")),
		Cancel:  b(k("n", "N", "esc", "ctrl+c"), h("n/esc", "cancel")),
	}
}

// DiffKeyMap are the /diff dialog's keys: move over the files, open one's
// hunks, scroll them, go back to the list, close.
type DiffKeyMap struct {
	Up, Down         key.Binding // the file above or below; a line of the hunks
	PageUp, PageDown key.Binding
	Open             key.Binding // show the selected file's hunks
	Back             key.Binding // from the hunks to the list; from the list, close
}

// DefaultDiffKeyMap returns the /diff dialog's keys.
func DefaultDiffKeyMap() DiffKeyMap {
	b, k, h := key.NewBinding, key.WithKeys, key.WithHelp
	return DiffKeyMap{
		Up:       b(k("up", "k"), h("↑", "up")),
		Down:     b(k("down", "j"), h("↓", "down")),
		PageUp:   b(k("pgup"), h("pgup", "page up")),
		PageDown: b(k("pgdown", "space"), h("pgdn", "page down")),
		Open:     b(k("enter"), h("enter", "open the file's hunks")),
		Back:     b(closeKeys(), h("esc", "back / close")),
	}
}

// KeptKeyMap are the keys of the offer that follows a task whose changes
// conflicted with the workspace: show its patch, apply it over the
// current files, or leave it for later (/tasks apply N).
type KeptKeyMap struct {
	Patch key.Binding // show the task's patch
	Apply key.Binding // apply it over the current files, conflicts marked
	Later key.Binding // close the offer; the task stays kept
}

// DefaultKeptKeyMap returns the offer's keys: p and a after a pause (the
// offer can open while the user types), esc at once.
func DefaultKeptKeyMap() KeptKeyMap {
	b, k, h := key.NewBinding, key.WithKeys, key.WithHelp
	return KeptKeyMap{
		Patch: b(k("p", "P"), h("p", "show its patch")),
		Apply: b(k("a", "A"), h("a", "apply it over the current files")),
		Later: b(closeKeys(), h("esc", "later")),
	}
}
