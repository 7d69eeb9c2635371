// Package ui is tick's full-screen terminal front-end, built on Bubble Tea
// v2: a chat pane with the transcript, the live todo panel, an input box
// and a status bar.
//
// Run starts the program; New returns the root model (*Model implements
// tea.Model) for tests and embedding. The model reads a turn's events from
// the channel Agent.Run returns, draining all queued events into one
// message per batch, repaints streamed text at most ~20 times a second and
// runs no timer while idle. esc cancels the running turn's context at once;
// enter steers a running turn (Agent.Steer) and tab queues the next one.
// Nothing the user typed is ever dropped: undelivered and queued messages
// come back into the input after an interrupt or an error. /compact runs
// Agent.Compact through the same turn machinery, and /sessions opens a
// picker over Services.ListSessions that resumes one through
// Services.ResumeSession.
//
// Inside, the root model routes messages to sub-models (chat, panel,
// input, status bar), keeps the dialogs on one overlay stack (overlay.go)
// and draws the frame at the end of Update; View only returns it. It
// commands the engine through the Agent interface alone, and everything
// that changes the screen arrives as agent events. AGENTS.md in this
// directory lists the files by what they hold and the rules they keep.
//
// The plain printer for -p lives in ui/printer, the Markdown renderer for
// answers in ui/markdown.
package ui

import (
	"github.com/tick-agent/tick/ui/chat"
	"github.com/tick-agent/tick/ui/input"
	"github.com/tick-agent/tick/ui/panel"
	"github.com/tick-agent/tick/ui/status"

	"github.com/tick-agent/tick/ui/style"

	"context"
	"errors"
	"fmt"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/ui/dialog"
	"github.com/tick-agent/tick/ui/termsafe"
)

// Model is the root of the TUI. Use New; *Model implements tea.Model.
type Model struct {
	cfg   Config
	ctx   context.Context
	keys  KeyMap
	st    *Styles
	bar   *status.Bar // st's status bar styles, reduced once
	clock func() time.Time
	now   time.Time

	chat  *chat.Model
	panel *panel.Model
	input *input.Model
	help  help.Model
	spin  spinner.Model

	width, height int
	geo           geometry

	turn       *turn         // the running turn, nil when idle
	seq        int           // the id of the last turn
	handed     handover      // the user's text waiting for a turn
	over       overlays      // the dialogs on top, the top one last (overlay.go)
	sel        selection     // the mouse's selection in the chat (selection.go)
	shownChat  []string      // the chat lines of the last frame, for the selection
	plan       planUI        // the plan's proposal and gate
	note       string        // transient hint in the status bar
	lastKey    time.Time     // when the last key came (see dialog.AnswerPause)
	held       heldKey       // a key held back from a question (see AnswerHold)
	quitArmed  bool          // the last key was a ctrl+c asking for a second one
	quitUntil  time.Time     // when an armed ctrl+c expires (quitWindow)
	toastSeq   int           // the number of the last toast (toast.go)
	after      afterFunc     // makes a toast's timer (tea.Tick; a stub in tests)
	suspendReq chan struct{} // asks Run's suspender to suspend (ctrl+z); nil without one
	histWarned bool          // a failed save of the prompt history was reported
	histLoaded bool          // the prompt history was loaded before the first frame
	quitting   bool

	unknownCmd string        // an unknown /command refused by the last enter: enter again sends it
	lastPrompt string        // the text of the last turn sent, for ↑ enter after it failed
	modelWarn  modelCheckMsg // the server does not list this model (Config.ModelCheck)

	usage    usageLedger // the session's usage and the context in use
	think    string      // the thinking level (/think), shown when set
	verify   verifyState // the verify check (--verify, /verify) and its last run
	commands map[string]command
	custom   map[string]CustomCommand // the user's commands, by name

	// The last frame, drawn again only when something changed.
	paint  repaint
	widths widthCache
	frame  string
	cursor *tea.Cursor
}

// frameRate is the most frames per second Bubble Tea writes. Its renderer
// wakes up at this rate even when nothing changes, so it is the whole idle
// cost of the app; 30 is above the streaming repaint rate (frameInterval).
// Callers may pass tea.WithFPS to Run to change it.
const frameRate = 30

// Minimum terminal size; below it the TUI shows a note instead.
const (
	minWidth  = 60
	minHeight = 15
)

// New returns the TUI's model for cfg, showing cfg.History and cfg.Todos.
func New(cfg Config) Model {
	cfg.Agent = orNoAgent(cfg.Agent)
	cfg.Services = orNoServices(cfg.Services)
	st := new(Styles)
	*st = DefaultStyles(cfg.Dark)
	keys := DefaultKeyMap()
	m := Model{
		cfg:      cfg,
		ctx:      context.Background(),
		keys:     keys,
		st:       st,
		bar:      status.NewBar(st),
		clock:    time.Now,
		after:    tickAfter,
		chat:     chat.New(st),
		panel:    panel.New(st),
		input:    input.New(st, input.NewKeyMap(keys)),
		help:     style.HelpModel(st),
		spin:     spinner.New(spinner.WithSpinner(spinner.Spinner{Frames: spinner.MiniDot.Frames, FPS: time.Second / 10}), spinner.WithStyle(st.Spinner)),
		commands: newCommands(cfg.Commands, cfg.CommandHelp, cfg.Services.Offers().Sessions),
		think:    cfg.Agent.Effort(),
	}
	m.now = m.clock()
	m.setVerify(initialVerify(cfg.Agent))
	m.addConfigCommands()
	m.replay(cfg.History, cfg.Todos)
	switch {
	case len(cfg.History) > 0:
		if len(cfg.Notices) == 0 {
			m.chat.AddNotice("resumed session · " + style.Plural(messages(cfg.History), "message"))
		}
	default:
		m.chat.AddNotice("Welcome to tick. Describe a task: tick plans it as a todo list and works through it. ? shows the keys.")
	}
	for _, n := range cfg.Notices {
		if n != "" {
			m.chat.AddNotice(n)
		}
	}
	m.addExtensions()
	return m
}

// Run shows the TUI on the terminal until the user quits or ctx is
// cancelled, then stops a running turn and waits briefly for it to end.
// opts are passed to tea.NewProgram (tests use tea.WithInput and
// tea.WithOutput).
func Run(ctx context.Context, cfg Config, opts ...tea.ProgramOption) error {
	m := New(cfg)
	m.ctx = ctx
	var saved *terminalState
	if cfg.Screen != nil {
		saved = savedTerminal(cfg.Screen)
	}
	after, prof := m.paintScreen()
	if cfg.FirstFrame != nil {
		cfg.FirstFrame()
	}
	own := []tea.ProgramOption{tea.WithContext(ctx), tea.WithFPS(frameRate)}
	if prof != colorprofile.Unknown {
		own = append(own, tea.WithColorProfile(prof))
	}
	p := tea.NewProgram(&m, append(own, opts...)...)
	sctx, stopSuspender := context.WithCancel(ctx)
	if req := make(chan struct{}, 1); runSuspender(sctx, p, saved, req) {
		m.suspendReq = req
	}
	_, err := p.Run()
	stopSuspender()
	after(err)
	m.shutdown(3 * time.Second)
	if err != nil && !(errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil) {
		return fmt.Errorf("ui: run the TUI: %w", err)
	}
	return nil
}

// shutdown cancels a running turn and drains its events until the channel
// closes (so the agent finishes repairing and saving its history), for at
// most wait.
func (m *Model) shutdown(wait time.Duration) {
	t := m.turn
	if t == nil {
		return
	}
	t.cancel()
	if q := m.approvalQueue(); q != nil {
		q.DenyAll()
	}
	timeout := time.NewTimer(wait)
	defer timeout.Stop()
	for {
		select {
		case ev, ok := <-t.ch:
			if !ok {
				return
			}
			if r, isReq := ev.(agent.ApprovalRequest); isReq {
				dialog.Deny(r)
			}
		case <-timeout.C:
			return
		}
	}
}

// Init implements tea.Model. It loads the prompt history, sends
// Config.Prompt and waits for the MCP servers' changes (when there are
// any); no timer runs until the first turn.
func (m *Model) Init() tea.Cmd {
	return tea.Batch(m.askBackground(), m.lateNotice(), m.checkModel(), m.startCmds(), watchMCP(m.cfg.MCP), waitSandbox(m.cfg.SandboxReady))
}

// Update implements tea.Model. Every message marks the frame changed
// except the quiet ones: streamed text (painted on the next paintMsg), an
// idle spinner tick, and mouse, focus and key release events.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m.now = m.clock()
	m.panel.SetNow(m.now)
	cmd, quiet := m.route(msg)
	if !quiet {
		m.paint.changed()
	}
	if save := m.saveHistory(); save != nil {
		cmd = tea.Batch(cmd, save)
	}
	if look := m.input.MentionRefresh(m.fileIndex()); look != nil {
		cmd = tea.Batch(cmd, look)
	}
	m.layout()
	m.draw()
	return m, cmd
}

// route applies one message; quiet reports that nothing on screen changed
// (yet).
func (m *Model) route(msg tea.Msg) (cmd tea.Cmd, quiet bool) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = max(msg.Width, 0), max(msg.Height, 0)
	case eventsMsg:
		m.chat.SetNow(m.now)
		return m.handleEvents(msg)
	case paintMsg:
		m.paint.arrived()
	case spinner.TickMsg:
		if m.turn == nil { // idle: let the tick chain die
			return nil, true
		}
		m.spin, cmd = m.spin.Update(msg)
		if m.turn.gatePaused() { // nothing turns at a gate: keep the chain, paint nothing
			return cmd, true
		}
		m.chat.Tick(m.now)
	case tea.KeyPressMsg:
		m.sel = selection{}
		cmd = m.handleKey(msg)
	case heldMsg:
		cmd = m.releaseHeld(msg)
	case tea.ResumeMsg:
		cmd = tea.ClearScreen // back from a suspension: paint it all again
	case tea.PasteMsg:
		cmd = m.handlePaste(msg)
	case clipImageMsg:
		cmd = m.handleClipImage(msg)
	case tea.MouseWheelMsg:
		m.sel = selection{} // the text moves under it
		m.handleWheel(msg)
	case tea.MouseClickMsg, tea.MouseMotionMsg, tea.MouseReleaseMsg:
		cmd = m.handleMouse(msg.(tea.MouseMsg))
	case NoticeMsg:
		m.chat.AddNotice(msg.Text)
	case toastMsg:
		cmd = m.toast(msg.Text, toastFor)
	case toastDoneMsg:
		m.toastDone(msg)
	case undoPreviewMsg, undoneMsg:
		cmd = m.handleUndoMsg(msg)
	case exportAskMsg:
		cmd = m.handleExportAsk(msg)
	case rewindPointsMsg, rewoundMsg, itemDiffMsg:
		cmd = m.handleRewindMsg(msg)
	case sessionDiffMsg:
		m.handleSessionDiff(msg)
	case taskPatchMsg, taskAppliedMsg:
		m.handleTaskMsg(msg)
	case mcpChangedMsg:
		cmd = watchMCP(m.cfg.MCP)
	case ResetMsg:
		m.reset(msg)
	case sessionsMsg:
		m.handleSessions(msg)
	case resumedMsg:
		m.handleResumed(msg)
	case tea.ModeReportMsg:
		if !m.widthReport(msg) {
			return nil, true
		}
	case tea.BackgroundColorMsg:
		m.setBackground(msg)
	case tea.MouseMsg, tea.KeyReleaseMsg, tea.FocusMsg, tea.BlurMsg:
		return nil, true
	default:
		var ok bool
		if cmd, ok = m.handleInputMsg(msg); !ok {
			if cmd, ok = m.handleConfigMsg(msg); !ok {
				cmd = m.toInput(msg) // the textarea's own messages (clipboard)
			}
		}
	}
	return cmd, false
}

// handleKey takes a key: a key held back from a question goes on as
// typing first (another key followed it), and a key that would answer a
// question is held (see AnswerHold); the rest goes to dispatchKey.
func (m *Model) handleKey(k tea.KeyPressMsg) tea.Cmd {
	m.note = ""
	lastKey := m.lastKey
	m.lastKey = m.now
	flushed := m.flushHeld()
	if hold, ok := m.holdKey(k, lastKey); ok {
		return tea.Batch(flushed, hold)
	}
	return tea.Batch(flushed, m.dispatchKey(k, lastKey))
}

// dispatchKey routes a key that came after a key at lastKey: ctrl+z
// first (it suspends whatever is open, as the terminal's own would), then
// the overlay on top (overlay.go), the plan's keys, the input's popups and
// idle keys, the global keys, and finally the input.
func (m *Model) dispatchKey(k tea.KeyPressMsg, lastKey time.Time) tea.Cmd {
	keys := m.keys
	if key.Matches(k, keys.Suspend) {
		return m.suspendCmd()
	}
	if cmd, ok := m.routeOverlay(k, lastKey); ok {
		return cmd
	}
	if cmd, ok := m.planKey(k); ok {
		return cmd
	}
	armed := m.quitArmed && m.now.Before(m.quitUntil)
	m.quitArmed = false
	if cmd, ok := m.inputKey(k, armed); ok {
		return cmd
	}
	half := max(m.geo.chatH/2, 1)
	switch {
	case key.Matches(k, keys.Quit):
		return m.ctrlC()
	case key.Matches(k, keys.Interrupt):
		if m.running() {
			m.interrupt()
		} else {
			m.chat.ToBottom()
		}
	case key.Matches(k, keys.Tasks):
		m.openTaskFocus()
	case key.Matches(k, keys.TogglePanel):
		m.panel.Toggle()
	case key.Matches(k, keys.CycleMode):
		m.cycleMode()
	case key.Matches(k, keys.Help), key.Matches(k, keys.HelpOnEmpty) && m.input.Empty():
		m.openHelp()
	case key.Matches(k, keys.PageUp):
		m.chat.ScrollUp(max(m.geo.chatH-1, 1))
	case key.Matches(k, keys.PageDown):
		m.chat.ScrollDown(max(m.geo.chatH-1, 1))
	case key.Matches(k, keys.HalfUp):
		m.chat.ScrollUp(half)
	case key.Matches(k, keys.HalfDown):
		m.chat.ScrollDown(half)
	case key.Matches(k, keys.Top) && m.input.Empty():
		m.chat.ToTop()
	case key.Matches(k, keys.Bottom) && (m.input.Empty() || !m.chat.Following()):
		m.chat.ToBottom()
	case key.Matches(k, keys.ExpandTool):
		m.chat.ToggleTool()
	case key.Matches(k, keys.Send):
		return m.submit(false)
	case key.Matches(k, keys.Queue):
		return m.submit(true)
	case key.Matches(k, keys.HistoryPrev) && m.input.CanPrev():
		m.input.Prev()
	case key.Matches(k, keys.HistoryNext) && m.input.Walking():
		m.input.Next()
	default:
		if cmd, ok := m.clipboardKey(k); ok {
			return cmd
		}
		m.input.CompleteFromTop()
		return m.toInput(k)
	}
	return nil
}

// ctrlC interrupts a running turn (see idleCtrlC for an idle one).
func (m *Model) ctrlC() tea.Cmd {
	if m.running() {
		m.interrupt()
		return nil
	}
	return m.idleCtrlC(false)
}

// handlePaste sends pasted text, its line breaks made LF, to the overlay
// on top (the approval's reason field, the plan editor) or to the input.
func (m *Model) handlePaste(p tea.PasteMsg) tea.Cmd {
	m.lastKey = m.now
	flushed := m.flushHeld()                                      // a key held before the paste goes first
	p.Content = termsafe.Text(input.NormalizeNewlines(p.Content)) // shown as it will be sent
	if cmd, ok := m.routeOverlay(p, m.now); ok {
		return tea.Batch(flushed, cmd)
	}
	p.Content = input.ImagePaste(p.Content, m.cfg.Workspace) // an image's path: its @ mention
	return tea.Batch(flushed, m.toInput(p))
}

// handleWheel scrolls the overlay on top, or the chat, with the wheel.
func (m *Model) handleWheel(msg tea.MouseWheelMsg) {
	if _, ok := m.routeOverlay(msg, m.now); ok {
		return
	}
	switch msg.Mouse().Button {
	case tea.MouseWheelUp:
		m.chat.ScrollUp(style.ScrollStep)
	case tea.MouseWheelDown:
		m.chat.ScrollDown(style.ScrollStep)
	}
}

// View implements tea.Model. It is pure: it returns the frame Update drew
// last (see draw), which is drawn again only when the state changed;
// streamed text marks it changed at most ~20 times a second.
func (m *Model) View() tea.View {
	v := tea.NewView(m.frame)
	v.AltScreen = true
	if !m.cfg.NoMouse {
		v.MouseMode = tea.MouseModeCellMotion // the wheel scrolls; a drag selects (selection.go)
	}
	v.WindowTitle = "tick"
	if m.cursor != nil {
		c := *m.cursor
		v.Cursor = &c
	}
	return v
}
