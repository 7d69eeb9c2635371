package ui

import (
	"os"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/todo"
)

// Config is what the TUI shows and talks to.
type Config struct {
	Agent     Agent
	Model     string // model name, for the status bar
	Workspace string // the directory tick works in, for the status bar
	Yolo      bool   // approvals are off (shown in the status bar)
	// Services are what the app lends the TUI while it runs besides the
	// agent (see Services). Nil: NoServices. The start-up hooks below
	// (LateNotice, ModelCheck, FirstFrame) stay fields: each is called
	// once as the app starts, and leaving one out starts no command.
	Services Services
	// SandboxReady, when set, is closed once Services.SandboxStatus has
	// its answer; the status bar is drawn again then.
	SandboxReady <-chan struct{}
	// Dark says the terminal has a dark background: the styles of the
	// first frame. With AskBackground the app asks the terminal once it
	// runs and restyles itself when the answer differs (background.go).
	Dark          bool
	AskBackground bool
	Version       string
	// History is a resumed conversation as the events agent.Replay makes
	// of it, shown through the same handler as a live turn's (may be nil).
	History []agent.Event
	Todos   todo.List // a restored todo list, shown collapsed
	// Notices are shown as notice lines at the top of the chat, after the
	// restored transcript: what happened before the app started (a
	// resumed session, repairs of its file). Without them a restored
	// History gets a generic "resumed session" line.
	Notices []string
	// Commands are extra slash commands by name ("new" or "/new"); /help,
	// /quit, /compact and (when Services offers Sessions) /sessions are
	// built in. A command's tea.Cmd may return NoticeMsg or ResetMsg.
	// Commands other than the built-ins wait until no turn runs.
	Commands map[string]func() tea.Cmd
	// CommandHelp is one line for each of Commands (by the same name),
	// shown by the / completion popup and the help overlay.
	CommandHelp map[string]string
	// Screen, when not nil, is the terminal the program draws on (the
	// file passed as tea.WithOutput): Run draws the first frame on it at
	// once, before Bubble Tea's first frame tick (see firstframe.go). Env
	// is the environment its colour support is judged by, as Bubble Tea
	// judges it (TERM, COLORTERM, NO_COLOR, ...).
	Screen *os.File
	Env    []string
	// Profile is Screen's colour profile when the caller knows it already
	// (Unknown: Run detects it once from Screen and Env). Run gives it to
	// Bubble Tea too, which would otherwise detect it again; inside tmux
	// each detection runs `tmux info`.
	Profile colorprofile.Profile
	// LateNotice, when set, returns a notice that comes after start-up
	// (the served context's warning; "" for none): it is called once, off
	// the update loop, and may block; its notice arrives as a NoticeMsg.
	LateNotice func() string
	// ModelCheck, when set, says whether the server knows the model the
	// app starts with: it is called once with Model, off the update loop
	// (it may block; the caller waits for the first frame itself), and
	// returns a warning for the status bar ("" for none), shown until
	// the next key unless the model changed meanwhile.
	ModelCheck func(model string) string
	// FirstFrame, when set, is called once the first frame is on the
	// Screen (or, without one, as the program starts): the caller starts
	// then what start-up does not need, so that it does not compete with
	// the first frame for the CPU.
	FirstFrame func()
	// HistoryFile keeps the prompts sent in this workspace across
	// restarts (see package prompthist); empty keeps them only while the
	// app runs. It is read and written off the update loop.
	HistoryFile string
	// Prompt, when set, is sent as the first turn once the app is up
	// (tick "fix the build").
	Prompt string
	// ConfigPath is the user's config file, named by the help overlay.
	ConfigPath string
	// Custom are the user's own slash commands; a name taken by a
	// built-in or by Commands is left out with a notice.
	Custom []CustomCommand
	// MCP, when set, reports the MCP servers for the status bar and /mcp.
	MCP MCPStatus
	// NoMouse leaves the mouse to the terminal (mouse = false in the
	// configuration): its own selection works, the wheel does not scroll
	// the chat. Otherwise tick takes the mouse: the wheel scrolls and a
	// drag in the chat selects and copies.
	NoMouse bool
}
