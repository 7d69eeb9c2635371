package style

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// Glyphs are the symbols the TUI draws. They live with the styles so that
// the rendering logic holds no literal symbols.
type Glyphs struct {
	UserPrompt   string // before a user message in the chat
	InputPrompt  string // before the first input line
	InputCont    string // before the following input lines
	ToolRunning  string // a tool call that runs
	ToolOK       string // a tool call that succeeded
	ToolError    string // a tool call that failed
	ToolOutput   string // before the first output line of a tool call
	Nested       string // before a subagent's nested tool calls
	Plan         string // before the plan line of a todo call
	Notice       string // before a notice
	Error        string // in the title of an error block
	Interrupted  string // before the "interrupted" notice
	Thinking     string // before reasoning text
	Steering     string // before a steer message not yet delivered
	Queued       string // before a queued message
	MoreBelow    string // in the "more below" marker
	ItemPending  string // a pending todo item
	ItemDone     string // a completed todo item
	ItemCanceled string // a cancelled todo item
	Separator    string // between fields of a status or summary line
	Rule         string // one cell of a horizontal rule
	VRule        string // one cell of a vertical rule
	Ellipsis     string // where text was cut
	Selected     string // the selected item of the plan editor
	Gate         string // after an item marked "stop after"
	Added        string // an item a plan revision added
	Reworded     string // an item a plan revision reworded
	Removed      string // an item a plan revision removed
}

// Styles holds every style of the TUI. DefaultStyles builds them for a dark
// or a light terminal; a Model never changes them while it runs.
type Styles struct {
	Dark   bool // the background the styles were made for
	Glyphs Glyphs

	// Chat.
	UserPrompt lipgloss.Style
	UserText   lipgloss.Style
	Thinking   lipgloss.Style
	ToolName   lipgloss.Style
	ToolArg    lipgloss.Style
	ToolMeta   lipgloss.Style // elapsed time, counts
	ToolOutput lipgloss.Style
	ToolOK     lipgloss.Style
	ToolError  lipgloss.Style
	ToolRun    lipgloss.Style
	PlanLine   lipgloss.Style
	Notice     lipgloss.Style
	ErrorTitle lipgloss.Style
	ErrorText  lipgloss.Style
	ErrorHint  lipgloss.Style
	ErrorBar   lipgloss.Style // the bar left of an error block
	Pending    lipgloss.Style // steering / queued labels
	PendingTxt lipgloss.Style
	MoreBelow  lipgloss.Style

	// Panel.
	PanelTitle    lipgloss.Style
	PanelCount    lipgloss.Style
	PanelRule     lipgloss.Style
	ItemPending   lipgloss.Style
	ItemRunning   lipgloss.Style
	ItemDone      lipgloss.Style
	ItemCancelled lipgloss.Style
	ItemNote      lipgloss.Style
	ItemMeta      lipgloss.Style
	PanelSummary  lipgloss.Style
	PlanAdded     lipgloss.Style // a revision's marks: added,
	PlanReworded  lipgloss.Style // reworded,
	PlanRemoved   lipgloss.Style // removed
	PlanSelected  lipgloss.Style // the plan editor's selection marker
	PlanPrompt    lipgloss.Style // the proposal's question and the editor's keys
	PlanGate      lipgloss.Style // the "stop after" marker

	// Input.
	InputRule   lipgloss.Style
	InputPrompt lipgloss.Style
	Placeholder lipgloss.Style
	CursorColor color.Color

	// Status bar.
	StatusBar   lipgloss.Style
	StatusModel lipgloss.Style
	StatusState lipgloss.Style
	StatusDim   lipgloss.Style
	StatusKey   lipgloss.Style
	StatusWarn  lipgloss.Style // the context share near compaction
	Spinner     lipgloss.Style

	// Dialogs and overlays.
	DialogBox   lipgloss.Style
	DialogTitle lipgloss.Style
	DialogText  lipgloss.Style
	PickerSel   lipgloss.Style // the selected row of the sessions picker
	DiffAdd     lipgloss.Style
	DiffDel     lipgloss.Style
	DiffHunk    lipgloss.Style
	DialogKey   lipgloss.Style
	DialogDesc  lipgloss.Style
	HelpKey     lipgloss.Style
	HelpDesc    lipgloss.Style
	HelpSep     lipgloss.Style
	HelpGroup   lipgloss.Style // the title of a group of keys in the help overlay
	TooSmall    lipgloss.Style
}

// DefaultGlyphs returns the symbols used by DefaultStyles.
func DefaultGlyphs() Glyphs {
	return Glyphs{
		UserPrompt:   "› ",
		InputPrompt:  "› ",
		InputCont:    "  ",
		ToolRunning:  "○",
		ToolOK:       "●",
		ToolError:    "✗",
		ToolOutput:   "⎿ ",
		Nested:       "│ ",
		Plan:         "☰",
		Notice:       "·",
		Error:        "✗",
		Interrupted:  "■",
		Thinking:     "∴",
		Steering:     "↳",
		Queued:       "⏸",
		MoreBelow:    "↓",
		ItemPending:  "○",
		ItemDone:     "✓",
		ItemCanceled: "✗",
		Separator:    " · ",
		Rule:         "─",
		VRule:        "│",
		Ellipsis:     "…",
		Selected:     "▸",
		Gate:         "⏹ stop after",
		Added:        "+",
		Reworded:     "~",
		Removed:      "−",
	}
}

// DefaultStyles returns the styles for a dark (dark=true) or light terminal
// background. The caller decides the background once, before the program
// starts. Every text colour reads at 4.5:1 or more against its background,
// rules and borders at 3:1 (TestPaletteContrast).
func DefaultStyles(dark bool) Styles {
	ld := lipgloss.LightDark(dark)
	var (
		text    = ld(lipgloss.Color("#1F1F1F"), lipgloss.Color("#E4E4E4"))
		dim     = ld(lipgloss.Color("#666666"), lipgloss.Color("#959595"))
		faint   = ld(lipgloss.Color("#8F8F8F"), lipgloss.Color("#5C5C5C"))
		accent  = ld(lipgloss.Color("#5A3FD6"), lipgloss.Color("#A58BFF"))
		green   = ld(lipgloss.Color("#1A7F37"), lipgloss.Color("#5FD787"))
		red     = ld(lipgloss.Color("#C62828"), lipgloss.Color("#FF6B6B"))
		yellow  = ld(lipgloss.Color("#845800"), lipgloss.Color("#E5C07B"))
		blue    = ld(lipgloss.Color("#0B62C4"), lipgloss.Color("#61AFEF"))
		barBG   = ld(lipgloss.Color("#ECECEC"), lipgloss.Color("#262626"))
		dialogB = ld(lipgloss.Color("#5A3FD6"), lipgloss.Color("#A58BFF"))
	)
	s := lipgloss.NewStyle
	return Styles{
		Dark:   dark,
		Glyphs: DefaultGlyphs(),

		UserPrompt: s().Foreground(accent).Bold(true),
		UserText:   s().Foreground(text).Bold(true),
		Thinking:   s().Foreground(dim).Italic(true),
		ToolName:   s().Foreground(text).Bold(true),
		ToolArg:    s().Foreground(text),
		ToolMeta:   s().Foreground(dim),
		ToolOutput: s().Foreground(dim),
		ToolOK:     s().Foreground(green),
		ToolError:  s().Foreground(red),
		ToolRun:    s().Foreground(yellow),
		PlanLine:   s().Foreground(accent),
		Notice:     s().Foreground(dim).Italic(true),
		ErrorTitle: s().Foreground(red).Bold(true),
		ErrorText:  s().Foreground(text),
		ErrorHint:  s().Foreground(dim),
		ErrorBar:   s().Foreground(red),
		Pending:    s().Foreground(yellow).Bold(true),
		PendingTxt: s().Foreground(dim),
		MoreBelow:  s().Foreground(accent).Bold(true),

		PanelTitle:    s().Foreground(text).Bold(true),
		PanelCount:    s().Foreground(accent).Bold(true),
		PanelRule:     s().Foreground(faint),
		ItemPending:   s().Foreground(text),
		ItemRunning:   s().Foreground(yellow).Bold(true),
		ItemDone:      s().Foreground(green),
		ItemCancelled: s().Foreground(dim).Strikethrough(true),
		ItemNote:      s().Foreground(dim),
		ItemMeta:      s().Foreground(dim),
		PanelSummary:  s().Foreground(accent),
		PlanAdded:     s().Foreground(green).Bold(true),
		PlanReworded:  s().Foreground(yellow).Bold(true),
		PlanRemoved:   s().Foreground(red).Strikethrough(true),
		PlanSelected:  s().Foreground(accent).Bold(true),
		PlanPrompt:    s().Foreground(accent).Bold(true),
		PlanGate:      s().Foreground(yellow),

		InputRule:   s().Foreground(faint),
		InputPrompt: s().Foreground(accent).Bold(true),
		Placeholder: s().Foreground(dim),
		CursorColor: accent,

		StatusBar:   s().Background(barBG).Foreground(text),
		StatusModel: s().Background(barBG).Foreground(accent).Bold(true),
		StatusState: s().Background(barBG).Foreground(yellow),
		StatusDim:   s().Background(barBG).Foreground(dim),
		StatusKey:   s().Background(barBG).Foreground(blue).Bold(true),
		StatusWarn:  s().Background(barBG).Foreground(yellow).Bold(true),
		Spinner:     s().Foreground(yellow),

		DialogBox:   s().Border(lipgloss.RoundedBorder()).BorderForeground(dialogB).Padding(0, 1),
		DialogTitle: s().Foreground(accent).Bold(true),
		DialogText:  s().Foreground(text),
		PickerSel:   s().Foreground(accent).Bold(true),
		DiffAdd:     s().Foreground(green),
		DiffDel:     s().Foreground(red),
		DiffHunk:    s().Foreground(blue),
		DialogKey:   s().Foreground(blue).Bold(true),
		DialogDesc:  s().Foreground(dim),
		HelpKey:     s().Foreground(blue).Bold(true),
		HelpDesc:    s().Foreground(text),
		HelpSep:     s().Foreground(faint),
		HelpGroup:   s().Foreground(text).Bold(true),
		TooSmall:    s().Foreground(yellow),
	}
}
