// Package dialog holds the TUI's dialogs: boxes that sit on top of the
// screen on the root's overlay stack and get the keys first while they are
// open. A dialog never sees the root model: it reads a small Context (the
// styles, the keys, the clock, the commands, whether a turn runs, the
// model in use, the turn's tasks, the plan and the editor's selection,
// the area it is drawn in) and answers a
// message with an Action the root carries out (close it, apply events,
// send a prompt, run a command, open another dialog, or a dialog's own
// command such as ResumeSession, StopTask, RewindTo or, for the approval
// dialog, Interrupt and Answered). Every dialog of the TUI is here, the
// approval dialog (Approvals) too. It imports the style leaf, never the
// root (ui's structure test checks both).
package dialog

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/todo"
	"github.com/tick-agent/tick/ui/style"
)

// Dialog is one dialog on the overlay stack.
type Dialog interface {
	// Layer orders the stack (see the Layer constants): a dialog sits
	// above every one of a lower layer, whenever it opened.
	Layer() int
	// Update handles a tea.KeyPressMsg, tea.PasteMsg or tea.MouseWheelMsg
	// while the dialog is on top. handled false passes the message on to
	// the screen below (the root's keys and the input), after the root
	// carried out act (nil: nothing).
	Update(c Context, msg tea.Msg) (act Action, handled bool)
	// View returns the dialog's lines for the area above the input, w
	// cells wide and h lines high. It runs in Update (render), never in
	// View.
	View(c Context, w, h int) []string
}

// Context is what a dialog may read of the app.
type Context struct {
	St         *style.Styles
	Keys       style.KeyMap
	Now        time.Time // the update loop's clock
	LastKey    time.Time // when the key before this one came (the deliberate pause)
	Commands   []Command // the slash commands, for the help
	ConfigPath string    // the user's config file, named by the help
	Running    bool      // a turn runs (its tasks with it)
	ModelName  string    // the model the conversation uses now
	InputEmpty bool      // the input holds no text
	// Tasks are the turn's tasks: those with a row in the panel first,
	// in its order, then the others (nil when there is none).
	Tasks []Task
	// Plan is the plan the panel shows and PlanSel the plan editor's
	// selection in it (-1 while the editor is closed).
	Plan    todo.List
	PlanSel int
	// Width and Height are the area above the input that the last frame
	// drew the dialogs in: what Update pages and scrolls by (View gets
	// its own w and h).
	Width, Height int
}

// Command is a slash command and its one-line description.
type Command struct{ Name, Desc string }

// Action is what a dialog asks the root to do: Close, Apply, Send, Run,
// Notice, FocusInput, TypeAside, PasteAside, SubmitInput, Quit, a
// dialog's own command (ResumeSession, ForkSession, SwitchModel,
// SaveDefaultModel, ApprovePlan, EditPlan, SelectTask, StopTask,
// RewindTo, SelectPlanItem, EditPlanItem, ShowItemChanges, CloseEditor,
// Interrupt, Answered), Open (another dialog), or a Seq of them.
type Action interface{ action() }

// Close closes the dialog that returned it.
type Close struct{}

// Apply applies the events a command caused, as a turn's are applied.
type Apply struct{ Events []agent.Event }

// Send sends Prompt as a new turn.
type Send struct{ Prompt string }

// Run runs Cmd off the update loop (an agent command); its result comes
// back as a message.
type Run struct{ Cmd tea.Cmd }

// Notice shows Text as a notice line in the chat.
type Notice struct{ Text string }

// FocusInput gives the focus back to the input.
type FocusInput struct{}

// Quit quits the app, as ctrl+c on an idle screen pressed twice does.
type Quit struct{}

// Seq carries out its actions in order.
type Seq []Action

func (Close) action()      {}
func (Notice) action()     {}
func (FocusInput) action() {}
func (Seq) action()        {}
func (Quit) action()       {}
func (Apply) action()      {}
func (Send) action()       {}
func (Run) action()        {}

// The layers of the overlay stack, lowest first.
const (
	LayerProposal = iota + 1 // a proposed plan: it takes only y and e
	LayerHelp                // the help overlay: any other dialog covers it
	LayerPicker              // the /sessions and /model pickers
	LayerEditor              // the plan editor
	LayerUndo                // the undo confirmation and /rewind
	LayerApproval            // the approval dialog: the running turn waits on it
)
