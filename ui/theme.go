package ui

import "github.com/tick-agent/tick/ui/style"

// The TUI's look and keys live in the leaf package ui/style; these names
// keep them reachable as ui.Styles and ui.KeyMap for the composition root
// and the tests.
type (
	// Styles is style.Styles: every style of the TUI.
	Styles = style.Styles
	// Glyphs is style.Glyphs: the symbols the TUI draws.
	Glyphs = style.Glyphs
	// KeyMap is style.KeyMap: every key binding of the TUI.
	KeyMap = style.KeyMap
	// HelpKeyMap is style.HelpKeyMap: the help overlay's keys.
	HelpKeyMap = style.HelpKeyMap
	// MentionKeyMap is style.MentionKeyMap: the @ picker's keys.
	MentionKeyMap = style.MentionKeyMap
	// ModelPickerKeyMap is style.ModelPickerKeyMap: the /model picker's keys.
	ModelPickerKeyMap = style.ModelPickerKeyMap
	// PlanKeyMap is style.PlanKeyMap: the plan editor's keys.
	PlanKeyMap = style.PlanKeyMap
	// ProposalKeyMap is style.ProposalKeyMap: a proposed plan's keys.
	ProposalKeyMap = style.ProposalKeyMap
	// RewindKeyMap is style.RewindKeyMap: /rewind's keys.
	RewindKeyMap = style.RewindKeyMap
	// SetupKeyMap is style.SetupKeyMap: the setup screen's keys.
	SetupKeyMap = style.SetupKeyMap
	// UndoKeyMap is style.UndoKeyMap: the undo confirmation's keys.
	UndoKeyMap = style.UndoKeyMap
)

// DefaultStyles returns style.DefaultStyles(dark).
func DefaultStyles(dark bool) Styles { return style.DefaultStyles(dark) }

// DefaultKeyMap returns style.DefaultKeyMap().
func DefaultKeyMap() KeyMap { return style.DefaultKeyMap() }
