package ui

import (
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
)

// NoticeMsg shows Text as a notice in the chat. Slash commands from
// Config.Commands may return it from their tea.Cmd.
type NoticeMsg struct{ Text string }

// ResetMsg replaces the conversation on screen, for example when a slash
// command starts a new session or resumes another one: the chat shows
// History, the panel shows Todos collapsed, and Agent (when not nil)
// replaces Config.Agent for the next turns. Notice, when set, is shown
// after the restored transcript. It is ignored while a turn runs.
type ResetMsg struct {
	Agent   Agent
	History []provider.Message
	Todos   todo.List
	Notice  string
}

// command is one slash command.
type command struct {
	run     func(m *Model) tea.Cmd
	builtin bool
	// withArgs, when set, runs the command with the text after its name
	// ("/plan add Write docs"); run is then unused.
	withArgs func(m *Model, args string) tea.Cmd
}

// newCommands returns the built-in commands plus extra: /help, /quit
// (/exit), /compact, and /sessions when sessions lists the saved sessions.
// A built-in replaces an extra command of the same name.
func newCommands(extra map[string]func() tea.Cmd, sessions bool) map[string]command {
	cmds := map[string]command{}
	for name, f := range extra {
		name = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(name), "/"))
		if name == "" || f == nil {
			continue
		}
		cmds[name] = command{run: func(*Model) tea.Cmd { return f() }}
	}
	cmds["help"] = command{builtin: true, run: func(m *Model) tea.Cmd {
		m.showHelp = true
		return nil
	}}
	quit := command{builtin: true, run: func(m *Model) tea.Cmd { return m.quit() }}
	cmds["quit"], cmds["exit"] = quit, quit
	// These two say themselves why they wait while a turn runs.
	cmds["compact"] = command{builtin: true, run: (*Model).startCompact}
	if sessions {
		cmds["sessions"] = command{builtin: true, run: (*Model).openSessions}
	}
	cmds["plan"] = command{builtin: true, withArgs: (*Model).planCommand}
	return cmds
}

// commandNames lists the commands as typed, sorted.
func (m *Model) commandNames() []string {
	names := make([]string, 0, len(m.commands))
	for n := range m.commands {
		names = append(names, "/"+n)
	}
	sort.Strings(names)
	return names
}

// runCommand runs text when it is a slash command (one word starting with
// "/"). Text like "/usr/bin is missing" is not a command and is sent.
func (m *Model) runCommand(text string) (tea.Cmd, bool) {
	t := strings.TrimSpace(text)
	args := ""
	if name, rest, ok := strings.Cut(t, " "); ok {
		if c, known := m.commands[strings.ToLower(strings.TrimPrefix(name, "/"))]; known && c.withArgs != nil {
			t, args = name, strings.TrimSpace(rest)
		}
	}
	if !strings.HasPrefix(t, "/") || strings.ContainsAny(t, " \t\n") || len(t) < 2 {
		return nil, false
	}
	name := strings.ToLower(t[1:])
	c, ok := m.commands[name]
	if !ok {
		if !isCommandName(name) {
			return nil, false
		}
		m.input.reset()
		m.chat.addNotice("unknown command " + t + " · " + strings.Join(m.commandNames(), " "))
		return nil, true
	}
	m.input.remember(strings.TrimSpace(text))
	m.input.reset()
	if !c.builtin && m.turn != nil {
		m.chat.addNotice(t + " waits for the running turn: press esc to interrupt it first")
		return nil, true
	}
	if c.withArgs != nil {
		return c.withArgs(m, args), true
	}
	return c.run(m), true
}

// isCommandName reports whether s looks like a command name (letters,
// digits, dashes), rather than a path.
func isCommandName(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return s != ""
}

// quit ends the program, interrupting a running turn first.
func (m *Model) quit() tea.Cmd {
	m.interrupt()
	m.quitting = true
	return tea.Quit
}

// reset applies a ResetMsg.
func (m *Model) reset(msg ResetMsg) {
	if m.turn != nil {
		m.chat.addNotice("cannot switch the conversation while a turn runs")
		return
	}
	if msg.Agent != nil {
		m.cfg.Agent = msg.Agent
	}
	m.chat.clear()
	m.panel.restore(msg.Todos)
	m.tokens, m.estimated = 0, false
	m.queued, m.steering, m.next = nil, nil, nil
	loadHistory(m.chat, msg.History)
	if msg.Notice != "" {
		m.chat.addNotice(msg.Notice)
	}
}
